"""What the panel knows of the box's releases: the slot it runs, the release in the other slot,
a trial under way, how the last update ended, and the keys updates must be signed with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from django.conf import settings

from system.updates.engine import bootenv, bundle, slots, state


@dataclass(frozen=True)
class UpdateStatus:
    """The page's and GET /api/system/update/'s view."""

    applies: bool  # the appliance's two slots (NASUI_UPDATES=ab)
    release: str
    running: str | None  # the slot this boot runs
    good: str | None  # the slot GRUB boots by default
    other_release: str  # what the other slot holds ("" unknown or empty)
    trial: state.Trial | None
    last: state.Outcome | None

    @property
    def can_roll_back(self) -> bool:
        """Whether the other slot holds a release that was not the last one to fail."""
        failed = (
            self.last is not None and not self.last.kept and self.last.release == self.other_release
        )
        return bool(self.applies and self.running and self.other_release and not failed)


def data_dir() -> Path:
    """Where update/ lives."""
    return Path(settings.DATA_DIR)


def applies() -> bool:
    """Whether this panel updates the machine it runs on."""
    return str(settings.NASUI_UPDATES) == "ab"


def running_slot() -> str | None:
    """The slot this boot runs (the kernel's nasui.slot=), None elsewhere."""
    try:
        return slots.running(Path("/proc/cmdline").read_text())
    except OSError:
        return None


def update_status() -> UpdateStatus:
    """The release running, the slots, a trial under way and the last outcome."""
    running = running_slot() if applies() else None
    good = None
    if running:
        try:
            good = bootenv.good_slot(bootenv.read(boot_env()))
        except bootenv.BootEnvError:
            good = None
    known = state.slots(data_dir())
    other = known.get(bootenv.other(running), "") if running else ""
    return UpdateStatus(
        applies=applies(),
        release=str(settings.NASUI_VERSION),
        running=running,
        good=good,
        other_release=other,
        trial=state.trial(data_dir()),
        last=state.last(data_dir()),
    )


def boot_env() -> Path:
    """GRUB's environment block on the ESP."""
    return Path(settings.NASUI_UPDATE_BOOT_ENV)


def trusted_keys() -> list[Ed25519PublicKey]:
    """The keys this image takes updates signed with (its update-keys/*.pem)."""
    folder = Path(settings.NASUI_UPDATE_KEYS)
    return [bundle.public_key(p.read_bytes()) for p in sorted(folder.glob("*.pem"))]


def slot_device(slot: str) -> Path:
    """The partition of `slot`."""
    return slots.device(slot, Path(settings.NASUI_UPDATE_SLOTS))
