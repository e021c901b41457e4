"""Start, watch and stop a private `tgtd` (foreground child, own control socket, own portals)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from nasui.lib.processes import is_alive, log_tail, reap, wait_gone
from sharing.iscsi.engine.desired import PortalSpec
from sharing.iscsi.engine.errors import EngineFailure, EngineStartFailed
from sharing.iscsi.engine.tgt.admin import Tgtadm
from sharing.iscsi.engine.tgt.parsing import parse_portals, parse_system_state, parse_targets
from sharing.iscsi.engine.tgt.rules import ENGINE

# sun_path holds 108 bytes; tgtd appends ".N" and a lock file appends ".lock".
MAX_SOCKET_PATH = 100
START_TIMEOUT = 10.0
STOP_TIMEOUT = 10.0
POLL = 0.05


class TgtDaemon:
    """One tgtd process whose control socket, log and pid file live in `run_dir`."""

    def __init__(self, run_dir: Path, *, binary: str = "tgtd", tgtadm: Tgtadm) -> None:
        self.run_dir = run_dir
        self.binary = binary
        self.tgtadm = tgtadm
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        """Where tgtd's output goes (the only place tgt explains refusals)."""
        return self.run_dir / "tgtd.log"

    @property
    def pid_path(self) -> Path:
        """The pid of this directory's tgtd, for panel processes that did not start it."""
        return self.run_dir / "tgtd.pid"

    def is_running(self) -> bool:
        """Whether a tgtd answers on this control socket."""
        try:
            out = self.tgtadm.run("--mode", "system", "--op", "show")
        except EngineFailure:
            return False
        return parse_system_state(out) == "ready"

    def start(self, portals: Sequence[PortalSpec]) -> None:
        """Start tgtd listening only on `portals`; return once it answers with exactly those."""
        if not portals:
            # Without a portal tgtd listens on every address at port 3260.
            raise EngineStartFailed(f"{ENGINE}: refusing to start tgtd without a portal")
        if self.is_running():
            return
        self._prepare_run_dir()
        argv = self._argv(portals)
        with self.log_path.open("ab") as log:
            self._proc = subprocess.Popen(
                argv,
                env=self.tgtadm.env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # the panel's Ctrl-C and terminal must not reach it
            )
        self.pid_path.write_text(f"{self._proc.pid}\n")
        try:
            self._wait_ready(argv)
            self._check_portals(argv, portals)
        except EngineFailure:
            self._kill()
            raise

    def stop(self) -> None:
        """Delete every target, ask tgtd to exit, and make sure the process is gone."""
        if self.is_running():
            self._delete_all_targets()
            # It may exit before answering; the wait below decides.
            with contextlib.suppress(EngineFailure):
                self.tgtadm.run("--mode", "system", "--op", "delete")
        pid = self._pid()
        if pid is not None and not wait_gone(pid, STOP_TIMEOUT, child=self._proc):
            self._kill()
        self._reap()
        for leftover in self.run_dir.glob("tgtd.sock*"):
            leftover.unlink(missing_ok=True)
        self.pid_path.unlink(missing_ok=True)

    def _prepare_run_dir(self) -> None:
        """Create the private directory, drop a stale socket, set the last log aside."""
        if len(str(self.tgtadm.socket_base)) > MAX_SOCKET_PATH:
            raise EngineStartFailed(
                f"{ENGINE}: control socket path {self.tgtadm.socket_base} is longer than "
                f"{MAX_SOCKET_PATH} bytes; use a shorter run directory"
            )
        self.run_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        for leftover in self.run_dir.glob("tgtd.sock*"):
            leftover.unlink(missing_ok=True)
        if self.log_path.exists():
            # Keep the previous daemon's last words: they may explain why it is gone.
            self.log_path.replace(self.log_path.with_suffix(".log.1"))

    def _argv(self, portals: Sequence[PortalSpec]) -> list[str]:
        """`tgtd -f -C 0 --iscsi portal=A:P,portal=[B]:Q` (control port 0 -> socket suffix .0)."""
        spec = ",".join(f"portal={portal.endpoint}" for portal in portals)
        return [self.binary, "-f", "-C", "0", "--iscsi", spec]

    def _wait_ready(self, argv: list[str]) -> None:
        """Poll the control socket until tgtd answers, or fail with its log."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._proc is not None and self._proc.poll() is not None:
                raise EngineStartFailed(
                    f"{ENGINE}: tgtd exited at start with status {self._proc.returncode}",
                    argv=argv,
                    log_tail=log_tail(self.log_path),
                )
            if self.is_running():
                return
            time.sleep(POLL)
        raise EngineStartFailed(
            f"{ENGINE}: tgtd did not answer within {START_TIMEOUT:g} s",
            argv=argv,
            log_tail=log_tail(self.log_path),
        )

    def _check_portals(self, argv: list[str], portals: Sequence[PortalSpec]) -> None:
        """tgtd falls back to 0.0.0.0:3260 and [::]:3260 when a portal fails: never accept that."""
        listening = set(parse_portals(self.tgtadm.run("--mode", "portal", "--op", "show")))
        wanted = {(portal.ip, portal.port) for portal in portals}
        if listening != wanted:
            shown = ", ".join(f"{ip}:{port}" for ip, port in sorted(listening)) or "nothing"
            raise EngineStartFailed(
                f"{ENGINE}: tgtd could not listen on every portal (address in use?); "
                f"it listens on {shown}",
                argv=argv,
                log_tail=log_tail(self.log_path),
            )

    def _delete_all_targets(self) -> None:
        """Force-delete every target (connected initiators are dropped)."""
        for target in parse_targets(self.tgtadm.run("--mode", "target", "--op", "show")):
            self.tgtadm.run(
                "--mode", "target", "--op", "delete", "--force", "--tid", str(target.tid)
            )

    def _pid(self) -> int | None:
        """The tgtd pid: our child's, else the one recorded in the pid file."""
        if self._proc is not None:
            return self._proc.pid
        try:
            return int(self.pid_path.read_text().strip())
        except (OSError, ValueError):
            return None

    def _kill(self) -> None:
        """Stop tgtd by signal: SIGINT (it ignores SIGTERM), then SIGKILL."""
        pid = self._pid()
        if pid is None or not is_alive(pid) or not _is_tgtd(pid):
            return
        for sig in (signal.SIGINT, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                return
            if wait_gone(pid, 3.0, child=self._proc):
                return

    def _reap(self) -> None:
        """Collect our child's exit status so no zombie is left behind."""
        reap(self._proc, 1.0)
        self._proc = None


def _is_tgtd(pid: int) -> bool:
    """Whether the pid still belongs to a tgtd (pids get reused)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == "tgtd"
    except OSError:
        return False
