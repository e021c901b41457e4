"""A "wrapped" Samba's environment: private accounts (nss_wrapper), a pretend root (uid_wrapper).

This is how Samba's own test suite runs smbd without touching the host's accounts: the
wrapper libraries are preloaded and getpwnam() reads our passwd and group files. Run by the
real root, smbd needs nss_wrapper only: its setuid() to a user is real, so files made over SMB
belong to that user. Unprivileged, uid_wrapper also lets it pretend to be root (its setuid()
calls only pretend, and files are created with the caller's real uid).
"""

from __future__ import annotations

import ctypes.util
import functools
import os
from collections.abc import Mapping
from pathlib import Path

from sharing.smb.engine.errors import ENGINE, SmbUnavailable

# Preloaded library -> the Debian package that ships it.
NSS_WRAPPER = "libnss_wrapper.so"
UID_WRAPPER = "libuid_wrapper.so"
PACKAGES = {NSS_WRAPPER: "libnss-wrapper", UID_WRAPPER: "libuid-wrapper"}


def require(*libraries: str) -> None:
    """Raise SmbUnavailable naming the packages when a wrapper library is not installed."""
    absent = [lib for lib in libraries if not _installed(lib)]
    if absent:
        packages = " ".join(PACKAGES[lib] for lib in absent)
        raise SmbUnavailable(
            f"{ENGINE}: {', '.join(absent)} not found; a wrapped smbd needs them "
            f"(Debian: apt-get install {packages})"
        )


def wrapped_env(
    passwd: Path, group: Path, *, fake_root: bool = True, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """`base` (default: ours) plus the preload and the private account files.

    `fake_root` adds uid_wrapper so that smbd believes it is root and its setuid()
    calls only pretend (an unprivileged user can then serve files as any account).
    """
    libraries = [NSS_WRAPPER, UID_WRAPPER] if fake_root else [NSS_WRAPPER]
    require(*libraries)
    env = dict(os.environ if base is None else base)
    preload = [*libraries, *filter(None, env.get("LD_PRELOAD", "").split(":"))]
    env["LD_PRELOAD"] = ":".join(preload)
    env["NSS_WRAPPER_PASSWD"] = str(passwd)
    env["NSS_WRAPPER_GROUP"] = str(group)
    if fake_root:
        env["UID_WRAPPER"] = "1"
        env["UID_WRAPPER_ROOT"] = "1"
    return env


@functools.cache
def _installed(library: str) -> bool:
    """Whether the dynamic loader can find the library (asked once per process)."""
    return ctypes.util.find_library(_stem(library)) is not None


def _stem(library: str) -> str:
    """`libnss_wrapper.so` -> `nss_wrapper`, the name find_library expects."""
    return library.removeprefix("lib").removesuffix(".so")
