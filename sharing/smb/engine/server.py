"""The SMB engine: smb.conf rendered from the desired state, checked, applied to a private smbd.

Two modes, chosen by whoever builds the engine:
- "wrapped" (build machines, tests): smbd under nss_wrapper and uid_wrapper with the panel's
  users in private passwd/group files, so the host's accounts are never touched; with no
  bind addresses given it listens on 127.0.0.1 only.
- "system" (the appliance): smbd as root with the real accounts (an accounts engine keeps
  /etc/passwd in step), on the port and addresses of the desired state (445 by default).
Either way every file smbd uses lives under `run_dir`; /etc/samba is never read or written.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from nasui.lib.files import write_if_changed
from nasui.lib.locks import file_lock
from nasui.lib.processes import log_tail
from sharing.accounts.engine.base import AccountsEngine
from sharing.accounts.engine.desired import Accounts
from sharing.accounts.engine.files import FilesAccounts
from sharing.smb.engine.check import check_config, check_vfs_modules
from sharing.smb.engine.daemon import SmbDaemon
from sharing.smb.engine.desired import SmbState
from sharing.smb.engine.errors import ENGINE, NotConfigured, SmbEngineError
from sharing.smb.engine.layout import SmbLayout
from sharing.smb.engine.passdb import make_nt_hash, render_smbpasswd
from sharing.smb.engine.render import render, share_folders
from sharing.smb.engine.tools import find_binary
from sharing.smb.engine.wrappers import wrapped_env

Mode = Literal["wrapped", "system"]
MODES: tuple[Mode, ...] = ("wrapped", "system")
Action = Literal["unchanged", "written", "reloaded", "restarted"]
# The settings smbd reads only at start: a change to them needs a restart, not a reload.
_LISTEN = re.compile(r"^\s*(?:smb ports|interfaces|bind interfaces only)\s*=.*$", re.M)
_PORT = re.compile(r"^\s*smb ports\s*=\s*(\d+)\s*$", re.M)


@dataclass(frozen=True)
class SmbApplyReport:
    """What one apply changed, and what it did to the running smbd."""

    config_changed: bool
    accounts_changed: bool
    passdb_changed: bool
    action: Action

    @property
    def changed(self) -> bool:
        """Whether any file changed."""
        return self.config_changed or self.accounts_changed or self.passdb_changed


@dataclass(frozen=True)
class SmbStatus:
    """The service as a Services page shows it."""

    mode: Mode
    running: bool
    pid: int | None
    port: int | None
    configured: bool


class SmbEngine:
    """Renders, checks and applies the SMB desired state to one smbd under `run_dir`."""

    name = ENGINE

    def __init__(
        self,
        run_dir: Path | str,
        *,
        mode: Mode | str = "wrapped",
        accounts: AccountsEngine | None = None,
        smbd: str | None = None,
        smbcontrol: str | None = None,
        testparm: str | None = None,
        pdbedit: str | None = None,
    ) -> None:
        self.mode: Mode = _mode(mode)
        self.layout = SmbLayout(Path(run_dir).absolute())
        # Wrapped: smbd's own passwd/group files. Either mode may be given an accounts engine
        # to apply as well (system: SystemAccounts, when SMB applies the machine's accounts).
        self.files = FilesAccounts(self.layout.accounts_dir) if self.mode == "wrapped" else None
        self.accounts = accounts
        self.testparm = testparm or find_binary("testparm")
        self.pdbedit = pdbedit or find_binary("pdbedit")
        self._smbd = smbd or find_binary("smbd")
        self._smbcontrol = smbcontrol or find_binary("smbcontrol")
        self._daemon: SmbDaemon | None = None

    # -- what smbd sees --------------------------------------------------------------------

    def env(self, accounts_dir: Path | None = None) -> dict[str, str]:
        """The environment of smbd and its tools (wrapped: pointing at the account files)."""
        if self.mode == "system":
            return dict(os.environ)
        directory = accounts_dir or self.layout.accounts_dir
        # Run by the real root, smbd's setuid() is real: what a user makes over SMB is hers
        # (uid_wrapper would only pretend, and everything would belong to root). Only an
        # unprivileged panel needs the pretence, and then files belong to its own uid.
        fake_root = os.geteuid() != 0
        return wrapped_env(directory / "passwd", directory / "group", fake_root=fake_root)

    @property
    def daemon(self) -> SmbDaemon:
        """The smbd of this run directory (made on first use: wrapped needs its libraries)."""
        if self._daemon is None:
            self._daemon = SmbDaemon(
                self.layout, env=self.env(), smbd=self._smbd, smbcontrol=self._smbcontrol
            )
        return self._daemon

    def effective(self, state: SmbState) -> SmbState:
        """The state as served: a wrapped smbd with no bind addresses listens on loopback only."""
        if self.mode == "wrapped" and not state.globals.bind:
            return replace(state, globals=replace(state.globals, bind=("127.0.0.1",)))
        return state

    def render(self, state: SmbState) -> str:
        """The smb.conf `apply` would write for `state`."""
        return render(self.effective(state), self.layout)

    # -- applying --------------------------------------------------------------------------

    def apply(self, state: SmbState) -> SmbApplyReport:
        """Check the new configuration with testparm, write what changed, reload a running smbd.

        Nothing live is touched unless testparm accepts the rendered smb.conf. A stopped smbd
        stays stopped (`start` starts it); a change of port or addresses restarts it.
        """
        text = self.render(state)
        self.layout.ensure()
        with self._locked():
            self._check(text, state.accounts)
            accounts_changed = self._apply_accounts(state.accounts)
            passdb = render_smbpasswd(state.accounts)
            passdb_changed = write_if_changed(self.layout.smbpasswd, passdb, mode=0o600)
            old = _read(self.layout.conf)
            config_changed = write_if_changed(self.layout.conf, text, mode=0o644)
            changed = config_changed or accounts_changed or passdb_changed
            action = self._refresh(old, text, changed=changed)
        return SmbApplyReport(config_changed, accounts_changed, passdb_changed, action)

    def _apply_accounts(self, accounts: Accounts) -> bool:
        """Apply the accounts to smbd's files (wrapped) and to the given engine, if any."""
        engines = [engine for engine in (self.files, self.accounts) if engine is not None]
        return any([engine.apply(accounts) for engine in engines])

    def _check(self, text: str, accounts: Accounts) -> None:
        """testparm on a candidate copy (with candidate account files when wrapped)."""
        candidate = self.layout.candidate_dir
        env = self.env()
        if self.files is not None:
            FilesAccounts(candidate).apply(accounts)
            env = self.env(candidate)
        conf = candidate / "smb.conf"
        write_if_changed(conf, text, mode=0o600)
        check_config(conf, env=env, testparm=self.testparm)
        check_vfs_modules(text, smbd=self._smbd)

    def _refresh(self, old: str, new: str, *, changed: bool) -> Action:
        """Bring a running smbd up to date: reload, or restart when where it listens changed."""
        daemon = self.daemon
        if not daemon.is_running():
            return "written" if changed else "unchanged"
        if _LISTEN.findall(old) != _LISTEN.findall(new):
            daemon.stop()
            try:
                daemon.start(_port(new))
            except SmbEngineError:
                # It cannot listen where it is told to: it serves on as it did, and says why.
                write_if_changed(self.layout.conf, old, mode=0o644)
                daemon.start(_port(old))
                raise
            return "restarted"
        if not changed:
            return "unchanged"
        daemon.reload()
        kept = share_folders(new)
        dropped = {n: f for n, f in share_folders(old).items() if kept.get(n) != f}
        if dropped:
            daemon.close_shares(dropped)
        return "reloaded"

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Start smbd on the applied configuration (no-op if it runs); NotConfigured before."""
        conf = _read(self.layout.conf)
        if not conf:
            raise NotConfigured(f"{ENGINE}: no configuration applied yet; apply one first")
        self.layout.ensure()
        with self._locked():
            self.daemon.start(_port(conf))

    def stop(self) -> None:
        """Stop smbd and its children (connected clients are dropped)."""
        if not self.layout.run_dir.exists():
            return
        with self._locked():
            self.daemon.stop()
        if not self.layout.socket_dir.is_relative_to(self.layout.run_dir):
            # The short directory in /tmp holds only sockets of the processes just stopped.
            shutil.rmtree(self.layout.socket_dir, ignore_errors=True)

    def restart(self) -> None:
        """Stop, then start on the applied configuration."""
        self.stop()
        self.start()

    def is_running(self) -> bool:
        """Whether our smbd is alive."""
        return self.daemon.is_running()

    def status(self) -> SmbStatus:
        """Mode, whether smbd runs, its pid and port, whether a configuration was applied."""
        conf = _read(self.layout.conf)
        pid = self.daemon.pid()
        port = _port(conf) if conf else None
        return SmbStatus(self.mode, pid is not None, pid, port, bool(conf))

    def log_tail(self) -> str:
        """smbd's last log lines."""
        return log_tail(self.layout.log)

    # -- passwords -------------------------------------------------------------------------

    def nt_hash(self, user: str, password: str) -> str:
        """The NT hash Samba makes of `password`, for UserSpec.nt_hash (the password is dropped)."""
        return make_nt_hash(user, password, pdbedit=self.pdbedit)

    set_password = nt_hash

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One apply/start/stop at a time across the panel's processes (flock)."""
        with file_lock(self.layout.lock_file):
            yield


def _mode(mode: str) -> Mode:
    """The mode, checked: wrapped or system."""
    for known in MODES:
        if mode == known:
            return known
    raise SmbEngineError(f"{ENGINE}: unknown mode {mode!r}; use wrapped or system")


def _read(path: Path) -> str:
    """A file's text, or '' when it does not exist."""
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""


def _port(conf: str) -> int:
    """The `smb ports` value of a rendered smb.conf."""
    found = _PORT.search(conf)
    if found is None:
        raise NotConfigured(f"{ENGINE}: the applied smb.conf names no port")
    return int(found.group(1))
