"""The two root slots of the appliance's stick: which one this boot runs, and their devices.

The kernel's command line names the slot GRUB booted (`nasui.slot=A`); each slot is a GPT
partition named nasui-root-a or nasui-root-b whose ext4 file system is labelled NASUI_ROOT_A
or NASUI_ROOT_B (GRUB and the kernel find the root by that label).
"""

from __future__ import annotations

from pathlib import Path

from system.updates.engine.bootenv import SLOTS

BY_PARTLABEL = Path("/dev/disk/by-partlabel")


def running(cmdline: str) -> str | None:
    """The slot named on the kernel's command line, or None (not an A/B boot)."""
    for word in cmdline.split():
        if word.startswith("nasui.slot="):
            slot = word.split("=", 1)[1]
            return slot if slot in SLOTS else None
    return None


def device(slot: str, by_partlabel: Path = BY_PARTLABEL) -> Path:
    """The partition of `slot`."""
    return by_partlabel / f"nasui-root-{slot.lower()}"


def label(slot: str) -> str:
    """The file system label GRUB and the kernel look for."""
    return f"NASUI_ROOT_{slot}"
