"""A config backup taken from the running appliance and restored onto a blank stick.

The stick "dies": the VM's system disk is replaced by a fresh copy of the image while its data
disks stay. The blank box's owner logs in with its console password and, without choosing a new
one (the archive brings theirs back), restores the archive on the restore pages; it is applied at
the next start.
"""

from __future__ import annotations

import re

from appliance.testlib.config import ResultDict
from appliance.testlib.panel import Client, api
from appliance.testlib.vm import VM

PASSPHRASE = "the family's config passphrase"  # noqa: S105 - a test passphrase
WRONG = "not the passphrase"


def download(vm: VM, state: ResultDict) -> bytes:
    """The running box's config archive, sealed with PASSPHRASE."""
    status, data = api(vm, state).download("/api/system/backup/", {"passphrase": PASSPHRASE})
    assert status == 200, data[-500:]
    assert data.startswith(b"NASUI-CONFIG\n")
    return data


def check(client: Client, data: bytes, passphrase: str = PASSPHRASE) -> tuple[int, str]:
    """Upload the archive on the restore page as the browser would; the status and the page."""
    files = {"archive": ("box.nasui", data)}
    status, page = client.upload("/system/restore/check/", {"passphrase": passphrase}, files)
    return status, str(page)


def assert_refused(client: Client, data: bytes, words: str, passphrase: str = PASSPHRASE) -> None:
    """The upload is refused (400) with `words` on the page."""
    status, page = check(client, data, passphrase)
    assert status == 400, page[-800:]
    assert words in page, page[-800:]


def assert_shown(client: Client, data: bytes, pool: str) -> None:
    """The upload is opened: what it holds is shown, `pool` among the pools it names."""
    status, page = check(client, data)
    assert status == 200, page[-800:]
    assert "Restore this configuration" in page, page[-800:]
    assert re.search(rf"Pools it names</th><td[^>]*>{pool}<", page), page[-1500:]


def confirm(client: Client) -> str:
    """*Restore this configuration*: the page it leads to."""
    status, page = client.form("/system/restore/confirm/", {})
    assert status == 200, page[-800:]
    assert 'data-testid="restore-waiting"' in page, page[-800:]
    return page
