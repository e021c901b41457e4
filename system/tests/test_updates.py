"""Updates from the panel: a signed file on a dataset checked (each refusal names its field and
writes nothing), written into the idle slot and booted once on probation; the boot's verdict
keeps it or goes back; the roll-back takes the same road."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.exceptions import ValidationError

from system.updates import runtime, selectors, services
from system.updates.engine import bootenv, bundle, commit, state

pytestmark = pytest.mark.django_db
KEY = Ed25519PrivateKey.generate()


@pytest.fixture
def box(settings, tmp_path: Path, monkeypatch) -> dict[str, object]:
    """An appliance running release v1 from slot A: its ESP's grubenv, its two slot
    partitions (files), its trusted key, a dataset mounted at tmp/mnt/tank."""
    settings.DATA_DIR = tmp_path / "data"
    settings.NASUI_UPDATES = "ab"
    settings.NASUI_VERSION = "v1"
    env = tmp_path / "grubenv"
    env.write_bytes(bootenv.render({"nasui_good": "A"}))
    settings.NASUI_UPDATE_BOOT_ENV = env
    parts = tmp_path / "by-partlabel"
    parts.mkdir()
    for slot in ("a", "b"):
        (parts / f"nasui-root-{slot}").write_bytes(b"\0" * (4 << 20))
    settings.NASUI_UPDATE_SLOTS = parts
    keys = tmp_path / "keys"
    keys.mkdir()
    public = KEY.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    (keys / "nasui.pem").write_bytes(public)
    settings.NASUI_UPDATE_KEYS = keys
    mount = tmp_path / "mnt" / "tank"
    mount.mkdir(parents=True)
    monkeypatch.setattr(services, "mounted_filesystems", lambda: [("tank", str(mount))])
    monkeypatch.setattr(selectors, "running_slot", lambda: "A")
    calls: list[str] = []
    monkeypatch.setattr(
        runtime, "label", lambda device, name: calls.append(f"label {device.name} {name}")
    )
    monkeypatch.setattr(runtime, "restart_soon", lambda: calls.append("restart"))
    return {"env": env, "parts": parts, "mount": mount, "calls": calls, "data": tmp_path / "data"}


def update_file(
    folder: Path, release: str = "v2", key: Ed25519PrivateKey = KEY
) -> tuple[Path, bytes]:
    root = os.urandom(100_000) + bytes(1 << 20)
    source = folder / f"{release}.ext4"
    source.write_bytes(root)
    out = folder / f"nasui-update-{release}.tar"
    bundle.make(source, release, key, out)
    source.unlink()
    return out, root


def test_an_update_is_written_into_the_idle_slot_and_booted_once(box) -> None:
    update, root = update_file(box["mount"])
    job = services.update_start(path=str(update), health_seconds=300)
    assert job.arguments == {"path": str(update), "health_seconds": 300}
    progress: list[int] = []
    result = services.update_apply(
        path=str(update), health_seconds=300, report=lambda p, m: progress.append(p)
    )
    assert result == {"release": "v2", "slot": "B"}
    assert (box["parts"] / "nasui-root-b").read_bytes()[: len(root)] == root
    assert (box["parts"] / "nasui-root-a").read_bytes() == b"\0" * (4 << 20)  # the running slot
    assert box["calls"] == ["label nasui-root-b NASUI_ROOT_B", "restart"]
    assert bootenv.read(box["env"]) == {"nasui_good": "A", "nasui_try": "B"}
    trial = selectors.update_status().trial
    assert trial is not None
    assert (trial.slot, trial.release, trial.previous, trial.health_seconds) == (
        "B",
        "v2",
        "v1",
        300,
    )
    assert progress[-1] == 100


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("nasui-update.tar", "full path"),
        ("/etc/passwd", "on one of the pools' datasets"),
        ("{mount}/missing.tar", "There is no file"),
        ("{mount}/other-key.tar", "not signed by a key this box trusts"),
        ("{mount}/nasui-update-v1.tar", "runs v1 already"),
    ],
)
def test_a_refused_file_writes_nothing(box, path: str, message: str) -> None:
    update_file(box["mount"], "v3", Ed25519PrivateKey.generate())
    (box["mount"] / "nasui-update-v3.tar").rename(box["mount"] / "other-key.tar")
    update_file(box["mount"], "v1")
    with pytest.raises(ValidationError) as refused:
        services.update_start(path=path.format(mount=box["mount"]))
    assert message in refused.value.message_dict["path"][0]
    assert bootenv.read(box["env"]) == {"nasui_good": "A"}
    assert (box["parts"] / "nasui-root-b").read_bytes() == b"\0" * (4 << 20)


def test_where_the_panel_does_not_run_the_appliance_updates_are_refused(box, settings) -> None:
    settings.NASUI_UPDATES = "none"
    update, _ = update_file(box["mount"])
    with pytest.raises(ValidationError, match="updates are for the appliance"):
        services.update_start(path=str(update))


def test_the_new_slot_is_kept_once_its_panel_answers(box) -> None:
    state.begin(box["data"], state.Trial("B", "v2", "v1", 300, 0.0))
    verdict = commit.decide(
        box["data"], box["env"], "B", "v2", healthy=lambda s: s == 280, uptime=lambda: 20.0
    )
    assert verdict == "kept"
    assert bootenv.read(box["env"]) == {"nasui_good": "B"}
    assert state.slots(box["data"]) == {"B": "v2"}
    last = state.last(box["data"])
    assert last is not None
    assert last.kept


def test_a_panel_that_never_answers_sends_the_box_back(box) -> None:
    state.begin(box["data"], state.Trial("B", "broken", "v1", 300, 0.0))
    verdict = commit.decide(
        box["data"], box["env"], "B", "broken", healthy=lambda s: False, uptime=lambda: 20.0
    )
    assert verdict == "failed"  # the unit restarts the box: GRUB boots the good slot
    assert bootenv.read(box["env"]) == {"nasui_good": "A"}
    assert (
        commit.decide(
            box["data"], box["env"], "A", "v1", healthy=lambda s: True, uptime=lambda: 1.0
        )
        == ""
    )
    status = selectors.update_status()
    assert status.last is not None
    assert "did not answer within 300 s" in status.last.reason
    assert status.other_release == "broken"
    assert not status.can_roll_back  # not to the release that just failed


def test_a_release_that_never_started_is_said_by_the_slot_the_box_came_back_to(box) -> None:
    state.begin(box["data"], state.Trial("B", "v2", "v1", 300, 0.0))
    assert (
        commit.decide(
            box["data"], box["env"], "A", "v1", healthy=lambda s: True, uptime=lambda: 1.0
        )
        == "fell back"
    )
    last = state.last(box["data"])
    assert last is not None
    assert last.reason == "v2 did not start: the box came back to v1 by itself."


def test_the_roll_back_boots_the_other_slot_on_probation(box) -> None:
    with pytest.raises(ValidationError, match="no earlier release"):
        services.update_roll_back()
    state.note_slot(box["data"], "B", "v0")
    assert services.update_roll_back() == "v0"
    assert bootenv.read(box["env"])["nasui_try"] == "B"
    assert box["calls"] == ["restart"]
    with pytest.raises(ValidationError, match="v0 is being tried"):
        services.update_roll_back()


def test_the_api_and_the_page(admin_client, box) -> None:
    shown = admin_client.get("/api/system/update/").json()
    assert (shown["release"], shown["running"], shown["good"], shown["applies"]) == (
        "v1",
        "A",
        "A",
        True,
    )
    refused = admin_client.post(
        "/api/system/update/", {"path": "/etc/passwd"}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert "datasets" in str(refused.json()["fields"]["path"])
    update, _ = update_file(box["mount"])
    started = admin_client.post(
        "/api/system/update/", {"path": str(update)}, content_type="application/json"
    )
    assert started.status_code == 202, started.content
    assert started.json()["title"] == "Update to v2"
    page = admin_client.get("/system/update/")
    assert b'data-testid="update-release">v1' in page.content
    wrong = admin_client.post("/system/update/", {"path": "/etc/passwd", "health_seconds": "600"})
    assert wrong.status_code == 400
    assert b"on one of the pools" in wrong.content
