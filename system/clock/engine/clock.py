"""The box's clock: its time zone and the NTP servers systemd-timesyncd follows.

Plain Python. What is chosen is checked here (a zone of the tz database, servers as host
names or addresses), written as files of the data partition (an upgraded root is new; the
appliance's nasui-setup puts the zone back from them at boot, and timesyncd reads its drop-in
through a link into them), and read back from systemd's own view (`timedatectl show`).
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from nasui.lib.commands import CommandError, run_checked
from nasui.lib.files import write_atomic
from nasui.lib.hosts import valid_host

ZONE_FILE = "clock/timezone"  # under the data directory: the zone's name
TIMESYNCD_FILE = "clock/timesyncd.conf"  # copied to TIMESYNCD_DROPIN (here and at boot)
# A copy, not a link: timesyncd runs as its own user, which cannot read the data partition
# (mode 0700); a link there was ignored and timesyncd followed Debian's pool instead.
TIMESYNCD_DROPIN = Path("/etc/systemd/timesyncd.conf.d/nasui.conf")
MAX_SERVERS = 8
TIMEOUT = 30


class ClockError(Exception):
    """A zone or server nasui will not set; `field` names which."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


# systemd's time spans (format_timespan): a number and its unit, several parts for long spans
OFFSET_PART = re.compile(r"(\d+(?:\.\d+)?)(us|ms|min|s|h|d)\b")
UNIT_MS = {
    "us": 0.001,
    "ms": 1.0,
    "s": 1000.0,
    "min": 60_000.0,
    "h": 3_600_000.0,
    "d": 86_400_000.0,
}


@dataclass(frozen=True)
class SyncState:
    """What systemd says of the clock: its zone, whether NTP is on and has synchronized it,
    and the server it follows."""

    zone: str
    ntp: bool
    synchronized: bool
    server: str
    offset_ms: float | None = None  # from the last NTP answer (None: no answer yet)


@functools.cache
def zones() -> tuple[str, ...]:
    """Every zone of the tz database here, sorted (UTC first)."""
    names = sorted(zoneinfo.available_timezones() - {"UTC"})
    return ("UTC", *names)


def check_zone(name: str) -> str:
    """The zone's name if the tz database knows it, else ClockError."""
    if name not in zones():
        raise ClockError("time_zone", f"{name!r} is not a time zone; pick one like Europe/Paris.")
    return name


def check_servers(servers: Sequence[str]) -> list[str]:
    """Host names or addresses, without repeats (at most MAX_SERVERS), else ClockError."""
    found: list[str] = []
    for server in servers:
        name = server.strip().lower().rstrip(".")
        if not name or name in found:
            continue
        if not valid_host(name):
            raise ClockError("ntp_servers", f"{server!r} is neither a host name nor an address.")
        found.append(name)
    if len(found) > MAX_SERVERS:
        raise ClockError("ntp_servers", f"At most {MAX_SERVERS} NTP servers.")
    return found


def files(zone: str, servers: Sequence[str]) -> dict[str, str]:
    """The data directory's clock files for this choice."""
    # An empty NTP= leaves timesyncd with Debian's pool (its fallback servers).
    return {ZONE_FILE: f"{zone}\n", TIMESYNCD_FILE: f"[Time]\nNTP={' '.join(servers)}\n"}


def set_zone(zone: str) -> None:
    """Have the system use `zone` (systemd-timedated rewrites /etc/localtime)."""
    _run(["timedatectl", "set-timezone", zone], "time_zone")


def restart_timesyncd(conf: str, dropin: Path = TIMESYNCD_DROPIN) -> None:
    """Give timesyncd its servers (`conf`, the drop-in's text) and have it read them again."""
    dropin.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(dropin, conf, mode=0o644)
    _run(["systemctl", "restart", "systemd-timesyncd.service"], "ntp_servers")


def sync_state() -> SyncState:
    """systemd's view of the clock (timedatectl's properties, key=value)."""
    clock = _properties(["timedatectl", "show"])
    sync = _properties(["timedatectl", "show-timesync", "-p", "ServerName", "-p", "ServerAddress"])
    server = sync.get("ServerName") or sync.get("ServerAddress", "")
    try:
        offset = parse_offset(run_checked(["timedatectl", "timesync-status"], timeout=TIMEOUT))
    except CommandError:
        offset = None
    return SyncState(
        zone=clock.get("Timezone", ""),
        ntp=clock.get("NTP") == "yes",
        synchronized=clock.get("NTPSynchronized") == "yes",
        server=server,
        offset_ms=offset,
    )


def parse_offset(text: str) -> float | None:
    """The clock's offset from its server in milliseconds, from `timedatectl timesync-status`
    ("Offset: -1.218ms", "+2min 3.5s"; no such line before the first answer): the sum of the
    value's parts in systemd's units, with its sign."""
    line = next(
        (ln.split(":", 1)[1] for ln in text.splitlines() if ln.strip().startswith("Offset:")), None
    )
    if line is None:
        return None
    value = line.strip()
    parts = OFFSET_PART.findall(value)
    if not parts and value.lstrip("+-") != "0":
        return None
    total = float(sum(float(number) * UNIT_MS[unit] for number, unit in parts))
    return -total if value.startswith("-") else total


def parse_properties(text: str) -> dict[str, str]:
    """`systemctl show`-style lines (Key=value) as a dict."""
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line)
    return {key: value for key, value in pairs}


def write_files(data_dir: Path, written: dict[str, str]) -> None:
    """Put the clock files in place under `data_dir` (atomically each)."""
    for name, text in written.items():
        (data_dir / name).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(data_dir / name, text, mode=0o644)


def _properties(argv: list[str]) -> dict[str, str]:
    try:
        return parse_properties(run_checked(argv, timeout=TIMEOUT))
    except CommandError:
        return {}


def _run(argv: list[str], field: str) -> None:
    try:
        run_checked(argv, timeout=TIMEOUT)
    except CommandError as exc:
        raise ClockError(field, exc.message) from exc
