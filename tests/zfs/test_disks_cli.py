"""Disk lifecycle on the cli engine: captured status, classified refusals, command lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from storage.zfs import errors, parse
from storage.zfs.base import PoolStatus
from storage.zfs.cli import CliZfsEngine
from storage.zfs.devices import check_replication, data_shape, find_leaf, is_aux
from storage.zfs.errors import InvalidLayout, ReplicationMismatch, ZfsError, classify
from storage.zfs.runner import ScriptedRunner, fail

DISKS = Path(__file__).parent / "fixtures" / "disks"
INDEX = json.loads((DISKS / "index.json").read_text())
STATUS = ("zpool", "status", "-p")


def status_of(name: str) -> PoolStatus:
    pools = parse.parse_zpool_status((DISKS / name).read_text())
    assert len(pools) == 1
    return pools[0]


def engine_with(status_file: str = "") -> tuple[CliZfsEngine, ScriptedRunner]:
    text = (DISKS / status_file).read_text() if status_file else ""
    runner = ScriptedRunner(responses={STATUS: text} if text else {})
    return CliZfsEngine(runner), runner


# -- zpool status as OpenZFS printed it ---------------------------------------------------------
def test_an_offline_disk_degrades_its_mirror_and_the_pool() -> None:
    status = status_of("zpool_status_offline.txt")
    assert (status.state, status.vdevs[0].state) == ("DEGRADED", "DEGRADED")
    assert [(leaf.name, leaf.state) for leaf in status.vdevs[0].leaves] == [
        ("vda", "OFFLINE"),
        ("vdb", "ONLINE"),
    ]
    assert status.status.startswith("One or more devices has been taken offline")


def test_a_replacement_shows_both_disks_under_replacing_with_the_resilver_scan() -> None:
    status = status_of("zpool_status_replacing.txt")
    replacing = status.vdevs[0].children[1]
    assert (replacing.name, replacing.type) == ("replacing-1", "replacing")
    assert [(c.name, c.note) for c in replacing.children] == [("vdb", ""), ("vdc", "(resilvering)")]
    scan = status.scan
    assert (scan.function, scan.state, scan.percent_done) == ("resilver", "scanning", 15.57)
    assert 0 < scan.issued < scan.total
    assert scan.when == "Mon Nov 23 18:58:49 2026"


def test_after_the_resilver_the_old_disk_is_gone() -> None:
    status = status_of("zpool_status_replaced.txt")
    assert [leaf.name for leaf in status.vdevs[0].leaves] == ["vda", "vdc"]
    assert (status.scan.function, status.scan.state) == ("resilver", "finished")
    assert status.scan.repaired > 300 * 1024 * 1024


def test_an_attached_disk_resilvers_without_an_estimate_at_first() -> None:
    status = status_of("zpool_status_attaching.txt")
    assert [(c.name, c.note) for c in status.vdevs[0].children][-1] == ("vda", "(resilvering)")
    assert status.scan.state == "scanning"
    assert "no estimated completion time" in status.scan.text


def test_offline_cache_and_a_mixed_pool_are_read() -> None:
    status = status_of("zpool_status_offline_aux.txt")
    assert [v.type for v in status.vdevs] == ["mirror", "raidz1"]
    assert [(v.name, v.state) for v in status.cache] == [("vdh", "OFFLINE")]
    assert data_shape(status)[0] == "mixed"


def test_a_mirrored_log_is_a_mirror_in_the_logs_section() -> None:
    status = status_of("zpool_status_log_mirror.txt")
    assert [(v.name, v.type, len(v.children)) for v in status.logs] == [("mirror-1", "mirror", 2)]
    assert is_aux(status, "mirror-1")
    assert not is_aux(status, "vdd")  # one side of the log mirror: detach it instead
    assert not is_aux(status, "vdb")


@pytest.mark.parametrize(
    ("fixture", "shape"),
    [
        ("zpool_status_offline.txt", ("mirror", {2})),
        ("zpool_status_replacing.txt", ("mirror", {2})),
        ("zpool_status_detached.txt", ("stripe", {1})),
        ("zpool_status_stripe_added.txt", ("stripe", {1})),
    ],
)
def test_data_shape_is_the_type_and_width_of_the_data_vdevs(
    fixture: str, shape: tuple[str, set[int]]
) -> None:
    assert data_shape(status_of(fixture)) == shape


def test_find_leaf_takes_a_path_or_a_short_name() -> None:
    status = status_of("zpool_status_replacing.txt")
    section, parent, leaf = find_leaf(status, "/dev/vdc")
    assert (section, parent and parent.type, leaf.name) == ("data", "replacing", "vdc")
    with pytest.raises(errors.DeviceNotFound):
        find_leaf(status, "vdz")


# -- refusals, classified from the stderr OpenZFS printed ----------------------------------------
CAPTURED = {
    "err_offline_no_replicas": errors.NoValidReplicas,
    "err_online_no_such_device": errors.DeviceNotFound,
    "err_remove_no_such_device": errors.DeviceNotFound,
    "err_replace_too_small": errors.DeviceTooSmall,
    "err_attach_too_small": errors.DeviceTooSmall,
    "err_replace_in_use": errors.DeviceInUse,
    "err_add_spare_in_use": errors.DeviceInUse,
    "err_detach_last_copy": errors.NotDetachable,
    "err_attach_raidz": errors.NotAttachable,
    "err_attach_to_mirror_vdev": errors.NotAttachable,
    "err_add_mismatch_disk": errors.ReplicationMismatch,
    "err_add_mismatch_mirror": errors.ReplicationMismatch,
    "err_add_mismatch_width": errors.ReplicationMismatch,
    "err_add_mismatch_parity": errors.ReplicationMismatch,
}


@pytest.mark.parametrize(("name", "expected"), list(CAPTURED.items()))
def test_it_classifies_the_captured_refusals(name: str, expected: type[ZfsError]) -> None:
    entry = INDEX[name]
    stderr = (DISKS / f"{name}.stderr").read_text()
    error = classify(entry["argv"], entry["returncode"], stderr)
    assert type(error) is expected


def test_a_replication_mismatch_is_an_invalid_layout() -> None:
    assert issubclass(ReplicationMismatch, InvalidLayout)


@pytest.mark.parametrize(
    ("pool", "widths", "vdev", "width", "words"),
    [
        ("mirror", {2}, "stripe", 1, "err_add_mismatch_disk"),
        ("stripe", {1}, "mirror", 2, "err_add_mismatch_mirror"),
        ("raidz1", {3}, "raidz1", 4, "err_add_mismatch_width"),
        ("raidz1", {3}, "raidz2", 4, "err_add_mismatch_parity"),
    ],
)
def test_the_panels_replication_check_speaks_like_zpool(
    pool: str, widths: set[int], vdev: str, width: int, words: str
) -> None:
    with pytest.raises(ReplicationMismatch) as err:
        check_replication(pool, widths, vdev, width)
    assert err.value.message == (DISKS / f"{words}.stderr").read_text().strip()


def test_the_replication_check_accepts_a_like_vdev_and_refuses_raidz_beside_mirrors() -> None:
    check_replication("mirror", {2}, "mirror", 2)
    check_replication("stripe", {1}, "stripe", 1)
    with pytest.raises(ReplicationMismatch, match="pool uses mirror and new vdev is raidz"):
        check_replication("mirror", {2}, "raidz1", 3)


# -- command lines -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "argv"),
    [
        (lambda e: e.offline_disk("tank", "vda"), ["zpool", "offline", "tank", "vda"]),
        (
            lambda e: e.offline_disk("tank", "/dev/vda", temporary=True),
            ["zpool", "offline", "-t", "tank", "/dev/vda"],
        ),
        (lambda e: e.online_disk("tank", "vda"), ["zpool", "online", "tank", "vda"]),
        (
            lambda e: e.replace_disk("tank", "vda", "vdc"),
            ["zpool", "replace", "tank", "vda", "vdc"],
        ),
        (lambda e: e.attach_disk("tank", "vda", "vdc"), ["zpool", "attach", "tank", "vda", "vdc"]),
        (lambda e: e.detach_disk("tank", "vda"), ["zpool", "detach", "tank", "vda"]),
        (
            lambda e: e.add_aux("tank", "log", ["vdd", "vde"], mirror=True),
            ["zpool", "add", "tank", "log", "mirror", "vdd", "vde"],
        ),
        (lambda e: e.add_aux("tank", "spare", ["vdd"]), ["zpool", "add", "tank", "spare", "vdd"]),
        (lambda e: e.add_aux("tank", "cache", ["vdd"]), ["zpool", "add", "tank", "cache", "vdd"]),
    ],
)
def test_disk_commands_build_these_command_lines(
    call: Callable[[CliZfsEngine], None], argv: list[str]
) -> None:
    engine, runner = engine_with()
    call(engine)
    assert list(runner.last) == argv


def test_add_vdev_checks_the_pools_shape_before_adding() -> None:
    engine, runner = engine_with("zpool_status_replaced.txt")
    engine.add_vdev("ex", "mirror", ["vdd", "vde"])
    assert runner.calls[-1] == ("zpool", "add", "ex", "mirror", "vdd", "vde")
    with pytest.raises(ReplicationMismatch):
        engine.add_vdev("ex", "mirror", ["vdd", "vde", "vdf"])
    assert runner.calls[-1][:2] == STATUS[:2]  # refused before zpool add ran


def test_remove_aux_removes_only_spares_cache_and_logs() -> None:
    engine, runner = engine_with("zpool_status_log_mirror.txt")
    engine.remove_aux("rz", "mirror-1")
    assert runner.last == ("zpool", "remove", "rz", "mirror-1")
    with pytest.raises(ZfsError, match="only spare, cache and log"):
        engine.remove_aux("rz", "vdb")


@pytest.mark.parametrize("bad", ["-f", "vda;rm", "../etc", "a b", ""])
def test_a_device_that_could_be_an_option_is_refused(bad: str) -> None:
    engine, runner = engine_with()
    with pytest.raises(InvalidLayout):
        engine.offline_disk("tank", bad)
    assert runner.calls == []


def test_a_refusal_reaches_the_caller_typed() -> None:
    stderr = (DISKS / "err_offline_no_replicas.stderr").read_text()
    runner = ScriptedRunner(responses={("zpool", "offline"): fail(stderr)})
    with pytest.raises(errors.NoValidReplicas):
        CliZfsEngine(runner).offline_disk("ex", "/dev/vdb")


def test_a_hot_spare_in_use_sits_beside_the_disk_it_replaces() -> None:
    status = status_of("zpool_status_spare_resilvering.txt")
    spare = status.vdevs[0].children[0]
    assert (spare.name, spare.type, spare.state) == ("spare-0", "spare", "DEGRADED")
    assert [(c.name, c.state, c.note) for c in spare.children] == [
        ("vda", "OFFLINE", ""),
        ("vdc", "ONLINE", "(resilvering)"),
    ]
    assert [(v.name, v.state, v.note) for v in status.spares] == [
        ("vdc", "INUSE", "currently in use")
    ]
    assert data_shape(status) == ("mirror", {2})


def test_after_a_spare_resilvers_the_pool_stays_degraded_until_the_old_disk_goes() -> None:
    status = status_of("zpool_status_spare_resilvered.txt")
    assert (status.state, status.scan.state) == ("DEGRADED", "finished")
    section, parent, _leaf = find_leaf(status, "vda")
    assert (section, parent and parent.type) == ("data", "spare")


@pytest.mark.parametrize(("pool", "widths"), [("mixed", {1, 3}), ("mirror", {1, 2})])
def test_a_pool_whose_vdevs_differ_gets_no_new_vdev(pool: str, widths: set[int]) -> None:
    with pytest.raises(ReplicationMismatch, match="data vdevs differ"):
        check_replication(pool, widths, "mirror", 2)
