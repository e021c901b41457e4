"""The encryption API: create encrypted, list roots, lock, unlock, change the key; no passphrase
ever comes back."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db
JSON = "application/json"
PASSPHRASE = "correct horse battery"
ROOTS = "/api/storage/encryption/"


@pytest.fixture
def api(admin_client, settings, tmp_path: Path):
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()
    return admin_client


def _vault(api):
    body = {
        "name": "tank/vault",
        "encryption": "passphrase",
        "passphrase": PASSPHRASE,
        "passphrase_confirm": PASSPHRASE,
    }
    return api.post("/api/storage/datasets/", body, content_type=JSON)


def test_an_encrypted_dataset_and_zvol_are_created_and_listed_as_roots(api, tank):
    made = _vault(api)
    assert made.status_code == 201, made.json()
    assert (made.json()["encryption"], made.json()["encryption_root"]) == (
        "aes-256-gcm",
        "tank/vault",
    )
    assert PASSPHRASE not in made.content.decode()
    zvol = api.post(
        "/api/storage/zvols/",
        {"name": "tank/disk", "size": "64M", "sparse": True, "encryption": "key"},
        content_type=JSON,
    )
    assert zvol.status_code == 201, zvol.json()
    roots = {r["name"]: r for r in api.get(ROOTS).json()["results"]}
    assert roots["tank/vault"]["unlocks_at_boot"] is False
    assert roots["tank/vault"]["key_format"] == "passphrase"
    assert roots["tank/disk"]["unlocks_at_boot"] is True
    assert roots["tank/disk"]["type"] == "volume"
    listed = api.get("/api/storage/datasets/?pool=tank").json()["results"]
    assert {d["name"]: d["locked"] for d in listed}["tank/vault"] is False


def test_a_short_passphrase_is_a_400_naming_the_field(api, tank):
    body = {"name": "tank/v", "encryption": "passphrase", "passphrase": "short"}
    answer = api.post("/api/storage/datasets/", {**body, "passphrase_confirm": "short"},
                      content_type=JSON)  # fmt: skip
    assert answer.status_code == 400, answer.json()
    assert "At least 8 characters" in answer.json()["fields"]["passphrase"][0]
    assert "short" not in str(answer.json()).replace("At least", "")


def test_lock_unlock_and_change_key_through_the_api(api, tank):
    _vault(api)
    locked = api.post(f"{ROOTS}lock/", {"name": "tank/vault"}, content_type=JSON)
    assert locked.status_code == 200, locked.json()
    assert locked.json()["locked"] is True
    wrong = api.post(f"{ROOTS}unlock/", {"name": "tank/vault", "passphrase": "not it at all"},
                     content_type=JSON)  # fmt: skip
    assert wrong.status_code == 400
    assert "does not unlock it" in wrong.json()["fields"]["passphrase"][0]
    assert "not it at all" not in wrong.content.decode()
    opened = api.post(f"{ROOTS}unlock/", {"name": "tank/vault", "passphrase": PASSPHRASE},
                      content_type=JSON)  # fmt: skip
    assert opened.json()["locked"] is False
    changed = api.post(f"{ROOTS}change-key/", {"name": "tank/vault", "method": "key"},
                       content_type=JSON)  # fmt: skip
    assert changed.status_code == 200, changed.json()
    assert changed.json()["unlocks_at_boot"] is True
    again = api.post(f"{ROOTS}lock/", {"name": "tank/vault"}, content_type=JSON)
    assert again.json()["locked"] is True
    back = api.post(f"{ROOTS}unlock/", {"name": "tank/vault"}, content_type=JSON)
    assert back.json()["locked"] is False


def test_an_unknown_or_plain_dataset_is_refused_by_name(api, tank):
    answer = api.post(f"{ROOTS}lock/", {"name": "tank"}, content_type=JSON)
    assert answer.status_code == 400
    assert "not encrypted" in answer.json()["fields"]["name"][0]
    answer = api.post(f"{ROOTS}lock/", {"name": "tank/none"}, content_type=JSON)
    assert answer.status_code == 400
    assert "name" in answer.json()["fields"]


def _export(api, passphrase: str = PASSPHRASE):
    body = {"passphrase": passphrase, "passphrase_confirm": passphrase}
    return api.post(f"{ROOTS}export/", body, content_type=JSON)


def test_kept_keys_export_once_and_import_on_a_box_that_lost_them(api, tank, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from storage.encryption import selectors

    api.post("/api/storage/zvols/", {"name": "tank/disk", "size": "64M", "sparse": True,
                                     "encryption": "key"}, content_type=JSON)  # fmt: skip
    _vault(api)
    assert [r.name for r in selectors.unexported()] == ["tank/disk"]
    made = _export(api)
    assert made.status_code == 200
    assert made["X-Nasui-Roots"] == "tank/disk"  # a passphrase is its own key
    assert made["Content-Disposition"].endswith('.nasui-keys"')
    blob = made.content
    assert blob.startswith(b"NASUI-KEYS\n")
    assert selectors.unexported() == []  # exported once: the warning goes

    # The stick died: a new one has no key files; the pool still names the old path.
    api.post(f"{ROOTS}lock/", {"name": "tank/disk"}, content_type=JSON)
    for path in (Path(settings.DATA_DIR) / "keys").iterdir():
        path.unlink()
    assert api.post(f"{ROOTS}unlock/", {"name": "tank/disk"}, content_type=JSON).status_code == 400

    def upload(content: bytes, passphrase: str):
        file = SimpleUploadedFile("k.nasui-keys", content)
        return api.post(f"{ROOTS}import/", {"file": file, "passphrase": passphrase})

    wrong = upload(blob, "not the passphrase")
    assert wrong.status_code == 400
    assert "Wrong passphrase for this key file" in wrong.json()["fields"]["passphrase"][0]
    foreign = upload(b"NASUI-CONFIG\n\x01" + bytes(40), PASSPHRASE)
    assert "This is not a nasui key file." in foreign.json()["fields"]["file"][0]
    done = upload(blob, PASSPHRASE)
    assert done.status_code == 200, done.json()
    assert done.json() == {"imported": ["tank/disk"], "absent": [], "refused": {}}
    roots = {r["name"]: r for r in api.get(ROOTS).json()["results"]}
    assert roots["tank/disk"]["locked"] is False
    assert roots["tank/disk"]["unlocks_at_boot"] is True  # its key is kept again
    api.post(f"{ROOTS}lock/", {"name": "tank/disk"}, content_type=JSON)
    assert api.post(f"{ROOTS}unlock/", {"name": "tank/disk"}, content_type=JSON).status_code == 200


def test_an_export_with_nothing_to_hold_or_a_short_passphrase_is_refused(api, tank):
    nothing = _export(api)
    assert nothing.status_code == 400
    assert "No encryption root here" in nothing.json()["fields"]["passphrase"][0]
    api.post("/api/storage/datasets/", {"name": "tank/a", "encryption": "key"}, content_type=JSON)
    short = _export(api, "short")
    assert "At least 8 characters" in short.json()["fields"]["passphrase"][0]


def test_no_passphrase_or_key_reaches_a_log_or_an_answer(api, tank, caplog, settings):
    import logging

    caplog.set_level(logging.DEBUG)
    typed = "a passphrase nobody logs"
    answers = [
        api.post("/api/storage/datasets/", {"name": "tank/v", "encryption": "passphrase",
                                            "passphrase": typed, "passphrase_confirm": typed},
                 content_type=JSON),
        api.post("/api/storage/datasets/", {"name": "tank/k", "encryption": "key"},
                 content_type=JSON),
        api.post(f"{ROOTS}lock/", {"name": "tank/v"}, content_type=JSON),
        api.post(f"{ROOTS}unlock/", {"name": "tank/v", "passphrase": typed + "!"},
                 content_type=JSON),
        api.post(f"{ROOTS}unlock/", {"name": "tank/v", "passphrase": typed}, content_type=JSON),
        api.get(ROOTS),
        api.get("/api/storage/datasets/?pool=tank"),
    ]  # fmt: skip
    kept = next((Path(settings.DATA_DIR) / "keys").glob("*.key")).read_text().strip()
    said = " ".join(a.content.decode() for a in answers) + caplog.text
    assert [a.status_code for a in answers] == [201, 201, 200, 400, 200, 200, 200]
    for secret in (typed, kept):
        assert secret not in said
