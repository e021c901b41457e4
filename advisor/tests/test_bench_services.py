"""Starting a benchmark or fio: refusals name the field; scratch cleanup spares running jobs."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from advisor.benchmarks import services as bench_services
from advisor.benchmarks import tasks as bench_tasks
from advisor.benchmarks.engine import scratch
from nasui.models import Job
from storage.engine import get_engine

pytestmark = pytest.mark.django_db
MIB = 1024 * 1024
GIB = 1024 * MIB


@pytest.fixture
def data(tmp_path: Path) -> Path:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "f.txt").write_text("hello " * 1000)
    return tmp_path / "data"


def _benchmark(data: Path, **changes: Any) -> dict[str, list[str]]:
    arguments: dict[str, Any] = {
        "user": None,
        "source_kind": "path",
        "source": str(data),
        "pool": "tank",
        "sample_bytes": 4 * MIB,
        "settings": ["off", "lz4"],
    } | changes
    with pytest.raises(ValidationError) as exc:
        bench_services.benchmark_start(**arguments)
    assert not Job.objects.filter(kind__startswith="advisor.").exists()  # nothing started
    return exc.value.message_dict


def _fio(**changes: Any) -> dict[str, list[str]]:
    arguments: dict[str, Any] = {
        "user": None,
        "target_kind": "zvol",
        "target": "tank",
        "size_bytes": 8 * MIB,
        "profiles": ["seq-read-1m"],
        "runtime_seconds": 1,
    } | changes
    with pytest.raises(ValidationError) as exc:
        bench_services.fio_start(**arguments)
    assert not Job.objects.filter(kind__startswith="advisor.").exists()
    return exc.value.message_dict


def test_an_unknown_source_kind_is_refused(tank, data):
    assert list(_benchmark(data, source_kind="disk")) == ["source_kind"]


@pytest.mark.parametrize(
    "path", ["relative/path", "/proc/self", "/sys/kernel", "/dev/null", "/no/such/place"]
)
def test_a_path_that_is_not_readable_data_is_refused(tank, data, path):
    assert list(_benchmark(data, source=path)) == ["source"]


def test_a_dataset_that_does_not_exist_is_refused(tank, data):
    errors = _benchmark(data, source_kind="dataset", source="tank/nope")
    assert errors == {"source": ["No dataset is named 'tank/nope'."]}


def test_unknown_duplicate_or_no_settings_are_refused(tank, data):
    assert _benchmark(data, settings=["lz4", "brotli"]) == {
        "settings": ["Unknown setting: brotli."]
    }
    assert _benchmark(data, settings=["lz4", "lz4"]) == {
        "settings": ["Each setting may be picked once."]
    }
    assert _benchmark(data, settings=[]) == {"settings": ["Pick at least one setting."]}


def test_a_sample_out_of_bounds_is_refused(tank, data):
    assert list(_benchmark(data, sample_bytes=1000)) == ["sample_bytes"]


def test_a_missing_pool_is_refused(tank, data):
    assert _benchmark(data, pool="nopool") == {"pool": ["No pool is named 'nopool'."]}
    assert _benchmark(data, pool="tank/child") == {"pool": ["Pick a pool."]}


def test_a_sample_times_settings_larger_than_the_pool_is_refused(tank, data):
    errors = _benchmark(data, sample_bytes=2 * GIB, settings=["off", "lz4", "zstd", "gzip-6"])
    assert list(errors) == ["sample_bytes"]
    assert "4 copies of 2.0 GiB need about" in errors["sample_bytes"][0]


def test_every_problem_is_reported_at_once(tank, data):
    errors = _benchmark(data, source="/proc", settings=["x"], pool="nopool")
    assert set(errors) == {"source", "settings", "pool"}


def test_fio_refusals_name_the_field(tank):
    assert list(_fio(target_kind="disk")) == ["target_kind"]
    assert list(_fio(target="nopool")) == ["target"]
    assert list(_fio(target_kind="dataset", target="tank/nope")) == ["target"]
    assert list(_fio(profiles=["seq-read-4m"])) == ["profiles"]
    assert list(_fio(profiles=[])) == ["profiles"]
    assert list(_fio(runtime_seconds=0)) == ["runtime_seconds"]
    assert list(_fio(size_bytes=1000)) == ["size_bytes"]
    assert list(_fio(size_bytes=64 * GIB)) == ["size_bytes"]  # larger than tank


def test_fio_refuses_a_zvol_as_a_dataset_target(tank):
    get_engine().create_zvol("tank/vol", size=64 * MIB, sparse=True)
    assert list(_fio(target_kind="dataset", target="tank/vol")) == ["target"]


def _scratch(job_id: int, suffix: str, *, marked: bool = True) -> str:
    name = scratch.scratch_name("tank", job_id, suffix)
    properties = {scratch.PROPERTY: str(job_id)} if marked else {}
    get_engine().create_dataset(name, properties=properties)
    return name


def _job(status: str) -> Job:
    return Job.objects.create(kind="advisor.benchmark", title="t", status=status)


def test_cleanup_destroys_scratch_of_finished_and_vanished_jobs_only(tank):
    running, failed = _job(Job.Status.RUNNING), _job(Job.Status.FAILED)
    kept = _scratch(running.pk, "lz4")
    gone = [_scratch(failed.pk, "lz4"), _scratch(failed.pk, "gzip-6"), _scratch(9999, "zstd")]
    assert sorted(bench_services.scratch_cleanup()) == sorted(gone)
    names = [d.name for d in get_engine().list_datasets("tank")]
    assert kept in names
    assert not set(gone) & set(names)


def test_cleanup_leaves_a_look_alike_without_the_scratch_property(tank):
    look_alike = _scratch(9999, "lz4", marked=False)
    assert bench_services.scratch_cleanup() == []
    assert look_alike in [d.name for d in get_engine().list_datasets("tank")]


def test_cleanup_destroys_a_scratch_zvol_too(tank):
    name = scratch.scratch_name("tank", 9999, "fio")
    get_engine().create_zvol(name, size=8 * MIB, sparse=True, properties={scratch.PROPERTY: "9999"})
    assert bench_services.scratch_cleanup() == [name]


def test_a_starting_worker_fails_orphaned_jobs_then_cleans_their_scratch(tank):
    orphan = Job.objects.create(
        kind="advisor.benchmark",
        title="t",
        status=Job.Status.RUNNING,
        worker=f"{socket.gethostname()}:999999999",
    )
    name = _scratch(orphan.pk, "lz4")
    bench_tasks._cleanup_scratch_on_start()
    orphan.refresh_from_db()
    assert orphan.status == Job.Status.FAILED
    assert name not in [d.name for d in get_engine().list_datasets("tank")]


def test_the_cleanup_is_connected_to_worker_ready():
    from celery.signals import worker_ready

    receivers = [ref() for _, ref in worker_ready.receivers]
    assert bench_tasks._cleanup_scratch_on_start in receivers


def test_fio_is_refused_where_it_is_not_installed(tank, monkeypatch):
    monkeypatch.setattr("advisor.benchmarks.services.shutil.which", lambda name: None)
    assert "fio is not installed" in _fio()["__all__"][0]


def test_a_benchmark_whose_worker_child_died_loses_its_scratch_at_the_next_reaping(tank):
    from nasui.tasks import reap_jobs

    orphan = Job.objects.create(
        kind="advisor.benchmark",
        title="t",
        status=Job.Status.RUNNING,
        worker=f"{socket.gethostname()}:999999999",
    )
    name = _scratch(orphan.pk, "lz4")
    reap_jobs()  # what beat runs every few seconds: the worker itself kept running
    orphan.refresh_from_db()
    assert orphan.status == Job.Status.FAILED
    assert name not in [d.name for d in get_engine().list_datasets("tank")]


def test_reaping_other_jobs_leaves_the_pools_alone(tank, monkeypatch):
    from nasui.tasks import reap_jobs

    Job.objects.create(kind="pool.create", title="t", status=Job.Status.RUNNING,
                       worker=f"{socket.gethostname()}:999999999")  # fmt: skip
    monkeypatch.setattr(bench_services, "scratch_cleanup", lambda: pytest.fail("listed pools"))
    reap_jobs()
