"""LIO's configuration as plain frozen data: running (from `parsing`) or wanted (from `rules`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Plugin = Literal["block", "fileio"]
TPG_TAG = 1  # every target gets one TPG, tag 1
# TPG attributes the engine manages (values as configfs shows them: "0"/"1").
AUTHENTICATION = "authentication"
GENERATE_NODE_ACLS = "generate_node_acls"
CACHE_DYNAMIC_ACLS = "cache_dynamic_acls"
DEMO_MODE_WRITE_PROTECT = "demo_mode_write_protect"
TPG_ATTRIBUTES = (AUTHENTICATION, GENERATE_NODE_ACLS, CACHE_DYNAMIC_ACLS, DEMO_MODE_WRITE_PROTECT)
# Storage-object attributes of thin provisioning: UNMAP, and WRITE SAME with the UNMAP bit.
# Both advertise LBPME in READ CAPACITY(16); LIO takes them while the object is exported.
UNMAP_ATTRIBUTES = ("emulate_tpu", "emulate_tpws")


@dataclass(frozen=True)
class Creds:
    """CHAP settings of an ACL, a TPG or discovery ("" when unset, as configfs shows NULL)."""

    userid: str = ""
    password: str = field(default="", repr=False)
    mutual_userid: str = ""
    mutual_password: str = field(default="", repr=False)

    @property
    def empty(self) -> bool:
        """Whether nothing is set."""
        return self == Creds()


@dataclass(frozen=True)
class SoState:
    """A storage object. `serial` None (wanted only): keep whatever the object has."""

    name: str
    plugin: Plugin
    path: str
    block_size: int
    readonly: bool = False
    serial: str | None = None
    size: int | None = None  # bytes, for fileio over a plain file only
    unmap: bool = False  # thin provisioning: every UNMAP_ATTRIBUTES on


@dataclass(frozen=True)
class MappedLun:
    """A LUN mapped into a node ACL."""

    mapped_lun: int
    tpg_lun: int
    write_protect: bool = False


@dataclass(frozen=True)
class AclState:
    """A static node ACL: the initiator, its CHAP settings and its mapped LUNs."""

    initiator: str
    creds: Creds = Creds()
    mapped: tuple[MappedLun, ...] = ()


@dataclass(frozen=True)
class TargetState:
    """An iSCSI target with its TPG 1."""

    iqn: str
    enabled: bool = False
    attributes: Mapping[str, str] = field(default_factory=dict)
    auth: Creds = Creds()
    portals: tuple[tuple[str, int], ...] = ()
    luns: tuple[tuple[int, str], ...] = ()  # (lun id, storage object name)
    acls: tuple[AclState, ...] = ()

    def acl(self, initiator: str) -> AclState | None:
        """The ACL of one initiator, if any."""
        return next((a for a in self.acls if a.initiator == initiator), None)


@dataclass(frozen=True)
class LioState:
    """Storage objects, iSCSI targets and discovery auth, running or wanted."""

    storage_objects: tuple[SoState, ...] = ()
    targets: tuple[TargetState, ...] = ()
    discovery: Creds = Creds()
    discovery_auth: bool = False

    def target(self, iqn: str) -> TargetState | None:
        """The target with this name, if any."""
        return next((t for t in self.targets if t.iqn == iqn), None)

    def so(self, name: str) -> SoState | None:
        """The storage object with this name, if any."""
        return next((s for s in self.storage_objects if s.name == name), None)
