"""Run NUT's driver, upsd and upsmon on the panel's own configuration directory.

Each is a foreground child in its own session (NUT_CONFPATH, NUT_STATEPATH and NUT_ALTPIDPATH
point at the panel's directories), logging to its own file; a supervisor calls `ensure` to
start what the plan needs and is missing, and `stop_all` on exit.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from nasui.lib.commands import CommandError
from nasui.lib.processes import is_alive, log_tail, reap, wait_gone
from system.ups.engine.config import NutPlan

NUT_DIR = Path("/lib/nut")  # Debian's daemons (/usr/sbin/upsd is a wrapper reading /etc/nut)
START_TIMEOUT = 15.0
STOP_TIMEOUT = 10.0
POLL = 0.05
ORDER = ("driver", "upsd", "upsmon")
# upsmon 2.8 keeps its pid file here whatever NUT_ALTPIDPATH says: one upsmon per machine.
UPSMON_PID = Path("/run/nut/upsmon.pid")


class NutStartFailed(CommandError):
    """A NUT daemon did not start; its log's tail says why."""

    log_label = "NUT log"


@dataclass(frozen=True)
class NutPaths:
    """The panel's NUT directories: configuration, state (driver sockets), logs."""

    conf: Path
    state: Path
    logs: Path

    @classmethod
    def under(cls, root: Path) -> NutPaths:
        return cls(conf=root / "conf", state=root / "state", logs=root / "log")

    def make(self) -> None:
        for directory in (self.conf, self.state, self.logs):
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)


def clear_stale_pid(pid_file: Path) -> None:
    """Remove a pid file whose process is gone or is no upsmon (pids come round): upsmon
    would refuse to start, taking it for a running instance."""
    try:
        pid = int(pid_file.read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
    except (OSError, ValueError):
        command = b""
    if not (is_alive_pid(pid_file) and os.path.basename(command) == b"upsmon"):
        with contextlib.suppress(OSError):
            pid_file.unlink()


def is_alive_pid(pid_file: Path) -> bool:
    """Whether the pid in `pid_file` is a live process."""
    try:
        return is_alive(int(pid_file.read_text().strip()))
    except (OSError, ValueError):
        return False


def wanted(plan: NutPlan) -> list[str]:
    """The daemons the plan needs, in start order."""
    if plan.mode == "off":
        return []
    needed = ["driver", "upsd"] if plan.local else []
    if plan.upsmon_login() is not None:
        needed.append("upsmon")
    return needed


class NutDaemons:
    """The NUT processes this supervisor started."""

    def __init__(self, paths: NutPaths, *, env: Mapping[str, str], nut_dir: Path = NUT_DIR) -> None:
        self.paths = paths
        self.nut_dir = nut_dir
        self.env = {
            **env,
            "NUT_CONFPATH": str(paths.conf),
            "NUT_STATEPATH": str(paths.state),
            "NUT_ALTPIDPATH": str(paths.state),
        }
        self._procs: dict[str, subprocess.Popen[bytes]] = {}

    def argv(self, role: str, plan: NutPlan) -> list[str]:
        """The command line of a daemon, in the foreground."""
        if role == "driver":
            return [str(self.nut_dir / plan.driver), "-a", plan.name, "-F", "-u", plan.run_as]
        if role == "upsd":
            return [str(self.nut_dir / "upsd"), "-F", "-u", plan.run_as]
        return [str(self.nut_dir / "upsmon"), "-F"]

    def log(self, role: str) -> Path:
        return self.paths.logs / f"{role}.log"

    def running(self) -> list[str]:
        """The daemons alive now, in start order."""
        return [role for role in ORDER if role in self._procs and self._procs[role].poll() is None]

    def ensure(self, plan: NutPlan, *, without: tuple[str, ...] = ()) -> list[str]:
        """Stop what the plan does not need (or `without` names), start what it needs and is
        not running; the daemons started (NutStartFailed when one does not come up)."""
        needed = [role for role in wanted(plan) if role not in without]
        for role in ORDER:
            if role not in needed and role in self._procs:
                self.stop(role)
        started = []
        for role in needed:
            if role not in self.running():
                self.start(role, plan)
                started.append(role)
        return started

    def start(self, role: str, plan: NutPlan) -> None:
        """Start one daemon and wait until it is ready."""
        self.stop(role)
        self.paths.make()
        if role == "upsmon":
            clear_stale_pid(UPSMON_PID)
        argv = self.argv(role, plan)
        log = self.log(role)
        if log.exists():
            log.replace(log.with_suffix(".log.old"))
        try:
            with log.open("ab") as out:
                proc = subprocess.Popen(
                    argv,
                    env=self.env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
        except OSError as exc:
            raise NutStartFailed(f"cannot run {argv[0]}: {exc}", argv=argv) from exc
        self._procs[role] = proc
        try:
            self._wait_ready(role, proc, plan, argv)
        except NutStartFailed:
            self.stop(role)
            raise

    def _ready(self, role: str, plan: NutPlan) -> bool:
        if role == "driver":
            return (self.paths.state / f"{plan.driver}-{plan.name}").exists()
        if role == "upsd":
            host, port, _ = plan.monitor_target()
            with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
                return True
            return False
        return True  # upsmon: alive is ready

    def _wait_ready(
        self, role: str, proc: subprocess.Popen[bytes], plan: NutPlan, argv: list[str]
    ) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise self._failed(role, f"{role} exited at start (status {proc.returncode})", argv)
            if self._ready(role, plan):
                return
            time.sleep(POLL)
        raise self._failed(role, f"{role} was not ready within {START_TIMEOUT:g} s", argv)

    def _failed(self, role: str, what: str, argv: list[str]) -> NutStartFailed:
        tail = log_tail(self.log(role))
        last = tail.strip().splitlines()[-1] if tail.strip() else ""
        return NutStartFailed(
            f"NUT: {what}" + (f": {last}" if last else ""), argv=argv, log_tail=tail
        )

    def stop(self, role: str) -> None:
        """SIGTERM the daemon's session, wait, then SIGKILL what is left."""
        proc = self._procs.pop(role, None)
        if proc is None:
            return
        # Its whole session: upsmon's privileged parent and its child, a driver's helpers.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGTERM)
        if not wait_gone(proc.pid, STOP_TIMEOUT, child=proc):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        reap(proc, STOP_TIMEOUT)
        if role == "upsmon":  # its unprivileged child may outlive it a moment
            deadline = time.monotonic() + STOP_TIMEOUT
            while is_alive_pid(UPSMON_PID) and time.monotonic() < deadline:
                time.sleep(POLL)

    def stop_all(self) -> None:
        """Stop every daemon, upsmon first and the driver last."""
        for role in reversed(ORDER):
            self.stop(role)
