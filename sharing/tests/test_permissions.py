"""Owner, group and mode of a dataset's folder, and of everything inside as a job."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from nasui.models import Job
from sharing.accounts import services as accounts
from sharing.files.services import dataset_owner_set
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture
def media(fake_files, tank) -> Path:
    """tank/media with a folder, a file and a link to /etc/passwd inside."""
    storage_services.dataset_create(parent="tank", name="media")
    root = Path(storage.dataset_get("tank/media").mountpoint or "")
    (root / "albums").mkdir()
    (root / "albums" / "song.ogg").write_bytes(b"la")
    (root / "escape").symlink_to("/etc/passwd")
    return root


def _owner_mode(path: Path) -> tuple[int, int, int]:
    info = os.stat(path, follow_symlinks=False)
    return info.st_uid, info.st_gid, info.st_mode & 0o7777


def test_the_folder_goes_to_a_user_and_group(media):
    sam = accounts.user_create(username="sam", password="sam secret 1")
    assert dataset_owner_set(dataset="tank/media", owner=sam, group=sam.group, mode="750") is None
    assert _owner_mode(media) == (sam.uid, sam.group.gid, 0o750)
    assert _owner_mode(media / "albums")[0] != sam.uid  # not recursive: inside untouched


def test_recursive_runs_a_job_that_skips_links(media, eager_jobs):
    sam = accounts.user_create(username="sam", password="sam secret 1")
    passwd = _owner_mode(Path("/etc/passwd"))
    job = dataset_owner_set(
        dataset="tank/media", owner=sam, group=sam.group, mode="2770", recursive=True
    )
    assert job is not None
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert _owner_mode(media / "albums") == (sam.uid, sam.group.gid, 0o2770)
    assert _owner_mode(media / "albums" / "song.ogg") == (sam.uid, sam.group.gid, 0o660)
    assert _owner_mode(Path("/etc/passwd")) == passwd


@pytest.mark.parametrize("mode", ["999", "rwx", "77777", ""])
def test_a_bad_mode_names_the_field_and_changes_nothing(media, mode):
    before = _owner_mode(media)
    with pytest.raises(ValidationError) as exc:
        dataset_owner_set(dataset="tank/media", owner=None, group=None, mode=mode)
    assert "mode" in exc.value.message_dict
    assert _owner_mode(media) == before


def test_the_api_and_the_page_set_the_owner(admin_client, media):
    sam = accounts.user_create(username="sam", password="sam secret 1")
    body = {"dataset": "tank/media", "owner": sam.pk, "group": sam.group.pk, "mode": "770"}
    response = admin_client.put("/api/sharing/permissions/", body, content_type=JSON)
    assert response.status_code == 200, response.json()
    assert (response.json()["uid"], response.json()["mode"], response.json()["job"]) == (
        sam.uid,
        "770",
        None,
    )
    page = admin_client.get("/sharing/files/permissions/tank/media/").content.decode()
    assert f"uid {sam.uid}" in page
    form = {"owner": "", "group": "", "mode": "755"}
    assert admin_client.post("/sharing/files/permissions/tank/media/", form).status_code == 302
    assert _owner_mode(media) == (0, 0, 0o755)
    assert admin_client.get("/sharing/files/permissions/tank/nosuch/").status_code == 404
