"""What LIO can express faithfully, and how panel settings map onto LIO objects.

Measured in the ZFS VM (see docs/facts.md):
- a target is `Target(iscsi, IQN)` with TPG 1; its portals are that TPG's network portals
  (a target limited to some portals gets only those, unlike tgt);
- a LUN is a TPG LUN over a storage object: `block` for `/dev/...` paths (zvols), `fileio`
  for plain files; storage-object names derive from the backing path (stable, unique);
  block size, serial (T10 unit serial), read-only (block) and the size of a plain file are
  fixed while the object is exported, so a difference re-creates the LUN;
- every LUN is thin-provisioned (UNMAP, WRITE SAME with UNMAP: a zvol frees the blocks, a
  file gets holes punched) unless its block device cannot discard; LIO changes that in place;
- initiator names -> static node ACLs with every LUN mapped (rtslib does not auto-map),
  `generate_node_acls=0`; CHAP per ACL. Open to everyone -> demo mode
  (`generate_node_acls=1`), CHAP from the TPG-level auth settings;
- networks cannot be expressed (LIO ACLs are per initiator name): refused.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Collection, Mapping, Sequence

from sharing.iscsi.engine.desired import DesiredState, LunSpec, TargetSpec
from sharing.iscsi.engine.errors import UnsupportedByEngine
from sharing.iscsi.engine.lio.state import (
    AUTHENTICATION,
    CACHE_DYNAMIC_ACLS,
    DEMO_MODE_WRITE_PROTECT,
    GENERATE_NODE_ACLS,
    AclState,
    Creds,
    LioState,
    MappedLun,
    Plugin,
    SoState,
    TargetState,
)

ENGINE = "lio"
FIRST_LUN = 0  # LUN 0 is an ordinary LUN in LIO
MAX_AUTH_VALUE = 255  # configfs auth attributes take at most 255 characters
SO_PREFIX = "nasui_"


def refuse(message: str) -> UnsupportedByEngine:
    """The error for a setting LIO cannot express faithfully."""
    return UnsupportedByEngine(ENGINE, message)


def plugin_for(path: str) -> Plugin:
    """`block` for device paths (zvols, disks), `fileio` for plain files."""
    return "block" if path.startswith("/dev/") else "fileio"


def so_name(path: str) -> str:
    """A stable, unique storage-object name for a backing path (no `/`, no spaces)."""
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", path.strip("/"))[-40:].strip("_") or "root"
    digest = hashlib.sha256(path.encode()).hexdigest()[:10]
    return f"{SO_PREFIX}{readable}_{digest}"


def default_serial(path: str) -> str:
    """The T10 unit serial given to a LUN without one: stable for its backing path."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"nasui-lio:{path}"))


def so_differences(wanted: SoState, running: SoState) -> list[str]:
    """Why a running storage object must be re-created to match (empty: it matches)."""
    reasons = []
    if running.plugin != wanted.plugin or running.path != wanted.path:
        reasons.append(f"backing {running.path} -> {wanted.path}")
    if running.block_size != wanted.block_size:
        reasons.append(f"block size {running.block_size} -> {wanted.block_size}")
    if running.readonly != wanted.readonly:
        reasons.append("read-only on" if wanted.readonly else "read-only off")
    if wanted.serial is not None and running.serial != wanted.serial:
        reasons.append(f"serial {wanted.serial}")
    if wanted.size is not None and running.size != wanted.size:
        reasons.append(f"size now {wanted.size} bytes")
    return reasons


# -- validation ------------------------------------------------------------------------------


def _check_creds_length(owner: str, *values: str | None) -> None:
    """configfs refuses auth values longer than 255 characters."""
    if any(v is not None and len(v) > MAX_AUTH_VALUE for v in values):
        raise refuse(f"{owner}: LIO takes CHAP users and secrets of at most 255 characters")


def validate(desired: DesiredState) -> None:
    """Raise UnsupportedByEngine for anything LIO would get wrong or weaker."""
    for spec in desired.targets:
        if spec.networks:
            raise refuse(
                f"{spec.iqn}: LIO ACLs are per initiator name; it cannot limit access by "
                f"network ({', '.join(spec.networks)}); use initiator names, or a firewall"
            )
        if spec.open_to_all:
            ro_files = [
                lun.lun for lun in spec.luns if lun.readonly and plugin_for(lun.path) == "fileio"
            ]
            if ro_files and not all(lun.readonly for lun in spec.luns):
                raise refuse(
                    f"{spec.iqn}: LUN {ro_files[0]} is a read-only plain file; open to everyone, "
                    "LIO can write-protect a file only for all LUNs of the target at once: "
                    "list initiators, or make every LUN read-only"
                )
        if spec.chap is not None:
            chap = spec.chap
            _check_creds_length(spec.iqn, chap.user, chap.secret, chap.peer_user, chap.peer_secret)
        for lun in spec.luns:
            if "\n" in lun.path or "," in lun.path:
                raise refuse(f"{lun.path}: LIO cannot use a backing path with ',' or a newline")
    if desired.discovery_chap is not None:
        chap = desired.discovery_chap
        _check_creds_length("discovery", chap.user, chap.secret, chap.peer_user, chap.peer_secret)


# -- the wanted state ------------------------------------------------------------------------


def _creds(spec: TargetSpec) -> Creds:
    """The CHAP settings a target's auth mode asks for."""
    chap = spec.chap
    if spec.auth == "none" or chap is None:
        return Creds()
    if spec.auth == "mutual":
        return Creds(chap.user, chap.secret, chap.peer_user or "", chap.peer_secret or "")
    return Creds(chap.user, chap.secret)


def _wanted_so(lun: LunSpec, file_sizes: Mapping[str, int], no_discard: Collection[str]) -> SoState:
    """The storage object one LUN needs."""
    plugin = plugin_for(lun.path)
    return SoState(
        name=so_name(lun.path),
        plugin=plugin,
        path=lun.path,
        block_size=lun.block_size,
        readonly=lun.readonly and plugin == "block",
        serial=lun.serial,
        size=file_sizes.get(lun.path) if plugin == "fileio" else None,
        unmap=lun.path not in no_discard,
    )


def _wanted_target(spec: TargetSpec, desired: DesiredState) -> TargetState:
    """The target, TPG attributes, ACLs and mappings one target spec needs."""
    creds = _creds(spec)
    portals = spec.portals or desired.portals
    luns = tuple((lun.lun, so_name(lun.path)) for lun in spec.luns)
    everyone = spec.open_to_all
    all_ro = bool(spec.luns) and all(lun.readonly for lun in spec.luns)
    attributes = {
        AUTHENTICATION: "1" if spec.auth != "none" else "0",
        GENERATE_NODE_ACLS: "1" if everyone else "0",
        CACHE_DYNAMIC_ACLS: "1" if everyone else "0",
        DEMO_MODE_WRITE_PROTECT: "1" if everyone and all_ro else "0",
    }
    mapped = tuple(MappedLun(lun.lun, lun.lun, lun.readonly) for lun in spec.luns)
    acls = () if everyone else tuple(AclState(i, creds, mapped) for i in sorted(spec.initiators))
    return TargetState(
        iqn=spec.iqn,
        enabled=True,
        attributes=attributes,
        auth=creds if everyone else Creds(),
        portals=tuple(sorted((p.ip, p.port) for p in portals)),
        luns=luns,
        acls=acls,
    )


def wanted_state(
    desired: DesiredState, file_sizes: Mapping[str, int], no_discard: Collection[str] = ()
) -> LioState:
    """The LIO objects `desired` needs.

    `file_sizes` holds the size of each plain-file backing; `no_discard` names the block
    devices that cannot discard (LIO refuses UNMAP on those, so their LUNs stay thick).
    """
    validate(desired)
    chap = desired.discovery_chap
    discovery = (
        Creds(chap.user, chap.secret, chap.peer_user or "", chap.peer_secret or "")
        if chap is not None
        else Creds()
    )
    return LioState(
        storage_objects=tuple(
            _wanted_so(lun, file_sizes, no_discard) for spec in desired.targets for lun in spec.luns
        ),
        targets=tuple(_wanted_target(spec, desired) for spec in desired.targets),
        discovery=discovery,
        discovery_auth=chap is not None,
    )


# What an initiator group may hold with this engine, said where the user fills one in.
GROUP_HINT = "LIO admits initiators by IQN only: networks cannot be used (use a firewall)."


def initiator_group_problem(initiators: Sequence[str], networks: Sequence[str]) -> str | None:
    """Why LIO cannot enforce this group as written, or None."""
    if networks:
        return (
            "The LIO target admits initiators by IQN only and cannot limit by network: list "
            "the initiators' IQNs (and use a firewall for addresses)."
        )
    return None


# What a portal may be with this engine, said where the user makes one.
PORTAL_HINT = "Each target listens only on the portals chosen for it."


def portal_problem(existing: Sequence[int]) -> str | None:
    """LIO gives each target its own portals: any number of portals is fine."""
    return None
