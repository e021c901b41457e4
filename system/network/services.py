"""Network changes: checked, put in force, and kept only once confirmed when they could cut
the user off.

A change of the interfaces goes on probation (engine/pending.py): its files are in force at
once, the worker applies them a moment after the answer has left (the answer would not get
through an address being taken away), and unless it is confirmed through the box's new
address within GRACE_SECONDS, the beat puts the settings before it back. A change of the host
name or the DNS servers alone cuts nobody off: it is applied and kept at once.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass

from kombu.exceptions import OperationalError

from nasui.celery import send
from nasui.validation import fail, refusal
from system.certificates import selectors as certificate_selectors
from system.certificates import services as certificate_services
from system.network import runtime, selectors
from system.network.engine import networkd, pending

log = logging.getLogger(__name__)
GRACE_SECONDS = 60.0
APPLY_DELAY_SECONDS = 2.0  # the answer leaves before its address may go
# A confirmation can come through the new address while the worker still finishes applying the
# change (networkd answers there before hostnamectl is done): it waits for that, this long.
CONFIRM_WAIT_SECONDS = 20.0


@dataclass(frozen=True)
class Change:
    """A change made: its token and deadline when it waits for a confirmation."""

    network: networkd.Network
    token: str | None = None
    deadline: float | None = None


def network_update(network: networkd.Network, *, now: float | None = None) -> Change:
    """Check `network` whole and put it in force (on probation if its interfaces change)."""
    present = [interface.name for interface in selectors.interfaces_present()]
    try:
        networkd.check(network, present)
    except networkd.NetworkError as exc:
        raise fail(exc.field, str(exc)) from exc
    before = selectors.network_current()
    now = time.time() if now is None else now
    if network.interfaces == before.interfaces and selectors.pending_change() is None:
        _keep_at_once(before, network, now)
        return Change(network)
    token = pending.stage(selectors.data_dir(), files_of(network), now=now, grace=GRACE_SECONDS)
    names = _names(before, network)
    try:
        send("system.network_apply", names, APPLY_DELAY_SECONDS if runtime.applies() else 0.0)
    except (OSError, OperationalError) as exc:
        pending.revert(selectors.data_dir())
        raise refusal(f"Nothing was changed: the worker could not be reached ({exc}).") from exc
    return Change(network, token, now + GRACE_SECONDS)


def network_apply_pending(names: list[str]) -> bool:
    """The worker's half of a change on probation: put it in force; if systemd refuses, put
    the settings before it back. Whether the change is in force."""
    network = selectors.network_current()
    try:
        _apply(network, names)
    except runtime.NetworkApplyError as exc:
        log.warning("network change refused, undone: %s", exc)
        _undo(f"systemd refused it: {exc}", names)
        return False
    pending.note(selectors.data_dir(), applied=True)
    return True


def network_confirm(token: str, *, arrived_at: str | None) -> networkd.Network:
    """Keep the change waiting for `token`; it must have come through one of the new static
    addresses (when the change sets some), which proves the box answers there."""
    waiting = _in_force(selectors.pending_change(), CONFIRM_WAIT_SECONDS)
    if waiting is None:
        raise refusal("No network change is waiting for a confirmation (it may have been undone).")
    if not waiting.applied:
        raise refusal("The change is not in force yet: try again in a few seconds.")
    network = selectors.network_current()
    static = selectors.static_addresses(network)
    if runtime.applies() and static and arrived_at not in static:
        raise refusal(
            f"Confirm from the new address (https://{static[0]}/): this request came through "
            f"{arrived_at or 'an address the box does not report'}."
        )
    if not pending.confirm(selectors.data_dir(), token):
        raise fail("token", "This is not the token of the change waiting for a confirmation.")
    _follow_names(network)
    return network


def network_undo() -> bool:
    """Put back the settings before the change waiting for a confirmation; whether one was."""
    if selectors.pending_change() is None:
        return False
    _undo("It was undone from the panel.", _names(selectors.network_current()))
    return True


def network_revert_due(*, now: float | None = None) -> bool:
    """The beat's check: undo a change whose confirmation did not come in time."""
    waiting = selectors.pending_change()
    now = time.time() if now is None else now
    if waiting is None or now < waiting.deadline.timestamp():
        return False
    _undo(
        f"It was not confirmed within {GRACE_SECONDS:.0f} s.", _names(selectors.network_current())
    )
    return True


def files_of(network: networkd.Network) -> dict[str, str]:
    """Every file of a configuration: networkd's, the settings, the host name."""
    return {
        **networkd.render(network),
        pending.SETTINGS: json.dumps(networkd.as_dict(network), indent=1),
        pending.HOSTNAME: f"{network.hostname}\n",
    }


def _in_force(waiting: selectors.Pending | None, seconds: float) -> selectors.Pending | None:
    """The pending change once the worker has applied it (or as it is after `seconds`)."""
    limit = time.monotonic() + seconds
    while waiting is not None and not waiting.applied and time.monotonic() < limit:
        time.sleep(0.5)
        waiting = selectors.pending_change()
    return waiting


def _keep_at_once(before: networkd.Network, network: networkd.Network, now: float) -> None:
    """A change of the name or the DNS servers: in force now, or refused with nothing changed."""
    folder = selectors.data_dir()
    token = pending.stage(folder, files_of(network), now=now, grace=GRACE_SECONDS)
    dns_changed = network.dns != before.dns
    try:
        _apply(network, _names(network) if dns_changed else [])
    except runtime.NetworkApplyError as exc:
        pending.revert(folder)
        _apply_quietly(before, _names(before) if dns_changed else [])
        raise refusal(f"systemd refused the change, which was undone: {exc}") from exc
    pending.confirm(folder, token)
    _follow_names(network)


def _undo(reason: str, names: list[str]) -> None:
    folder = selectors.data_dir()
    pending.revert(folder)
    pending.remember(folder, reason, time.time())
    _apply_quietly(selectors.network_current(), _names(selectors.network_current(), names))


def _apply(network: networkd.Network, names: list[str]) -> None:
    runtime.apply(files_of(network), network.hostname, names)


def _apply_quietly(network: networkd.Network, names: list[str]) -> None:
    """Put `network` back in force; if even that fails, the next boot does (and says so)."""
    try:
        _apply(network, names)
    except runtime.NetworkApplyError:
        log.exception("the network settings before a change could not be applied again")


def _names(*networks: networkd.Network | list[str]) -> list[str]:
    """The interfaces any of `networks` sets (names as they are): each is reconfigured."""
    found: set[str] = set()
    for item in networks:
        found.update(item if isinstance(item, list) else (i.name for i in item.interfaces))
    return sorted(found)


def _follow_names(network: networkd.Network) -> None:
    """A self-signed web certificate is made again when it does not name the box's host name
    or one of its new static addresses any more (an uploaded one is the user's to replace)."""
    if not runtime.applies():
        return
    current = certificate_selectors.certificate_current()
    if current is None or not current.self_signed:
        return
    static = selectors.static_addresses(network)
    if any(name not in current.names for name in [network.hostname, *static]):
        certificate_services.certificate_self_signed(network.hostname, static)
