"""systemd-networkd and the host name, told about the files in force (NASUI_NETWORK).

On the appliance (NASUI_NETWORK=networkd) the data directory's network/*.network files are
copied into /etc/systemd/network (the image's own DHCP file stays for interfaces the panel does
not set: the panel's sort first), networkd reloads them and reconfigures each interface, and
hostnamectl sets the name. Elsewhere (`make run`) nothing on the host changes.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from django.conf import settings

from nasui.lib.files import write_atomic
from system.network.engine.networkd import FILE_PREFIX

SYSTEM_FOLDER = Path("/etc/systemd/network")
TIMEOUT = 60


class NetworkApplyError(Exception):
    """networkd or hostnamectl refused: their own words."""


def applies() -> bool:
    """Whether this panel sets the box's network."""
    return str(getattr(settings, "NASUI_NETWORK", "none")) == "networkd"


def apply(files: Mapping[str, str], hostname: str, interfaces: list[str]) -> None:
    """Put `files` in force and the host name; NetworkApplyError if systemd refuses."""
    if not applies():
        return
    for path in SYSTEM_FOLDER.glob(f"{FILE_PREFIX}*.network"):
        if path.name not in files:
            path.unlink()
    for name, text in files.items():
        write_atomic(SYSTEM_FOLDER / name, text, mode=0o644)
    _run(["networkctl", "reload"])
    if interfaces:
        _run(["networkctl", "reconfigure", *interfaces])
    _run(["hostnamectl", "set-hostname", hostname])


def _run(argv: list[str]) -> None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NetworkApplyError(f"{argv[0]}: {exc}") from exc
    if done.returncode != 0:
        raise NetworkApplyError((done.stderr or done.stdout).strip() or f"{argv[0]} failed")
