"""Pure planning for LIO: desired state -> wanted LIO objects -> steps from the running ones.

No rtslib here: `lio.py` reads the kernel target into a `LioState` and runs the steps this
module plans, so the reconcile rules are testable on machines without LIO.

How panel settings map onto LIO (measured in the ZFS VM, see docs/facts.md):
- a target is `Target(iscsi, IQN)` with TPG 1; its portals are that TPG's network portals
  (a target limited to some portals gets only those, unlike tgt);
- a LUN is a TPG LUN over a storage object: `block` for `/dev/...` paths (zvols), `fileio`
  for plain files; storage-object names derive from the backing path (stable, unique);
  block size, serial (T10 unit serial), read-only (block) and the size of a plain file are
  fixed while the object is exported, so a difference re-creates the LUN;
- initiator names -> static node ACLs with every LUN mapped (rtslib does not auto-map),
  `generate_node_acls=0`; CHAP per ACL. Open to everyone -> demo mode
  (`generate_node_acls=1`), CHAP from the TPG-level auth settings;
- networks cannot be expressed (LIO ACLs are per initiator name): refused.

Order of steps on a target, so access is never wider than either state in between:
tighten (demo mode off, CHAP on, stale ACLs and mappings out, write-protect on), LUN
removals, storage objects, then additions and widening (ACLs in, CHAP off, demo mode on),
and a new target's TPG is enabled only once everything is in place.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from sharing.iscsi.base import Change
from sharing.iscsi.desired import DesiredState, LunSpec, TargetSpec
from sharing.iscsi.errors import UnsupportedByEngine

ENGINE = "lio"
FIRST_LUN = 0  # LUN 0 is an ordinary LUN in LIO
TPG_TAG = 1
MAX_AUTH_VALUE = 255  # configfs auth attributes take at most 255 characters
SO_PREFIX = "nasui_"
Plugin = Literal["block", "fileio"]
# TPG attributes the engine manages (values as configfs shows them: "0"/"1").
AUTHENTICATION = "authentication"
GENERATE_NODE_ACLS = "generate_node_acls"
CACHE_DYNAMIC_ACLS = "cache_dynamic_acls"
DEMO_MODE_WRITE_PROTECT = "demo_mode_write_protect"
TPG_ATTRIBUTES = (AUTHENTICATION, GENERATE_NODE_ACLS, CACHE_DYNAMIC_ACLS, DEMO_MODE_WRITE_PROTECT)
# 0 -> 1 narrows access for these, 1 -> 0 widens it (and the opposite for the others).
_NARROW_WHEN_ON = frozenset({AUTHENTICATION, DEMO_MODE_WRITE_PROTECT})


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


# -- validation and the wanted state ---------------------------------------------------------


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


def _creds(spec: TargetSpec) -> Creds:
    """The CHAP settings a target's auth mode asks for."""
    chap = spec.chap
    if spec.auth == "none" or chap is None:
        return Creds()
    if spec.auth == "mutual":
        return Creds(chap.user, chap.secret, chap.peer_user or "", chap.peer_secret or "")
    return Creds(chap.user, chap.secret)


def _wanted_so(lun: LunSpec, file_sizes: Mapping[str, int]) -> SoState:
    plugin = plugin_for(lun.path)
    return SoState(
        name=so_name(lun.path),
        plugin=plugin,
        path=lun.path,
        block_size=lun.block_size,
        readonly=lun.readonly and plugin == "block",
        serial=lun.serial,
        size=file_sizes.get(lun.path) if plugin == "fileio" else None,
    )


def _wanted_target(spec: TargetSpec, desired: DesiredState) -> TargetState:
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


def wanted_state(desired: DesiredState, file_sizes: Mapping[str, int]) -> LioState:
    """The LIO objects `desired` needs; `file_sizes` holds the size of each plain-file backing."""
    validate(desired)
    chap = desired.discovery_chap
    discovery = (
        Creds(chap.user, chap.secret, chap.peer_user or "", chap.peer_secret or "")
        if chap is not None
        else Creds()
    )
    return LioState(
        storage_objects=tuple(
            _wanted_so(lun, file_sizes) for spec in desired.targets for lun in spec.luns
        ),
        targets=tuple(_wanted_target(spec, desired) for spec in desired.targets),
        discovery=discovery,
        discovery_auth=chap is not None,
    )


# -- steps ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Step:
    """One operation on LIO; `change` is reported once it ran."""

    change: Change | None = None


@dataclass(frozen=True, kw_only=True)
class SetDiscovery(Step):
    creds: Creds
    enabled: bool


@dataclass(frozen=True, kw_only=True)
class DeleteTarget(Step):
    iqn: str


@dataclass(frozen=True, kw_only=True)
class CreateTarget(Step):
    iqn: str  # with TPG 1, left disabled


@dataclass(frozen=True, kw_only=True)
class EnableTpg(Step):
    iqn: str
    enabled: bool


@dataclass(frozen=True, kw_only=True)
class SetTpgAttribute(Step):
    iqn: str
    name: str
    value: str


@dataclass(frozen=True, kw_only=True)
class SetTpgAuth(Step):
    iqn: str
    creds: Creds


@dataclass(frozen=True, kw_only=True)
class AddPortal(Step):
    iqn: str
    ip: str
    port: int


@dataclass(frozen=True, kw_only=True)
class DeletePortal(Step):
    iqn: str
    ip: str
    port: int


@dataclass(frozen=True, kw_only=True)
class CreateSo(Step):
    so: SoState  # serial already resolved


@dataclass(frozen=True, kw_only=True)
class DeleteSo(Step):
    name: str
    plugin: Plugin


@dataclass(frozen=True, kw_only=True)
class CreateLun(Step):
    iqn: str
    lun: int
    so_name: str
    plugin: Plugin


@dataclass(frozen=True, kw_only=True)
class DeleteLun(Step):
    iqn: str
    lun: int  # its mapped LUNs go with it


@dataclass(frozen=True, kw_only=True)
class CreateAcl(Step):
    iqn: str
    initiator: str


@dataclass(frozen=True, kw_only=True)
class DeleteAcl(Step):
    iqn: str
    initiator: str


@dataclass(frozen=True, kw_only=True)
class SetAclAuth(Step):
    iqn: str
    initiator: str
    creds: Creds


@dataclass(frozen=True, kw_only=True)
class MapLun(Step):
    iqn: str
    initiator: str
    mapped: MappedLun


@dataclass(frozen=True, kw_only=True)
class UnmapLun(Step):
    iqn: str
    initiator: str
    mapped_lun: int


@dataclass(frozen=True, kw_only=True)
class SetWriteProtect(Step):
    iqn: str
    initiator: str
    mapped_lun: int
    write_protect: bool


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


def _ro_words(on: bool) -> str:
    return "read-only" if on else "read-write"


class Planner:
    """Builds the step list turning `running` into `wanted` (see the module docstring)."""

    def __init__(self, wanted: LioState, running: LioState) -> None:
        self.wanted = wanted
        self.running = running
        self.steps: list[Step] = []
        # storage objects to (re-)create -> the reasons (empty list: new)
        self.so_reasons: dict[str, list[str]] = {}
        for so in wanted.storage_objects:
            have = running.so(so.name)
            if have is None:
                self.so_reasons[so.name] = []
            elif reasons := so_differences(so, have):
                self.so_reasons[so.name] = reasons
        # LUNs (iqn, lun) removed during this plan: their mappings are gone too
        self.dropped: set[tuple[str, int]] = set()
        # TPG attributes already set by this plan (iqn, name)
        self.attributes_set: set[tuple[str, str]] = set()

    def plan(self) -> list[Step]:
        """Every step, in a safe order."""
        if self.wanted.discovery_auth and self._discovery_differs():
            self._discovery()
        for target in self.running.targets:
            if self.wanted.target(target.iqn) is None:
                self.steps.append(
                    DeleteTarget(iqn=target.iqn, change=Change("remove", "target", target.iqn))
                )
        for want in self.wanted.targets:
            have = self.running.target(want.iqn)
            if have is not None:
                self._tighten(want, have)
                self._drop_luns(want, have)
        self._storage_objects()
        for want in self.wanted.targets:
            self._build(want, self.running.target(want.iqn))
        if not self.wanted.discovery_auth and self._discovery_differs():
            self._discovery()
        return self.steps

    # -- discovery ------------------------------------------------------------------------

    def _discovery_differs(self) -> bool:
        w, r = self.wanted, self.running
        return w.discovery_auth != r.discovery_auth or (
            w.discovery_auth and w.discovery != r.discovery
        )

    def _discovery(self) -> None:
        w = self.wanted
        if not w.discovery_auth:
            change = Change("remove", "discovery", self.running.discovery.userid or "CHAP")
        elif not self.running.discovery_auth:
            change = Change("add", "discovery", w.discovery.userid, detail=_mode(w.discovery))
        else:
            change = Change("change", "discovery", w.discovery.userid, detail=_mode(w.discovery))
        self.steps.append(SetDiscovery(creds=w.discovery, enabled=w.discovery_auth, change=change))

    # -- an existing target: narrow access first ------------------------------------------

    def _attribute(
        self, iqn: str, name: str, value: str, have: Mapping[str, str], *, report: bool = True
    ) -> None:
        if have.get(name) == value or (iqn, name) in self.attributes_set:
            return
        self.attributes_set.add((iqn, name))
        change = Change("change", "target", iqn, detail=f"{name}={value}") if report else None
        self.steps.append(SetTpgAttribute(iqn=iqn, name=name, value=value, change=change))

    def _narrowing(self, name: str, value: str) -> bool:
        """Whether setting `name` to `value` narrows access (or leaves it as narrow)."""
        on = value == "1"
        return on if name in _NARROW_WHEN_ON else not on

    def _tighten(self, want: TargetState, have: TargetState) -> None:
        iqn = want.iqn
        for name in (GENERATE_NODE_ACLS, CACHE_DYNAMIC_ACLS):
            if self._narrowing(name, want.attributes[name]):
                self._attribute(iqn, name, want.attributes[name], have.attributes)
        if want.auth != have.auth and not want.auth.empty:
            self._tpg_auth(want)
        if self._narrowing(AUTHENTICATION, want.attributes[AUTHENTICATION]):
            self._attribute(iqn, AUTHENTICATION, want.attributes[AUTHENTICATION], have.attributes)
        if self._narrowing(DEMO_MODE_WRITE_PROTECT, want.attributes[DEMO_MODE_WRITE_PROTECT]):
            self._attribute(
                iqn,
                DEMO_MODE_WRITE_PROTECT,
                want.attributes[DEMO_MODE_WRITE_PROTECT],
                have.attributes,
            )
        for acl in have.acls:
            wanted_acl = want.acl(acl.initiator)
            if wanted_acl is None:
                self.steps.append(
                    DeleteAcl(
                        iqn=iqn,
                        initiator=acl.initiator,
                        change=Change("remove", "acl", acl.initiator, iqn),
                    )
                )
                continue
            if acl.creds != wanted_acl.creds:
                self.steps.append(
                    SetAclAuth(
                        iqn=iqn,
                        initiator=acl.initiator,
                        creds=wanted_acl.creds,
                        change=Change("change", "acl", acl.initiator, iqn, _mode(wanted_acl.creds)),
                    )
                )
            self._tighten_mappings(iqn, acl, wanted_acl)
        for ip, port in have.portals:
            if (ip, port) not in want.portals:
                self.steps.append(
                    DeletePortal(
                        iqn=iqn,
                        ip=ip,
                        port=port,
                        change=Change("remove", "portal", _endpoint(ip, port), iqn),
                    )
                )

    def _tighten_mappings(self, iqn: str, have: AclState, want: AclState) -> None:
        wanted = {m.mapped_lun: m for m in want.mapped}
        for m in have.mapped:
            w = wanted.get(m.mapped_lun)
            if w is None or w.tpg_lun != m.tpg_lun:
                self.steps.append(
                    UnmapLun(iqn=iqn, initiator=have.initiator, mapped_lun=m.mapped_lun)
                )
            elif w.write_protect and not m.write_protect:
                self._write_protect(iqn, have.initiator, w)

    def _write_protect(self, iqn: str, initiator: str, m: MappedLun) -> None:
        detail = f"LUN {m.mapped_lun} {_ro_words(m.write_protect)}"
        self.steps.append(
            SetWriteProtect(
                iqn=iqn,
                initiator=initiator,
                mapped_lun=m.mapped_lun,
                write_protect=m.write_protect,
                change=Change("change", "acl", initiator, iqn, detail),
            )
        )

    def _tpg_auth(self, want: TargetState) -> None:
        user = want.auth.userid or "CHAP"
        self.steps.append(
            SetTpgAuth(
                iqn=want.iqn,
                creds=want.auth,
                change=Change("change", "binding", user, want.iqn, _mode(want.auth)),
            )
        )

    def _drop_luns(self, want: TargetState, have: TargetState) -> None:
        """Remove stale LUNs and those whose storage object changes."""
        wanted = dict(want.luns)
        for lun, name in have.luns:
            if lun not in wanted:
                change = Change("remove", "lun", str(lun), want.iqn)
            elif wanted[lun] != name or name in self.so_reasons:
                change = None  # reported once re-created
            else:
                continue
            self.steps.append(DeleteLun(iqn=want.iqn, lun=lun, change=change))
            self.dropped.add((want.iqn, lun))

    # -- storage objects ------------------------------------------------------------------

    def _storage_objects(self) -> None:
        wanted = {so.name for so in self.wanted.storage_objects}
        for so in self.running.storage_objects:
            if so.name not in wanted or so.name in self.so_reasons:
                self.steps.append(DeleteSo(name=so.name, plugin=so.plugin))
        for so in self.wanted.storage_objects:
            if so.name in self.so_reasons:
                serial = so.serial or default_serial(so.path)
                self.steps.append(CreateSo(so=replace(so, serial=serial)))

    # -- additions and widening -----------------------------------------------------------

    def _build(self, want: TargetState, have: TargetState | None) -> None:
        iqn = want.iqn
        new = have is None
        if have is None:
            self.steps.append(CreateTarget(iqn=iqn, change=Change("add", "target", iqn)))
            have = TargetState(iqn=iqn)
            if not want.auth.empty:
                self.steps.append(SetTpgAuth(iqn=iqn, creds=want.auth))
        for ip, port in want.portals:
            if (ip, port) not in have.portals:
                self.steps.append(
                    AddPortal(
                        iqn=iqn,
                        ip=ip,
                        port=port,
                        change=Change("add", "portal", _endpoint(ip, port), iqn),
                    )
                )
        self._add_luns(want, have)
        self._add_acls(want, have)
        for name in TPG_ATTRIBUTES:
            self._attribute(iqn, name, want.attributes[name], have.attributes, report=not new)
        if want.auth != have.auth and want.auth.empty:
            self._tpg_auth(want)
        if not have.enabled:
            self.steps.append(EnableTpg(iqn=iqn, enabled=True))

    def _add_luns(self, want: TargetState, have: TargetState) -> None:
        running = dict(have.luns)
        for lun, name in want.luns:
            if lun in running and (want.iqn, lun) not in self.dropped:
                continue
            so = next(s for s in self.wanted.storage_objects if s.name == name)
            if lun in running:
                reasons = self.so_reasons.get(name) or [f"backing {so.path}"]
                change = Change("change", "lun", str(lun), want.iqn, ", ".join(reasons))
            else:
                detail = f"{so.path}, {so.block_size}-byte blocks"
                change = Change("add", "lun", str(lun), want.iqn, detail)
            self.steps.append(
                CreateLun(iqn=want.iqn, lun=lun, so_name=name, plugin=so.plugin, change=change)
            )

    def _add_acls(self, want: TargetState, have: TargetState) -> None:
        for acl in want.acls:
            existing = have.acl(acl.initiator)
            if existing is None:
                self.steps.append(
                    CreateAcl(
                        iqn=want.iqn,
                        initiator=acl.initiator,
                        change=Change("add", "acl", acl.initiator, want.iqn, _mode(acl.creds)),
                    )
                )
                if not acl.creds.empty:
                    self.steps.append(
                        SetAclAuth(iqn=want.iqn, initiator=acl.initiator, creds=acl.creds)
                    )
                mapped: dict[int, MappedLun] = {}
            else:
                mapped = {m.mapped_lun: m for m in existing.mapped}
            for m in acl.mapped:
                h = mapped.get(m.mapped_lun)
                gone = (want.iqn, m.tpg_lun) in self.dropped
                if h is None or h.tpg_lun != m.tpg_lun or gone:
                    self.steps.append(MapLun(iqn=want.iqn, initiator=acl.initiator, mapped=m))
                elif h.write_protect and not m.write_protect:
                    self._write_protect(want.iqn, acl.initiator, m)


def _mode(creds: Creds) -> str:
    if creds.empty:
        return "no CHAP"
    return "mutual CHAP" if creds.mutual_userid else "CHAP"


def _endpoint(ip: str, port: int) -> str:
    return f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"


def plan(wanted: LioState, running: LioState) -> list[Step]:
    """The steps turning `running` into `wanted` (none when they already match)."""
    return Planner(wanted, running).plan()
