"""The LIO engine: the Linux kernel iSCSI target reconciled with the desired state via rtslib-fb.

LIO has no daemon: "running" means the target core is loaded and configfs is mounted.
`start` loads the modules, mounts configfs and restores the save file (if any); `apply`
reads LIO into plain data, plans with `lioplan` and runs the steps through rtslib, then
saves the configuration; `stop` clears every target and storage object.

The engine owns LIO's whole configuration (like the tgt engine owns its tgtd): targets and
storage objects the desired state does not name are removed. Target aliases are ignored.
rtslib_fb is imported lazily so this module imports on machines without it.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from sharing.iscsi import lioplan as lp
from sharing.iscsi.base import Change, ChangeReport, Session
from sharing.iscsi.desired import DesiredState
from sharing.iscsi.errors import (
    BackingStoreMissing,
    EngineFailure,
    EngineStartFailed,
    EngineUnavailable,
    InvalidSpec,
)

ENGINE = lp.ENGINE
CONFIGFS = Path("/sys/kernel/config")
T = TypeVar("T")
MODULES = (
    "configfs",
    "target_core_mod",
    "target_core_iblock",
    "target_core_file",
    "iscsi_target_mod",
)


def _rtslib() -> Any:
    """The rtslib_fb module, or EngineUnavailable."""
    try:
        import rtslib_fb
    except ImportError as exc:
        raise EngineUnavailable(
            f"{ENGINE}: python rtslib-fb is not installed (Debian: python3-rtslib-fb)"
        ) from exc
    return rtslib_fb


def _is_mounted(path: Path) -> bool:
    try:
        with open("/proc/mounts") as mounts:
            return any(line.split()[1] == str(path) for line in mounts if line.strip())
    except OSError:
        return False


def backing_facts(path: str) -> tuple[lp.Plugin, int | None]:
    """The storage-object kind a backing needs and, for a plain file, its size in bytes."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise BackingStoreMissing(f"backing store {path}: {exc.strerror}") from exc
    plugin = lp.plugin_for(path)
    if plugin == "block" and not stat.S_ISBLK(info.st_mode):
        raise BackingStoreMissing(f"backing store {path} is not a block device")
    if plugin == "fileio" and not stat.S_ISREG(info.st_mode):
        raise BackingStoreMissing(f"backing store {path} is not a regular file")
    return plugin, (info.st_size if plugin == "fileio" else None)


def _has_crc32c() -> bool:
    try:
        return "crc32c" in Path("/proc/crypto").read_text()
    except OSError:
        return False


def _strip_brackets(ip: str) -> str:
    return ip[1:-1] if ip.startswith("[") and ip.endswith("]") else ip


class LioEngine:
    """Reconciles the kernel's LIO target; `save_file` keeps the configuration for reboots."""

    name = ENGINE
    first_lun = lp.FIRST_LUN

    def __init__(
        self,
        save_file: Path | str | None = None,
        *,
        lock_file: Path | str | None = None,
        modprobe: str = "modprobe",
        timeout: float = 30.0,
    ) -> None:
        self.save_file = Path(save_file) if save_file is not None else None
        if lock_file is None:
            base = self.save_file.parent if self.save_file else Path(tempfile.gettempdir())
            lock_file = base / "nasui-lio.lock"
        self.lock_file = Path(lock_file)
        self.modprobe = modprobe
        self.timeout = timeout

    # -- plumbing ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One start/stop/apply at a time across panel processes."""
        self.lock_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with self.lock_file.open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _guard(self, what: str, func: Callable[[], T]) -> T:
        """Run one rtslib call, turning its errors into EngineFailure."""
        rtslib = _rtslib()
        try:
            return func()
        except (rtslib.RTSLibError, OSError) as exc:
            raise EngineFailure(f"{ENGINE}: {what}: {exc}") from exc

    def _root(self) -> Any:
        """An RTSRoot, or EngineUnavailable when the target core is not there."""
        rtslib = _rtslib()
        if not (CONFIGFS / "target").is_dir():
            raise EngineUnavailable(
                f"{ENGINE}: the LIO target core is not loaded ({CONFIGFS}/target is missing): "
                "start the engine (modprobe target_core_mod, mount configfs)"
            )
        try:
            return rtslib.RTSRoot()
        except (rtslib.RTSLibError, OSError) as exc:
            raise EngineUnavailable(f"{ENGINE}: rtslib cannot open LIO: {exc}") from exc

    def _fabric(self) -> Any:
        return self._guard("iscsi fabric", lambda: _rtslib().FabricModule("iscsi"))

    # -- lifecycle ---------------------------------------------------------------------------

    def is_running(self) -> bool:
        """Whether rtslib is importable and the LIO target core is loaded (configfs)."""
        try:
            _rtslib()
        except EngineUnavailable:
            return False
        return (CONFIGFS / "target" / "core").is_dir()

    def start(self) -> None:
        """Load the LIO modules, mount configfs, and restore the save file if there is one."""
        _rtslib()
        with self._locked():
            for module in MODULES:
                if module == "configfs" and CONFIGFS.is_dir() and _is_mounted(CONFIGFS):
                    continue
                self._run([self.modprobe, module])
            # iscsi_target_mod needs crc32c at login (a soft dependency): without it every
            # login is dropped silently, so insist on it here
            if not _has_crc32c():
                self._run([self.modprobe, "crc32c"])
            if not _is_mounted(CONFIGFS):
                self._run(["mount", "-t", "configfs", "configfs", str(CONFIGFS)])
            root = self._root()
            # creating the fabric's directory makes the target core load iscsi_target_mod
            self._guard("iscsi fabric", lambda: (CONFIGFS / "target/iscsi").mkdir(exist_ok=True))
            if self.save_file is not None and self.save_file.is_file():
                nothing = not any(root.targets) and not any(root.storage_objects)
                if nothing:
                    errors = self._guard(
                        f"restore {self.save_file}",
                        lambda: root.restore_from_file(str(self.save_file), clear_existing=False),
                    )
                    if errors:
                        raise EngineStartFailed(f"{ENGINE}: restore: {'; '.join(map(str, errors))}")

    def _run(self, argv: list[str]) -> None:
        try:
            done = subprocess.run(
                argv, capture_output=True, text=True, timeout=self.timeout, check=False
            )
        except FileNotFoundError as exc:
            raise EngineUnavailable(f"{ENGINE}: {argv[0]} not found", argv=argv) from exc
        except subprocess.TimeoutExpired as exc:
            raise EngineStartFailed(f"{ENGINE}: {argv[0]} timed out", argv=argv) from exc
        if done.returncode != 0:
            raise EngineUnavailable(
                f"{ENGINE}: {' '.join(argv)} failed (is LIO in this kernel?)",
                argv=argv,
                returncode=done.returncode,
                stderr=done.stderr,
            )

    def stop(self) -> None:
        """Remove every target and storage object (the save file is kept for `start`)."""
        with self._locked():
            if not self.is_running():
                return
            root = self._root()
            self._guard("clear", lambda: root.clear_existing(confirm=True))

    # -- reading -----------------------------------------------------------------------------

    def read_state(self) -> lp.LioState:
        """LIO's current configuration as plain data."""
        return self._guard("read", self._read_state)

    def _read_state(self) -> lp.LioState:
        root = self._root()
        sos = []
        for so in root.storage_objects:
            if so.plugin not in ("block", "fileio"):
                continue
            size = None
            if so.plugin == "fileio" and not so.is_block:
                size = int(so.size)
            sos.append(
                lp.SoState(
                    name=so.name,
                    plugin=so.plugin,
                    path=so.udev_path,
                    block_size=int(so.get_attribute("block_size")),
                    readonly=bool(so.readonly) if so.plugin == "block" else False,
                    serial=so.wwn,
                    size=size,
                )
            )
        targets = [self._read_target(t) for t in root.targets if t.fabric_module.name == "iscsi"]
        fabric = self._fabric()
        enabled = bool(fabric.discovery_enable_auth)
        discovery = lp.Creds(
            fabric.discovery_userid or "",
            fabric.discovery_password or "",
            fabric.discovery_mutual_userid or "",
            fabric.discovery_mutual_password or "",
        )
        return lp.LioState(tuple(sos), tuple(targets), discovery, enabled)

    @staticmethod
    def _read_target(target: Any) -> lp.TargetState:
        tpg = next((t for t in target.tpgs if t.tag == lp.TPG_TAG), None)
        if tpg is None:
            return lp.TargetState(iqn=target.wwn)
        acls = []
        for acl in tpg.node_acls:
            mapped = sorted(
                (
                    lp.MappedLun(m.mapped_lun, m.tpg_lun.lun, bool(m.write_protect))
                    for m in acl.mapped_luns
                ),
                key=lambda m: m.mapped_lun,
            )
            acls.append(lp.AclState(acl.node_wwn, _creds(acl), tuple(mapped)))
        return lp.TargetState(
            iqn=target.wwn,
            enabled=bool(tpg.enable),
            attributes={a: str(tpg.get_attribute(a)) for a in lp.TPG_ATTRIBUTES},
            auth=_creds(tpg),
            portals=tuple(
                sorted((_strip_brackets(np.ip_address), int(np.port)) for np in tpg.network_portals)
            ),
            luns=tuple(sorted((lun.lun, lun.storage_object.name) for lun in tpg.luns)),
            acls=tuple(sorted(acls, key=lambda a: a.initiator)),
        )

    def sessions(self) -> list[Session]:
        """Logged-in initiators: static ACL sessions with addresses, demo-mode ones by name."""
        return list(self._guard("sessions", self._sessions))

    def _sessions(self) -> Iterator[Session]:
        root = self._root()
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
                dynamic = Path(tpg.path) / "dynamic_sessions"
                with contextlib.suppress(OSError):
                    for name in dynamic.read_text().split():
                        yield Session(target=target.wwn, initiator=name, address="", session_id=0)

    # -- changing ----------------------------------------------------------------------------

    def validate(self, desired: DesiredState) -> None:
        """Raise UnsupportedByEngine/InvalidSpec for what LIO cannot apply faithfully."""
        lp.validate(desired)

    def _wanted(self, desired: DesiredState) -> lp.LioState:
        lp.validate(desired)
        sizes: dict[str, int] = {}
        for spec in desired.targets:
            for lun in spec.luns:
                _plugin, size = backing_facts(lun.path)
                if size is not None:
                    sizes[lun.path] = size
        return lp.wanted_state(desired, sizes)

    def plan(self, desired: DesiredState) -> list[lp.Step]:
        """The steps `apply` would run now (for inspection and tests)."""
        return lp.plan(self._wanted(desired), self.read_state())

    def apply(self, desired: DesiredState) -> ChangeReport:
        """Reconcile LIO with `desired`: add missing, change differing, remove stale."""
        with self._locked():
            wanted = self._wanted(desired)
            steps = lp.plan(wanted, self.read_state())
            changes: list[Change] = []
            try:
                for step in steps:
                    self._guard(type(step).__name__, functools.partial(self._run_step, step))
                    if step.change is not None:
                        changes.append(step.change)
            finally:
                if steps:
                    self._save()
        return ChangeReport(engine=ENGINE, changes=tuple(changes))

    def _save(self) -> None:
        if self.save_file is None:
            return
        self.save_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        root = self._root()
        self._guard(f"save {self.save_file}", lambda: root.save_to_file(str(self.save_file)))

    # -- running steps -----------------------------------------------------------------------

    def _tpg(self, iqn: str) -> Any:
        rts = _rtslib()
        target = rts.Target(rts.FabricModule("iscsi"), iqn, mode="lookup")
        return rts.TPG(target, lp.TPG_TAG, mode="lookup")

    def _so(self, name: str, plugin: str) -> Any:
        rts = _rtslib()
        cls = rts.BlockStorageObject if plugin == "block" else rts.FileIOStorageObject
        return cls(name)

    def _run_step(self, step: lp.Step) -> None:
        rts = _rtslib()
        match step:
            case lp.SetDiscovery(creds=creds, enabled=enabled):
                fabric = rts.FabricModule("iscsi")
                if enabled:
                    fabric.discovery_userid = creds.userid
                    fabric.discovery_password = creds.password
                    fabric.discovery_mutual_userid = creds.mutual_userid
                    fabric.discovery_mutual_password = creds.mutual_password
                    fabric.discovery_enable_auth = True
                else:
                    fabric.clear_discovery_auth_settings()
            case lp.DeleteTarget(iqn=iqn):
                rts.Target(rts.FabricModule("iscsi"), iqn, mode="lookup").delete()
            case lp.CreateTarget(iqn=iqn):
                target = rts.Target(rts.FabricModule("iscsi"), iqn, mode="create")
                rts.TPG(target, lp.TPG_TAG, mode="create")
            case lp.EnableTpg(iqn=iqn, enabled=enabled):
                self._tpg(iqn).enable = enabled
            case lp.SetTpgAttribute(iqn=iqn, name=name, value=value):
                self._tpg(iqn).set_attribute(name, value)
            case lp.SetTpgAuth(iqn=iqn, creds=creds):
                _set_creds(self._tpg(iqn), creds)
            case lp.AddPortal(iqn=iqn, ip=ip, port=port):
                rts.NetworkPortal(
                    self._tpg(iqn), f"[{ip}]" if ":" in ip else ip, port, mode="create"
                )
            case lp.DeletePortal(iqn=iqn, ip=ip, port=port):
                tpg = self._tpg(iqn)
                for np in tpg.network_portals:
                    if _strip_brackets(np.ip_address) == ip and int(np.port) == port:
                        np.delete()
            case lp.CreateSo(so=so):
                self._create_so(so)
            case lp.DeleteSo(name=name, plugin=plugin):
                self._so(name, plugin).delete()
            case lp.CreateLun(iqn=iqn, lun=lun, so_name=name, plugin=plugin):
                rts.LUN(self._tpg(iqn), lun, self._so(name, plugin))
            case lp.DeleteLun(iqn=iqn, lun=lun):
                rts.LUN(self._tpg(iqn), lun).delete()
            case lp.CreateAcl(iqn=iqn, initiator=initiator):
                rts.NodeACL(self._tpg(iqn), initiator, mode="create")
            case lp.DeleteAcl(iqn=iqn, initiator=initiator):
                rts.NodeACL(self._tpg(iqn), initiator, mode="lookup").delete()
            case lp.SetAclAuth(iqn=iqn, initiator=initiator, creds=creds):
                _set_creds(rts.NodeACL(self._tpg(iqn), initiator, mode="lookup"), creds)
            case lp.MapLun(iqn=iqn, initiator=initiator, mapped=m):
                tpg = self._tpg(iqn)
                acl = rts.NodeACL(tpg, initiator, mode="lookup")
                for old in acl.mapped_luns:
                    if old.mapped_lun == m.mapped_lun:
                        old.delete()
                rts.MappedLUN(acl, m.mapped_lun, rts.LUN(tpg, m.tpg_lun), m.write_protect)
            case lp.UnmapLun(iqn=iqn, initiator=initiator, mapped_lun=mapped_lun):
                rts.MappedLUN(
                    rts.NodeACL(self._tpg(iqn), initiator, mode="lookup"), mapped_lun
                ).delete()
            case lp.SetWriteProtect(
                iqn=iqn, initiator=initiator, mapped_lun=mlun, write_protect=wp
            ):
                acl = rts.NodeACL(self._tpg(iqn), initiator, mode="lookup")
                rts.MappedLUN(acl, mlun).write_protect = wp
            case _:
                raise EngineFailure(f"{ENGINE}: unknown step {step!r}")

    def _create_so(self, so: lp.SoState) -> None:
        rts = _rtslib()
        if so.plugin == "block":
            obj = rts.BlockStorageObject(so.name, dev=so.path, wwn=so.serial, readonly=so.readonly)
        else:
            obj = rts.FileIOStorageObject(so.name, dev=so.path, size=so.size, wwn=so.serial)
        try:
            # only possible before the first export
            obj.set_attribute("block_size", str(so.block_size))
        except rts.RTSLibError:
            obj.delete()
            raise

    def refresh_lun_size(self, iqn: str, lun: int) -> ChangeReport:
        """Make initiators see a LUN's current size.

        A block (zvol) LUN reports its device's live size; a plain file's size is fixed
        when LIO opens it, so that LUN is re-created (with its ACL mappings).
        """
        with self._locked():
            running = self.read_state()
            target = running.target(iqn)
            name = dict(target.luns).get(lun) if target is not None else None
            so = running.so(name) if name is not None else None
            if target is None or so is None:
                raise InvalidSpec(f"{ENGINE}: {iqn} has no LUN {lun}")
            _plugin, size = backing_facts(so.path)
            if size is None:
                size = self._guard("size", lambda: _device_size(so.path))
                change = Change("change", "lun", str(lun), iqn, f"size now {size} bytes")
                return ChangeReport(engine=ENGINE, changes=(change,))
            wanted_so = lp.SoState(
                so.name, so.plugin, so.path, so.block_size, so.readonly, so.serial, size
            )
            if not lp.so_differences(wanted_so, so):
                return ChangeReport(engine=ENGINE)
            # the same running state, with the file's new size wanted: re-creates that LUN
            others = tuple(s for s in running.storage_objects if s.name != so.name)
            wanted = lp.LioState((*others, wanted_so), running.targets, *_disc(running))
            steps = lp.plan(wanted, running)
            changes = []
            for step in steps:
                self._guard(type(step).__name__, functools.partial(self._run_step, step))
                if step.change is not None:
                    changes.append(step.change)
            self._save()
        return ChangeReport(engine=ENGINE, changes=tuple(changes))


def _disc(state: lp.LioState) -> tuple[lp.Creds, bool]:
    return state.discovery, state.discovery_auth


def _device_size(path: str) -> int:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.lseek(fd, 0, os.SEEK_END)
    finally:
        os.close(fd)


def _creds(node: Any) -> lp.Creds:
    """CHAP settings of a NodeACL or TPG ("" for unset)."""
    return lp.Creds(
        node.chap_userid or "",
        node.chap_password or "",
        node.chap_mutual_userid or "",
        node.chap_mutual_password or "",
    )


def _set_creds(node: Any, creds: lp.Creds) -> None:
    node.chap_userid = creds.userid
    node.chap_password = creds.password
    node.chap_mutual_userid = creds.mutual_userid
    node.chap_mutual_password = creds.mutual_password
