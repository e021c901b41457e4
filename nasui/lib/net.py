"""Small network helpers: addresses as users type them, and ports for local daemons."""

from __future__ import annotations

import ipaddress
import socket


def free_loopback_port() -> int:
    """A TCP port that nothing listens on at 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def normalize_ip(value: str) -> str:
    """An IPv4 or IPv6 address in its compressed canonical form ("[::1]" too); ValueError."""
    return str(ipaddress.ip_address(value.strip().strip("[]")))
