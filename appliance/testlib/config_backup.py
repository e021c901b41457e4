"""A config backup taken from the running appliance and restored onto a blank stick.

The stick "dies": the VM's system disk is replaced by a fresh copy of the image while its data
disks stay. The blank box's owner logs in with its console password, and restores the archive
through the API; the restore is applied at the next start.
"""

from __future__ import annotations

from appliance.testlib.config import ResultDict
from appliance.testlib.panel import api
from appliance.testlib.vm import VM

PASSPHRASE = "the family's config passphrase"  # noqa: S105 - a test passphrase
WRONG = "not the passphrase"
RESTORE = "/api/system/restore/"


def download(vm: VM, state: ResultDict) -> bytes:
    """The running box's config archive, sealed with PASSPHRASE."""
    status, data = api(vm, state).download("/api/system/backup/", {"passphrase": PASSPHRASE})
    assert status == 200, data[-500:]
    assert data.startswith(b"NASUI-CONFIG\n")
    return data


def upload(
    vm: VM, state: ResultDict, data: bytes, passphrase: str = PASSPHRASE
) -> tuple[int, ResultDict]:
    """POST the archive to the restore endpoint; the status and the answer."""
    files = {"archive": ("box.nasui", data)}
    status, body = api(vm, state).upload(RESTORE, {"passphrase": passphrase}, files)
    return status, body if isinstance(body, dict) else {"body": body}
