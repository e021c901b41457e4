"""The desired NFS exports as plain frozen specs, checked on creation (no Django).

Django code builds these from the NFS tables (user and group names already resolved to ids);
the engine renders them to an exports(5) file of its own and runs `exportfs -ra`.
"""

from __future__ import annotations

import ipaddress
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from sharing.nfs.engine.errors import NfsError

__all__ = [
    "MAP_MODES",
    "MAP_MODE_HELP",
    "MAP_MODE_LABELS",
    "SECURITY",
    "MapMode",
    "NfsError",
    "NfsExportSpec",
    "NfsState",
    "normalize_host",
    "normalize_network",
    "world_networks",
]

# none: root is squashed to nobody (the kernel's default, TrueNAS's with no maproot);
# root: root is mapped to anon_uid/anon_gid (uid 0: root stays root, no_root_squash);
# all: every user is mapped to anon_uid/anon_gid (TrueNAS mapall).
MapMode = Literal["none", "root", "all"]
MAP_MODES: tuple[MapMode, ...] = ("none", "root", "all")
# What each mode writes and does, in exports(5)'s words: root_squash maps requests from uid
# and gid 0 to the anonymous uid and gid, all_squash maps every uid and gid to them, and
# anonuid/anongid set them (65534, nobody and nogroup, unless given).
MAP_MODE_LABELS: dict[MapMode, str] = {
    "none": "Root becomes nobody (root_squash): a client's uid and gid 0 map to 65534; "
    "other users keep their ids",
    "root": "Root becomes the user below (root_squash, anonuid and anongid); "
    "other users keep their ids",
    "all": "Everyone becomes the user below (all_squash, anonuid and anongid), root included",
}
MAP_MODE_HELP = (
    "How this server takes a client's users (exports(5)): root_squash maps a client's root "
    "(uid and gid 0) to the anonymous user and group, all_squash maps every uid and gid to "
    "them. The anonymous user is nobody (65534) unless you pick one (anonuid, anongid)."
)
# AUTH_SYS only: Kerberos (krb5, krb5i, krb5p) needs a KDC and keytabs the panel does not run.
SECURITY = ("sys",)
MAX_ID = 2**32 - 2  # (uid_t)-1 means "no change" to the kernel
# RFC 1123 host names, labels of 1-63 characters, optionally fully qualified with a final dot.
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOSTNAME = re.compile(rf"^(?=.{{1,253}}\.?$){_LABEL}(?:\.{_LABEL})*\.?$")
# What exports(5) reads as syntax in a client: wildcards, netgroups, options, separators.
_CLIENT_SYNTAX = {
    "*": "wildcards",
    "?": "wildcards",
    "[": "wildcards",
    "@": "netgroups",
    "(": "parentheses",
    ")": "parentheses",
    ",": "commas",
    '"': "quotes",
    "'": "quotes",
}
# exports(5) has no way to carry these in a path: quotes end a quoted name, a backslash starts
# an octal escape, a line break ends the entry.
_PATH_FORBIDDEN = ('"', "\\")


def _set(obj: object, name: str, value: object) -> None:
    """Assign inside __post_init__ of a frozen dataclass (normalising input)."""
    object.__setattr__(obj, name, value)


def normalize_network(value: str) -> str:
    """A network in canonical CIDR form (`10.0.0.0/24`, `2001:db8::/32`), or NfsError.

    Host bits are cleared and a bare address becomes /32 or /128, so one network has one
    spelling (and two spellings of it cannot make two entries).
    """
    try:
        return str(ipaddress.ip_network(value.strip(), strict=False))
    except ValueError as exc:
        raise NfsError(f"{value!r} is not an IP network (use CIDR, e.g. 10.0.0.0/24)") from exc


def normalize_host(value: str) -> str:
    """One client host: an IP address (canonical) or a host name (lower case), or NfsError."""
    text = value.strip()
    if not text or any(ch.isspace() for ch in text):
        raise NfsError(f"host {value!r}: one host name or address, without spaces")
    try:
        return str(ipaddress.ip_address(text.removeprefix("[").removesuffix("]")))
    except ValueError:
        pass
    for ch, what in _CLIENT_SYNTAX.items():
        if ch in text:
            raise NfsError(f"host {value!r}: {what} are refused; name one host per entry")
    if "/" in text:
        raise NfsError(f"host {value!r}: put networks under networks, not hosts")
    if not _HOSTNAME.match(text.lower()):
        raise NfsError(f"host {value!r} is neither an IP address nor a host name")
    return text.lower()


def world_networks(networks: Iterable[str]) -> list[str]:
    """The networks that take in every address (0.0.0.0/0, ::/0): anyone anywhere may mount."""
    found = []
    for network in networks:
        try:
            whole = ipaddress.ip_network(network.strip(), strict=False).prefixlen == 0
        except ValueError:
            continue
        if whole:
            found.append(network)
    return found


def _normalize_path(path: str) -> str:
    """An absolute path exports(5) can carry, without `.`/`..` parts or a trailing slash."""
    if not path.startswith("/"):
        raise NfsError(f"export path {path!r} must be absolute")
    if not path.isprintable() or any(ch in path for ch in _PATH_FORBIDDEN):
        raise NfsError(
            f"export path {path!r}: line breaks, control characters, '\"' and '\\' cannot be"
            " written to an exports file"
        )
    parts = path.split("/")
    if "." in parts or ".." in parts:
        raise NfsError(f"export path {path!r} must not contain '.' or '..' parts")
    return posixpath.normpath(path) if path != "/" else path


def _check_id(value: int | None, what: str) -> None:
    """A uid or gid the kernel accepts as anonuid/anongid."""
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise NfsError(f"{what} must be a numeric id (resolve names before building the spec)")
    if not 0 <= value <= MAX_ID:
        raise NfsError(f"{what} {value} is outside 0-{MAX_ID}")


@dataclass(frozen=True)
class NfsExportSpec:
    """One exported directory (a dataset's mountpoint) and the clients that may mount it.

    Every client gets the same options. `map_mode` with `anon_uid`/`anon_gid` is TrueNAS's
    maproot ("root") or mapall ("all"); "none" squashes root to nobody. `crossmnt` lets
    clients walk into child datasets (their own file systems) with this export's rules;
    off, a child dataset is reached only through an export of its own. `secure` admits
    clients only from ports below 1024 (the kernel's default; macOS and userspace clients
    need it off).
    """

    path: str
    networks: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()
    read_only: bool = False
    map_mode: MapMode = "none"
    anon_uid: int | None = None
    anon_gid: int | None = None
    security: str = "sys"
    crossmnt: bool = False
    secure: bool = True

    def __post_init__(self) -> None:
        _set(self, "path", _normalize_path(self.path))
        _set(self, "networks", tuple(sorted({normalize_network(n) for n in self.networks})))
        _set(self, "hosts", tuple(sorted({normalize_host(h) for h in self.hosts})))
        if not self.networks and not self.hosts:
            raise NfsError(f"export {self.path}: name at least one network or host")
        if self.security not in SECURITY:
            raise NfsError(f"export {self.path}: security {self.security!r}; only sys is offered")
        self._check_mapping()

    def _check_mapping(self) -> None:
        """root/all need both ids; none takes none (nobody is the kernel's own default)."""
        if self.map_mode not in MAP_MODES:
            raise NfsError(f"export {self.path}: map mode {self.map_mode!r}; use none, root or all")
        if self.map_mode == "none":
            if self.anon_uid is not None or self.anon_gid is not None:
                raise NfsError(f"export {self.path}: ids to map to need map mode root or all")
            return
        _check_id(self.anon_uid, f"export {self.path}: the user to map to")
        _check_id(self.anon_gid, f"export {self.path}: the group to map to")

    @property
    def clients(self) -> tuple[str, ...]:
        """Hosts, then networks: the clients named on the export's line."""
        return self.hosts + self.networks


@dataclass(frozen=True)
class NfsState:
    """Every export of the panel, and whether NFSv3 is offered next to NFSv4 (port 2049)."""

    exports: tuple[NfsExportSpec, ...] = ()
    v3: bool = False

    def __post_init__(self) -> None:
        _set(self, "exports", tuple(sorted(self.exports, key=lambda e: e.path)))
        paths = [e.path for e in self.exports]
        doubles = sorted({p for p in paths if paths.count(p) > 1})
        if doubles:
            # The kernel server takes one line per path: clients of one path share its line.
            raise NfsError(f"one export per path: {', '.join(doubles)} is exported twice")
