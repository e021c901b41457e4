"""Where the appliance test finds the image and tools, and the fixed figures it uses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
IMAGE = Path(os.environ.get("NASUI_APPLIANCE_IMAGE", REPO / "var/appliance/nasui.img"))
FIRMWARE = os.environ.get("NASUI_APPLIANCE_FIRMWARE", "bios")
BOOT_TIMEOUT = float(os.environ.get("NASUI_APPLIANCE_BOOT_TIMEOUT", "300"))
# After /health/: the console's boot timeline comes once the iSCSI step (after the web) is done.
REPORT_WAIT = 180.0
CHROMIUM = os.environ.get("NASUI_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts" / "appliance"
INITIATOR = "iqn.2026-11.org.nasui:appliance-test"
CHAP_USER = "appliance"
CHAP_SECRET = "Secret-12345"  # noqa: S105 - a test secret (12-16 characters)
PATTERN = "0xa5"
DISKS = 3
STICK_BYTES = 4 << 30  # the main VM's "USB stick": bigger than the image, so the data part grows
SMB_SHARE = "family"  # tank/family shared by the wizard to one new user, who owns the folder
SMB_USER = "family"
SMB_PASSWORD = "Family pass 42"  # noqa: S105 - a test password
# What the admin chooses at the first login, in place of the console's password.
OWN_PASSWORD = "The admin's own passphrase 7"  # noqa: S105 - a test password
SMB_WRONG_PASSWORD = "Wrong pass 42"  # noqa: S105 - refused
SMB_FILE = "photo.bin"
NFS_PATH = "/tank/family"  # the SMB share's dataset, also exported over NFS (NFSv4, port 2049)
NFS_NETWORK = "10.0.2.0/24"  # qemu user-net: the host's forwarded connections come from 10.0.2.2
RELEASE = "upgrade-test"  # the release name of the root file system the upgrade test writes
ZONE = "Europe/Paris"  # the time zone the family sets in the panel
ResultDict = dict[str, Any]
