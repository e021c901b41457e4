"""Disk lifecycle services on the sandbox engine: the flows, and refusals naming the field."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from nasui.models import Job
from storage.disks import selectors as disk_selectors
from storage.disks import services as ds
from storage.pools import selectors as pool_selectors
from storage.pools import services as pool_services
from storage.zfs import resilver
from storage.zfs.base import PoolStatus, ScrubStatus, Vdev
from storage.zfs.cli import CliZfsEngine
from storage.zfs.runner import ScriptedRunner

pytestmark = pytest.mark.django_db
GIB = 1024**3
DISK_FIXTURES = Path(__file__).parents[2] / "tests" / "zfs" / "fixtures" / "disks"


def _errors(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


def _leaves(pool: str = "tank") -> dict[str, str]:
    status = pool_selectors.pool_detail(pool).status
    return {leaf.name: leaf.state for v in status.vdevs for leaf in v.leaves}


def test_offline_degrades_the_pool_and_online_restores_it(tank):
    ds.pool_disk_offline(pool="tank", disk="sda")
    assert pool_selectors.pool_get("tank").health == "DEGRADED"
    assert _leaves()["sda"] == "OFFLINE"

    ds.pool_disk_online(pool="tank", disk="sda")
    assert pool_selectors.pool_get("tank").health == "ONLINE"


def test_offlining_a_second_raidz1_disk_is_refused_on_the_disk_field(tank):
    ds.pool_disk_offline(pool="tank", disk="sda")
    with pytest.raises(ValidationError) as exc:
        ds.pool_disk_offline(pool="tank", disk="sdb")
    (message,) = _errors(exc)["disk"]
    assert message.startswith("That would leave some data without a complete copy.")
    assert "no valid replicas" in message


def test_a_disk_outside_the_pool_is_refused(tank):
    with pytest.raises(ValidationError) as exc:
        ds.pool_disk_offline(pool="tank", disk="sdd")
    assert _errors(exc) == {"disk": ["Disk sdd is not part of pool tank."]}


def test_replace_runs_a_resilver_job_to_an_online_pool(tank, admin_user):
    ds.pool_disk_offline(pool="tank", disk="sda")
    job = ds.pool_disk_replace(pool="tank", disk="sda", new_disk="sdd", user=admin_user)

    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    assert (job.kind, (job.result or {})["state"]) == ("pool.resilver", "ONLINE")
    assert "sdd resilvered in tank" in job.message
    assert _leaves() == {"sdd": "ONLINE", "sdb": "ONLINE", "sdc": "ONLINE"}
    assert {r.name: r.pool for r in disk_selectors.disk_list()}["sda"] is None


def test_replace_refuses_a_disk_in_use(tank):
    with pytest.raises(ValidationError) as exc:
        ds.pool_disk_replace(pool="tank", disk="sda", new_disk="sdb")
    assert _errors(exc) == {"new_disk": ["Disk sdb is in use (tank)."]}
    assert not Job.objects.filter(kind="pool.resilver").exists()


def test_replace_refuses_a_smaller_disk(tank):
    os.truncate(tank.shelf.path("sdd"), 2 * GIB)
    with pytest.raises(ValidationError) as exc:
        ds.pool_disk_replace(pool="tank", disk="sda", new_disk="sdd")
    (message,) = _errors(exc)["new_disk"]
    assert "smaller than sda" in message


def test_a_hot_spare_replaces_a_disk_for_good(tank, admin_user):
    ds.pool_aux_add(pool="tank", kind="spare", disks=["sdd"])
    ds.pool_disk_offline(pool="tank", disk="sdb")
    job = ds.pool_disk_replace(pool="tank", disk="sdb", new_disk="sdd", user=admin_user)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    status = pool_selectors.pool_detail("tank").status
    assert (status.state, status.spares) == ("ONLINE", ())
    assert set(_leaves()) == {"sda", "sdc", "sdd"}


def test_attach_turns_a_single_disk_into_a_mirror_and_detach_undoes_it(
    sandbox, eager_jobs, admin_user
):
    pool_services.pool_create(name="solo", layout="stripe", disks=["sdd"], user=admin_user)
    job = ds.pool_disk_attach(pool="solo", disk="sdd", new_disk="sde", user=admin_user)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    vdevs = pool_selectors.pool_detail("solo").status.vdevs
    assert [(v.type, [c.name for c in v.children]) for v in vdevs] == [("mirror", ["sdd", "sde"])]

    ds.pool_disk_detach(pool="solo", disk="sde")
    assert [v.name for v in pool_selectors.pool_detail("solo").status.vdevs] == ["sdd"]
    with pytest.raises(ValidationError) as exc:
        ds.pool_disk_detach(pool="solo", disk="sdd")
    assert "last copy" in _errors(exc)["disk"][0]


def test_attach_to_a_raidz_disk_is_refused(tank):
    with pytest.raises(ValidationError) as exc:
        ds.pool_disk_attach(pool="tank", disk="sda", new_disk="sdd")
    assert _errors(exc) == {
        "disk": ["Attach works on a single disk or a mirror; sda is in a raidz1 vdev."]
    }


def test_add_vdev_grows_the_pool(tank):
    size = pool_selectors.pool_get("tank").size
    ds.pool_vdev_add(pool="tank", layout="raidz1", disks=["sdd", "sde", "sdf"])
    assert pool_selectors.pool_get("tank").size == 2 * size


@pytest.mark.parametrize(
    ("layout", "disks", "field", "words"),
    [
        ("mirror", ["sdd", "sde"], "layout", "Pool tank is a raidz1 pool: add a raidz1 vdev."),
        ("raidz1", ["sdd", "sde", "sdf", "sda"], "disks", "has 3 disks: pick 3"),
        ("raidz1", ["sdd", "sde", "sda"], "disks", "Disk sda is in use (tank)."),
    ],
)
def test_add_vdev_refuses_another_shape_or_a_used_disk(tank, layout, disks, field, words):
    with pytest.raises(ValidationError) as exc:
        ds.pool_vdev_add(pool="tank", layout=layout, disks=disks)
    assert words in _errors(exc)[field][0]


def test_spares_log_and_cache_are_added_and_removed(tank):
    ds.pool_aux_add(pool="tank", kind="spare", disks=["sdd"])
    ds.pool_aux_add(pool="tank", kind="log", disks=["sde"])
    ds.pool_aux_add(pool="tank", kind="cache", disks=["sdf"])
    status = pool_selectors.pool_detail("tank").status
    assert [v.name for v in status.spares + status.logs + status.cache] == ["sdd", "sde", "sdf"]

    for disk in ("sdd", "sde", "sdf"):
        ds.pool_aux_remove(pool="tank", disk=disk)
    status = pool_selectors.pool_detail("tank").status
    assert status.spares == status.logs == status.cache == ()


def test_removing_a_data_disk_as_aux_is_refused(tank):
    with pytest.raises(ValidationError) as exc:
        ds.pool_aux_remove(pool="tank", disk="sda")
    assert _errors(exc) == {"disk": ["sda is not a spare, cache or log device of tank."]}


def test_only_a_log_can_be_mirrored(tank):
    with pytest.raises(ValidationError) as exc:
        ds.pool_aux_add(pool="tank", kind="cache", disks=["sdd", "sde"], mirror=True)
    assert list(_errors(exc)) == ["mirror"]


# -- the estimate --------------------------------------------------------------------------------
def test_time_left_comes_from_the_rate_seen_so_far():
    first, last = resilver.Sample(0.0, 0), resilver.Sample(10.0, 100)
    assert resilver.seconds_left(first, last, 400) == 30.0
    assert resilver.seconds_left(first, first, 400) is None
    assert resilver.describe_left(30.0) == "about 30 s left"
    assert resilver.describe_left(600.0) == "about 10 min left"
    assert resilver.describe_left(None) == "estimating time left"


class _Scans:
    """An engine whose resilver advances 100 bytes of 400 per poll."""

    def __init__(self) -> None:
        self.polls = 0

    def pool_status(self, name: str) -> PoolStatus:
        self.polls += 1
        issued = min(400, 100 * (self.polls - 1))
        state = "scanning" if issued < 400 else "finished"
        scan = ScrubStatus(state, "resilver", issued / 4, issued=issued, total=400)
        disk = Vdev("sdd", "disk", "ONLINE", note="(resilvering)" if state == "scanning" else "")
        return PoolStatus(name=name, state="ONLINE", vdevs=(disk,), scan=scan)


def test_follow_reports_progress_with_an_estimate_until_the_resilver_ends():
    reports: list[tuple[int, str]] = []
    ticks = iter(float(n) for n in range(100))
    scan = resilver.follow(
        _Scans(),  # type: ignore[arg-type]
        "tank",
        "sdd",
        lambda pct, msg: reports.append((pct, msg)),
        timeout=50,
        clock=lambda: next(ticks),
        sleep=lambda s: None,
    )
    assert scan.state == "finished"
    assert reports[0] == (0, "Resilvering sdd in tank: 0.0% done, estimating time left")
    assert reports[-1][0] == 75
    assert reports[-1][1].endswith("75.0% done, about 2 s left")


def test_finish_detaches_the_disk_a_hot_spare_replaced_on_openzfs():
    fixture = (
        Path(__file__).parents[2] / "tests/zfs/fixtures/disks/zpool_status_spare_resilvered.txt"
    )
    runner = ScriptedRunner(responses={("zpool", "status", "-p"): fixture.read_text()})
    engine = CliZfsEngine(runner)
    result = resilver.finish(
        engine, pool="pspare", disk="vda", new_disk="vdc", hot_spare=True, report=lambda *r: None
    )
    assert ("zpool", "detach", "pspare", "vda") in runner.calls
    assert result["new_disk"] == "vdc"


def test_a_pool_with_unlike_vdevs_gets_no_new_one(sandbox, eager_jobs, admin_user):
    pool_services.pool_create(name="r10", layout="raid10", disks=["sda", "sdb", "sdc", "sdd"])
    ds.pool_disk_detach(pool="r10", disk="sdb")
    with pytest.raises(ValidationError) as exc:
        ds.pool_vdev_add(pool="r10", layout="mirror", disks=["sde", "sdf"])
    assert "differ in type or width" in _errors(exc)["layout"][0]
