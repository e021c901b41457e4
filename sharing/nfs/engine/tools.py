"""Run the NFS tools with argument lists (never a shell), a timeout and typed errors."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from sharing.nfs.engine.errors import ENGINE, NfsCommandFailed, NfsUnavailable

TIMEOUT = 60.0
# The Debian package that ships each tool, for the message when one is missing.
PACKAGES = {"exportfs": "nfs-kernel-server", "rpc.nfsd": "nfs-kernel-server"}


def find_binary(name: str) -> str:
    """The tool's path: on PATH, else in /usr/sbin or /sbin (Debian's exportfs is in /usr/sbin)."""
    if "/" in name:
        return name
    found = shutil.which(name)
    if found:
        return found
    for directory in ("/usr/sbin", "/sbin"):
        candidate = Path(directory) / name
        if candidate.exists():
            return str(candidate)
    return name


def run(argv: Sequence[str], *, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Run argv in the C locale; a missing tool or a hang become typed errors."""
    args = [str(arg) for arg in argv]
    try:
        return subprocess.run(
            args,
            env={**os.environ, "LC_ALL": "C", "LANG": "C"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        name = Path(args[0]).name
        package = PACKAGES.get(name, name)
        message = f"{ENGINE}: {name} is not installed (Debian: apt-get install {package})"
        raise NfsUnavailable(message, argv=args) from exc
    except subprocess.TimeoutExpired as exc:
        message = f"{ENGINE}: {Path(args[0]).name} did not finish within {timeout:g} s"
        raise NfsCommandFailed(message, argv=args) from exc
