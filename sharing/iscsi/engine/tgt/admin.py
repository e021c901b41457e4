"""Run `tgtadm` against one private tgtd control socket, turning failures into typed errors."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from nasui.lib.processes import log_tail
from sharing.iscsi.engine.errors import EngineFailure, EngineTimeout, EngineUnavailable
from sharing.iscsi.engine.tgt.rules import ENGINE

# tgtadm's words when the daemon behind the socket is gone.
_NOT_RUNNING = (
    "can't send the request",
    "can't connect",
    "Transport endpoint",
    "Connection refused",
)


def find_binary(name: str) -> str:
    """The tool's path: on PATH, else in /usr/sbin (where Debian puts tgt; not always on PATH)."""
    found = shutil.which(name)
    if found:
        return found
    sbin = Path("/usr/sbin") / name
    return str(sbin) if sbin.exists() else name


class Tgtadm:
    """Calls `tgtadm --lld iscsi ...` with TGT_IPC_SOCKET pointing at a private socket."""

    def __init__(
        self,
        socket_base: Path,
        *,
        binary: str = "tgtadm",
        timeout: float = 15.0,
        log_path: Path | None = None,
    ) -> None:
        self.socket_base = socket_base
        self.binary = binary
        self.timeout = timeout
        self.log_path = log_path

    def env(self) -> dict[str, str]:
        """The environment tgtd and tgtadm share: the socket path is the private part."""
        return {**os.environ, "TGT_IPC_SOCKET": str(self.socket_base)}

    def argv(self, args: Sequence[str]) -> list[str]:
        """The full command line for tgtadm arguments."""
        return [self.binary, "--lld", "iscsi", *args]

    def run(self, *args: str) -> str:
        """Run one tgtadm command and return its stdout; raise a typed error on failure."""
        proc = self._spawn(args)
        if proc.returncode != 0:
            raise self._failure(args, proc)
        return proc.stdout

    def attempt(self, *args: str, tolerate: str) -> bool:
        """Run a command whose failure with `tolerate` in stderr is expected: True if it ran."""
        proc = self._spawn(args)
        if proc.returncode == 0:
            return True
        if tolerate in proc.stderr:
            return False
        raise self._failure(args, proc)

    def _spawn(self, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
        """Run tgtadm with a timeout; a missing binary or a hang become typed errors."""
        argv = self.argv(args)
        try:
            return subprocess.run(
                argv,
                env=self.env(),
                capture_output=True,
                text=True,
                timeout=self.timeout,
                check=False,
            )
        except FileNotFoundError as exc:
            raise EngineUnavailable(f"{ENGINE}: {self.binary} is not installed", argv=argv) from exc
        except subprocess.TimeoutExpired as exc:
            raise EngineTimeout(
                f"{ENGINE}: tgtadm did not answer within {self.timeout:g} s",
                argv=argv,
                log_tail=log_tail(self.log_path),
            ) from exc

    def _failure(
        self, args: Sequence[str], proc: subprocess.CompletedProcess[str]
    ) -> EngineFailure:
        """The typed error for a failed command, with the daemon log's tail attached."""
        stderr = proc.stderr.strip()
        cls = EngineUnavailable if any(s in stderr for s in _NOT_RUNNING) else EngineFailure
        what = "tgtd is not running" if cls is EngineUnavailable else "tgtadm failed"
        return cls(
            f"{ENGINE}: {what}: {stderr.removeprefix('tgtadm: ') or 'no message'}",
            argv=self.argv(args),
            returncode=proc.returncode,
            stderr=stderr,
            log_tail=log_tail(self.log_path),
        )
