"""SMB through the panel's API, served by its own smbd to real clients (smbclient, smbprotocol)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from sharing.smb import runtime as smb_runtime
from sharing.smb.runtime import SmbRuntime
from storage.datasets import selectors as storage
from tests.smb.live_tools import require_live
from tests.smb.smb_clients import SmbClient, read_file, smbprotocol_session, write_file

pytestmark = [pytest.mark.smb, pytest.mark.django_db]
JSON = "application/json"
ALICE, BOB = "alice pass 1", "bob pass 22"


@pytest.fixture(autouse=True)
def _live() -> None:
    require_live()


def _post(api, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post(f"/api/sharing/{path}", body, content_type=JSON)
    assert response.status_code == 201, (path, response.json())
    return response.json()


@pytest.fixture
def shared(admin_client, tank, smb_service) -> dict[str, Any]:
    """tank/media shared as "media" to alice only; bob exists but is not admitted."""
    api = admin_client
    created = api.post("/api/storage/datasets/", {"name": "tank/media"}, content_type=JSON)
    assert created.status_code == 201, created.json()
    path = storage.dataset_get("tank/media").mountpoint
    assert path
    # Until datasets get owners and modes in the panel, open the directory to every user.
    os.chmod(path, 0o777)  # noqa: S103 (a test directory every SMB user may write)
    alice = _post(api, "users/", {"username": "alice", "password": ALICE})
    _post(api, "users/", {"username": "bob", "password": BOB})
    share = _post(api, "smb/shares/", {"name": "media", "path": path, "users": [alice["id"]]})
    return {"alice": alice, "share": share, "path": path}


def test_alice_writes_and_reads_back_byte_identical_data(shared, smb_service, tmp_path: Path):
    data = os.urandom(1 << 20)
    with smbprotocol_session(smb_service, "alice", ALICE) as cache:
        write_file(cache, smb_service, "media", "blob.bin", data)
        assert read_file(cache, smb_service, "media", "blob.bin") == data
    assert (Path(shared["path"]) / "blob.bin").read_bytes() == data
    listed = SmbClient(smb_service, tmp_path).run("media", "ls", user="alice", password=ALICE)
    assert listed.ok, listed.output
    assert "blob.bin" in listed.output


@pytest.mark.parametrize(
    ("user", "password", "status"),
    [
        ("alice", "wrong pass 9", "NT_STATUS_LOGON_FAILURE"),
        ("bob", BOB, "NT_STATUS_ACCESS_DENIED"),
    ],
    ids=["wrong-password", "not-admitted"],
)
def test_refusals(shared, smb_service, tmp_path: Path, user, password, status):
    result = SmbClient(smb_service, tmp_path).run("media", "ls", user=user, password=password)
    assert not result.ok
    assert status in result.output


def test_a_user_disabled_in_the_panel_is_refused(admin_client, shared, smb_service, tmp_path):
    client = SmbClient(smb_service, tmp_path)
    assert client.run("media", "ls", user="alice", password=ALICE).ok
    url = f"/api/sharing/users/{shared['alice']['id']}/"
    assert admin_client.patch(url, {"disabled": True}, content_type=JSON).status_code == 200
    refused = client.run("media", "ls", user="alice", password=ALICE)
    assert not refused.ok
    assert "NT_STATUS_ACCOUNT_DISABLED" in refused.output or "LOGON_FAILURE" in refused.output


def test_a_read_only_share_refuses_writes(admin_client, shared, smb_service, tmp_path):
    url = f"/api/sharing/smb/shares/{shared['share']['id']}/"
    assert admin_client.patch(url, {"read_only": True}, content_type=JSON).status_code == 200
    (tmp_path / "up.txt").write_text("hello")
    result = SmbClient(smb_service, tmp_path).run(
        "media", "put up.txt", user="alice", password=ALICE
    )
    assert "NT_STATUS_ACCESS_DENIED" in result.output or "NT_STATUS_MEDIA_WRITE" in result.output
    assert not (Path(shared["path"]) / "up.txt").exists()


def test_the_running_smbd_follows_the_database_after_a_restart(shared, smb_service, tmp_path):
    SmbRuntime().control("restart")
    result = SmbClient(smb_service, tmp_path).run("media", "ls", user="alice", password=ALICE)
    assert result.ok, result.output


def test_the_first_check_applies_even_while_a_user_keeps_smb_stopped(shared, smb_service):
    SmbRuntime().control("stop")
    passdb = smb_runtime.smb_engine().layout.smbpasswd
    passdb.unlink()  # as after an upgrade: the panel's files are gone, the database is not
    assert (SmbRuntime().supervise(first=True) or "").startswith("smbd left stopped")
    assert "alice:" in passdb.read_text()
    assert not smb_runtime.smb_engine().is_running()


def _owners(root: Path) -> set[int]:
    """The owning uids of everything below `root`."""
    return {path.lstat().st_uid for path in root.rglob("*")}


def test_a_user_overwrites_her_file_and_writes_in_a_folder_she_made(shared, smb_service, tmp_path):
    (tmp_path / "a.txt").write_text("first")
    client = SmbClient(smb_service, tmp_path)
    put_twice = client.run(
        "media", "put a.txt a.txt; put a.txt a.txt", user="alice", password=ALICE
    )
    assert put_twice.ok, put_twice.output
    assert "NT_STATUS" not in put_twice.output
    nested = client.run("media", "mkdir d; cd d; put a.txt", user="alice", password=ALICE)
    assert nested.ok, nested.output
    assert "NT_STATUS" not in nested.output
    root = Path(shared["path"])
    assert (root / "d" / "a.txt").read_text() == "first"
    assert _owners(root) == {shared["alice"]["uid"]}


def test_a_user_copies_a_folder_tree_in_and_owns_all_of_it(shared, smb_service, tmp_path):
    tree = tmp_path / "photos"
    (tree / "2026" / "summer").mkdir(parents=True)
    for name in ("one.jpg", "2026/two.jpg", "2026/summer/three.jpg"):
        (tree / name).write_bytes(os.urandom(4096))
    client = SmbClient(smb_service, tmp_path)
    copied = client.run(
        "media", "recurse on; prompt off; mput photos", user="alice", password=ALICE
    )
    assert copied.ok, copied.output
    assert "NT_STATUS" not in copied.output
    root = Path(shared["path"])
    assert (root / "photos" / "2026" / "summer" / "three.jpg").stat().st_size == 4096
    assert _owners(root) == {shared["alice"]["uid"]}


def test_a_refused_settings_change_keeps_smbd_serving_and_says_why(
    shared, smb_service, admin_client, tmp_path
):
    # 192.0.2.1 (TEST-NET-1) is on no interface here: smbd cannot listen there.
    body = {"netbios_name": "NASUI", "workgroup": "WORKGROUP", "bind": ["192.0.2.1"]}
    response = admin_client.put("/api/sharing/smb/settings/", body, content_type=JSON)
    assert response.status_code == 400
    [message] = response.json()["fields"]["__all__"]
    assert message.startswith("The SMB server refused the change:")
    assert "No sockets available to bind to" in message  # smbd's own words
    assert "Traceback" not in message
    assert "BACKTRACE" not in message
    assert admin_client.get("/api/sharing/smb/settings/").json()["bind"] == []
    listed = SmbClient(smb_service, tmp_path).run("media", "ls", user="alice", password=ALICE)
    assert listed.ok, listed.output  # still serving, as before the change
