"""The LIO engine on the VM's kernel target, checked by real iSCSI clients on the HOST.

The guest applies desired states with LioEngine; host-side checks (iscsi-readcapacity16,
iscsi-inq, qemu-io, refusals, iscsi-test-cu) run on the host through the port that
scripts/zfsvm.sh forwards to the guest's 3260, via the file handshake of
tests/vm/host_checks.py. A missing host answer fails within ~120 s.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from vmhelpers import ask_host as ask_helper
from vmhelpers import assert_all_ok, destroy_quietly, sync_pool, wait_for, wipe

from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import UnsupportedByEngine
from sharing.iscsi.engine.lio import LioEngine
from sharing.iscsi.engine.lio.rules import so_name
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import DatasetBusy
from tests.iscsi.iscsi_clients import SCSI_FAMILIES

MIB = 1024 * 1024
POOL = "liopool"
IQN = "iqn.2005-10.org.nasui:lio-test"
MUTUAL_IQN = "iqn.2005-10.org.nasui:lio-mutual"
HOST_INI = "iqn.2024-01.org.nasui:host"
STRANGER = "iqn.2024-01.org.nasui:stranger"
USER, SECRET = "nasuiuser", "secretsecret12"
PEER_USER, PEER_SECRET = "nasuitarget", "mutualsecret34"
DISCO_USER, DISCO_SECRET = "nasuilister", "discosecret56"
PORTAL = PortalSpec("0.0.0.0", 3260)  # noqa: S104 - every address of the VM
# The conformance round runs iscsi-test-cu under TCG: its answer may take up to this.
ANSWER_WAIT = 900.0
# iscsi-test-cu failures known on a 4096-byte LIO LUN (docs/facts.md), with reasons.
TESTCU_ALLOWED = {
    "Write10.Async": "the test assumes 512-byte blocks (passes on a 512-byte LUN)",
}
TESTCU_FAMILIES = list(SCSI_FAMILIES)
THIN_WRITE = 8 * MIB  # what the host writes, then discards, on each thin LUN
SECOND_INI = "iqn.2024-01.org.nasui:host2"  # iscsi-test-cu's other initiator (reservations)
# The lane's conformance subset on a thin 16 MiB zvol LUN with 512-byte blocks: SCSI-3 and
# SPC-2 reservations (they need `<db_root>/pr`, which the engine's start makes) and thin
# provisioning. `-t ALL` on the same LUN took ~8 min in TCG: too long for every run.
CONFORMANCE_FAMILIES = [
    "SCSI.PrinReadKeys", "SCSI.PrinReportCapabilities", "SCSI.PrinServiceactionRange",
    "SCSI.ProutClear", "SCSI.ProutPreempt", "SCSI.ProutRegister", "SCSI.ProutReserve",
    "SCSI.Reserve6", "SCSI.Unmap", "SCSI.WriteSame16", "SCSI.GetLBAStatus",
    "SCSI.ReadCapacity16",
]  # fmt: skip
# Failures in LIO itself (kernel 6.1), not in what the panel set up.
CONFORMANCE_ALLOWED = {
    "WriteSame16.UnmapUnaligned": "LIO refuses WRITE SAME(16) without a data-out buffer (NDOB)",
    "WriteSame16.InvalidDataOutSize": "LIO accepts a data-out buffer longer than one block",
    # LIO drops a RESERVE(6) once the holder's session is torn down; under TCG that may
    # come after the test's next command (seen passing and failing on the same LUN)
    "Reserve6.Logout": "the reservation outlives a logout for a moment",
    "Reserve6.ITNexusLoss": "the reservation outlives a dropped connection for a moment",
}
# Measured: 47 tests, 36 passed (37 with Reserve6.LUNReset, whose verdict the parser
# misses), 6 skipped (no GET LBA STATUS, no target resets, LBPRZ off), 4 failed (above).
# Without the `pr` directory every PERSISTENT RESERVE OUT failed (16 more failures in ALL).
CONFORMANCE_MIN_PASSED = 36


def ask_host(name: str, checks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The host's iSCSI clients run these checks against the forwarded target port."""
    return ask_helper(name, checks, "port", answer_wait=ANSWER_WAIT)


@dataclass
class Lab:
    engine: LioEngine
    zvol: str
    zvol2: str
    file: str
    save: Path


def chap_check(kind: str, lun: int, **more: Any) -> dict[str, Any]:
    base = {"kind": kind, "target": IQN, "lun": lun, "initiator": HOST_INI, "user": USER,
            "secret": SECRET}  # fmt: skip
    base.update(more)
    return base


def state(*luns: LunSpec, initiators: tuple[str, ...] = (HOST_INI,)) -> DesiredState:
    target = TargetSpec(
        iqn=IQN,
        portals=(PORTAL,),
        initiators=initiators,
        auth="chap",
        chap=ChapSpec(USER, SECRET),
        luns=luns,
    )
    return DesiredState(targets=(target,), portals=(PORTAL,))


def wait_dev(path: str) -> None:
    assert wait_for(lambda: Path(path).exists(), timeout=60), f"{path} did not appear"


@pytest.fixture(scope="module")
def lab(
    engine: CliZfsEngine, all_disks: list[str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    disk = all_disks[-1]
    engine.create_pool(POOL, PoolLayout(type="stripe", groups=((disk,),)), force=True)
    try:
        engine.create_zvol(f"{POOL}/lun0", size=64 * MIB, volblocksize=4096)
        engine.create_zvol(f"{POOL}/mutual", size=32 * MIB, volblocksize=4096)
        zvol, zvol2 = f"/dev/zvol/{POOL}/lun0", f"/dev/zvol/{POOL}/mutual"
        wait_dev(zvol)
        wait_dev(zvol2)
        base = tmp_path_factory.mktemp("lio")
        file = base / "file1.img"
        with file.open("wb") as handle:
            handle.truncate(16 * MIB)
        lio = LioEngine(save_file=base / "saveconfig.json")
        lio.start()
        yield Lab(lio, zvol, zvol2, str(file), base / "saveconfig.json")
        lio.stop()
    finally:
        destroy_quietly(POOL)
        wipe([disk])


def zvol_lun(lab: Lab) -> LunSpec:
    return LunSpec(0, lab.zvol, block_size=4096, serial="NASUILIO0", size=64 * MIB)


def file_lun(lab: Lab) -> LunSpec:
    return LunSpec(1, lab.file, block_size=512)


def test_it_applies_a_zvol_and_a_file_and_twice_changes_nothing(lab: Lab) -> None:
    assert lab.engine.is_running()
    t0 = time.monotonic()
    report = lab.engine.apply(state(zvol_lun(lab), file_lun(lab)))
    print(f"first apply {time.monotonic() - t0:.1f}s:", *report.lines(), sep="\n  ")
    kinds = {(c.action, c.kind, c.subject) for c in report.changes}
    assert ("add", "target", IQN) in kinds
    assert ("add", "lun", "0") in kinds
    assert ("add", "lun", "1") in kinds
    assert ("add", "acl", HOST_INI) in kinds
    assert ("add", "portal", "0.0.0.0:3260") in kinds

    again = lab.engine.apply(state(zvol_lun(lab), file_lun(lab)))
    assert not again.changed, again.lines()

    running = lab.engine.read_state()
    so = running.so(so_name(lab.zvol))
    assert so is not None
    assert (so.plugin, so.block_size, so.serial) == ("block", 4096, "NASUILIO0")
    target = running.target(IQN)
    assert target is not None
    assert target.enabled
    assert target.attributes["authentication"] == "1"
    assert target.attributes["generate_node_acls"] == "0"
    acl = target.acl(HOST_INI)
    assert acl is not None
    assert acl.creds.userid == USER
    assert sorted(m.mapped_lun for m in acl.mapped) == [0, 1]
    assert IQN in lab.save.read_text()
    assert lab.engine.sessions() == []


def test_host_clients_read_write_and_are_refused_as_they_should(lab: Lab) -> None:
    checks = [
        chap_check("testcu", 0, id="testcu_lun0", families=TESTCU_FAMILIES,
                   allow=TESTCU_ALLOWED, min_passed=20, timeout=600),
        chap_check("readcap", 0, id="readcap_lun0", block_size=4096, size=64 * MIB),
        chap_check("readcap", 1, id="readcap_lun1", block_size=512, size=16 * MIB),
        chap_check("inq", 0, id="inq_lun0", expect=["LIO-ORG"]),
        chap_check("inq", 0, id="serial_lun0", page=0x80, expect=["NASUILIO0"]),
        chap_check("qemu_io", 0, id="qemu_io_lun0", pattern="0xa5", length="1M"),
        chap_check("refused", 0, id="wrong_secret", wrong_secret="wrongsecret99",
                   expect="Authentication failure"),
        chap_check("refused", 0, id="stranger", initiator=STRANGER,
                   expect="Authorization failure"),
    ]  # fmt: skip
    answers = ask_host("basic", checks)
    assert_all_ok(answers)
    # what the host wrote through LIO is on the zvol
    data = subprocess.run(
        ["dd", f"if={lab.zvol}", "bs=1M", "count=1", "iflag=direct", "status=none"],
        capture_output=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    assert data == b"\xa5" * MIB


def referenced(engine: CliZfsEngine, dataset: str) -> int:
    """What a zvol or file system references once the pool has written everything out."""
    sync_pool(engine, POOL)
    argv = ["zfs", "get", "-H", "-p", "-o", "value", "referenced", dataset]
    return int(engine.run(argv).stdout)


def so_attribute(name: str, attribute: str, value: str) -> None:
    """Change one attribute of a block storage object behind the engine's back."""
    import rtslib_fb  # the guest's python3-rtslib-fb

    rtslib_fb.BlockStorageObject(name).set_attribute(attribute, value)


def test_unmap_from_the_host_frees_a_sparse_zvol_and_a_file(lab: Lab, engine: CliZfsEngine) -> None:
    zvol_ds, files_ds = f"{POOL}/thin", f"{POOL}/files"
    engine.create_zvol(zvol_ds, size=32 * MIB, volblocksize=16384, sparse=True)
    engine.run(["zfs", "create", files_ds])
    zvol, file = f"/dev/zvol/{zvol_ds}", f"/{files_ds}/thin.img"
    wait_dev(zvol)
    with open(file, "wb") as handle:
        handle.truncate(32 * MIB)
    thin = (LunSpec(2, zvol, block_size=4096), LunSpec(3, file, block_size=512))
    wanted = state(zvol_lun(lab), file_lun(lab), *thin)
    lab.engine.apply(wanted)
    # a running LUN that lost thin provisioning gets it back in place (not re-created)
    so_attribute(so_name(zvol), "emulate_tpu", "0")
    assert lab.engine.apply(wanted).lines() == [f"change lun 2 on {IQN} (UNMAP on)"]
    assert all(so.unmap for so in lab.engine.read_state().storage_objects)

    before = (referenced(engine, zvol_ds), referenced(engine, files_ds))
    checks = [
        chap_check("readcap", 2, id="lbpme_zvol", block_size=4096, size=32 * MIB, lbpme=1),
        chap_check("readcap", 3, id="lbpme_file", block_size=512, size=32 * MIB, lbpme=1),
        # UNMAP limits in the LUN's 4096-byte blocks: a 16K volblock is 4 of them, and
        # ZFS's 16384-volblock discard limit is 65536 of them
        chap_check("inq", 2, id="unmap_limits", page=0xB0,
                   expect=["optimal unmap granularity:4\n", "maximum unmap lba count:65536\n"]),
        chap_check("write_random", 2, id="write_zvol", length=THIN_WRITE),
        chap_check("write_random", 3, id="write_file", length=THIN_WRITE),
    ]  # fmt: skip
    assert_all_ok(ask_host("thin_write", checks))
    written = (referenced(engine, zvol_ds), referenced(engine, files_ds))
    checks = [
        chap_check("discard", 2, id="discard_zvol", length=THIN_WRITE),
        chap_check("discard", 3, id="discard_file", length=THIN_WRITE),
    ]
    assert_all_ok(ask_host("thin_discard", checks))
    after = (referenced(engine, zvol_ds), referenced(engine, files_ds))
    print(f"referenced zvol/file: before {before}, written {written}, discarded {after}")
    for was, full, freed in zip(before, written, after, strict=True):
        assert full - was >= THIN_WRITE * 7 // 8, "the host's write did not land"
        assert full - freed >= THIN_WRITE * 7 // 8, "the host's discard did not free it"

    lab.engine.apply(state(zvol_lun(lab), file_lun(lab)))
    engine.destroy_dataset(zvol_ds)


def test_conformance_of_a_thin_lun_with_two_initiators(lab: Lab, engine: CliZfsEngine) -> None:
    name = f"{POOL}/conformance"
    engine.create_zvol(name, size=16 * MIB, volblocksize=16384, sparse=True)
    wait_dev(f"/dev/zvol/{name}")
    lun = LunSpec(2, f"/dev/zvol/{name}", block_size=512)
    lab.engine.apply(state(zvol_lun(lab), file_lun(lab), lun, initiators=(HOST_INI, SECOND_INI)))
    check = chap_check("testcu", 2, id="conformance", initiator2=SECOND_INI,
                       families=CONFORMANCE_FAMILIES, allow=CONFORMANCE_ALLOWED,
                       min_passed=CONFORMANCE_MIN_PASSED, timeout=600)  # fmt: skip
    assert_all_ok(ask_host("conformance", [check]))
    lab.engine.apply(state(zvol_lun(lab), file_lun(lab)))
    engine.destroy_dataset(name)


def test_a_grown_zvol_reaches_the_initiator_after_a_refresh(lab: Lab, engine: CliZfsEngine) -> None:
    engine.grow_zvol(f"{POOL}/lun0", 96 * MIB)
    assert wait_for(lambda: _device_bytes(lab.zvol) == 96 * MIB, timeout=30)
    report = lab.engine.refresh_lun_size(IQN, 0)
    print(*report.lines(), sep="\n  ")
    answers = ask_host(
        "grown", [chap_check("readcap", 0, id="readcap_grown", block_size=4096, size=96 * MIB)]
    )
    assert_all_ok(answers)


def _device_bytes(path: str) -> int:
    with open(path, "rb") as dev:
        return dev.seek(0, 2)


def test_removing_a_lun_unexports_it_and_frees_the_zvol(lab: Lab, engine: CliZfsEngine) -> None:
    report = lab.engine.apply(state(file_lun(lab)))
    print(*report.lines(), sep="\n  ")
    assert ("remove", "lun", "0") in {(c.action, c.kind, c.subject) for c in report.changes}
    assert lab.engine.read_state().so(so_name(lab.zvol)) is None
    assert not lab.engine.apply(state(file_lun(lab))).changed
    answers = ask_host(
        "removed",
        [
            chap_check("readcap", 1, id="lun1_still_there", block_size=512, size=16 * MIB),
            # without a LUN 0, LIO answers INQUIRY on LUN 0 with "not connected"
            chap_check("inq", 0, id="lun0_gone", expect=["Peripheral Qualifier:DISCONNECTED"]),
        ],
    )
    assert_all_ok(answers)
    engine.destroy_dataset(f"{POOL}/lun0")  # no longer held by the target


def test_an_encrypted_zvol_is_not_served_while_locked_and_reads_back_after(
    lab: Lab, engine: CliZfsEngine, tmp_path: Path
) -> None:
    """What the panel does around a lock (sharing.control.services.keys_changed): the LUN
    leaves the target first, or the zvol stays busy; after the unlock it comes back whole."""
    key_file = tmp_path / "vault.key"
    key_file.write_text("5c" * 32 + "\n")
    vault = f"{POOL}/vault"
    hexed = {"encryption": "on", "keyformat": "hex", "keylocation": f"file://{key_file}"}
    engine.create_zvol(vault, size=16 * MIB, volblocksize=4096, properties=hexed)
    device = f"/dev/zvol/{vault}"
    wait_dev(device)
    locked_lun = LunSpec(2, device, block_size=4096, serial="NASUIVAULT")
    try:
        lab.engine.apply(state(file_lun(lab), locked_lun))
        written = ask_host("vault", [chap_check("qemu_io", 2, id="vault_io", pattern="0x5c",
                                                length="1M")])  # fmt: skip
        assert_all_ok(written)
        with pytest.raises(DatasetBusy):
            engine.unload_key(vault)  # LIO holds the device open
        lab.engine.apply(state(file_lun(lab)))  # the LUN leaves first
        engine.unload_key(vault)
        assert wait_for(lambda: not Path(device).exists(), timeout=60)
        # With LUN 1 still there, LIO refuses a login to the LUN that left.
        refusal = chap_check("refused", 2, id="vault_gone", expect="LOGICAL_UNIT_NOT_SUPPORTED")
        gone = ask_host("vault_locked", [refusal])
        assert_all_ok(gone)
        engine.load_key(vault)  # from its key file
        wait_dev(device)
        lab.engine.apply(state(file_lun(lab), locked_lun))
        back = ask_host("vault_back", [chap_check("readcap", 2, id="vault_readcap",
                                                  block_size=4096, size=16 * MIB)])  # fmt: skip
        assert_all_ok(back)
        data = subprocess.run(
            ["dd", f"if={device}", "bs=1M", "count=1", "iflag=direct", "status=none"],
            capture_output=True, check=True, timeout=60,
        ).stdout  # fmt: skip
        assert data == b"\x5c" * MIB  # what the host wrote before the lock, byte for byte
    finally:
        lab.engine.apply(state(file_lun(lab)))
        engine.destroy_dataset(vault, force=True)


def test_mutual_chap_on_a_fresh_target(lab: Lab) -> None:
    target = TargetSpec(
        iqn=MUTUAL_IQN,
        portals=(PORTAL,),
        initiators=(HOST_INI,),
        auth="mutual",
        chap=ChapSpec(USER, SECRET, PEER_USER, PEER_SECRET),
        luns=(LunSpec(0, lab.zvol2, block_size=512),),
    )
    desired = DesiredState(targets=(target,), portals=(PORTAL,))
    report = lab.engine.apply(desired)
    print(*report.lines(), sep="\n  ")
    kinds = {(c.action, c.kind, c.subject) for c in report.changes}
    assert ("remove", "target", IQN) in kinds
    assert ("add", "target", MUTUAL_IQN) in kinds
    assert not lab.engine.apply(desired).changed
    mutual = {"target": MUTUAL_IQN, "target_user": PEER_USER}
    answers = ask_host(
        "mutual",
        [
            chap_check("readcap", 0, id="mutual_ok", block_size=512, size=32 * MIB,
                       target_secret=PEER_SECRET, **mutual),
            chap_check("refused", 0, id="mutual_wrong", target_secret="notthesecret1",
                       expect="CHAP_R", **mutual),
        ],
    )  # fmt: skip
    assert_all_ok(answers)


def test_discovery_chap_guards_the_target_list(lab: Lab) -> None:
    target = TargetSpec(
        iqn=MUTUAL_IQN,
        portals=(PORTAL,),
        initiators=(HOST_INI,),
        auth="mutual",
        chap=ChapSpec(USER, SECRET, PEER_USER, PEER_SECRET),
        luns=(LunSpec(0, lab.zvol2, block_size=512),),
    )
    guarded = DesiredState(
        targets=(target,), portals=(PORTAL,), discovery_chap=ChapSpec(DISCO_USER, DISCO_SECRET)
    )
    report = lab.engine.apply(guarded)
    assert any(c.kind == "discovery" for c in report.changes), report.lines()
    base = {"kind": "discover", "target": MUTUAL_IQN, "initiator": HOST_INI}
    answers = ask_host(
        "discovery",
        [
            {**base, "id": "anonymous", "refused": "Authentication failure"},
            {**base, "id": "wrong", "user": DISCO_USER, "secret": "wrongsecret12",
             "refused": "Authentication failure"},
            {**base, "id": "allowed", "user": DISCO_USER, "secret": DISCO_SECRET},
        ],
    )  # fmt: skip
    assert_all_ok(answers)
    # Open again, as the later tests expect.
    lab.engine.apply(DesiredState(targets=(target,), portals=(PORTAL,)))
    assert ask_host("discovery_open", [{**base, "id": "open"}])["open"]["ok"]


def test_it_refuses_networks_rather_than_weaken_access(lab: Lab) -> None:
    spec = TargetSpec(iqn="iqn.2005-10.org.nasui:nets", networks=("10.0.0.0/8",))
    with pytest.raises(UnsupportedByEngine, match="network"):
        lab.engine.validate(DesiredState(targets=(spec,)))


def test_stop_clears_and_start_restores_the_save_file(lab: Lab) -> None:
    lab.engine.stop()
    running = lab.engine.read_state()
    assert running.targets == ()
    assert running.storage_objects == ()
    lab.engine.start()
    restored = lab.engine.read_state()
    target = restored.target(MUTUAL_IQN)
    assert target is not None
    assert target.enabled
    acl = target.acl(HOST_INI)
    assert acl is not None
    assert acl.creds.mutual_userid == PEER_USER
    assert restored.storage_objects
    assert all(so.unmap for so in restored.storage_objects)  # thin provisioning too
    lab.engine.stop()
    assert lab.engine.read_state().targets == ()
