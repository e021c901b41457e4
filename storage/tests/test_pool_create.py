"""The pool create form: whole layout names, the same names in its messages, usable space."""

from __future__ import annotations

import pytest

from storage import validation as v

pytestmark = pytest.mark.django_db
PREVIEW = "/storage/pools/create/capacity/"


def test_the_layout_choices_show_whole_names(admin_client, sandbox):
    page = admin_client.get("/storage/pools/create/").content.decode()
    for key, label in v.LAYOUT_CHOICES:
        assert f'<option value="{key}"' in page
        assert f">{label}</option>" in page
    assert "RAID-Z3 (survives three disk failures)" in page
    assert f'hx-get="{PREVIEW}"' in page


def test_the_preview_says_usable_of_raw_and_what_goes_to_parity(admin_client, sandbox):
    query = "?layout=raidz1&disks=sda&disks=sdb&disks=sdc&width="
    body = admin_client.get(PREVIEW + query).content.decode()
    # Three 4 GiB sandbox disks in RAID-Z1: two disks' worth of data.
    assert "Usable about <strong>8.0 GiB</strong> of 12.0 GiB raw" in body
    assert "one disk&#x27;s worth goes to parity" in body
    assert "estimate before ZFS's metadata and slop space" in body


def test_the_preview_of_a_wrong_layout_says_the_rule_with_the_choices_name(admin_client, sandbox):
    body = admin_client.get(PREVIEW + "?layout=raidz2&disks=sda&disks=sdb").content.decode()
    assert "RAID-Z2 needs at least 4 disks per vdev." in body
    assert "Pick the data disks" in admin_client.get(PREVIEW + "?layout=mirror").content.decode()


def test_the_preview_of_striped_mirrors_counts_one_disk_per_mirror(admin_client, sandbox):
    disks = "&".join(f"disks={d}" for d in ("sda", "sdb", "sdc", "sdd"))
    body = admin_client.get(f"{PREVIEW}?layout=raid10&{disks}").content.decode()
    assert "Usable about <strong>8.0 GiB</strong> of 16.0 GiB raw" in body
    assert "two disks&#x27; worth go to copies" in body
