"""What the panel knows of the box's network: the settings in force, the interfaces present,
and a change waiting for its confirmation."""

from __future__ import annotations

import ipaddress
import json
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil
from django.conf import settings

from system.network.engine import networkd, pending


@dataclass(frozen=True)
class Present:
    """An interface of this machine as the kernel shows it."""

    name: str
    addresses: tuple[str, ...]  # with their prefix length (10.0.2.15/24), link-local left out
    mac: str
    up: bool
    mtu: int


@dataclass(frozen=True)
class Pending:
    """A change in force on probation."""

    token: str
    deadline: datetime
    applied: bool  # the worker has put it in force (until then there is nothing to confirm)


def data_dir() -> Path:
    """Where network/ (the files in force, the pending mark) lives."""
    return Path(settings.DATA_DIR)


def network_current() -> networkd.Network:
    """The settings in force; before the first change, the machine's host name and no
    interface of the panel's (the image's own file gives every wired interface DHCP)."""
    kept = pending.in_force(data_dir()).get(pending.SETTINGS)
    if kept:
        return networkd.from_dict(json.loads(kept))
    return networkd.Network(hostname=host_name())


def host_name() -> str:
    """This machine's host name as one lowercase label (what the form starts from)."""
    label = socket.gethostname().split(".")[0].lower()
    return re.sub(r"[^a-z0-9-]", "-", label).strip("-") or "nasui"


def interfaces_present() -> list[Present]:
    """The machine's interfaces but loopback, by name."""
    stats = psutil.net_if_stats()
    found = []
    for name, entries in sorted(psutil.net_if_addrs().items()):
        if name == "lo":
            continue
        addresses = tuple(
            _with_prefix(entry.address.split("%")[0], entry.netmask)
            for entry in entries
            if entry.family in (socket.AF_INET, socket.AF_INET6)
            and not entry.address.lower().startswith("fe80")
        )
        mac = next((e.address for e in entries if e.family == psutil.AF_LINK), "")
        stat = stats.get(name)
        found.append(
            Present(name, addresses, mac, bool(stat and stat.isup), stat.mtu if stat else 0)
        )
    return found


def pending_change() -> Pending | None:
    """The change waiting for its confirmation, or None."""
    mark = pending.pending(data_dir())
    if mark is None:
        return None
    deadline = mark.get("deadline")
    seconds = float(deadline) if isinstance(deadline, (int, float)) else 0.0
    return Pending(
        token=str(mark.get("token", "")),
        deadline=datetime.fromtimestamp(seconds, UTC),
        applied=bool(mark.get("applied")),
    )


def last_undone() -> tuple[str, datetime] | None:
    """Why and when the last change was undone, or None."""
    outcome = pending.last_undone(data_dir())
    if outcome is None:
        return None
    at = outcome.get("at")
    when = datetime.fromtimestamp(float(at) if isinstance(at, (int, float)) else 0.0, UTC)
    return str(outcome.get("reason", "")), when


def _with_prefix(address: str, netmask: str | None) -> str:
    """`address/prefix`: psutil gives the mask as an address (255.255.255.0, ffff:ffff::)."""
    if not netmask:
        return address
    try:
        mask = int(ipaddress.ip_address(netmask.split("%")[0]))
    except ValueError:
        return address
    return f"{address}/{mask.bit_count()}"


def static_addresses(network: networkd.Network) -> list[str]:
    """The static addresses of `network`, without their prefix length."""
    return [
        address.split("/")[0]
        for interface in network.interfaces
        if not interface.dhcp
        for address in interface.addresses
    ]


def arrived_at(meta: Mapping[str, Any]) -> str | None:
    """The box's address a request came in through: nginx tells it (X-Nasui-Local-Address,
    set on every request it passes, so a client cannot choose it); nobody else does."""
    if str(settings.NASUI_WEB_SERVER) != "nginx":
        return None
    value = meta.get("HTTP_X_NASUI_LOCAL_ADDRESS")
    return str(value) if value else None
