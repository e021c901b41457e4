"""The programs the live iSCSI tests need: without one they skip here, and FAIL in CI.

A skip is easy to miss in a green run, so where CI is set (CI=true, as the CI runner sets
it) a missing tgtd or initiator must fail those tests, naming the Debian package to install.
"""

from __future__ import annotations

import os
import shutil

import pytest

# Each program the live tests run, and the Debian package that ships it.
PACKAGES = {
    "tgtd": "tgt",
    "tgtadm": "tgt",
    "iscsi-ls": "libiscsi-bin",
    "iscsi-inq": "libiscsi-bin",
    "iscsi-readcapacity16": "libiscsi-bin",
    "iscsi-test-cu": "libiscsi-bin",
    "qemu-io": "qemu-utils",
}
LIVE_TOOLS = tuple(PACKAGES)
# Debian puts tgtd and tgtadm in /usr/sbin, which is not always on a user's PATH.
SBIN = ("/usr/sbin", "/sbin")


def in_ci() -> bool:
    """Whether the environment says this is a CI run (CI set to anything but a no)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing_tools(tools: tuple[str, ...] = LIVE_TOOLS) -> list[str]:
    """Those of `tools` found neither on PATH nor in the sbin directories."""
    path = os.pathsep.join([os.environ.get("PATH", os.defpath), *SBIN])
    return [tool for tool in tools if shutil.which(tool, path=path) is None]


def require_if_marked(item: pytest.Item) -> None:
    """Tests marked `iscsi` run tgtd and real initiators: require every live tool."""
    if item.get_closest_marker("iscsi") is not None:
        require_tools()


def require_tools(*tools: str) -> None:
    """Skip the calling test when a tool is missing; fail it instead in CI."""
    missing = missing_tools(tools or LIVE_TOOLS)
    if not missing:
        return
    packages = sorted({PACKAGES.get(tool, tool) for tool in missing})
    message = (
        f"{', '.join(missing)} not installed: the live iSCSI tests need them "
        f"(Debian: apt-get install {' '.join(packages)})"
    )
    if in_ci():
        pytest.fail(f"{message}; CI must run these tests, not skip them", pytrace=False)
    pytest.skip(message)
