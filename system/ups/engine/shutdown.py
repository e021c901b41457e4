"""The panel's shutdown sequence: every step is tried, logged and recorded, and the last one
(power off) runs whatever happened before it: a dying battery waits for nobody."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

log = logging.getLogger("nasui.ups.shutdown")

Step = tuple[str, Callable[[], object]]


@dataclass
class StepResult:
    """One step: its name, whether it worked, what it said, how long it took."""

    name: str
    ok: bool
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Report:
    """What the sequence did."""

    reason: str
    started: float
    steps: list[StepResult] = field(default_factory=list)

    @property
    def failed(self) -> list[str]:
        return [step.name for step in self.steps if not step.ok]

    def as_dict(self) -> dict[str, object]:
        return {
            "reason": self.reason,
            "started": self.started,
            "steps": [vars(step) for step in self.steps],
            "failed": self.failed,
        }


def run_sequence(
    reason: str, steps: Sequence[Step], *, clock: Callable[[], float] = time.time
) -> Report:
    """Run each step in order; a failure is logged and recorded, and the next step runs."""
    report = Report(reason=reason, started=clock())
    log.warning("UPS shutdown: %s", reason)
    for name, action in steps:
        began = time.monotonic()
        try:
            said = action()
        except Exception as exc:  # every step is tried: record the failure and go on
            log.error("UPS shutdown: %s failed: %s", name, exc)
            report.steps.append(StepResult(name, False, str(exc) or type(exc).__name__))
        else:
            detail = "" if said is None else str(said)
            log.warning("UPS shutdown: %s done%s", name, f" ({detail})" if detail else "")
            report.steps.append(StepResult(name, True, detail))
        report.steps[-1].seconds = round(time.monotonic() - began, 3)
    return report
