"""An SNTP server on the host's loopback port 123, the appliance's NTP server at slirp's
10.0.2.2: it answers with the host's clock, so timesyncd has a real answer to measure its
offset by (the lane's machines have no NTP server of their own)."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Iterator

NTP_EPOCH = 2_208_988_800  # seconds from 1900 (NTP's era 0) to 1970
MODE_CLIENT, MODE_SERVER = 3, 4
ANSWERED: list[tuple[str, int]] = []  # the clients answered, for a failing test's message


def ntp_time(seconds: float) -> bytes:
    """A 64-bit NTP timestamp."""
    whole = int(seconds) + NTP_EPOCH
    return struct.pack("!II", whole & 0xFFFFFFFF, int((seconds % 1) * 2**32))


def answer(request: bytes, received: float) -> bytes | None:
    """The server's answer to a client's packet (None for anything else): stratum 1, its
    originate timestamp the client's transmit timestamp, as RFC 5905 asks."""
    if len(request) < 48 or request[0] & 0x7 != MODE_CLIENT:
        return None
    version = (request[0] >> 3) & 0x7
    head = struct.pack("!BBbb", (version << 3) | MODE_SERVER, 1, request[2], -20)
    head += struct.pack("!II", 0, 1 << 10) + b"LOCL"  # root delay 0, dispersion ~15 ms
    return head + ntp_time(received) + request[40:48] + ntp_time(received) + ntp_time(time.time())


@contextlib.contextmanager
def serving(port: int = 123) -> Iterator[None]:
    """Answer NTP on 127.0.0.1:`port` while the block runs."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", port))
    sock.settimeout(0.5)
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                packet, client = sock.recvfrom(512)
            except TimeoutError:
                continue
            reply = answer(packet, time.time())
            if reply is not None:
                sock.sendto(reply, client)
                ANSWERED.append(client)

    thread = threading.Thread(target=loop, name="sntp", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        sock.close()
