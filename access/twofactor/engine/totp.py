"""Time-based one-time codes (RFC 6238, as every authenticator app makes them) and recovery
codes: plain Python over pyotp and qrcode, no Django.

A code is accepted for its 30-second step and the one before or after (a phone's clock a few
seconds off, a code typed as it turned); the step it matched is returned so that the caller
can refuse the same code, or an older one, a second time.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import secrets
import time

import pyotp
import qrcode
import qrcode.image.svg

DIGITS, STEP = 6, 30
WINDOW = 1  # steps either side of now
RECOVERY_CODES = 10
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread


def new_secret() -> str:
    """A fresh base32 secret (160 bits, as RFC 4226 recommends)."""
    return pyotp.random_base32(32)


def provisioning_uri(secret: str, account: str, issuer: str) -> str:
    """The otpauth:// URI an authenticator app reads from the QR code."""
    return pyotp.TOTP(secret, digits=DIGITS, interval=STEP).provisioning_uri(
        name=account, issuer_name=issuer
    )


def qr_svg(uri: str) -> str:
    """The URI as an SVG QR code (no Pillow), to put in a page as it is."""
    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    out = io.BytesIO()
    image.save(out)
    text = out.getvalue().decode()
    return text[text.index("<svg") :]  # without the XML declaration


def matching_step(secret: str, code: str, now: float | None = None) -> int | None:
    """The time step whose code `code` is (within the window), or None."""
    code = code.strip().replace(" ", "")
    if len(code) != DIGITS or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret, digits=DIGITS, interval=STEP)
    step = int((time.time() if now is None else now) // STEP)
    for candidate in range(step - WINDOW, step + WINDOW + 1):
        if hmac.compare_digest(totp.generate_otp(candidate), code):
            return candidate
    return None


def new_recovery_codes() -> list[str]:
    """Single-use codes to sign in with when the phone is lost: xxxxx-xxxxx, 50 bits each."""

    def one() -> str:
        letters = "".join(secrets.choice(_ALPHABET) for _ in range(10))
        return f"{letters[:5]}-{letters[5:]}"

    return [one() for _ in range(RECOVERY_CODES)]


def recovery_hash(code: str) -> str:
    """What is kept of a recovery code (it is random: a plain SHA-256 is enough)."""
    normal = code.strip().lower().replace(" ", "")
    return hashlib.sha256(normal.encode()).hexdigest()
