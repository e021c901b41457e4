"""The desired running iSCSI state as plain frozen specs, engine-neutral and checked on creation.

Django code builds these from database rows; an engine (tgt, LIO) reconciles the running
target with them. Each spec checks what is true for every engine; what one engine cannot
express is refused by that engine's own validation.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from nasui.lib import net
from sharing.iscsi.engine.errors import InvalidSpec
from sharing.iscsi.engine.iqn import is_valid_name, join_target_name, validate_name

__all__ = [
    "AUTH_MODES",
    "BLOCK_SIZES",
    "CHAP_SECRET_RULE",
    "AuthMode",
    "ChapSpec",
    "DesiredState",
    "LunSpec",
    "PortalSpec",
    "TargetSpec",
    "chap_secret_problems",
    "endpoint",
    "is_valid_name",
    "join_target_name",
    "lowest_free_lun",
    "normalize_ip",
    "normalize_network",
    "validate_name",
]

AuthMode = Literal["none", "chap", "mutual"]
AUTH_MODES: tuple[AuthMode, ...] = ("none", "chap", "mutual")
BLOCK_SIZES = (512, 1024, 2048, 4096)
# SAM flat addressing: 14-bit LUNs.
MAX_LUN = 16383
MAX_CHAP_USER = 255
_SERIAL = re.compile(r"^[A-Za-z0-9_.-]{1,36}$")
# The panel's CHAP secret policy (TrueNAS's, in bytes); engines only need a non-empty secret.
# 12 to 16 bytes is what Microsoft's initiator takes. Printable ASCII without the space
# (0x21-0x7E) is what every initiator can type and both tgt and LIO carry unchanged: the
# secret travels in iSCSI text keys and tgtadm arguments, where a tab, a line break or a
# multi-byte character is read differently on each side. '#' is refused as TrueNAS does.
CHAP_SECRET_MIN, CHAP_SECRET_MAX = 12, 16
CHAP_SECRET_RULE = (
    f"{CHAP_SECRET_MIN} to {CHAP_SECRET_MAX} printable ASCII characters (! to ~), no spaces, no #"
)


def _set(obj: object, name: str, value: object) -> None:
    """Assign inside __post_init__ of a frozen dataclass (normalising input)."""
    object.__setattr__(obj, name, value)


def normalize_network(value: str) -> str:
    """A network in canonical CIDR form (`10.0.0.0/8`, `2001:db8::/32`), or InvalidSpec.

    Host bits are cleared, a bare address becomes /32 or /128 and netmask notation becomes a
    prefix length, so engines get one spelling of each network.
    """
    try:
        return str(ipaddress.ip_network(value.strip(), strict=False))
    except ValueError as exc:
        raise InvalidSpec(f"{value!r} is not an IP network (use CIDR, e.g. 10.0.0.0/8)") from exc


def normalize_ip(value: str) -> str:
    """An IP address in its compressed canonical form, or InvalidSpec."""
    try:
        return net.normalize_ip(value)
    except ValueError as exc:
        raise InvalidSpec(f"{value!r} is not an IP address") from exc


def chap_secret_problems(secret: str) -> list[str]:
    """What is wrong with a CHAP secret under the panel's policy (empty list: acceptable)."""
    problems = []
    size = len(secret.encode("utf-8", "surrogatepass"))  # what the wire carries
    if not CHAP_SECRET_MIN <= size <= CHAP_SECRET_MAX:
        problems.append(f"must be {CHAP_SECRET_MIN} to {CHAP_SECRET_MAX} bytes long")
    if secret != secret.strip():
        problems.append("must not start or end with whitespace")
    stray = next((ch for ch in secret.strip() if not "!" <= ch <= "~"), None)
    if stray is not None:
        problems.append(f"must be printable ASCII without spaces (! to ~), not U+{ord(stray):04X}")
    if "#" in secret:
        problems.append("must not contain '#'")
    return problems


def endpoint(ip: str, port: int) -> str:
    """`IP:PORT`, with an IPv6 address in brackets (`[::1]:3260`), as iSCSI tools spell it."""
    return f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"


def lowest_free_lun(used: Iterable[int], first: int = 0) -> int:
    """The lowest LUN id at or above `first` not in `used` (engines differ on `first`)."""
    taken = set(used)
    lun = first
    while lun in taken:
        lun += 1
    if lun > MAX_LUN:
        raise InvalidSpec(f"no free LUN id left (the highest is {MAX_LUN})")
    return lun


@dataclass(frozen=True)
class PortalSpec:
    """An address and TCP port the target listens on (0.0.0.0 / :: for every address)."""

    ip: str
    port: int = 3260

    def __post_init__(self) -> None:
        _set(self, "ip", normalize_ip(self.ip))
        if not 1 <= self.port <= 65535:
            raise InvalidSpec(f"port {self.port} is outside 1-65535")

    @property
    def is_ipv6(self) -> bool:
        """Whether the portal address is IPv6."""
        return ":" in self.ip

    @property
    def endpoint(self) -> str:
        """`IP:PORT`, with the IPv6 address in brackets (`[::1]:3260`)."""
        return endpoint(self.ip, self.port)


def _check_chap_user(user: str, what: str) -> None:
    """CHAP names travel as iSCSI text values: printable, no whitespace."""
    if (
        not user
        or len(user) > MAX_CHAP_USER
        or not user.isprintable()
        or any(ch.isspace() for ch in user)
    ):
        raise InvalidSpec(f"{what} must be 1-{MAX_CHAP_USER} printable characters, no spaces")


@dataclass(frozen=True)
class ChapSpec:
    """CHAP credentials: the initiator's user/secret and, for mutual CHAP, the target's."""

    user: str
    secret: str = field(repr=False)
    peer_user: str | None = None
    peer_secret: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        _check_chap_user(self.user, "the CHAP user")
        if not self.secret:
            raise InvalidSpec("the CHAP secret must not be empty")
        if (self.peer_user is None) != (self.peer_secret is None):
            raise InvalidSpec("mutual CHAP needs both a peer user and a peer secret")
        if self.peer_user is not None:
            _check_chap_user(self.peer_user, "the mutual CHAP user")
            if not self.peer_secret:
                raise InvalidSpec("the mutual CHAP secret must not be empty")
            if self.peer_secret == self.secret:
                # RFC 3720 8.2.1: the two directions must not share a secret.
                raise InvalidSpec("the mutual CHAP secret must differ from the CHAP secret")

    @property
    def mutual(self) -> bool:
        """Whether peer (target) credentials are present."""
        return self.peer_user is not None


@dataclass(frozen=True)
class LunSpec:
    """One logical unit: LUN id, backing file or device, block size, read-only flag, serial."""

    lun: int
    path: str
    block_size: int = 512
    readonly: bool = False
    serial: str | None = None
    # Expected size in bytes (a zvol's volsize) when known; engines measure the backing anyway.
    size: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.lun <= MAX_LUN:
            raise InvalidSpec(f"LUN {self.lun} is outside 0-{MAX_LUN}")
        if not self.path.startswith("/"):
            raise InvalidSpec(f"the backing path {self.path!r} must be absolute")
        if self.block_size not in BLOCK_SIZES:
            raise InvalidSpec(
                f"block size {self.block_size} is not one of {', '.join(map(str, BLOCK_SIZES))}"
            )
        if self.serial is not None and not _SERIAL.match(self.serial):
            raise InvalidSpec(f"serial {self.serial!r}: 1-36 of A-Z a-z 0-9 _ . - only")
        if self.size is not None and self.size < 0:
            raise InvalidSpec("a size cannot be negative")


@dataclass(frozen=True)
class TargetSpec:
    """One target: its name, where it listens, who may log in, how, and its LUNs.

    Empty `initiators` and `networks` mean everyone may connect; `portals` empty means every
    portal of the desired state.
    """

    iqn: str
    alias: str = ""
    portals: tuple[PortalSpec, ...] = ()
    initiators: tuple[str, ...] = ()
    networks: tuple[str, ...] = ()
    auth: AuthMode = "none"
    chap: ChapSpec | None = None
    luns: tuple[LunSpec, ...] = ()

    def __post_init__(self) -> None:
        _set(self, "iqn", validate_name(self.iqn))
        _set(self, "portals", tuple(self.portals))
        _set(self, "initiators", tuple(dict.fromkeys(validate_name(i) for i in self.initiators)))
        _set(self, "networks", tuple(dict.fromkeys(normalize_network(n) for n in self.networks)))
        _set(self, "luns", tuple(sorted(self.luns, key=lambda spec: spec.lun)))
        self._check_auth()
        ids = [spec.lun for spec in self.luns]
        if len(ids) != len(set(ids)):
            raise InvalidSpec(f"{self.iqn}: LUN ids must be unique within a target")

    def _check_auth(self) -> None:
        """The auth mode and the credentials must agree."""
        if self.auth not in AUTH_MODES:
            raise InvalidSpec(f"auth must be one of {', '.join(AUTH_MODES)}, not {self.auth!r}")
        if self.auth == "none" and self.chap is not None:
            raise InvalidSpec(f"{self.iqn}: CHAP credentials given but auth is 'none'")
        if self.auth != "none" and self.chap is None:
            raise InvalidSpec(f"{self.iqn}: auth {self.auth!r} needs CHAP credentials")
        if self.auth == "mutual" and self.chap is not None and not self.chap.mutual:
            raise InvalidSpec(f"{self.iqn}: mutual CHAP needs a peer user and secret")
        if self.auth == "chap" and self.chap is not None and self.chap.mutual:
            raise InvalidSpec(f"{self.iqn}: peer credentials given but auth is 'chap', not mutual")

    @property
    def open_to_all(self) -> bool:
        """Whether no initiator or network restriction applies."""
        return not self.initiators and not self.networks


@dataclass(frozen=True)
class DesiredState:
    """Everything the running target should be: portals, targets, optional discovery CHAP."""

    targets: tuple[TargetSpec, ...] = ()
    portals: tuple[PortalSpec, ...] = ()
    discovery_chap: ChapSpec | None = None

    def __post_init__(self) -> None:
        _set(self, "targets", tuple(sorted(self.targets, key=lambda spec: spec.iqn)))
        _set(self, "portals", tuple(dict.fromkeys(self.portals)))
        names = [spec.iqn for spec in self.targets]
        if len(names) != len(set(names)):
            raise InvalidSpec("target names must be unique")
        self._check_portals()
        self._check_paths()

    def _check_portals(self) -> None:
        """A target may only listen on portals the state declares."""
        known = set(self.portals)
        for spec in self.targets:
            missing = [p.endpoint for p in spec.portals if p not in known]
            if missing:
                raise InvalidSpec(f"{spec.iqn}: portal {', '.join(missing)} is not configured")

    def _check_paths(self) -> None:
        """One backing store behind two LUNs would let two initiators corrupt each other."""
        seen: dict[str, str] = {}
        for spec in self.targets:
            for lun in spec.luns:
                where = f"{spec.iqn} LUN {lun.lun}"
                if lun.path in seen:
                    raise InvalidSpec(f"{lun.path} is exported twice: {seen[lun.path]} and {where}")
                seen[lun.path] = where

    def target(self, iqn: str) -> TargetSpec | None:
        """The target with this name, if any."""
        return next((spec for spec in self.targets if spec.iqn == iqn), None)
