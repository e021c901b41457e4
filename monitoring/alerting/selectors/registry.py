"""Where alert conditions come from: a registry of named sources.

A source is a function without arguments returning the conditions that hold right now, as
`monitoring.metrics.engine.alerts.Alert` values; the alert's key is "<kind>:<subject>". To
plug in a source (SMART, for instance), register one function in a module that is imported at
start-up (its app's `AppConfig.ready`, say):

    from monitoring.alerting.selectors.registry import register
    from monitoring.metrics.engine.alerts import Alert

    @register("smart")
    def smart_alerts() -> list[Alert]:
        return [Alert("danger", "smart", disk, f"Disk {disk} is failing", "...") for disk in ...]

A source that raises is skipped for that evaluation: its open alerts are kept as they are
(neither refreshed nor cleared), so a broken probe never looks like a fixed disk.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from monitoring.metrics.engine.alerts import Alert

log = logging.getLogger(__name__)

Source = Callable[[], Iterable[Alert]]
SOURCES: dict[str, Source] = {}
F = TypeVar("F", bound=Source)


def register(name: str) -> Callable[[F], F]:
    """Decorator: add a source under `name` (registering a name again replaces it)."""

    def add(function: F) -> F:
        """Record the function; it is returned unchanged."""
        SOURCES[name] = function
        return function

    return add


def key_of(alert: Alert) -> str:
    """The identity of a condition: one open alert per key."""
    return f"{alert.kind}:{alert.subject}"


@dataclass
class Gathered:
    """Conditions found by source, and the sources that failed (their alerts stay as they are)."""

    found: dict[str, tuple[str, Alert]] = field(default_factory=dict)  # key -> (source, alert)
    checked: set[str] = field(default_factory=set)
    failed: dict[str, str] = field(default_factory=dict)  # source -> error


def gather(only: Collection[str] | None = None) -> Gathered:
    """Ask each source (or only those named) for its current conditions."""
    out = Gathered()
    for name, source in SOURCES.items():
        if only is not None and name not in only:
            continue
        try:
            alerts = list(source())
        except Exception as exc:  # a broken source must not stop the others
            log.warning("alert source %s failed: %s", name, exc, exc_info=True)
            out.failed[name] = str(exc) or type(exc).__name__
            continue
        out.checked.add(name)
        for alert in alerts:
            out.found.setdefault(key_of(alert), (name, alert))
    return out
