"""The ZFS engine this process uses, chosen by NASUI_ZFS_ENGINE (see nasui.config)."""

from __future__ import annotations

import functools

from django.conf import settings

from storage.zfs.base import ZfsEngine

GIB = 1024**3


@functools.cache
def get_engine() -> ZfsEngine:
    """The cli engine on a machine with OpenZFS, else the sandbox (files under the data dir)."""
    # Only the chosen engine is imported: a process never loads the one it does not run.
    if settings.NASUI_ZFS_ENGINE == "cli":
        from storage.zfs.cli import CliZfsEngine

        return CliZfsEngine()
    from storage.zfs.sandbox import SandboxZfsEngine

    sandbox: ZfsEngine = SandboxZfsEngine(
        root=settings.NASUI_SANDBOX_DIR,
        disk_count=settings.NASUI_SANDBOX_DISKS,
        disk_size=settings.NASUI_SANDBOX_DISK_GIB * GIB,
    )
    return sandbox


def is_sandbox() -> bool:
    """True when pools are simulated with files."""
    return bool(settings.NASUI_ZFS_ENGINE == "sandbox")
