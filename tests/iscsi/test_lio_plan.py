"""The LIO engine's pure parts: validation, the wanted LIO objects and the reconcile plan.

No rtslib and no kernel target needed: these run on the host. The real LIO is exercised by
tests/vm/test_lio.py in the ZFS VM.
"""

from __future__ import annotations

import dataclasses

import pytest

from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import UnsupportedByEngine
from sharing.iscsi.engine.lio import LioEngine
from sharing.iscsi.engine.lio.plan import plan
from sharing.iscsi.engine.lio.rules import (
    default_serial,
    plugin_for,
    so_name,
    validate,
    wanted_state,
)
from sharing.iscsi.engine.lio.state import (
    AUTHENTICATION,
    DEMO_MODE_WRITE_PROTECT,
    GENERATE_NODE_ACLS,
    Creds,
    LioState,
    MappedLun,
)
from sharing.iscsi.engine.lio.steps import CreateSo, DeleteSo, SetTpgAttribute, SetUnmap, Step

IQN = "iqn.2005-10.org.nasui:t1"
IQN2 = "iqn.2005-10.org.nasui:t2"
INI = "iqn.2024-01.org.nasui:host"
INI2 = "iqn.2024-01.org.nasui:other"
ZVOL = "/dev/zvol/tank/vol1"
FILE = "/srv/luns/file1.img"
PORTAL = PortalSpec("0.0.0.0", 3260)  # noqa: S104 - a portal on every address
CHAP = ChapSpec("user1", "secretsecret12")
MUTUAL = ChapSpec("user1", "secretsecret12", "tgtuser", "mutualsecret34")
SIZES = {FILE: 16 * 1024 * 1024}


def target(**kw: object) -> TargetSpec:
    base: dict[str, object] = {
        "iqn": IQN,
        "initiators": (INI,),
        "auth": "chap",
        "chap": CHAP,
        "luns": (LunSpec(0, ZVOL, block_size=4096), LunSpec(1, FILE)),
    }
    base.update(kw)
    return TargetSpec(**base)  # type: ignore[arg-type]


def desired(*targets: TargetSpec, **kw: object) -> DesiredState:
    return DesiredState(targets=targets, portals=(PORTAL,), **kw)  # type: ignore[arg-type]


def wanted(state: DesiredState, sizes: dict[str, int] = SIZES) -> LioState:
    return wanted_state(state, sizes)


def as_running(state: LioState) -> LioState:
    """What LIO would show once `state` is applied (serials filled in as created)."""
    sos = tuple(
        dataclasses.replace(so, serial=so.serial or default_serial(so.path))
        for so in state.storage_objects
    )
    return dataclasses.replace(state, storage_objects=sos)


def changes(steps: list[Step]) -> list[str]:
    return [str(s.change) for s in steps if s.change is not None]


def kinds(steps: list[Step]) -> list[str]:
    return [type(s).__name__ for s in steps]


# -- names and validation -------------------------------------------------------------------


def test_storage_object_names_are_stable_unique_and_configfs_safe() -> None:
    a, b = so_name("/dev/zvol/tank/a_b/c"), so_name("/dev/zvol/tank/a/b_c")
    assert a != b
    assert a == so_name("/dev/zvol/tank/a_b/c")
    assert all("/" not in n and " " not in n for n in (a, b, so_name("/x y/z")))
    assert len(so_name("/dev/zvol/" + "p" * 200)) <= 64
    assert plugin_for(ZVOL) == "block"
    assert plugin_for(FILE) == "fileio"
    assert default_serial(ZVOL) == default_serial(ZVOL) != default_serial(FILE)


def test_networks_are_refused_naming_lio() -> None:
    state = desired(target(initiators=(), networks=("10.0.0.0/8",)))
    with pytest.raises(UnsupportedByEngine, match=r"^lio: .*network"):
        validate(state)


def test_a_read_only_file_lun_open_to_all_beside_writable_luns_is_refused() -> None:
    luns = (LunSpec(0, ZVOL), LunSpec(1, FILE, readonly=True))
    with pytest.raises(UnsupportedByEngine, match="read-only plain file"):
        validate(desired(target(initiators=(), luns=luns)))
    # every LUN read-only: demo_mode_write_protect covers them all
    all_ro = (LunSpec(0, ZVOL, readonly=True), LunSpec(1, FILE, readonly=True))
    state = wanted(desired(target(initiators=(), luns=all_ro)))
    assert state.targets[0].attributes[DEMO_MODE_WRITE_PROTECT] == "1"


def test_lun_zero_and_per_target_portals_are_fine_for_lio() -> None:
    other = PortalSpec("10.0.2.15", 3261)
    state = DesiredState(targets=(target(portals=(other,)),), portals=(PORTAL, other))
    validate(state)
    assert wanted(state).targets[0].portals == (("10.0.2.15", 3261),)
    assert LioEngine.first_lun == 0


def test_overlong_chap_values_are_refused() -> None:
    chap = ChapSpec("u" * 200, "s" * 300)
    with pytest.raises(UnsupportedByEngine, match="255"):
        validate(desired(target(chap=chap)))


# -- the wanted objects ---------------------------------------------------------------------


def test_initiator_names_become_acls_with_chap_and_every_lun_mapped() -> None:
    state = wanted(desired(target(initiators=(INI, INI2), auth="mutual", chap=MUTUAL)))
    t = state.targets[0]
    assert t.attributes == {
        "authentication": "1",
        "generate_node_acls": "0",
        "cache_dynamic_acls": "0",
        "demo_mode_write_protect": "0",
    }
    assert t.auth.empty
    assert [a.initiator for a in t.acls] == [INI, INI2]
    assert t.acls[0].creds == Creds("user1", "secretsecret12", "tgtuser", "mutualsecret34")
    assert t.acls[0].mapped == (MappedLun(0, 0), MappedLun(1, 1))
    zvol, file = state.storage_objects
    assert (zvol.plugin, zvol.block_size, zvol.size) == ("block", 4096, None)
    assert (file.plugin, file.block_size, file.size) == ("fileio", 512, 16 * 1024 * 1024)


def test_open_to_all_uses_demo_mode_with_tpg_level_chap() -> None:
    t = wanted(desired(target(initiators=()))).targets[0]
    assert t.acls == ()
    assert t.attributes[GENERATE_NODE_ACLS] == "1"
    assert t.attributes[AUTHENTICATION] == "1"
    assert t.auth == Creds("user1", "secretsecret12")


def test_read_only_is_write_protect_on_mappings_and_readonly_on_block_objects() -> None:
    luns = (LunSpec(0, ZVOL, readonly=True), LunSpec(1, FILE, readonly=True))
    state = wanted(desired(target(luns=luns)))
    assert [m.write_protect for m in state.targets[0].acls[0].mapped] == [True, True]
    assert [so.readonly for so in state.storage_objects] == [True, False]


# -- planning -------------------------------------------------------------------------------


def test_from_nothing_a_target_is_built_then_enabled_last() -> None:
    state = desired(target(), discovery_chap=ChapSpec("disc", "discsecret123"))
    steps = plan(wanted(state), LioState())
    names = kinds(steps)
    assert names[0] == "SetDiscovery"
    assert names[-1] == "EnableTpg"
    assert names.index("CreateSo") < names.index("CreateLun") < names.index("MapLun")
    assert names.index("CreateTarget") < names.index("AddPortal")
    assert changes(steps) == [
        "add discovery disc (CHAP)",
        f"add target {IQN}",
        f"add portal 0.0.0.0:3260 on {IQN}",
        f"add lun 0 on {IQN} ({ZVOL}, 4096-byte blocks)",
        f"add lun 1 on {IQN} ({FILE}, 512-byte blocks)",
        f"add acl {INI} on {IQN} (CHAP)",
    ]
    created = [s.so for s in steps if isinstance(s, CreateSo)]
    assert all(so.serial for so in created)


def test_applying_the_same_state_twice_plans_nothing() -> None:
    for state in (
        desired(target()),
        desired(target(initiators=()), discovery_chap=CHAP),
        desired(
            target(auth="mutual", chap=MUTUAL), target(iqn=IQN2, luns=(), auth="none", chap=None)
        ),
    ):
        want = wanted(state)
        assert plan(want, as_running(want)) == []


def test_a_stale_target_lun_and_storage_object_are_removed() -> None:
    before = as_running(wanted(desired(target(), target(iqn=IQN2, luns=()))))
    after = wanted(desired(target(luns=(LunSpec(1, FILE),))))
    steps = plan(after, before)
    assert changes(steps) == [f"remove target {IQN2}", f"remove lun 0 on {IQN}"]
    deleted = [s.name for s in steps if isinstance(s, DeleteSo)]
    assert deleted == [so_name(ZVOL)]
    assert kinds(steps).index("DeleteLun") < kinds(steps).index("DeleteSo")


def test_a_changed_block_size_or_serial_recreates_the_lun_and_its_mappings() -> None:
    before = as_running(wanted(desired(target())))
    luns = (LunSpec(0, ZVOL, block_size=512, serial="NEWSERIAL"), LunSpec(1, FILE))
    steps = plan(wanted(desired(target(luns=luns))), before)
    assert changes(steps) == [f"change lun 0 on {IQN} (block size 4096 -> 512, serial NEWSERIAL)"]
    assert kinds(steps) == ["DeleteLun", "DeleteSo", "CreateSo", "CreateLun", "MapLun"]


def test_a_grown_file_recreates_its_lun() -> None:
    before = as_running(wanted(desired(target())))
    steps = plan(wanted(desired(target()), {FILE: 32 * 1024 * 1024}), before)
    assert changes(steps) == [f"change lun 1 on {IQN} (size now 33554432 bytes)"]


def test_a_new_secret_changes_the_acl_in_place() -> None:
    before = as_running(wanted(desired(target())))
    steps = plan(wanted(desired(target(chap=ChapSpec("user1", "anothersecret1")))), before)
    assert kinds(steps) == ["SetAclAuth"]
    assert changes(steps) == [f"change acl {INI} on {IQN} (CHAP)"]
    assert "anothersecret1" not in " ".join(changes(steps))


def test_going_open_to_all_widens_only_after_the_acls_go() -> None:
    before = as_running(wanted(desired(target())))
    steps = plan(wanted(desired(target(initiators=()))), before)
    names = kinds(steps)
    demo_on = next(
        i
        for i, s in enumerate(steps)
        if isinstance(s, SetTpgAttribute) and s.name == GENERATE_NODE_ACLS
    )
    assert names.index("SetTpgAuth") < names.index("DeleteAcl") < demo_on


def test_restricting_an_open_target_turns_demo_mode_off_first() -> None:
    before = as_running(wanted(desired(target(initiators=(), auth="none", chap=None))))
    steps = plan(wanted(desired(target())), before)
    first = steps[0]
    assert isinstance(first, SetTpgAttribute)
    assert (first.name, first.value) == (GENERATE_NODE_ACLS, "0")
    auth_on = next(
        i
        for i, s in enumerate(steps)
        if isinstance(s, SetTpgAttribute) and s.name == AUTHENTICATION
    )
    assert auth_on < kinds(steps).index("CreateAcl")


def test_dropping_chap_clears_the_auth_flag_before_the_credentials() -> None:
    before = as_running(wanted(desired(target(initiators=()))))
    steps = plan(wanted(desired(target(initiators=(), auth="none", chap=None))), before)
    names = kinds(steps)
    assert names == ["SetTpgAttribute", "SetTpgAuth"]
    assert changes(steps)[0] == f"change target {IQN} (authentication=0)"


def test_write_protect_toggles_on_a_file_lun_mapping_in_place() -> None:
    before = as_running(wanted(desired(target())))
    luns = (LunSpec(0, ZVOL, block_size=4096), LunSpec(1, FILE, readonly=True))
    steps = plan(wanted(desired(target(luns=luns))), before)
    assert kinds(steps) == ["SetWriteProtect"]
    assert changes(steps) == [f"change acl {INI} on {IQN} (LUN 1 read-only)"]


def test_portals_are_added_and_removed() -> None:
    other = PortalSpec("127.0.0.1", 3261)
    before = as_running(wanted(desired(target())))
    state = DesiredState(targets=(target(portals=(other,)),), portals=(PORTAL, other))
    assert changes(plan(wanted(state), before)) == [
        f"remove portal 0.0.0.0:3260 on {IQN}",
        f"add portal 127.0.0.1:3261 on {IQN}",
    ]


def test_discovery_chap_off_is_planned_last() -> None:
    before = as_running(wanted(desired(target(), discovery_chap=CHAP)))
    steps = plan(wanted(desired(target())), before)
    assert kinds(steps) == ["SetDiscovery"]
    assert changes(steps) == ["remove discovery user1"]


def test_every_lun_is_thin_unless_its_block_device_cannot_discard() -> None:
    assert [so.unmap for so in wanted(desired(target())).storage_objects] == [True, True]
    thick = wanted_state(desired(target()), SIZES, no_discard={ZVOL})
    assert [(so.path, so.unmap) for so in thick.storage_objects] == [(ZVOL, False), (FILE, True)]


def test_a_running_lun_without_unmap_gets_it_in_place() -> None:
    want = wanted(desired(target()))
    thick = tuple(dataclasses.replace(so, unmap=False) for so in want.storage_objects)
    before = dataclasses.replace(as_running(want), storage_objects=thick)
    steps = plan(want, before)
    assert kinds(steps) == ["SetUnmap", "SetUnmap"]
    assert changes(steps) == [
        f"change lun 0 on {IQN} (UNMAP on)",
        f"change lun 1 on {IQN} (UNMAP on)",
    ]
    assert all(isinstance(s, SetUnmap) and s.enabled for s in steps)
    # once LIO has it, nothing is left to do
    assert plan(want, as_running(want)) == []


def test_a_device_that_stops_discarding_has_unmap_turned_off() -> None:
    before = as_running(wanted(desired(target())))
    steps = plan(wanted_state(desired(target()), SIZES, no_discard={ZVOL}), before)
    assert changes(steps) == [f"change lun 0 on {IQN} (UNMAP off)"]
    step = steps[0]
    assert isinstance(step, SetUnmap)
    assert (step.name, step.plugin, step.enabled) == (so_name(ZVOL), "block", False)


def test_a_recreated_storage_object_is_created_thin_without_a_separate_step() -> None:
    want = wanted(desired(target()))
    thick = tuple(dataclasses.replace(so, unmap=False) for so in want.storage_objects)
    before = dataclasses.replace(as_running(want), storage_objects=thick)
    luns = (LunSpec(0, ZVOL, block_size=512), LunSpec(1, FILE))
    steps = plan(wanted(desired(target(luns=luns))), before)
    created = [s.so for s in steps if isinstance(s, CreateSo)]
    assert [(so.path, so.unmap) for so in created] == [(ZVOL, True)]
    assert [s.name for s in steps if isinstance(s, SetUnmap)] == [so_name(FILE)]


def test_the_engine_imports_and_reports_unavailable_without_lio() -> None:
    engine = LioEngine(save_file=None)
    assert engine.name == "lio"
    assert engine.is_running() in (True, False)
