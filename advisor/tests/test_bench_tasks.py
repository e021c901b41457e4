"""The settings benchmark and fio as jobs on the sandbox engine: rows, figures, cleanup."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from advisor.benchmarks import services as bench_services
from advisor.benchmarks.engine import copying, scratch
from advisor.benchmarks.engine import fio as fio_bench
from nasui.models import Job
from storage.engine import get_engine

pytestmark = pytest.mark.django_db
MIB = 1024 * 1024
needs_fio = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")


@pytest.fixture
def compressible(tmp_path: Path) -> Path:
    """A folder of 4 MiB of text-like data (compresses about 3x with lz4) in three files."""
    root = tmp_path / "data"
    (root / "sub").mkdir(parents=True)
    words = [f"word{n:04d}" for n in range(400)]
    rng = random.Random(7)
    for name, size in (("a.txt", 2 * MIB), ("b.log", MIB), ("sub/c.csv", MIB)):
        text = " ".join(rng.choice(words) for _ in range(size // 8))
        (root / name).write_bytes(text.encode()[:size])
    return root


def _scratch_left() -> list[str]:
    """Scratch datasets still on tank."""
    names = [d.name for d in get_engine().list_datasets("tank")]
    return [n for n in names if scratch.scratch_job_id(n) is not None]


def _result(job: Job) -> dict[str, Any]:
    """The finished job's result."""
    assert isinstance(job.result, dict), job.error
    return job.result


def _start(user: Any, source: Path, settings: list[str]) -> Job:
    job = bench_services.benchmark_start(
        user=user,
        source_kind="path",
        source=str(source),
        pool="tank",
        sample_bytes=4 * MIB,
        settings=settings,
    )
    job.refresh_from_db()
    return job


def test_the_benchmark_measures_a_row_per_setting_and_destroys_its_scratch(
    tank, admin_user, compressible
):
    job = _start(admin_user, compressible, ["off", "lz4", "gzip-6", "gzip-1", "zstd", "dedup"])
    assert job.status == Job.Status.SUCCEEDED, job.error
    result = _result(job)
    assert [row["setting"] for row in result["rows"]] == [
        "off",
        "lz4",
        "gzip-6",
        "gzip-1",
        "zstd",
        "dedup",
    ]
    assert result["source"] == {
        "kind": "path",
        "name": str(compressible),
        "bytes": 4 * MIB,
        "files": 3,
    }
    rows = {row["setting"]: row for row in result["rows"]}
    assert rows["lz4"]["used_bytes"] < rows["off"]["used_bytes"] * 0.6
    assert all(row["logical_bytes"] >= 4 * MIB for row in result["rows"])
    assert all(row["write_mb_s"] > 0 and row["read_mb_s"] > 0 for row in result["rows"])
    assert "pool's ALLOC" in rows["dedup"]["note"]
    assert result["recommendation"]["setting"] in rows
    assert _scratch_left() == []


def test_a_row_has_every_key_the_pages_read(tank, admin_user, compressible):
    job = _start(admin_user, compressible, ["lz4"])
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert set(_result(job)) >= {
        "source",
        "pool",
        "sample_bytes",
        "read_method",
        "arc_max",
        "rows",
        "recommendation",
    }
    assert set(_result(job)["rows"][0]) >= {
        "setting",
        "label",
        "properties",
        "logical_bytes",
        "used_bytes",
        "ratio",
        "write_mb_s",
        "read_mb_s",
        "cpu_percent",
        "cpu_peak_percent",
        "ram_used_bytes",
        "arc_bytes",
        "seconds_write",
        "seconds_read",
        "note",
    }
    assert _result(job)["arc_max"] is None  # the sandbox has no ARC
    assert "posix_fadvise" in _result(job)["read_method"]


def test_a_cancel_during_a_copy_leaves_no_scratch_dataset(
    tank, admin_user, compressible, monkeypatch
):
    monkeypatch.setattr("nasui.jobs.CANCEL_CHECK_SECONDS", 0)
    original = copying.copy_sample
    calls: list[str] = []

    def copy_then_cancel(pieces: Any, target: Path, *args: Any, **kwargs: Any) -> Any:
        calls.append(str(target))
        if len(calls) == 2:  # the second setting: its scratch dataset exists, the copy runs
            assert len(_scratch_left()) == 2
            Job.objects.filter(kind="advisor.benchmark").update(cancel_requested=True)
        return original(pieces, target, *args, **kwargs)

    monkeypatch.setattr(copying, "copy_sample", copy_then_cancel)
    job = _start(admin_user, compressible, ["off", "lz4", "zstd"])
    assert job.status == Job.Status.CANCELLED
    assert len(calls) == 2
    assert _scratch_left() == []


def test_a_failing_copy_fails_the_job_and_still_cleans_up(
    tank, admin_user, compressible, monkeypatch
):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError("disk on fire")

    monkeypatch.setattr(copying, "copy_sample", broken)
    job = _start(admin_user, compressible, ["off", "lz4"])
    assert job.status == Job.Status.FAILED
    assert "disk on fire" in job.error
    assert _scratch_left() == []


@needs_fio
def test_fio_on_a_scratch_zvol_gives_figures_and_removes_the_zvol(tank, admin_user):
    job = bench_services.fio_start(
        user=admin_user,
        target_kind="zvol",
        target="tank",
        size_bytes=8 * MIB,
        profiles=["seq-write-1m", "rand-read-4k-qd1"],
        runtime_seconds=1,
    )
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    result = _result(job)
    assert [p["name"] for p in result["profiles"]] == ["seq-write-1m", "rand-read-4k-qd1"]
    write, read = result["profiles"]
    assert write["write_mb_s"] > 0
    assert write["read_mb_s"] == 0
    assert read["read_iops"] > 0
    assert read["lat_p99_us"] > 0
    assert result["fio_version"].startswith("fio-")
    assert result["target"]["kind"] == "zvol"
    assert result["arc_warning"] == ""  # no ARC in the sandbox...
    assert "page cache" in result["engine_note"]  # ...but it says what was measured
    assert _scratch_left() == []


@needs_fio
def test_fio_on_a_dataset_runs_in_a_scratch_child_and_removes_it(tank, admin_user):
    job = bench_services.fio_start(
        user=admin_user,
        target_kind="dataset",
        target="tank",
        size_bytes=8 * MIB,
        profiles=["mixed-70-30-4k"],
        runtime_seconds=1,
    )
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    mixed = _result(job)["profiles"][0]
    assert mixed["read_iops"] > mixed["write_iops"] > 0
    assert "--direct=0" in mixed["argv"]
    assert _result(job)["target"]["path"].endswith("fio.dat")
    assert _scratch_left() == []


def test_dedup_space_comes_from_the_pools_alloc_and_shows_duplicates(
    tank, admin_user, compressible
):
    (compressible / "a2.txt").write_bytes((compressible / "a.txt").read_bytes())
    job = bench_services.benchmark_start(
        user=admin_user,
        source_kind="path",
        source=str(compressible),
        pool="tank",
        sample_bytes=6 * MIB,
        settings=["dedup", "lz4"],
    )
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    dedup, lz4 = _result(job)["rows"]
    # a.txt and a2.txt are the same 2 MiB: a third of the sample is stored once
    assert dedup["dataset_used_bytes"] == lz4["used_bytes"]  # used does not shrink...
    assert dedup["used_bytes"] == pytest.approx(lz4["used_bytes"] * 2 / 3, rel=0.05)  # ALLOC does
    assert dedup["ratio"] > lz4["ratio"]


def test_a_zvol_is_sampled_in_chunks_spread_over_it(tank, admin_user):
    engine = get_engine()
    engine.create_zvol("tank/vol", size=64 * MIB, sparse=True)
    with engine.zvol_path("tank/vol").open("r+b") as device:
        for eighth in range(8):  # text all over it, not only at its start
            device.seek(eighth * 8 * MIB)
            device.write(b"zvol data " * (MIB // 2))
    job = bench_services.benchmark_start(
        user=admin_user,
        source_kind="zvol",
        source="tank/vol",
        pool="tank",
        sample_bytes=8 * MIB,
        settings=["off", "lz4"],
    )
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert _result(job)["source"] == {
        "kind": "zvol",
        "name": "tank/vol",
        "bytes": 8 * MIB,
        "files": 1,
    }
    sample = _result(job)["sample"]
    assert sample["description"] == "Sample: 8.0 MiB of 64.0 MiB, in 1 MiB chunks spread over it."
    assert (sample["source_bytes"], sample["whole_files"]) == (64 * MIB, 0)
    off, lz4 = _result(job)["rows"]
    assert lz4["used_bytes"] < off["used_bytes"] / 2
    assert _scratch_left() == []


def test_a_dataset_is_sampled_from_its_files(tank, admin_user, compressible):
    engine = get_engine()
    engine.create_dataset("tank/docs")
    mountpoint = Path(engine.get_dataset("tank/docs").mountpoint or "")
    shutil.copytree(compressible, mountpoint / "copy")
    job = bench_services.benchmark_start(
        user=admin_user,
        source_kind="dataset",
        source="tank/docs",
        pool="tank",
        sample_bytes=3 * MIB,
        settings=["zstd"],
    )
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert _result(job)["source"]["bytes"] == 3 * MIB
    description = _result(job)["sample"]["description"]
    assert description.startswith("Sample: 3.0 MiB of 4.0 MiB from ")
    assert " of 3 files (random files" in description
    assert _result(job)["rows"][0]["logical_bytes"] >= 3 * MIB


def test_on_the_sandbox_the_result_says_speeds_are_not_used(tank, admin_user, compressible):
    job = _start(admin_user, compressible, ["off", "lz4", "zstd", "dedup"])
    assert job.status == Job.Status.SUCCEEDED, job.error
    result = _result(job)
    assert result["compresses_on_write"] is False
    recommendation = result["recommendation"]
    assert recommendation["setting"] in {"lz4", "zstd"}
    assert recommendation["label"] in {"LZ4", "ZSTD (level 3)"}
    assert "MB/s" not in recommendation["reason"] + recommendation["stronger"]
    assert "does not compress while writing" in recommendation["speed_note"]
    assert recommendation["dedup_verdict"] in {"worth it", "costly", "a trap"}
    assert result["sample"]["description"] == "Sample: the whole source, 4.0 MiB in 3 files."


@needs_fio
def test_a_cancel_during_fio_stops_it_and_removes_the_scratch_zvol(tank, admin_user, monkeypatch):
    monkeypatch.setattr("nasui.jobs.CANCEL_CHECK_SECONDS", 0)
    original = fio_bench.run_fio
    runs: list[list[str]] = []

    def run_then_cancel(argv: list[str], *args: Any) -> str:
        runs.append(argv)
        if len(runs) == 2:  # the first profile, after the test data is written
            Job.objects.filter(kind="advisor.fio").update(cancel_requested=True)
        return original(argv, *args)

    monkeypatch.setattr(fio_bench, "run_fio", run_then_cancel)
    started = time.monotonic()
    job = bench_services.fio_start(
        user=admin_user,
        target_kind="zvol",
        target="tank",
        size_bytes=8 * MIB,
        profiles=["rand-write-4k-qd1", "rand-read-4k-qd1"],
        runtime_seconds=60,
    )
    job.refresh_from_db()
    assert job.status == Job.Status.CANCELLED
    assert time.monotonic() - started < 20  # fio was stopped, not waited for
    assert len(runs) == 2
    assert _scratch_left() == []


def test_with_a_compressing_engine_the_recommendation_cites_the_speeds(
    tank, admin_user, compressible, monkeypatch
):
    monkeypatch.setattr(type(get_engine()), "compresses_on_write", True)
    # Every setting writes at one speed, as the sandbox's would with a busy CPU's noise removed.
    monkeypatch.setattr("advisor.benchmarks.engine.rows.rate", lambda size, seconds: 100.0)
    job = _start(admin_user, compressible, ["off", "lz4"])
    assert job.status == Job.Status.SUCCEEDED, job.error
    result = _result(job)
    assert result["compresses_on_write"] is True
    recommendation = result["recommendation"]
    assert recommendation["speed_note"] == ""
    assert recommendation["label"] == "LZ4"
    assert recommendation["reason"].startswith("LZ4 saved ")
    assert (
        "writing at 100% of its speed on this machine (100 against 100 MB/s)"
        in (recommendation["reason"])
    )
