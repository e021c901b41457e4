"""The operations a LIO plan is made of (plain data), and how each one runs on rtslib."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sharing.iscsi.engine.base import Change
from sharing.iscsi.engine.errors import EngineFailure
from sharing.iscsi.engine.lio import kernel
from sharing.iscsi.engine.lio.parsing import strip_brackets
from sharing.iscsi.engine.lio.rules import ENGINE
from sharing.iscsi.engine.lio.state import (
    TPG_TAG,
    UNMAP_ATTRIBUTES,
    Creds,
    MappedLun,
    Plugin,
    SoState,
)


@dataclass(frozen=True, kw_only=True)
class Step:
    """One operation on LIO; `change` is reported once it ran."""

    change: Change | None = None


@dataclass(frozen=True, kw_only=True)
class SetDiscovery(Step):
    """Set (or clear) discovery CHAP on the iSCSI fabric."""

    creds: Creds
    enabled: bool


@dataclass(frozen=True, kw_only=True)
class DeleteTarget(Step):
    """Delete a target with everything under it."""

    iqn: str


@dataclass(frozen=True, kw_only=True)
class CreateTarget(Step):
    """Create a target with its TPG 1, left disabled."""

    iqn: str


@dataclass(frozen=True, kw_only=True)
class EnableTpg(Step):
    """Enable or disable a target's TPG (logins are refused while disabled)."""

    iqn: str
    enabled: bool


@dataclass(frozen=True, kw_only=True)
class SetTpgAttribute(Step):
    """Set one TPG attribute ("0"/"1")."""

    iqn: str
    name: str
    value: str


@dataclass(frozen=True, kw_only=True)
class SetTpgAuth(Step):
    """Set the TPG-level CHAP settings (used in demo mode)."""

    iqn: str
    creds: Creds


@dataclass(frozen=True, kw_only=True)
class AddPortal(Step):
    """Listen on one more address for a target."""

    iqn: str
    ip: str
    port: int


@dataclass(frozen=True, kw_only=True)
class DeletePortal(Step):
    """Stop listening on one address for a target."""

    iqn: str
    ip: str
    port: int


@dataclass(frozen=True, kw_only=True)
class CreateSo(Step):
    """Create a storage object (its serial already resolved)."""

    so: SoState


@dataclass(frozen=True, kw_only=True)
class DeleteSo(Step):
    """Delete a storage object (no LUN may use it any more)."""

    name: str
    plugin: Plugin


@dataclass(frozen=True, kw_only=True)
class SetUnmap(Step):
    """Turn thin provisioning (UNMAP, WRITE SAME with UNMAP) of a storage object on or off."""

    name: str
    plugin: Plugin
    enabled: bool


@dataclass(frozen=True, kw_only=True)
class CreateLun(Step):
    """Export a storage object as a TPG LUN."""

    iqn: str
    lun: int
    so_name: str
    plugin: Plugin


@dataclass(frozen=True, kw_only=True)
class DeleteLun(Step):
    """Remove a TPG LUN; its mapped LUNs go with it."""

    iqn: str
    lun: int


@dataclass(frozen=True, kw_only=True)
class CreateAcl(Step):
    """Create a node ACL for one initiator."""

    iqn: str
    initiator: str


@dataclass(frozen=True, kw_only=True)
class DeleteAcl(Step):
    """Delete one initiator's node ACL."""

    iqn: str
    initiator: str


@dataclass(frozen=True, kw_only=True)
class SetAclAuth(Step):
    """Set one ACL's CHAP settings."""

    iqn: str
    initiator: str
    creds: Creds


@dataclass(frozen=True, kw_only=True)
class MapLun(Step):
    """Map a TPG LUN into an ACL (replacing what that mapped LUN id pointed at)."""

    iqn: str
    initiator: str
    mapped: MappedLun


@dataclass(frozen=True, kw_only=True)
class UnmapLun(Step):
    """Remove one mapped LUN from an ACL."""

    iqn: str
    initiator: str
    mapped_lun: int


@dataclass(frozen=True, kw_only=True)
class SetWriteProtect(Step):
    """Turn write protection of one mapped LUN on or off."""

    iqn: str
    initiator: str
    mapped_lun: int
    write_protect: bool


def run_step(step: Step) -> None:
    """Carry out one step through rtslib (the caller turns rtslib errors into ours)."""
    for run in (_run_target_step, _run_storage_step, _run_acl_step):
        if run(step):
            return
    raise EngineFailure(f"{ENGINE}: unknown step {step!r}")


def _run_target_step(step: Step) -> bool:
    """Discovery auth, targets, their TPG and portals; False when `step` is none of these."""
    rts = kernel.rtslib()
    match step:
        case SetDiscovery(creds=creds, enabled=enabled):
            _set_discovery(rts.FabricModule("iscsi"), creds, enabled)
        case DeleteTarget(iqn=iqn):
            rts.Target(rts.FabricModule("iscsi"), iqn, mode="lookup").delete()
        case CreateTarget(iqn=iqn):
            target = rts.Target(rts.FabricModule("iscsi"), iqn, mode="create")
            rts.TPG(target, TPG_TAG, mode="create")
        case EnableTpg(iqn=iqn, enabled=enabled):
            _tpg(iqn).enable = enabled
        case SetTpgAttribute(iqn=iqn, name=name, value=value):
            _tpg(iqn).set_attribute(name, value)
        case SetTpgAuth(iqn=iqn, creds=creds):
            _set_creds(_tpg(iqn), creds)
        case AddPortal(iqn=iqn, ip=ip, port=port):
            rts.NetworkPortal(_tpg(iqn), f"[{ip}]" if ":" in ip else ip, port, mode="create")
        case DeletePortal(iqn=iqn, ip=ip, port=port):
            _delete_portal(iqn, ip, port)
        case _:
            return False
    return True


def _run_storage_step(step: Step) -> bool:
    """Storage objects and the LUNs over them; False when `step` is none of these."""
    rts = kernel.rtslib()
    match step:
        case CreateSo(so=so):
            _create_so(so)
        case DeleteSo(name=name, plugin=plugin):
            _so(name, plugin).delete()
        case SetUnmap(name=name, plugin=plugin, enabled=enabled):
            _set_unmap(_so(name, plugin), enabled)
        case CreateLun(iqn=iqn, lun=lun, so_name=name, plugin=plugin):
            rts.LUN(_tpg(iqn), lun, _so(name, plugin))
        case DeleteLun(iqn=iqn, lun=lun):
            rts.LUN(_tpg(iqn), lun).delete()
        case _:
            return False
    return True


def _run_acl_step(step: Step) -> bool:
    """Initiators' ACLs, their CHAP and mapped LUNs; False when `step` is none of these."""
    rts = kernel.rtslib()
    match step:
        case CreateAcl(iqn=iqn, initiator=initiator):
            rts.NodeACL(_tpg(iqn), initiator, mode="create")
        case DeleteAcl(iqn=iqn, initiator=initiator):
            _acl(iqn, initiator).delete()
        case SetAclAuth(iqn=iqn, initiator=initiator, creds=creds):
            _set_creds(_acl(iqn, initiator), creds)
        case MapLun(iqn=iqn, initiator=initiator, mapped=m):
            _map_lun(iqn, initiator, m)
        case UnmapLun(iqn=iqn, initiator=initiator, mapped_lun=mapped_lun):
            rts.MappedLUN(_acl(iqn, initiator), mapped_lun).delete()
        case SetWriteProtect(iqn=iqn, initiator=initiator, mapped_lun=mlun, write_protect=wp):
            rts.MappedLUN(_acl(iqn, initiator), mlun).write_protect = wp
        case _:
            return False
    return True


def _set_discovery(fabric: Any, creds: Creds, enabled: bool) -> None:
    """Discovery CHAP on the iSCSI fabric, or none."""
    if not enabled:
        fabric.clear_discovery_auth_settings()
        return
    fabric.discovery_userid = creds.userid
    fabric.discovery_password = creds.password
    fabric.discovery_mutual_userid = creds.mutual_userid
    fabric.discovery_mutual_password = creds.mutual_password
    fabric.discovery_enable_auth = True


def _delete_portal(iqn: str, ip: str, port: int) -> None:
    """Remove the target's portal on this address and port."""
    for np in _tpg(iqn).network_portals:
        if strip_brackets(np.ip_address) == ip and int(np.port) == port:
            np.delete()


def _map_lun(iqn: str, initiator: str, mapped: MappedLun) -> None:
    """Map a TPG LUN into an initiator's ACL, replacing what that mapped LUN pointed at."""
    rts = kernel.rtslib()
    tpg = _tpg(iqn)
    acl = rts.NodeACL(tpg, initiator, mode="lookup")
    for old in acl.mapped_luns:
        if old.mapped_lun == mapped.mapped_lun:
            old.delete()
    rts.MappedLUN(acl, mapped.mapped_lun, rts.LUN(tpg, mapped.tpg_lun), mapped.write_protect)


def _tpg(iqn: str) -> Any:
    """The existing TPG 1 of a target."""
    rts = kernel.rtslib()
    target = rts.Target(rts.FabricModule("iscsi"), iqn, mode="lookup")
    return rts.TPG(target, TPG_TAG, mode="lookup")


def _acl(iqn: str, initiator: str) -> Any:
    """The existing node ACL of one initiator on a target."""
    return kernel.rtslib().NodeACL(_tpg(iqn), initiator, mode="lookup")


def _so(name: str, plugin: str) -> Any:
    """The existing storage object of this name and plugin."""
    rts = kernel.rtslib()
    cls = rts.BlockStorageObject if plugin == "block" else rts.FileIOStorageObject
    return cls(name)


def _create_so(so: SoState) -> None:
    """Create a storage object with its block size (deleted again if that is refused)."""
    rts = kernel.rtslib()
    if so.plugin == "block":
        obj = rts.BlockStorageObject(so.name, dev=so.path, wwn=so.serial, readonly=so.readonly)
    else:
        obj = rts.FileIOStorageObject(so.name, dev=so.path, size=so.size, wwn=so.serial)
    try:
        # only possible before the first export
        obj.set_attribute("block_size", str(so.block_size))
        if so.plugin == "block":
            _rescale_unmap_limits(obj)
        if so.unmap:
            _set_unmap(obj, True)
    except rts.RTSLibError:
        obj.delete()
        raise


def _set_unmap(obj: Any, enabled: bool) -> None:
    """Set every thin-provisioning attribute of a storage object."""
    for name in UNMAP_ATTRIBUTES:
        obj.set_attribute(name, "1" if enabled else "0")


def _rescale_unmap_limits(obj: Any) -> None:
    """Restate a block object's UNMAP limits in its logical blocks.

    LIO (kernel 6.1) computes them from the device's own block size when the object is
    created and keeps them when `block_size` is raised: a 4096-byte LUN on a 512-byte zvol
    would announce 8x the real granularity (initiators then skip smaller discards).
    """
    ratio = int(obj.get_attribute("block_size")) // int(obj.get_attribute("hw_block_size"))
    if ratio <= 1:
        return
    for name in ("max_unmap_lba_count", "unmap_granularity", "unmap_granularity_alignment"):
        value = int(obj.get_attribute(name))
        scaled = value // ratio
        if name != "unmap_granularity_alignment":
            scaled = max(scaled, 1 if value else 0)  # a limit that was set never becomes 0
        obj.set_attribute(name, str(scaled))


def _set_creds(node: Any, creds: Creds) -> None:
    """Write CHAP settings to a NodeACL or TPG ("" clears a value)."""
    node.chap_userid = creds.userid
    node.chap_password = creds.password
    node.chap_mutual_userid = creds.mutual_userid
    node.chap_mutual_password = creds.mutual_password
