"""What the live SMB tests need: without it they skip here, and FAIL in CI.

A skip is easy to miss in a green run, so where CI is set (CI=true) a missing Samba tool,
wrapper library or the smbprotocol package must fail those tests, naming what to install.
"""

from __future__ import annotations

import ctypes.util
import importlib.util
import os
import shutil

import pytest

from sharing.smb.engine.check import check_vfs_modules
from sharing.smb.engine.errors import ConfigRejected
from sharing.smb.engine.tools import find_binary

# Each program the live tests run, and the Debian package that ships it.
PROGRAMS = {
    "smbd": "samba",
    "smbcontrol": "samba",
    "pdbedit": "samba",
    "testparm": "samba-common-bin",
    "smbclient": "smbclient",
}
# Preloaded by a wrapped smbd; the VFS modules the shares load.
LIBRARIES = {"nss_wrapper": "libnss-wrapper", "uid_wrapper": "libuid-wrapper"}
VFS_MODULES = "vfs objects = full_audit fruit streams_xattr shadow_copy2"
SBIN = ("/usr/sbin", "/sbin")


def in_ci() -> bool:
    """Whether the environment says this is a CI run (CI set to anything but a no)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing() -> dict[str, str]:
    """What is absent -> how to install it."""
    path = os.pathsep.join([os.environ.get("PATH", os.defpath), *SBIN])
    absent = {
        tool: f"apt-get install {package}"
        for tool, package in PROGRAMS.items()
        if shutil.which(tool, path=path) is None
    }
    for library, package in LIBRARIES.items():
        if ctypes.util.find_library(library) is None:
            absent[f"lib{library}.so"] = f"apt-get install {package}"
    if "smbd" not in absent and not _vfs_modules_installed():
        absent["Samba VFS modules"] = "apt-get install samba-vfs-modules"
    if importlib.util.find_spec("smbprotocol") is None:
        absent["smbprotocol"] = "pip install -r requirements-dev.txt"
    return absent


def _vfs_modules_installed() -> bool:
    """Whether smbd can load the VFS modules the shares use (shadow_copy2, fruit...)."""
    try:
        check_vfs_modules(VFS_MODULES, smbd=find_binary("smbd"))
    except ConfigRejected:
        return False
    return True


def require_live() -> None:
    """Skip the calling test when something is missing; fail it instead in CI."""
    absent = missing()
    if not absent:
        return
    fixes = sorted(set(absent.values()))
    message = (
        f"{', '.join(absent)} not installed: the live SMB tests need them ({'; '.join(fixes)})"
    )
    if in_ci():
        pytest.fail(f"{message}; CI must run these tests, not skip them", pytrace=False)
    pytest.skip(message)
