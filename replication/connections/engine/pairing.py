"""Pairing with another nasui through its API: this box's key authorized there in one step.

The user types the other panel's address and an administrator's name and password. They are
sent once, to that panel's pairing endpoint, and kept nowhere. Its answer names the SSH user,
the SSH port and its host keys. The caller pins those keys only if its own scan of that SSH
port sees the same keys: two paths to the other box must agree, or nothing is saved.

A panel with the appliance's self-signed certificate cannot be verified on first contact, so
its certificate is not checked: the host keys' agreement is the check, and their fingerprints
are shown, as with any trust-on-first-use pin.
"""

from __future__ import annotations

import json
import socket
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from nasui.lib.hosts import valid_host
from replication.connections.engine.hostkeys import HostKey

PATH = "/api/replication/pairing/"
ADDRESS_RULE = (
    "Give the other panel's address: a host name or IP address, with http:// or https:// "
    "and a port if it needs them."
)
# Seconds for the other panel to answer: it checks the password with a slow hash (PBKDF2, a
# million rounds), a second on a small box and up to a minute on an emulated one. An address
# where nothing answers is told apart sooner, by a connection of its own (REACH_TIMEOUT).
TIMEOUT = 90
REACH_TIMEOUT = 10
WORDS = {
    401: ("password", "{host} refused the sign-in: {detail}"),
    403: ("username", "{host} refused: {detail}"),
    404: ("address", "{host} has no pairing endpoint: is it a nasui of this version or later?"),
    429: ("password", "{host} locked this out after repeated failures: wait, then try again."),
}


class PairingError(Exception):
    """Pairing failed, on one of the form's fields (address, username, password)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Panel:
    """The other panel's base URL and the host it names."""

    url: str
    host: str


@dataclass(frozen=True)
class Answer:
    """What the other panel says: the SSH user and port to use, and its host keys."""

    user: str
    port: int
    host_keys: list[HostKey]


def panel(address: str) -> Panel:
    """https://host[:port] from what the user typed (https when no scheme is given)."""
    text = address.strip().rstrip("/")
    if "://" not in text:
        text = f"https://{text}"
    try:
        parts = urlsplit(text)  # a lone bracket ("x]") is "Invalid IPv6 URL"
        port = parts.port
    except ValueError as exc:
        raise PairingError("address", ADDRESS_RULE) from exc
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not valid_host(host) or port == -1:
        raise PairingError("address", ADDRESS_RULE)
    if parts.path or parts.query or parts.username:
        raise PairingError("address", "Only the panel's address: no path, query or user name.")
    netloc = f"[{host}]" if ":" in host else host
    return Panel(f"{parts.scheme}://{netloc}{f':{port}' if port else ''}", host)


def pair(
    target: Panel, username: str, password: str, public_key: str, comment: str, code: str = ""
) -> Answer:
    """Ask the other panel to authorize `public_key`; its answer, or PairingError in words.
    `code`: its administrator's two-factor code, if they sign in with one."""
    body = json.dumps({"username": username, "password": password, "code": code,
                       "public_key": public_key, "comment": comment}).encode()  # fmt: skip
    # The scheme is http or https: panel() refused any other (no file: or custom opener).
    request = urllib.request.Request(  # noqa: S310
        target.url + PATH, data=body, method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )  # fmt: skip
    _reach(target)
    try:
        with urllib.request.urlopen(  # noqa: S310 (http or https only, as above)
            request, timeout=TIMEOUT, context=_unverified()
        ) as answer:
            return _answer(json.load(answer), target)
    except urllib.error.HTTPError as error:
        raise _refused(error, target) from error
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise PairingError("address", f"Nothing answered at {target.url}: {reason}.") from error
    except (ValueError, KeyError, TypeError) as error:  # not JSON, or not the answer's shape
        raise PairingError("address", f"{target.url} did not answer as a nasui.") from error


def _reach(target: Panel) -> None:
    """A TCP connection to the panel's port, or PairingError on the address at once."""
    parts = urlsplit(target.url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((target.host, port), timeout=REACH_TIMEOUT).close()
    except OSError as error:
        raise PairingError("address", f"Nothing answered at {target.url}: {error}.") from error


def _unverified() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _refused(error: urllib.error.HTTPError, target: Panel) -> PairingError:
    try:
        body = json.load(error)
        detail = str(body.get("detail", ""))
    except (ValueError, AttributeError):
        body, detail = {}, ""
    asked = body.get("fields", {}).get("code") if isinstance(body.get("fields"), dict) else None
    if asked:  # its administrator signs in with a code: give it
        return PairingError("code", f"{target.host}: {' '.join(map(str, asked))}")
    field, words = WORDS.get(
        error.code, ("address", f"{{host}} answered {error.code}: {detail or error.reason}")
    )
    return PairingError(field, words.format(host=target.host, detail=detail or error.reason))


def _answer(data: Any, target: Panel) -> Answer:
    keys = [HostKey(str(k["kind"]), str(k["blob"])) for k in data["host_keys"]]
    port = int(data["port"])
    if not keys or not 1 <= port <= 65535 or not str(data["user"]):
        raise ValueError("incomplete answer")
    return Answer(str(data["user"]), port, keys)
