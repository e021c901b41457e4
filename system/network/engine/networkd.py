"""The box's network as systemd-networkd files: interfaces (DHCP or static IPv4/IPv6, MTU),
default gateways, DNS servers, and the host name.

Plain Python. A configuration is checked as a whole before anything is written (each refusal
names its field), then rendered as one .network file per interface. The appliance keeps them on
the data partition and links them into /etc/systemd/network, so an upgraded root has them.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

HOST_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
MTU_RANGE = (576, 9216)  # IPv4's minimum; jumbo frames
IPV6_MIN_MTU = 1280
MAX_DNS = 3  # what the resolver uses
FILE_PREFIX = "10-nasui-"


class NetworkError(Exception):
    """A setting nasui will not apply; `field` names it (interfaces.<name>.<setting> for one
    interface's)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Interface:
    """One interface's settings: DHCP, or static addresses (CIDR) with their gateways."""

    name: str
    dhcp: bool = True
    addresses: tuple[str, ...] = ()
    gateway4: str = ""
    gateway6: str = ""
    mtu: int | None = None


@dataclass(frozen=True)
class Network:
    """The whole of it: the host name, every interface set, the DNS servers."""

    hostname: str
    interfaces: tuple[Interface, ...] = ()
    dns: tuple[str, ...] = field(default_factory=tuple)


def check(network: Network, present: Sequence[str]) -> Network:
    """`network` if it can be applied on a box with the interfaces `present`, else NetworkError."""
    check_hostname(network.hostname)
    seen: set[str] = set()
    for interface in network.interfaces:
        if interface.name not in present:
            raise NetworkError(
                f"interfaces.{interface.name}", f"There is no interface {interface.name!r} here."
            )
        if interface.name in seen:
            raise NetworkError(f"interfaces.{interface.name}", "Each interface is set once.")
        seen.add(interface.name)
        _check_interface(interface)
    if len(network.dns) > MAX_DNS:
        raise NetworkError("dns", f"At most {MAX_DNS} DNS servers.")
    for server in network.dns:
        if _address(server) is None:
            raise NetworkError("dns", f"{server!r} is not an IPv4 or IPv6 address.")
    return network


def check_hostname(name: str) -> str:
    """A host name of one label: letters, digits and hyphens, not at either end, 63 at most."""
    if not HOST_LABEL.match(name):
        raise NetworkError(
            "hostname",
            "A host name is 1-63 lowercase letters, digits and hyphens, not starting or ending "
            "with a hyphen (e.g. nas or family-nas).",
        )
    return name


def render(network: Network) -> dict[str, str]:
    """The .network file of each interface, by file name."""
    files: dict[str, str] = {}
    for interface in network.interfaces:
        lines = ["[Match]", f"Name={interface.name}", "", "[Network]"]
        if interface.dhcp:
            lines.append("DHCP=yes")
        else:
            lines += [f"Address={address}" for address in interface.addresses]
            lines += [f"Gateway={gw}" for gw in (interface.gateway4, interface.gateway6) if gw]
            lines.append("IPv6AcceptRA=no")
        lines += [f"DNS={server}" for server in network.dns]
        if interface.mtu:
            lines += ["", "[Link]", f"MTUBytes={interface.mtu}"]
        files[f"{FILE_PREFIX}{interface.name}.network"] = "\n".join(lines) + "\n"
    return files


def as_dict(network: Network) -> dict[str, object]:
    """The configuration as JSON-ready data (the panel keeps it beside the files)."""
    return asdict(network)


def from_dict(data: Mapping[str, Any]) -> Network:
    """The configuration `as_dict` made (fields it lacks take their defaults)."""
    interfaces = tuple(
        Interface(
            name=str(item["name"]),
            dhcp=bool(item.get("dhcp", True)),
            addresses=tuple(str(a) for a in item.get("addresses", ())),
            gateway4=str(item.get("gateway4", "")),
            gateway6=str(item.get("gateway6", "")),
            mtu=int(item["mtu"]) if item.get("mtu") else None,
        )
        for item in data.get("interfaces", ())
    )
    dns = tuple(str(server) for server in data.get("dns", ()))
    return Network(hostname=str(data["hostname"]), interfaces=interfaces, dns=dns)


def _check_interface(interface: Interface) -> None:
    where = f"interfaces.{interface.name}"
    if interface.mtu is not None and not MTU_RANGE[0] <= interface.mtu <= MTU_RANGE[1]:
        raise NetworkError(f"{where}.mtu", f"An MTU is {MTU_RANGE[0]}-{MTU_RANGE[1]} bytes.")
    if interface.dhcp:
        if interface.addresses or interface.gateway4 or interface.gateway6:
            raise NetworkError(
                f"{where}.addresses",
                "DHCP gives the addresses: leave them empty, or turn DHCP off.",
            )
        return
    if not interface.addresses:
        raise NetworkError(f"{where}.addresses", "A static interface needs an address (CIDR).")
    networks = [_interface_address(where, text) for text in interface.addresses]
    for version, gateway in ((4, interface.gateway4), (6, interface.gateway6)):
        if gateway:
            _check_gateway(where, version, gateway, networks)
    ipv6 = any(n.version == 6 for n in networks)
    if ipv6 and interface.mtu is not None and interface.mtu < IPV6_MIN_MTU:
        raise NetworkError(f"{where}.mtu", f"IPv6 needs an MTU of {IPV6_MIN_MTU} or more.")


def _interface_address(where: str, text: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface:
    try:
        address = ipaddress.ip_interface(text)
    except ValueError as exc:
        raise NetworkError(
            f"{where}.addresses", f"{text!r} is not an address with its prefix (192.168.1.20/24)."
        ) from exc
    if "/" not in text:
        raise NetworkError(f"{where}.addresses", f"{text!r} needs its prefix length (/24, /64).")
    if (
        address.ip == address.network.network_address
        and address.network.prefixlen < address.max_prefixlen - 1
    ):
        raise NetworkError(
            f"{where}.addresses", f"{text} is the network's own address, not a host's."
        )
    return address


def _check_gateway(where: str, version: int, gateway: str, networks: Sequence[object]) -> None:
    field_name = f"{where}.gateway{version}"
    address = _address(gateway)
    if address is None or address.version != version:
        raise NetworkError(field_name, f"{gateway!r} is not an IPv{version} address.")
    inside = [n for n in networks if getattr(n, "version", 0) == version]
    if version == 4 and not any(address in n.network for n in inside):  # type: ignore[attr-defined]
        raise NetworkError(
            field_name, f"The gateway {gateway} is outside this interface's networks."
        )


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None
