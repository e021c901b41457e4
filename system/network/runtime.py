"""systemd-networkd and the host name, told about the files in force (NASUI_NETWORK).

On the appliance (NASUI_NETWORK=networkd) the data directory's network/*.network files are
copied into /etc/systemd/network (the image's own DHCP file stays for interfaces the panel does
not set: the panel's sort first), networkd reloads them and reconfigures each interface, and
hostnamectl sets the name. Elsewhere (`make run`) nothing on the host changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from django.conf import settings

from nasui.lib.commands import CommandError, run_checked
from nasui.lib.files import write_atomic
from system.network.engine.networkd import FILE_PREFIX

SYSTEM_FOLDER = Path("/etc/systemd/network")
TIMEOUT = 60


class NetworkApplyError(Exception):
    """networkd or hostnamectl refused: their own words."""


def applies() -> bool:
    """Whether this panel sets the box's network."""
    return str(settings.NASUI_NETWORK) == "networkd"


def apply(files: Mapping[str, str], hostname: str, interfaces: Sequence[str]) -> None:
    """Put the .network files among `files` in force, reconfigure `interfaces` (those set now
    and those no longer set), and set the host name; NetworkApplyError if systemd refuses."""
    if not applies():
        return
    wanted = {name: text for name, text in files.items() if name.startswith(FILE_PREFIX)}
    for path in SYSTEM_FOLDER.glob(f"{FILE_PREFIX}*.network"):
        if path.name not in wanted:
            path.unlink()
    for name, text in wanted.items():
        write_atomic(SYSTEM_FOLDER / name, text, mode=0o644)
    try:
        run_checked(["networkctl", "reload"], timeout=TIMEOUT)
        if interfaces:
            run_checked(["networkctl", "reconfigure", *interfaces], timeout=TIMEOUT)
        run_checked(["hostnamectl", "set-hostname", hostname], timeout=TIMEOUT)
    except CommandError as exc:
        raise NetworkApplyError(str(exc)) from exc
