"""Small network helpers for local daemons and the tests that talk to them."""

from __future__ import annotations

import socket


def free_loopback_port() -> int:
    """A TCP port that nothing listens on at 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
