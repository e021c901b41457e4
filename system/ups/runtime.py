"""Apply the UPS settings to NUT: write the files, run the driver, upsd and upsmon on them.

The web process only writes the files (`write_config`); the supervisor (`manage.py
ups_service`) owns the daemons: each check writes the files from the database again, restarts
the daemons when they changed, and starts any that died.
"""

from __future__ import annotations

import os

from system.models import UpsSettings
from system.ups import selectors
from system.ups.engine import config
from system.ups.engine.daemons import NutDaemons


def write_config(row: UpsSettings) -> bool:
    """Write NUT's files for `row` into the panel's directory; True if any changed."""
    paths = selectors.nut_paths()
    paths.make()
    return config.write_config(paths.conf, config.render(selectors.plan_of(row)))


class UpsRuntime:
    """The NUT daemons of one supervisor."""

    label = "UPS"

    def __init__(self) -> None:
        self.daemons = NutDaemons(selectors.nut_paths(), env=os.environ)
        self._applied: dict[str, str] | None = None

    def supervise(self) -> str | None:
        """Bring NUT in line with the database; what it did, in words, or None."""
        plan = selectors.plan_of(selectors.ups_get())
        files = config.render(plan)
        paths = self.daemons.paths
        paths.make()
        config.write_config(paths.conf, files)
        restarted = self._applied is not None and files != self._applied
        if restarted:
            self.daemons.stop_all()
        self._applied = files
        # Once the shutdown has run in this boot, upsmon (which exits after its SHUTDOWNCMD)
        # is not started again to call it over and over while the battery stays low.
        done = selectors.shutdown_ran_this_boot()
        started = self.daemons.ensure(plan, without=("upsmon",) if done else ())
        if not started:
            return "configuration changed: NUT stopped" if restarted else None
        verb = "restarted" if restarted else "started"
        return f"{verb} {', '.join(started)} ({plan.mode} UPS {plan.name})"

    def shutdown(self) -> str | None:
        """Stop every NUT daemon this supervisor runs."""
        running = self.daemons.running()
        self.daemons.stop_all()
        return f"stopped {', '.join(running)}" if running else None
