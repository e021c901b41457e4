"""Apply the NFS desired state to the kernel server: an exports file of the panel's own.

The panel owns one file under /etc/exports.d/ (exportfs reads every `*.exports` there next to
/etc/exports) and one nfs.conf drop-in for the protocol versions. exportfs cannot check a file
without exporting it, so `apply` writes the new file, runs `exportfs -ra` and, if exportfs
refuses it, puts the previous file back and re-exports that: a broken render never stays live.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from nasui.lib.files import write_if_changed
from nasui.lib.locks import file_lock
from sharing.nfs.engine.desired import NfsState
from sharing.nfs.engine.errors import ENGINE, ExportsRejected, NfsCommandFailed, NfsEngineError
from sharing.nfs.engine.render import render, render_nfs_conf
from sharing.nfs.engine.tools import find_binary, run

Action = Literal["unchanged", "exported", "restarted"]
EXPORTS_FILE = Path("/etc/exports.d/nasui.exports")
NFS_CONF = Path("/etc/nfs.conf.d/nasui.conf")
PROC_NFSD = Path("/proc/fs/nfsd")
# try-restart: a stopped server stays stopped; a running one picks up the new versions.
RESTART = ("systemctl", "try-restart", "nfs-server.service")
# The unit exports every exports file before nfsd starts, and unexports all (exportfs -au)
# after it stops: a stopped server serves nothing and says so in /proc/fs/nfsd/threads.
START = ("systemctl", "start", "nfs-server.service")
STOP = ("systemctl", "stop", "nfs-server.service")


@dataclass(frozen=True)
class NfsApplyReport:
    """What one apply changed, what it did to the server, and what exportfs said besides."""

    exports_changed: bool
    config_changed: bool
    action: Action
    warnings: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether any file changed."""
        return self.exports_changed or self.config_changed


@dataclass(frozen=True)
class NfsStatus:
    """The kernel server as a Services page shows it."""

    running: bool
    threads: int
    versions: tuple[str, ...]
    configured: bool


class NfsEngine:
    """Renders the exports and applies them with exportfs; the kernel's nfsd serves them."""

    name = ENGINE

    def __init__(
        self,
        exports_file: Path | str = EXPORTS_FILE,
        exportfs: str = "exportfs",
        *,
        nfs_conf: Path | str = NFS_CONF,
        restart: Sequence[str] = RESTART,
        proc_nfsd: Path | str = PROC_NFSD,
        start: Sequence[str] = START,
        stop: Sequence[str] = STOP,
    ) -> None:
        self.exports_file = Path(exports_file)
        self.exportfs = find_binary(exportfs)
        self.nfs_conf = Path(nfs_conf)
        self.restart = tuple(restart)
        self.proc_nfsd = Path(proc_nfsd)
        self.start_command = tuple(start)
        self.stop_command = tuple(stop)

    def render(self, state: NfsState) -> str:
        """The exports file `apply` would write for `state`."""
        return render(state)

    # -- applying --------------------------------------------------------------------------

    def apply(self, state: NfsState) -> NfsApplyReport:
        """Write what changed and make it live; ExportsRejected leaves the old exports live.

        The exports go first: if exportfs refuses them nothing else changes. A change of
        protocol versions then restarts a running server (try-restart), which re-exports.
        """
        text = render(state)
        conf = render_nfs_conf(state)
        self.exports_file.parent.mkdir(parents=True, exist_ok=True)
        with self._locked():
            exports_changed, warnings = self._apply_exports(text, state)
            config_changed = self._apply_conf(conf)
        action: Action = "restarted" if config_changed else "exported"
        if not exports_changed and not config_changed:
            action = "unchanged"
        return NfsApplyReport(exports_changed, config_changed, action, warnings)

    def _apply_exports(self, text: str, state: NfsState) -> tuple[bool, tuple[str, ...]]:
        """Write the exports file if it changed and re-export; roll back if exportfs refuses."""
        old = _read(self.exports_file)
        if not write_if_changed(self.exports_file, text, mode=0o644):
            return False, ()
        ours = [str(self.exports_file), *(export.path for export in state.exports)]
        argv = [self.exportfs, "-ra"]
        try:
            proc = run(argv)
        except NfsEngineError:
            # exportfs missing or hung: the new file was never made live, so it must not stay
            self._put_back(old)
            raise
        refused, others = split_complaints(proc.stderr, ours)
        if proc.returncode == 0 and not refused:
            return True, tuple(others)
        said = "; ".join(refused) or proc.stderr.strip() or f"exit status {proc.returncode}"
        restored = self._restore(old)
        raise ExportsRejected(
            f"{ENGINE}: exportfs refused the new exports ({said}); {restored}",
            argv=argv,
            returncode=proc.returncode,
            stderr=proc.stderr,
        )

    def _put_back(self, old: str | None) -> None:
        """The previous exports file again (none, if there was none)."""
        if old is None:
            self.exports_file.unlink(missing_ok=True)
        else:
            write_if_changed(self.exports_file, old, mode=0o644)

    def _restore(self, old: str | None) -> str:
        """Put the previous exports file back and re-export it; say how that went."""
        self._put_back(old)
        proc = run([self.exportfs, "-ra"])
        if proc.returncode != 0:
            return f"the previous exports were restored, but exportfs -ra said: {proc.stderr}"
        return "the previous exports were restored and are live"

    def _apply_conf(self, conf: str) -> bool:
        """Write the versions drop-in if it changed; then restart a running server."""
        self.nfs_conf.parent.mkdir(parents=True, exist_ok=True)
        if not write_if_changed(self.nfs_conf, conf, mode=0o644):
            return False
        if self.restart:
            proc = run(self.restart)
            if proc.returncode != 0:
                raise NfsCommandFailed(
                    f"{ENGINE}: restarting the NFS server for the new protocol versions failed",
                    argv=self.restart,
                    returncode=proc.returncode,
                    stderr=(proc.stderr or proc.stdout).strip(),
                )
        return True

    # -- start and stop --------------------------------------------------------------------

    def start(self) -> None:
        """Start the kernel server; `apply` afterwards makes the panel's exports live."""
        self._run_unit(self.start_command, "starting")

    def stop(self) -> None:
        """Stop the kernel server: nfsd's threads end and every export is withdrawn."""
        self._run_unit(self.stop_command, "stopping")

    def _run_unit(self, argv: Sequence[str], doing: str) -> None:
        """Run a start or stop command; NfsCommandFailed with what it said if it fails."""
        proc = run(argv)
        if proc.returncode != 0:
            raise NfsCommandFailed(
                f"{ENGINE}: {doing} the NFS server failed",
                argv=argv,
                returncode=proc.returncode,
                stderr=(proc.stderr or proc.stdout).strip(),
            )

    # -- status ----------------------------------------------------------------------------

    def status(self) -> NfsStatus:
        """Whether nfsd runs (threads > 0), the versions it offers, whether exports exist."""
        threads = _int(_read(self.proc_nfsd / "threads"))
        versions = _versions(_read(self.proc_nfsd / "versions") or "")
        return NfsStatus(threads > 0, threads, versions, self.exports_file.exists())

    def is_running(self) -> bool:
        """Whether the kernel server has threads serving."""
        return self.status().running

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One apply at a time across the panel's processes (flock on a file next to ours)."""
        lock = self.exports_file.parent / f".{self.exports_file.name}.lock"
        with file_lock(lock):
            yield


def split_complaints(stderr: str, ours: Sequence[str]) -> tuple[list[str], list[str]]:
    """exportfs's stderr lines about our file or paths, and the rest (other files' warnings).

    exportfs may exit 0 while refusing an entry (a path that does not exist, a bad option),
    saying so on stderr only; lines naming /etc/exports or another package's file are not
    ours to refuse over.
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    refused = [line for line in lines if any(_names(line, item) for item in ours)]
    return refused, [line for line in lines if line not in refused]


def _names(line: str, item: str) -> bool:
    """Whether a message names a path as a whole word (/tank/a is not named by /tank/ab)."""
    start = line.find(item)
    while start != -1:
        end = start + len(item)
        if end == len(line) or not (line[end].isalnum() or line[end] in "._-"):
            return True
        start = line.find(item, start + 1)
    return False


def _read(path: Path) -> str | None:
    """A file's text, or None when it does not exist."""
    try:
        return path.read_text()
    except OSError:  # absent, or /proc/fs/nfsd not mounted
        return None


def _int(text: str | None) -> int:
    """A number read from /proc, 0 when absent or unreadable."""
    try:
        return int((text or "").strip() or 0)
    except ValueError:
        return 0


def _versions(text: str) -> tuple[str, ...]:
    """The enabled versions from /proc/fs/nfsd/versions (`-2 +3 +4 +4.1 +4.2`)."""
    return tuple(word[1:] for word in text.split() if word.startswith("+"))


__all__ = ["EXPORTS_FILE", "NFS_CONF", "NfsApplyReport", "NfsEngine", "NfsStatus"]
