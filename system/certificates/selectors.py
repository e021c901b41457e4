"""What the panel knows of its web certificate and of the names it should carry."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import psutil
from django.conf import settings

from system.certificates.engine import certs, files


def data_dir() -> Path:
    """Where tls/cert.pem and tls/key.pem live."""
    return Path(settings.DATA_DIR)


def certificate_current() -> certs.CertInfo | None:
    """The certificate in place, or None when there is none (or it cannot be read)."""
    pem = files.current(data_dir())
    if pem is None:
        return None
    try:
        return certs.read(pem)
    except certs.CertificateError:
        return None


def box_names(host: str | None = None) -> list[str]:
    """This box's host name (`host`, else the machine's) and its .local name (what mDNS and the
    console call it)."""
    host = host or socket.gethostname().split(".")[0] or "nasui"
    return [host, f"{host}.local"]


def box_addresses() -> list[str]:
    """This box's addresses, loopback and IPv6 link-local left out."""
    found: list[str] = []
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            address = ipaddress.ip_address(entry.address.split("%")[0])
            if address.is_loopback or address.is_link_local or str(address) in found:
                continue
            found.append(str(address))
    return found


def served_by() -> str:
    """Who serves the certificate: nginx on the appliance, else nobody of the panel's."""
    return str(settings.NASUI_WEB_SERVER)
