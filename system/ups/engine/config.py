"""The NUT configuration the panel writes: ups.conf, upsd.conf, upsd.users, upsmon.conf, nut.conf.

A `NutPlan` says what should run; `render` turns it into the five files' text and
`write_config` puts them in a directory (NUT_CONFPATH) atomically, only those that changed.
Values are checked here (names, hosts, ports, secrets) so nothing a user types can break a
file's syntax: `ConfigRefused` names the field at fault.
"""

from __future__ import annotations

import ipaddress
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from nasui.lib.files import write_if_changed

MODES = ("off", "usb", "network", "dummy")
POLICIES = ("battery_seconds", "low_battery")
FILES = ("nut.conf", "ups.conf", "upsd.conf", "upsd.users", "upsmon.conf")
NUT_PORT = 3493
DRIVERS = {"usb": "usbhid-ups", "dummy": "dummy-ups"}
# NUT's own limits: UPS and user names are short words; secrets are printable, quoted here.
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
_HOST = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$"
)
SECRET_MAX = 64
SECONDS_MIN, SECONDS_MAX = 5, 86400


class ConfigRefused(ValueError):
    """A value NUT cannot take; `field` names the setting at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def check_name(value: str, field: str, what: str = "A name") -> str:
    """A UPS or user name: letters, digits, '_', '.', '-', at most 32, starting alphanumeric."""
    if not _NAME.match(value):
        raise ConfigRefused(
            field,
            f"{what} is 1 to 32 letters, digits, '_', '.' or '-', starting with a letter or digit.",
        )
    return value


def check_host(value: str, field: str) -> str:
    """A host name or an IP address (no port, no spaces)."""
    text = value.strip().strip("[]")
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    if not _HOST.match(text):
        raise ConfigRefused(field, "Give a host name or an IP address.")
    return text.lower()


def check_address(value: str, field: str) -> str:
    """A listen address: an IPv4 or IPv6 address (0.0.0.0 or :: for every address)."""
    try:
        return str(ipaddress.ip_address(value.strip().strip("[]")))
    except ValueError as exc:
        raise ConfigRefused(
            field, "Give an IP address, or 0.0.0.0 to listen on every address."
        ) from exc


def check_port(value: int, field: str) -> int:
    """A TCP port, 1-65535."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 65535:
        raise ConfigRefused(field, "A port is a number from 1 to 65535.")
    return value


def check_secret(value: str, field: str) -> str:
    """A password NUT can read: 1-64 printable characters, no spaces."""
    if not value or len(value) > SECRET_MAX or not all(33 <= ord(c) <= 126 for c in value):
        raise ConfigRefused(field, f"Use 1 to {SECRET_MAX} printable characters without spaces.")
    return value


def check_seconds(value: int, field: str) -> int:
    """Seconds on battery before the shutdown."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not SECONDS_MIN <= value <= SECONDS_MAX
    ):
        raise ConfigRefused(field, f"Give a number of seconds from {SECONDS_MIN} to {SECONDS_MAX}.")
    return value


def check_dev_file(value: str, field: str) -> str:
    """The dummy UPS's .dev file: an absolute path ending in .dev or .seq."""
    path = value.strip()
    if (
        not path.startswith("/")
        or not path.endswith((".dev", ".seq"))
        or "\n" in path
        or '"' in path
    ):
        raise ConfigRefused(field, "Give the absolute path of a .dev (or .seq) file.")
    return path


@dataclass(frozen=True)
class Account:
    """A upsd user and its role: `primary` (the panel's upsmon) or `secondary` (monitor only)."""

    user: str
    password: str
    role: str = "secondary"


@dataclass(frozen=True)
class NutPlan:
    """What NUT should do on this box. `mode` off writes MODE=none and runs nothing."""

    mode: str
    name: str = "ups"  # the local UPS's name in ups.conf, or the remote UPS's name
    port: str = "auto"  # the driver's port: "auto" (USB) or the dummy's .dev file
    remote_host: str = ""
    remote_port: int = NUT_PORT
    remote_user: str = ""
    remote_password: str = ""
    listen: Sequence[tuple[str, int]] = ()  # upsd's addresses and ports
    accounts: Sequence[Account] = ()  # upsd.users: the panel's own and the monitor user
    shutdown_command: Sequence[str] = ()  # upsmon's SHUTDOWNCMD, as an argument list
    state_dir: Path = field(default=Path("/run/nut"))
    run_as: str = "root"

    @property
    def local(self) -> bool:
        """Whether a driver and upsd run here (a USB or dummy UPS)."""
        return self.mode in DRIVERS

    @property
    def driver(self) -> str:
        """The driver program's name (local modes)."""
        return DRIVERS.get(self.mode, "")

    def monitor_target(self) -> tuple[str, int, str]:
        """Where the panel reads the UPS: (host, port, ups name)."""
        if self.mode == "network":
            return self.remote_host, self.remote_port, self.name
        host, port = self.listen[0] if self.listen else ("127.0.0.1", NUT_PORT)
        return ("127.0.0.1" if host in ("0.0.0.0", "::") else host), port, self.name  # noqa: S104

    def upsmon_login(self) -> Account | None:
        """The account the panel's upsmon logs in with (primary here, secondary remotely)."""
        if self.mode == "network":
            if not self.remote_user:
                return None
            return Account(self.remote_user, self.remote_password, "secondary")
        return next((a for a in self.accounts if a.role == "primary"), None)


def quoted(value: str) -> str:
    """A value in NUT's double quotes, its backslashes and quotes escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _nut_conf(plan: NutPlan) -> str:
    mode = {"off": "none", "network": "netclient"}.get(plan.mode, "netserver")
    return f"# Written by nasui: do not edit.\nMODE={mode}\n"


def _ups_conf(plan: NutPlan) -> str:
    lines = ["# Written by nasui: do not edit."]  # the state path is NUT_STATEPATH
    if plan.local:
        lines += [
            f"[{plan.name}]",
            f"  driver = {plan.driver}",
            f"  port = {quoted(plan.port)}",
            *(["  pollinterval = 1"] if plan.mode == "dummy" else []),  # tests see changes soon
            '  desc = "UPS watched by nasui"',
        ]
    return "\n".join(lines) + "\n"


def _upsd_conf(plan: NutPlan) -> str:
    lines = ["# Written by nasui: do not edit.", "MAXAGE 15"]
    lines += [f"LISTEN {host} {port}" for host, port in plan.listen]
    return "\n".join(lines) + "\n"


def _upsd_users(plan: NutPlan) -> str:
    lines = ["# Written by nasui: do not edit."]
    for account in plan.accounts:
        lines += [f"[{account.user}]", f"  password = {quoted(account.password)}"]
        lines.append(f"  upsmon {account.role}")
    return "\n".join(lines) + "\n"


def _upsmon_conf(plan: NutPlan) -> str:
    lines = ["# Written by nasui: do not edit.", f"RUN_AS_USER {plan.run_as}"]
    login = plan.upsmon_login()
    if plan.mode != "off" and login is not None:
        host, port, name = plan.monitor_target()
        where = f"{name}@{host}:{port}" if ":" not in host else f"{name}@[{host}]:{port}"
        lines.append(f"MONITOR {where} 1 {login.user} {quoted(login.password)} {login.role}")
    if plan.shutdown_command:
        lines.append(f"SHUTDOWNCMD {quoted(shlex.join(plan.shutdown_command))}")
    lines += [
        "MINSUPPLIES 1",
        f"POWERDOWNFLAG {quoted(str(plan.state_dir / 'killpower'))}",
        "POLLFREQ 2",
        "POLLFREQALERT 2",
        "FINALDELAY 0",
    ]
    return "\n".join(lines) + "\n"


def render(plan: NutPlan) -> dict[str, str]:
    """The five files' text, by name."""
    return {
        "nut.conf": _nut_conf(plan),
        "ups.conf": _ups_conf(plan),
        "upsd.conf": _upsd_conf(plan),
        "upsd.users": _upsd_users(plan),
        "upsmon.conf": _upsmon_conf(plan),
    }


def write_config(directory: Path, files: Mapping[str, str]) -> bool:
    """Write the files into `directory` (owner-only: they hold passwords); True if any changed."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    changed = False
    for name, text in files.items():
        changed = write_if_changed(directory / name, text, mode=0o600) or changed
    return changed
