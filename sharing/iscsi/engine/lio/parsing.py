"""Reading what LIO holds (rtslib objects over configfs) into plain `LioState` and sessions.

Only iSCSI targets, TPG 1 and block/fileio storage objects are read: the engine manages
nothing else. The callers wrap these in `kernel.guard`, which turns rtslib errors into ours.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sharing.iscsi.engine.base import Session
from sharing.iscsi.engine.lio.state import (
    TPG_ATTRIBUTES,
    TPG_TAG,
    UNMAP_ATTRIBUTES,
    AclState,
    Creds,
    LioState,
    MappedLun,
    SoState,
    TargetState,
)


def strip_brackets(ip: str) -> str:
    """An address as the state spells it: rtslib shows IPv6 portals in brackets."""
    return ip[1:-1] if ip.startswith("[") and ip.endswith("]") else ip


def creds(node: Any) -> Creds:
    """CHAP settings of a NodeACL or TPG ("" for unset)."""
    return Creds(
        node.chap_userid or "",
        node.chap_password or "",
        node.chap_mutual_userid or "",
        node.chap_mutual_password or "",
    )


def read_state(root: Any, fabric: Any) -> LioState:
    """LIO's configuration: storage objects and iSCSI targets from `root`, discovery auth."""
    sos = []
    for so in root.storage_objects:
        if so.plugin not in ("block", "fileio"):
            continue
        size = None
        if so.plugin == "fileio" and not so.is_block:
            size = int(so.size)
        sos.append(
            SoState(
                name=so.name,
                plugin=so.plugin,
                path=so.udev_path,
                block_size=int(so.get_attribute("block_size")),
                readonly=bool(so.readonly) if so.plugin == "block" else False,
                serial=so.wwn,
                size=size,
                unmap=all(so.get_attribute(a) == "1" for a in UNMAP_ATTRIBUTES),
            )
        )
    targets = [read_target(t) for t in root.targets if t.fabric_module.name == "iscsi"]
    enabled = bool(fabric.discovery_enable_auth)
    discovery = Creds(
        fabric.discovery_userid or "",
        fabric.discovery_password or "",
        fabric.discovery_mutual_userid or "",
        fabric.discovery_mutual_password or "",
    )
    return LioState(tuple(sos), tuple(targets), discovery, enabled)


def read_target(target: Any) -> TargetState:
    """One rtslib Target with its TPG 1: attributes, auth, portals, LUNs and ACLs."""
    tpg = next((t for t in target.tpgs if t.tag == TPG_TAG), None)
    if tpg is None:
        return TargetState(iqn=target.wwn)
    acls = []
    for acl in tpg.node_acls:
        mapped = sorted(
            (
                MappedLun(m.mapped_lun, m.tpg_lun.lun, bool(m.write_protect))
                for m in acl.mapped_luns
            ),
            key=lambda m: m.mapped_lun,
        )
        acls.append(AclState(acl.node_wwn, creds(acl), tuple(mapped)))
    return TargetState(
        iqn=target.wwn,
        enabled=bool(tpg.enable),
        attributes={a: str(tpg.get_attribute(a)) for a in TPG_ATTRIBUTES},
        auth=creds(tpg),
        portals=tuple(
            sorted((strip_brackets(np.ip_address), int(np.port)) for np in tpg.network_portals)
        ),
        luns=tuple(sorted((lun.lun, lun.storage_object.name) for lun in tpg.luns)),
        acls=tuple(sorted(acls, key=lambda a: a.initiator)),
    )


def sessions(root: Any) -> Iterator[Session]:
    """Logged-in initiators: static ACL sessions with addresses, demo-mode ones by name."""
    for target in root.targets:
        if target.fabric_module.name != "iscsi":
            continue
        for tpg in target.tpgs:
            for acl in tpg.node_acls:
                info = acl.session
                if not info or info.get("type") == "Discovery":
                    continue
                conns = info.get("connections") or [{"cid": 0, "address": ""}]
                for conn in conns:
                    yield Session(
                        target=target.wwn,
                        initiator=acl.node_wwn,
                        address=str(conn.get("address", "")),
                        session_id=int(info.get("id", 0)),
                        connection_id=int(conn.get("cid", 0)),
                        alias=str(info.get("alias", "")),
                    )
            # demo-mode sessions have no ACL object: configfs lists only their names
            dynamic = Path(tpg.path) / "dynamic_sessions"
            with contextlib.suppress(OSError):
                for name in dynamic.read_text().split():
                    yield Session(target=target.wwn, initiator=name, address="", session_id=0)
