"""Typed errors of the SMART engine."""

from __future__ import annotations

from nasui.lib.commands import CommandError


class SmartError(CommandError):
    """smartctl failed, or printed something that is not its JSON."""


class SmartUnavailable(SmartError):
    """smartctl is not installed, or did not answer in time."""


class SmartNotSupported(SmartError):
    """The disk does not answer SMART commands (virtio disks, most USB bridges)."""
