"""The boot's verdict on a trial (nasui-slot-commit.service, after the panel's services).

On the slot being tried: wait until the panel answers /health/ through nginx, at most until
`health_seconds` after the kernel started; then make the slot the good one (GRUB's nasui_good),
or record why not and restart, which brings the box back to the good slot (GRUB cleared
nasui_try as it booted this one). On the other slot, a trial still open means the new release
never got this far: record it. Every boot notes the release the running slot holds.

    python -m system.updates.engine.commit DATA_DIR GRUBENV VERSION_FILE
"""

from __future__ import annotations

import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from system.updates.engine import bootenv, slots, state

HEALTH_URL = "https://127.0.0.1/health/"


def decide(
    data_dir: Path,
    env: Path,
    running: str,
    release: str,
    *,
    healthy: Callable[[float], bool],
    uptime: Callable[[], float],
    now: Callable[[], float] = time.time,
) -> str:
    """The verdict for this boot: "kept", "failed" (restart now), "fell back", or "" (no trial)."""
    attempt = state.trial(data_dir)
    if attempt is None:
        state.note_slot(data_dir, running, release)
        return ""
    if attempt.slot != running:
        reason = f"{attempt.release} did not start: the box came back to {release} by itself."
        state.end(data_dir, state.Outcome(attempt.release, False, reason, now()))
        return "fell back"
    if healthy(attempt.health_seconds - uptime()):
        bootenv.update(env, **{bootenv.GOOD: running, bootenv.TRY: ""})
        outcome = state.Outcome(release, True, f"{release} answered: it is the release now.", now())
        state.end(data_dir, outcome, (running, release))
        return "kept"
    reason = (
        f"{release}'s panel did not answer within {attempt.health_seconds} s of its start: "
        f"the box went back to {attempt.previous}."
    )
    state.end(data_dir, state.Outcome(release, False, reason, now()), (running, release))
    return "failed"


def panel_answers(url: str = HEALTH_URL) -> Callable[[float], bool]:
    """Whether the panel answers 200 at `url` within the given number of seconds (polled)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # its own certificate, whatever it is

    def wait(seconds: float) -> bool:
        limit = time.monotonic() + seconds
        while True:
            try:
                with urllib.request.urlopen(url, timeout=10, context=context) as answer:  # noqa: S310
                    if answer.status == 200:
                        return True
            except OSError:
                pass
            if time.monotonic() >= limit:
                return False
            time.sleep(3)

    return wait


def uptime() -> float:
    """Seconds since the kernel started."""
    return float(Path("/proc/uptime").read_text().split()[0])


def main(argv: list[str]) -> int:
    """The unit's entry point; restarts the box when the trial failed."""
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    data_dir, env, version = Path(argv[0]), Path(argv[1]), Path(argv[2])
    running = slots.running(Path("/proc/cmdline").read_text())
    if running is None:
        return 0
    release = version.read_text().strip()
    verdict = decide(data_dir, env, running, release, healthy=panel_answers(), uptime=uptime)
    if verdict:
        # flushed now: a failed trial restarts the box at once
        print(f"nasui-slot-commit: slot {running} ({release}): {verdict}", flush=True)
    if verdict == "failed":
        subprocess.run(["systemctl", "reboot"], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
