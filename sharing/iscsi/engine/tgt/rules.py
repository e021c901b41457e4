"""What tgt can express faithfully, and how panel settings map onto tgt's ACL entries.

Measured on tgt 1.0.85 (tests/iscsi/test_tgt_facts.py): a login is allowed when the
address OR the IQN matches; a target without ACL entries admits nobody; `ALL` admits
everyone. Its address matching has sharp edges the panel must not inherit:
- an entry with host bits set (`10.1.2.3/8`) never matches: send the network address;
- a /32 (or /128) entry never matches, a bare address does: send the bare address;
- `0.0.0.0/0` matches no IPv4 client at all;
- the address family is not compared: an IPv4 entry is compared with an IPv6 client's flow
  label (0 in practice), so any IPv4 entry covering 0.0.0.0 admits every IPv6 client, and an
  IPv6 entry is compared with padding bytes of an IPv4 client's address (zeros, then
  uninitialised memory), so an IPv6 entry whose first 64 bits may be zero (`::/64`, `::1`,
  `::/0`) admits IPv4 clients. Those networks are refused.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from sharing.iscsi.engine.desired import DesiredState, TargetSpec
from sharing.iscsi.engine.errors import UnsupportedByEngine
from sharing.iscsi.engine.iqn import is_full_name

ENGINE = "tgt"
FIRST_LUN = 1  # LUN 0 is tgt's controller (what initiators see as LUN 0, too)
ALL = "ALL"
BSTYPE = "rdwr"  # the backing-store type the engine uses: pread/pwrite on a file or device
_ZERO_V4 = ipaddress.ip_network("0.0.0.0/8")
_ZERO_V6 = ipaddress.ip_network("::/64")
# tgtadm packs values into "key=value,key=value": a comma would split a value.
_FORBIDDEN = ","


def refuse(message: str) -> UnsupportedByEngine:
    """The error for a setting tgt cannot express."""
    return UnsupportedByEngine(ENGINE, message)


def default_serial(tid: int, lun: int) -> str:
    """The serial tgt gives a LUN when none is set."""
    return f"beaf{tid}{lun}"


def network_entries(network: str) -> list[str]:
    """tgt ACL entries admitting exactly `network` (canonical CIDR), or UnsupportedByEngine."""
    net = ipaddress.ip_network(network, strict=False)
    zero = _ZERO_V4 if net.version == 4 else _ZERO_V6
    if net.overlaps(zero):
        other = "IPv6" if net.version == 4 else "IPv4"
        raise refuse(
            f"network {network} overlaps {zero}, and tgt compares such rules with {other} "
            f"clients too, which would admit clients outside it; use narrower networks, "
            "or no network at all to allow everyone"
        )
    if net.prefixlen == net.max_prefixlen:
        return [str(net.network_address)]
    return [f"{net.network_address}/{net.prefixlen}"]


def acl_entries(spec: TargetSpec) -> tuple[str, ...]:
    """The ACL entries tgt needs for this target's initiator group."""
    if spec.open_to_all:
        return (ALL,)
    if spec.initiators and spec.networks:
        raise refuse(
            f"{spec.iqn}: an initiator group with both initiator names and networks means "
            "'this initiator from these networks', but tgt admits a login when EITHER the "
            "name OR the address matches; use names only or networks only"
        )
    if spec.initiators:
        return spec.initiators
    entries: list[str] = []
    for network in spec.networks:
        entries.extend(e for e in network_entries(network) if e not in entries)
    return tuple(entries)


def acl_option(entry: str) -> str:
    """The tgtadm option that binds or unbinds this ACL entry."""
    return "--initiator-name" if is_full_name(entry) else "--initiator-address"


def desired_accounts(desired: DesiredState) -> dict[str, str]:
    """Every CHAP account tgt needs (user -> secret); tgt accounts are global, one secret each."""
    accounts: dict[str, str] = {}
    where: dict[str, str] = {}
    pairs: list[tuple[str, str | None, str | None]] = []
    for spec in desired.targets:
        if spec.chap is not None:
            pairs.append((spec.iqn, spec.chap.user, spec.chap.secret))
            pairs.append((spec.iqn, spec.chap.peer_user, spec.chap.peer_secret))
    if desired.discovery_chap is not None:
        chap = desired.discovery_chap
        pairs.append(("discovery", chap.user, chap.secret))
        pairs.append(("discovery", chap.peer_user, chap.peer_secret))
    for owner, user, secret in pairs:
        if user is None or secret is None:
            continue
        if user in accounts and accounts[user] != secret:
            raise refuse(
                f"CHAP user {user!r} has different secrets ({where[user]} and {owner}); tgt keeps "
                "one secret per user name for all targets: use distinct user names"
            )
        accounts[user], where[user] = secret, owner
    return accounts


def _check_values(desired: DesiredState) -> None:
    """Refuse commas where tgtadm would split a value."""
    for user, secret in desired_accounts(desired).items():
        if _FORBIDDEN in user or _FORBIDDEN in secret:
            raise refuse(f"CHAP user {user!r}: tgt cannot store a user or secret containing ','")
    for spec in desired.targets:
        for lun in spec.luns:
            if _FORBIDDEN in lun.path:
                raise refuse(f"{lun.path}: tgt cannot use a backing path containing ','")


def validate(desired: DesiredState) -> None:
    """Raise UnsupportedByEngine for anything tgt would silently get wrong."""
    everywhere = set(desired.portals)
    for spec in desired.targets:
        for lun in spec.luns:
            if lun.lun < FIRST_LUN:
                raise refuse(
                    f"{spec.iqn}: LUN 0 is reserved for tgt's own controller device; "
                    "number LUNs from 1 with the tgt engine"
                )
        if spec.portals and set(spec.portals) != everywhere:
            raise refuse(
                f"{spec.iqn}: tgt serves every target on every portal; it cannot limit a "
                "target to some portals"
            )
        acl_entries(spec)
    _check_values(desired)


# What an initiator group may hold with this engine, said where the user fills one in.
GROUP_HINT = "tgt admits by IQN or by network: use one or the other in a group, not both."


def initiator_group_problem(initiators: Sequence[str], networks: Sequence[str]) -> str | None:
    """Why tgt cannot enforce this group as written, or None."""
    if initiators and networks:
        return (
            "The tgt target would let in a login whose IQN OR address matches, which is "
            "weaker than this group says: use IQNs only or networks only."
        )
    return None


# What a portal may be with this engine, said where the user makes one.
PORTAL_HINT = "tgt serves every target on every address: keep one portal and list them all in it."


def portal_problem(existing: Sequence[int]) -> str | None:
    """Why tgt cannot add a portal next to the `existing` ones (their ids), or None."""
    if existing:
        return (
            "The tgt target serves every target on every portal, so a second portal could not "
            f"be chosen per target: add these addresses to portal {existing[0]} instead."
        )
    return None
