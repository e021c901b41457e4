"""Planning for LIO: the steps that turn the running LIO objects into the wanted ones.

Pure data in, pure data out (no rtslib), so the reconcile rules are testable anywhere.
Order of steps on a target, so access is never wider than either state in between:
tighten (demo mode off, CHAP on, stale ACLs and mappings out, write-protect on), LUN
removals, storage objects, then additions and widening (ACLs in, CHAP off, demo mode on),
and a new target's TPG is enabled only once everything is in place. Thin provisioning
(UNMAP) is switched in place on a kept storage object; a new one is created with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sharing.iscsi.engine.base import Change
from sharing.iscsi.engine.desired import endpoint
from sharing.iscsi.engine.lio.rules import default_serial, so_differences
from sharing.iscsi.engine.lio.state import (
    AUTHENTICATION,
    CACHE_DYNAMIC_ACLS,
    DEMO_MODE_WRITE_PROTECT,
    GENERATE_NODE_ACLS,
    TPG_ATTRIBUTES,
    AclState,
    Creds,
    LioState,
    MappedLun,
    TargetState,
)
from sharing.iscsi.engine.lio.steps import (
    AddPortal,
    CreateAcl,
    CreateLun,
    CreateSo,
    CreateTarget,
    DeleteAcl,
    DeleteLun,
    DeletePortal,
    DeleteSo,
    DeleteTarget,
    EnableTpg,
    MapLun,
    SetAclAuth,
    SetDiscovery,
    SetTpgAttribute,
    SetTpgAuth,
    SetUnmap,
    SetWriteProtect,
    Step,
    UnmapLun,
)

# 0 -> 1 narrows access for these, 1 -> 0 widens it (and the opposite for the others).
_NARROW_WHEN_ON = frozenset({AUTHENTICATION, DEMO_MODE_WRITE_PROTECT})


def _ro_words(m: MappedLun) -> str:
    """How a mapping's write protection reads in a change line."""
    return "read-only" if m.write_protect else "read-write"


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
        # storage objects whose thin provisioning this plan already switched
        self.unmap_set: set[str] = set()

    def plan(self) -> list[Step]:
        """Every step, in a safe order."""
        if self.wanted.discovery_auth and self._discovery_differs():
            self._discovery()
        for target in self.running.targets:
            if self.wanted.target(target.iqn) is None:
                change = Change("remove", "target", target.iqn)
                self.steps.append(DeleteTarget(iqn=target.iqn, change=change))
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
        """Whether discovery CHAP must be set, changed or cleared."""
        w, r = self.wanted, self.running
        return w.discovery_auth != r.discovery_auth or (
            w.discovery_auth and w.discovery != r.discovery
        )

    def _discovery(self) -> None:
        """Set discovery CHAP as wanted."""
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
        """Set one TPG attribute unless it already has the value or this plan set it."""
        if have.get(name) == value or (iqn, name) in self.attributes_set:
            return
        self.attributes_set.add((iqn, name))
        change = Change("change", "target", iqn, detail=f"{name}={value}") if report else None
        self.steps.append(SetTpgAttribute(iqn=iqn, name=name, value=value, change=change))

    def _narrowing(self, name: str, value: str) -> bool:
        """Whether setting `name` to `value` narrows access (or leaves it as narrow)."""
        on = value == "1"
        return on if name in _NARROW_WHEN_ON else not on

    def _narrow(self, want: TargetState, have: TargetState, *names: str) -> None:
        """Set those of these attributes whose wanted value narrows access."""
        for name in names:
            if self._narrowing(name, want.attributes[name]):
                self._attribute(want.iqn, name, want.attributes[name], have.attributes)

    def _tighten(self, want: TargetState, have: TargetState) -> None:
        """Demo mode off, CHAP on, stale ACLs, mappings and portals out, write-protect on."""
        iqn = want.iqn
        self._narrow(want, have, GENERATE_NODE_ACLS, CACHE_DYNAMIC_ACLS)
        if want.auth != have.auth and not want.auth.empty:
            self._tpg_auth(want)
        self._narrow(want, have, AUTHENTICATION, DEMO_MODE_WRITE_PROTECT)
        for acl in have.acls:
            wanted_acl = want.acl(acl.initiator)
            if wanted_acl is None:
                change = Change("remove", "acl", acl.initiator, iqn)
                self.steps.append(DeleteAcl(iqn=iqn, initiator=acl.initiator, change=change))
                continue
            if acl.creds != wanted_acl.creds:
                creds = wanted_acl.creds
                change = Change("change", "acl", acl.initiator, iqn, _mode(creds))
                self.steps.append(
                    SetAclAuth(iqn=iqn, initiator=acl.initiator, creds=creds, change=change)
                )
            self._tighten_mappings(iqn, acl, wanted_acl)
        for ip, port in have.portals:
            if (ip, port) not in want.portals:
                change = Change("remove", "portal", endpoint(ip, port), iqn)
                self.steps.append(DeletePortal(iqn=iqn, ip=ip, port=port, change=change))

    def _tighten_mappings(self, iqn: str, have: AclState, want: AclState) -> None:
        """Unmap stale or moved LUNs; write-protect mappings that become read-only."""
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
        """Set one mapping's write protection as `m` wants it."""
        change = Change("change", "acl", initiator, iqn, f"LUN {m.mapped_lun} {_ro_words(m)}")
        self.steps.append(
            SetWriteProtect(
                iqn=iqn,
                initiator=initiator,
                mapped_lun=m.mapped_lun,
                write_protect=m.write_protect,
                change=change,
            )
        )

    def _tpg_auth(self, want: TargetState) -> None:
        """Set the TPG-level CHAP settings (demo mode's)."""
        change = Change("change", "binding", want.auth.userid or "CHAP", want.iqn, _mode(want.auth))
        self.steps.append(SetTpgAuth(iqn=want.iqn, creds=want.auth, change=change))

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
        """Delete stale or differing storage objects, then create the missing ones."""
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
        """Create or complete a target, widen access last and enable its TPG once ready."""
        iqn = want.iqn
        new = have is None
        if have is None:
            self.steps.append(CreateTarget(iqn=iqn, change=Change("add", "target", iqn)))
            have = TargetState(iqn=iqn)
            if not want.auth.empty:
                self.steps.append(SetTpgAuth(iqn=iqn, creds=want.auth))
        for ip, port in want.portals:
            if (ip, port) not in have.portals:
                change = Change("add", "portal", endpoint(ip, port), iqn)
                self.steps.append(AddPortal(iqn=iqn, ip=ip, port=port, change=change))
        self._add_luns(want, have)
        self._unmap(want)
        self._add_acls(want, have)
        for name in TPG_ATTRIBUTES:
            self._attribute(iqn, name, want.attributes[name], have.attributes, report=not new)
        if want.auth != have.auth and want.auth.empty:
            self._tpg_auth(want)
        if not have.enabled:
            self.steps.append(EnableTpg(iqn=iqn, enabled=True))

    def _add_luns(self, want: TargetState, have: TargetState) -> None:
        """Export missing LUNs and re-export those dropped for a new storage object."""
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

    def _unmap(self, want: TargetState) -> None:
        """Switch thin provisioning of kept storage objects in place (LIO allows it live)."""
        for lun, name in want.luns:
            so, running = self.wanted.so(name), self.running.so(name)
            if so is None or running is None or name in self.so_reasons:
                continue  # created with it
            if so.unmap == running.unmap or name in self.unmap_set:
                continue
            self.unmap_set.add(name)
            detail = "UNMAP on" if so.unmap else "UNMAP off"
            change = Change("change", "lun", str(lun), want.iqn, detail)
            self.steps.append(
                SetUnmap(name=name, plugin=so.plugin, enabled=so.unmap, change=change)
            )

    def _add_acls(self, want: TargetState, have: TargetState) -> None:
        """Create missing ACLs with their CHAP, map LUNs, lift write protection."""
        for acl in want.acls:
            existing = have.acl(acl.initiator)
            if existing is None:
                change = Change("add", "acl", acl.initiator, want.iqn, _mode(acl.creds))
                self.steps.append(CreateAcl(iqn=want.iqn, initiator=acl.initiator, change=change))
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
    """How CHAP settings read in a change line (never the secrets)."""
    if creds.empty:
        return "no CHAP"
    return "mutual CHAP" if creds.mutual_userid else "CHAP"


def plan(wanted: LioState, running: LioState) -> list[Step]:
    """The steps turning `running` into `wanted` (none when they already match)."""
    return Planner(wanted, running).plan()
