"""An export to the whole world (0.0.0.0/0, ::/0) is allowed but said, on the page and in the
API; the mapping choices say what exports(5) root_squash, all_squash and anonuid do."""

from __future__ import annotations

import pytest

from sharing.files.forms import ShareWizardForm
from sharing.models import NfsShare
from sharing.nfs import selectors
from sharing.nfs import services as nfs
from sharing.nfs.engine.desired import world_networks
from sharing.nfs.forms import NfsShareForm
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services

pytestmark = pytest.mark.django_db
JSON = "application/json"
ANYONE = "Anyone on any network can mount tank/media"


@pytest.fixture
def media(fake_files, tank) -> str:
    """A file system tank/media; returns its mountpoint."""
    storage_services.dataset_create(parent="tank", name="media")
    return storage.dataset_get("tank/media").mountpoint or ""


def test_only_networks_of_every_address_are_the_world():
    networks = ["0.0.0.0/0", "::/0", "10.0.0.0/8", "0.0.0.0/1", "192.168.1.7/32"]
    assert world_networks(networks) == ["0.0.0.0/0", "::/0"]


@pytest.mark.parametrize("network", ["0.0.0.0/0", "::/0"])
def test_an_export_to_the_world_is_saved_with_a_warning(media, network):
    share = nfs.nfs_share_create(path=media, networks=[network])
    assert NfsShare.objects.get().networks == [network]
    [warning] = selectors.export_warnings(share)
    assert ANYONE in warning
    assert network in warning


def test_an_export_to_a_home_network_has_no_warning(media):
    share = nfs.nfs_share_create(path=media, networks=["192.168.1.0/24"], hosts=["pc.lan"])
    assert selectors.export_warnings(share) == []


def test_the_api_answers_a_world_export_with_its_warning(admin_client, media):
    made = admin_client.post(
        "/api/sharing/nfs/shares/", {"path": media, "networks": ["0.0.0.0/0"]}, content_type=JSON
    )
    assert made.status_code == 201, made.json()
    [warning] = made.json()["warnings"]
    assert ANYONE in warning
    narrowed = admin_client.patch(
        f"/api/sharing/nfs/shares/{made.json()['id']}/",
        {"networks": ["10.0.0.0/8"]},
        content_type=JSON,
    )
    assert narrowed.status_code == 200
    assert narrowed.json()["warnings"] == []
    widened = admin_client.put(
        f"/api/sharing/nfs/shares/{made.json()['id']}/",
        {"path": media, "networks": ["::/0"]},
        content_type=JSON,
    )
    assert ANYONE in widened.json()["warnings"][0]


def test_the_schema_documents_the_warnings(admin_client):
    schema = admin_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    field = schema["components"]["schemas"]["NfsShare"]["properties"]["warnings"]
    assert field["readOnly"] is True
    assert field["type"] == "array"
    assert "anyone on any network" in field["description"]


def test_the_page_warns_after_saving_a_world_export(admin_client, media):
    form = {"path": media, "networks": "0.0.0.0/0", "map_mode": "none", "enabled": "on"}
    response = admin_client.post("/sharing/files/nfs/add/", form, follow=True)
    assert response.status_code == 200
    assert NfsShare.objects.get().networks == ["0.0.0.0/0"]
    said = [(m.level_tag, m.message) for m in response.context["messages"]]
    assert ("warning", selectors.export_warnings(NfsShare.objects.get())[0]) in said
    assert ("success", "NFS export saved.") in said
    assert 'class="alert alert-warning' in response.content.decode()


def test_the_page_says_nothing_more_for_a_home_network(admin_client, media):
    form = {"path": media, "networks": "192.168.1.0/24", "map_mode": "none", "enabled": "on"}
    response = admin_client.post("/sharing/files/nfs/add/", form, follow=True)
    levels = [m.level_tag for m in response.context["messages"]]
    assert levels == ["success"]


def test_the_wizard_page_warns_of_a_world_export(admin_client, media):
    form = {
        "existing": "tank/media", "compression": "inherit", "nfs": "on", "networks": "::/0",
        "map_mode": "none",
    }  # fmt: skip
    response = admin_client.post("/sharing/files/wizard/", form, follow=True)
    assert response.status_code == 200, response.content.decode()[:2000]
    levels = {m.level_tag: m.message for m in response.context["messages"]}
    assert ANYONE in levels["warning"]


def test_the_wizard_api_answers_with_the_exports_warning(admin_client, media):
    response = admin_client.post(
        "/api/sharing/wizard/",
        {"existing": "tank/media", "protocols": ["nfs"], "networks": ["0.0.0.0/0"]},
        content_type=JSON,
    )
    assert response.status_code == 201, response.json()
    assert ANYONE in response.json()["nfs_share"]["warnings"][0]


def _labels(form) -> dict[str, str]:
    return {value: str(label) for value, label in form.fields["map_mode"].choices}


def _wizard_form() -> ShareWizardForm:
    return ShareWizardForm(parents=[], filesystems=[], compressions=[])


@pytest.mark.parametrize("make", [lambda: NfsShareForm(mountpoints=[]), _wizard_form])
def test_each_mapping_says_what_exports5_does(make):
    form = make()
    labels = _labels(form)
    assert list(labels) == ["none", "root", "all"]
    # root_squash maps uid and gid 0 to the anonymous ids, 65534 unless anonuid/anongid say.
    assert "root_squash" in labels["none"]
    assert "65534" in labels["none"]
    assert "other users keep their ids" in labels["none"]
    assert "root_squash" in labels["root"]
    assert "anonuid" in labels["root"]
    assert "other users keep their ids" in labels["root"]
    # all_squash maps every uid and gid, root's too.
    assert "all_squash" in labels["all"]
    assert "root included" in labels["all"]
    help_text = str(form.fields["map_mode"].help_text)
    assert "root_squash maps a client's root (uid and gid 0)" in help_text
    assert "all_squash maps every uid and gid" in help_text
    assert "anonuid" in str(form.fields["map_user"].help_text)
    assert "anongid" in str(form.fields["map_group"].help_text)


def test_the_wizard_no_longer_describes_every_mode_as_mapping_everyone():
    form = _wizard_form()
    assert not str(form.fields["map_mode"].help_text).startswith("Everyone becomes one user")
