"""Starting an estimate: inputs checked and named, the job run on the sandbox engine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from advisor.estimates import services
from nasui.models import Job
from storage.datasets import services as storage
from storage.engine import get_engine

MIB = 1024 * 1024


@pytest.fixture
def docs(tank) -> Path:
    """tank/docs holding 4 MiB of text that repeats, and 2 MiB of random bytes written twice."""
    storage.dataset_create(parent="tank", name="docs")
    root = Path(get_engine().get_dataset("tank/docs").mountpoint or "")
    line = b"2026-11-23 21:00:00 pool tank scrub finished without errors\n"
    (root / "log.txt").write_bytes(line * (4 * MIB // len(line)))
    noise = os.urandom(2 * MIB)
    (root / "a.bin").write_bytes(noise)
    (root / "b.bin").write_bytes(noise)
    return root


def start(**overrides: object) -> Job:
    arguments: dict[str, object] = {
        "user": None,
        "source_kind": "dataset",
        "source": "tank/docs",
        "sample_bytes": 64 * MIB,
        "time_seconds": 60,
    }
    arguments.update(overrides)
    return services.estimate_start(**arguments)  # type: ignore[arg-type]


def test_an_estimate_of_a_dataset_measures_its_text_and_its_copies(docs):
    job = Job.objects.get(pk=start().pk)
    assert job.status == "succeeded", job.error
    assert job.cancellable is True
    result = job.result or {}
    assert result["input"]["block_size"] == 128 * 1024
    assert result["input"]["files"] == 3
    lz4 = next(row for row in result["compression"] if row["algorithm"] == "lz4")
    # 4 MiB of text squeezed to sectors, 4 MiB of noise kept whole: well above 1, below 2.
    assert 1.3 < lz4["ratio"] < 2.0
    # Sixteen random records written twice, the text's records nearly all alike.
    assert result["dedup"]["ratio"] > 1.3
    assert result["zdb"] is None


def test_a_path_is_read_as_data_about_to_be_migrated(tank, tmp_path):
    (tmp_path / "same.bin").write_bytes(b"\x01" * MIB)
    job = Job.objects.get(pk=start(source_kind="path", source=str(tmp_path)).pk)
    assert job.status == "succeeded", job.error
    result = job.result or {}
    assert result["input"]["kind"] == "path"
    assert result["input"]["sector_size"] == 4096


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"source_kind": "share"}, "source_kind", "Choose one of"),
        ({"source": "tank/nope"}, "source", "No dataset is named"),
        ({"source_kind": "zvol"}, "source", "is not a zvol"),
        ({"source_kind": "path", "source": "relative/dir"}, "source", "absolute path"),
        ({"source_kind": "path", "source": "/proc/self"}, "source", "not data"),
        ({"source_kind": "path", "source": "/no/such/dir"}, "source", "Nothing exists"),
        ({"source_kind": "path", "source": "/etc/shadow"}, "source", "not the system's"),
        ({"source_kind": "path", "source": "/etc/no-such-file"}, "source", "not the system's"),
        ({"sample_bytes": 1000}, "sample_bytes", "between"),
        ({"time_seconds": 1}, "time_seconds", "between"),
        ({"source_kind": "path", "source": "/tmp", "run_zdb": True}, "run_zdb", "pick a dataset"),
    ],
)
def test_bad_input_names_the_field_and_starts_nothing(docs, overrides, field, words):
    with pytest.raises(ValidationError) as caught:
        start(**overrides)
    assert words in " ".join(caught.value.message_dict[field])
    assert not Job.objects.filter(kind="advisor.estimate").exists()


def test_zdb_runs_after_the_estimate_and_agrees_on_data_alone_in_its_pool(docs):
    # tank holds only tank/docs: the pool-wide simulation and the estimate see the same blocks.
    get_engine().settle("tank")
    job = Job.objects.get(pk=start(run_zdb=True).pk)
    assert job.status == "succeeded", job.error
    result = job.result or {}
    zdb, ours = result["zdb"], result["dedup"]
    assert zdb["pool"] == "tank"
    assert zdb["unique_blocks"] > 0
    assert ours["ratio"] == pytest.approx(zdb["ratio"], rel=0.03)
