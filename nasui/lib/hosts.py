"""Names of other machines as users type them: an IP address, or an RFC 1123 host name."""

from __future__ import annotations

import ipaddress
import re

# Labels of 1-63 letters, digits and hyphens (not at either end), 253 characters in all,
# optionally ending with the root's dot; never starting with '-', so never a command's option.
HOSTNAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$"
)


def is_address(text: str) -> bool:
    """Whether `text` is an IPv4 or IPv6 address."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def valid_host(host: str) -> bool:
    """An IP address or a host name (never an option: nothing starting with '-')."""
    return is_address(host) or bool(HOSTNAME.match(host))
