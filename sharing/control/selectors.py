"""Reads of the Services page and API: every registered server (iSCSI, SMB, NFS), one shape each."""

from __future__ import annotations

from typing import Any

from sharing.runtime import ServiceRuntime, describe, runtime, runtimes


class UnknownService(LookupError):
    """A service name the panel does not have."""


def service_runtime(name: str) -> ServiceRuntime:
    """The runtime called `name`; UnknownService naming the ones there are."""
    try:
        return runtime(name)
    except KeyError:
        known = ", ".join(server.name for server in runtimes())
        raise UnknownService(f"Unknown service {name!r}; the services are {known}.") from None


def service_check(name: str) -> None:
    """UnknownService unless `name` is one of the services."""
    service_runtime(name)


def service_get(name: str) -> dict[str, Any]:
    """One service: engine, port, running state, start at boot, the actions that make sense."""
    server = service_runtime(name)
    return {
        "name": name,
        "label": server.label,
        "enable": bool(server.settings().start_at_boot),
        **describe(server.status()),
    }


def service_list() -> list[dict[str, Any]]:
    """Every service, in the order of the page."""
    return [service_get(server.name) for server in runtimes()]
