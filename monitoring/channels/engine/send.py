"""Sending a channel's request, and saying what went wrong without giving its secrets away."""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urlsplit

from monitoring.channels.engine.requests import Request

TIMEOUT = 10.0  # seconds: an alert round must not hang on one slow service
ERROR_BODY = 200  # characters of a refusal's body kept in the error


class DeliveryError(Exception):
    """The service could not be reached or refused the message."""


def where(url: str) -> str:
    """scheme://host[:port] only: a webhook's path or a bot's token are secrets."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


def send(request: Request, timeout: float = TIMEOUT) -> int:
    """Send it; the HTTP status (2xx). DeliveryError otherwise."""
    if urlsplit(request.url).scheme not in ("http", "https"):
        raise DeliveryError(f"only http and https addresses are sent to, not {where(request.url)}")
    prepared = urllib.request.Request(  # noqa: S310 (http and https only, checked above)
        request.url, data=request.body or None, headers=request.headers, method=request.method
    )
    try:
        with urllib.request.urlopen(prepared, timeout=timeout) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        said = exc.read(ERROR_BODY).decode(errors="replace").strip()
        detail = f": {said}" if said else ""
        raise DeliveryError(
            f"{where(request.url)} answered {exc.code} {exc.reason}{detail}"
        ) from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DeliveryError(f"could not reach {where(request.url)}: {reason}") from exc
    except ValueError as exc:  # a header value with a line break, a URL urllib refuses
        raise DeliveryError(f"could not send to {where(request.url)}: {exc}") from exc
