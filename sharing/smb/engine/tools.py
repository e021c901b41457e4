"""Run Samba's tools with argument lists (never a shell), a timeout and typed errors."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from nasui.lib.processes import log_tail
from sharing.smb.engine.errors import ENGINE, SmbCommandFailed, SmbUnavailable

TIMEOUT = 30.0
# The Debian package that ships each tool, for the message when one is missing.
PACKAGES = {
    "smbd": "samba",
    "smbcontrol": "samba",
    "pdbedit": "samba",
    "testparm": "samba-common-bin",
    "smbclient": "smbclient",
}


def find_binary(name: str) -> str:
    """The tool's path: on PATH, else in /usr/sbin or /sbin (Debian's smbd is in /usr/sbin)."""
    found = shutil.which(name)
    if found:
        return found
    for directory in ("/usr/sbin", "/sbin", "/usr/bin"):
        candidate = Path(directory) / name
        if candidate.exists():
            return str(candidate)
    return name


def missing(name: str) -> SmbUnavailable:
    """The error for a tool that is not installed, naming the package."""
    package = PACKAGES.get(name, name)
    return SmbUnavailable(f"{ENGINE}: {name} is not installed (Debian: apt-get install {package})")


def run(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    stdin: str | None = None,
    timeout: float = TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """Run argv (C locale); a missing tool or a hang become typed errors, not the exit status."""
    args = [str(arg) for arg in argv]
    try:
        return subprocess.run(
            args,
            env={**env, "LC_ALL": "C", "LANG": "C"},
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise missing(Path(args[0]).name) from exc
    except subprocess.TimeoutExpired as exc:
        message = f"{ENGINE}: {Path(args[0]).name} did not finish within {timeout:g} s"
        raise SmbCommandFailed(message, argv=args) from exc


def run_checked(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    stdin: str | None = None,
    log: Path | None = None,
) -> str:
    """Run argv and return its stdout; a non-zero exit is SmbCommandFailed with the log tail."""
    proc = run(argv, env=env, stdin=stdin)
    if proc.returncode != 0:
        name = Path(argv[0]).name
        raise SmbCommandFailed(
            f"{ENGINE}: {name} failed",
            argv=argv,
            returncode=proc.returncode,
            stderr=(proc.stderr or proc.stdout).strip(),
            log_tail=log_tail(log),
        )
    return proc.stdout
