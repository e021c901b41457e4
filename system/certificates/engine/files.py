"""The web certificate's files in the data directory: tls/cert.pem and tls/key.pem (nginx reads
them there). A new pair replaces the old one atomically, the old one kept as previous-*.pem to
be put back if the web server will not take the new one.

`python -m system.certificates.engine.files ensure DATA_DIR NAME...` (the appliance's
nasui-setup, at every boot before nginx starts) makes a self-signed pair when there is none, or
when the self-signed one in place does not name the host any more (its name was changed).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from nasui.lib.files import write_atomic
from system.certificates.engine import certs

CERT, KEY = "tls/cert.pem", "tls/key.pem"
PREVIOUS = {CERT: "tls/previous-cert.pem", KEY: "tls/previous-key.pem"}
MODES = {KEY: 0o600, CERT: 0o644}  # the key owner-only, written first


def current(data_dir: Path) -> bytes | None:
    """The certificate in place (PEM), or None."""
    try:
        return (data_dir / CERT).read_bytes()
    except FileNotFoundError:
        return None


def install(data_dir: Path, certificate: bytes, key: bytes) -> None:
    """Put a pair in place, the key first (owner-only); the pair it replaces kept as previous."""
    (data_dir / "tls").mkdir(mode=0o700, parents=True, exist_ok=True)
    for name, previous in PREVIOUS.items():
        if (data_dir / name).exists():
            shutil.copy2(data_dir / name, data_dir / previous)
    for name, pem in ((KEY, key), (CERT, certificate)):
        write_atomic(data_dir / name, pem, mode=MODES[name])


def put_back(data_dir: Path) -> None:
    """The previous pair in place again (the web server refused the new one)."""
    for name, previous in PREVIOUS.items():
        if (data_dir / previous).exists():
            write_atomic(data_dir / name, (data_dir / previous).read_bytes(), mode=MODES[name])


def ensure(data_dir: Path, names: Sequence[str], now: datetime) -> str | None:
    """A self-signed pair for `names` unless a fitting one is in place; what was done."""
    certificate = current(data_dir)
    if certificate is not None and (data_dir / KEY).exists():
        try:
            info = certs.read(certificate)
        except certs.CertificateError:
            info = None
        if info is not None and (not info.self_signed or certs.covers(info.names, names[:1], ())):
            return None
    install(data_dir, *certs.self_signed(names, (), now))
    return f"made a self-signed certificate for {', '.join(names)}"


def main(argv: Sequence[str]) -> int:
    if len(argv) < 3 or argv[0] != "ensure":
        print("usage: python -m system.certificates.engine.files ensure DATA_DIR NAME...")
        return 2
    done = ensure(Path(argv[1]), argv[2:], datetime.now(UTC))
    if done:
        print(done)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
