"""testparm as the gate: a configuration it complains about never replaces the running one."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from pathlib import Path

from sharing.smb.engine.errors import ENGINE, ConfigRejected
from sharing.smb.engine.tools import run

# testparm exits 0 on an unknown parameter or a missing directory, saying so on stderr only.
_COMPLAINT = re.compile(r"unknown parameter|error|warning|invalid|not boolean|not a valid", re.I)


def complaints(stderr: str) -> list[str]:
    """The lines of testparm's stderr that say something is wrong."""
    return [line.strip() for line in stderr.splitlines() if _COMPLAINT.search(line)]


def check_config(conf: Path, *, env: Mapping[str, str], testparm: str) -> None:
    """Run `testparm -s --suppress-prompt conf`; ConfigRejected with its words if it objects."""
    argv = [testparm, "-s", "--suppress-prompt", str(conf)]
    proc = run(argv, env=env)
    found = complaints(proc.stderr)
    if proc.returncode != 0 or found:
        said = "; ".join(found) or proc.stderr.strip() or f"exit status {proc.returncode}"
        raise ConfigRejected(
            f"{ENGINE}: testparm refused the new smb.conf: {said}",
            argv=argv,
            returncode=proc.returncode,
        )


def vfs_modules(text: str) -> set[str]:
    """Every module named on a `vfs objects` line of smb.conf text."""
    found = re.findall(r"^\s*vfs objects\s*=\s*(.*)$", text, re.M)
    return {module for line in found for module in line.split()}


@functools.cache
def _build_info(smbd: str) -> tuple[Path, frozenset[str]]:
    """smbd's module directory and built-in modules, from `smbd -b`."""
    out = run([smbd, "-b"], env=os.environ).stdout
    directory = re.search(r"MODULESDIR:\s*(\S+)", out)
    builtin = re.search(r"Builtin modules:\s*\n\s*(.*)", out)
    return (
        Path(directory.group(1) if directory else "/usr/lib/samba"),
        frozenset(builtin.group(1).split() if builtin else ()),
    )


def check_vfs_modules(text: str, *, smbd: str) -> None:
    """testparm does not load VFS modules: refuse a share whose module is not installed."""
    wanted = vfs_modules(text)
    if not wanted:
        return
    directory, builtin = _build_info(smbd)
    absent = sorted(
        module
        for module in wanted
        if f"vfs_{module}" not in builtin and not (directory / "vfs" / f"{module}.so").exists()
    )
    if absent:
        raise ConfigRejected(
            f"{ENGINE}: VFS module {', '.join(absent)} is not installed "
            "(Debian: apt-get install samba-vfs-modules)"
        )
