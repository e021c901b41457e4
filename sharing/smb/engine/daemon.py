"""Start, reload, watch, stop one smbd on our smb.conf (foreground child, own session)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from nasui.lib.processes import is_alive, log_tail, reap, wait_gone
from sharing.smb.engine.errors import ENGINE, SmbStartFailed
from sharing.smb.engine.layout import SmbLayout
from sharing.smb.engine.tools import missing, run_checked

START_TIMEOUT = 15.0
LOG_LINES_READ = 60  # enough to reach smbd's complaint above a panic's backtrace
# What smbd always logs around a failure: its banner, the panic's frame and the core dump.
_BOILERPLATE = (
    "smbd version",
    "Copyright",
    "===",
    "INTERNAL ERROR",
    "If you are running",
    "PANIC",
    "BACKTRACE",
    "dumping core",
    "#",
)
STOP_TIMEOUT = 10.0
POLL = 0.05
LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp
# smbd and what it starts on demand: samba-dcerpcd and its rpcd_* workers (Samba >= 4.16).
SAMBA_PROGRAMS = (b"smbd", b"samba-dcerpcd", b"rpcd_")


class SmbDaemon:
    """One smbd whose configuration, pid file and log are those of `layout`."""

    def __init__(
        self, layout: SmbLayout, *, env: Mapping[str, str], smbd: str, smbcontrol: str
    ) -> None:
        self.layout = layout
        self.env = dict(env)
        self.smbd = smbd
        self.smbcontrol = smbcontrol
        self._proc: subprocess.Popen[bytes] | None = None

    # -- reading ---------------------------------------------------------------------------

    def pid(self) -> int | None:
        """The pid of our running smbd (its pid file, checked against its command line)."""
        try:
            pid = int(self.layout.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if is_alive(pid) and self._is_ours(pid) else None

    def is_running(self) -> bool:
        """Whether our smbd is alive."""
        return self.pid() is not None

    def _is_ours(self, pid: int, programs: tuple[bytes, ...] = (b"smbd",)) -> bool:
        """Whether `pid` runs one of `programs` on our smb.conf (pids get reused)."""
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        conf = os.fsencode(str(self.layout.conf))
        on_our_conf = conf in args or b"--configfile=" + conf in args
        return on_our_conf and os.path.basename(args[0]).startswith(programs)

    def argv(self) -> list[str]:
        """smbd in the foreground, in the process group we give it, on our configuration."""
        return [self.smbd, "-F", "--no-process-group", "-s", str(self.layout.conf)]

    # -- changing --------------------------------------------------------------------------

    def start(self, port: int) -> None:
        """Start smbd and return once it listens on `port`; a failure stops it and says why."""
        if self.is_running():
            return
        if self._proc is not None and self._proc.poll() is not None:
            self._proc = None  # an earlier smbd of ours that died: now reaped
        self._set_log_aside()
        self.layout.pid_file.unlink(missing_ok=True)
        argv = self.argv()
        try:
            with self.layout.log.open("ab") as log:
                proc = self._proc = subprocess.Popen(
                    argv,
                    env=self.env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # the panel's signals and terminal stay ours
                )
        except FileNotFoundError as exc:
            raise missing("smbd") from exc
        try:
            self._wait_listening(proc, argv, port)
        except SmbStartFailed:
            self.stop()
            raise

    def reload(self) -> None:
        """Make smbd re-read smb.conf, and wait until it has (a ping is answered after)."""
        conf = str(self.layout.conf)
        for message in ("reload-config", "ping"):
            argv = [self.smbcontrol, "-s", conf, "smbd", message]
            run_checked(argv, env=self.env, log=self.layout.log)

    def close_shares(self, folders: Mapping[str, str]) -> None:
        """Disconnect every client from these shares (name -> folder) and wait until no smbd
        works in their folders: a reload alone leaves connected clients on a share that is
        gone, and their smbd keeps its folder busy (ZFS then cannot unmount it)."""
        conf = str(self.layout.conf)
        for name in folders:
            argv = [self.smbcontrol, "-s", conf, "smbd", "close-share", name]
            run_checked(argv, env=self.env, log=self.layout.log)
        deadline = time.monotonic() + STOP_TIMEOUT
        while self._working_in(folders.values()) and time.monotonic() < deadline:
            time.sleep(POLL)

    def _working_in(self, folders: Iterable[str]) -> list[int]:
        """Our processes whose working directory is in one of `folders`."""
        inside = []
        for pid in self._all_ours():
            with contextlib.suppress(OSError):
                cwd = os.readlink(f"/proc/{pid}/cwd")
                if any(cwd == f or cwd.startswith(f.rstrip("/") + "/") for f in folders):
                    inside.append(pid)
        return inside

    def stop(self) -> None:
        """SIGTERM smbd, wait, then SIGKILL whatever of it is left (its children included)."""
        main = self.pid()
        if main is None and self._proc is not None and self._proc.poll() is None:
            main = self._proc.pid  # started, but no pid file written yet
        # smbd, its children and the RPC helpers it starts on demand (samba-dcerpcd, rpcd_*),
        # which outlive it otherwise.
        for pid in {*self._all_ours(), *([main] if main is not None else [])}:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        if main is not None:
            wait_gone(main, STOP_TIMEOUT, child=self._proc)
        for pid in self._all_ours():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._reap()
        self.layout.pid_file.unlink(missing_ok=True)

    # -- helpers ---------------------------------------------------------------------------

    def _set_log_aside(self) -> None:
        """Keep the previous smbd's last words in log.smbd.old; this start gets a fresh log."""
        if self.layout.log.exists():
            self.layout.log.replace(self.layout.log.with_name("log.smbd.old"))

    def _wait_listening(self, proc: subprocess.Popen[bytes], argv: list[str], port: int) -> None:
        """Poll until smbd has written its pid file and listens on `port`, or fail with its log."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise self._start_failed(f"smbd exited at start (status {proc.returncode})", argv)
            if self.pid() == proc.pid and port in listening_ports(proc.pid):
                return
            time.sleep(POLL)
        what = f"smbd did not listen on port {port} within {START_TIMEOUT:g} s"
        raise self._start_failed(what, argv)

    def _start_failed(self, what: str, argv: list[str]) -> SmbStartFailed:
        """The failure in smbd's own words (its last complaint), with its log for the logs."""
        tail = log_tail(self.layout.log, lines=LOG_LINES_READ)
        complaint = last_complaint(tail)
        message = f"{ENGINE}: {what}" + (f": {complaint}" if complaint else "")
        return SmbStartFailed(message, argv=argv, log_tail=tail)

    def _all_ours(self) -> list[int]:
        """Every live Samba process on our smb.conf: smbd's, and the RPC helpers'."""
        pids = (int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit())
        return [pid for pid in pids if is_alive(pid) and self._is_ours(pid, SAMBA_PROGRAMS)]

    def _reap(self) -> None:
        """Collect our child's exit status so no zombie is left behind."""
        reap(self._proc, STOP_TIMEOUT)
        self._proc = None


def listening_ports(pid: int) -> set[int]:
    """The TCP ports a process listens on (its socket inodes matched in /proc/net/tcp{,6})."""
    inodes: set[str] = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
    ports: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for row in Path(table).read_text().splitlines()[1:]:
                fields = row.split()
                if fields[3] == LISTEN and fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def last_complaint(log: str) -> str:
    """The last thing smbd said in its log that is not a banner, a panic's frame or a stack:
    "open_sockets_smbd: No sockets available to bind to.", not a backtrace."""
    said = [line.strip() for line in log.splitlines() if line.startswith("  ")]
    useful = [line for line in said if line and not line.startswith(_BOILERPLATE)]
    return useful[-1] if useful else ""
