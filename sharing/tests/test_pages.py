"""Sharing pages: forms save through services, errors land on fields, secrets stay hidden."""

from __future__ import annotations

import pytest

from sharing.models import AuthGroup, Extent, InitiatorGroup, Portal, Target, TargetExtent

pytestmark = pytest.mark.django_db
SECRET = "page-secret-123"


@pytest.fixture
def client(admin_client, fake_target):
    return admin_client


def _post(client, path: str, data: dict[str, object]) -> object:
    response = client.post(f"/sharing/{path}", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


def test_the_overview_shows_the_service_and_empty_states(client):
    page = client.get("/sharing/").content.decode()
    assert "iSCSI service (tgt)" in page
    assert "No targets yet" in page


def test_the_whole_chain_through_the_pages(client, zvol):
    _post(client, "portals/add/", {"addresses": "127.0.0.1\n::1", "comment": "lan"})
    _post(client, "initiator-groups/add/", {"initiators": "iqn.2026-01.test:pc", "networks": ""})
    _post(client, "auth-groups/add/", {"tag": 3, "user": "pc", "secret": SECRET})
    portal, group, chap = (
        Portal.objects.get(),
        InitiatorGroup.objects.get(),
        AuthGroup.objects.get(),
    )
    _post(
        client,
        "targets/add/",
        {"name": "disk", "portal": portal.pk, "initiator_group": group.pk,
         "auth_method": "chap", "auth_group": chap.pk},
    )  # fmt: skip
    _post(
        client,
        "extents/add/",
        {"name": "disk", "kind": "zvol", "zvol": zvol, "blocksize": 4096, "enabled": "on"},
    )
    target, extent = Target.objects.get(), Extent.objects.get()
    _post(client, "luns/add/", {"target": target.pk, "extent": extent.pk, "lun_id": ""})
    assert TargetExtent.objects.get().lun_id == 1
    page = client.get("/sharing/").content.decode()
    assert "LUN 1: disk" in page
    assert "CHAP (pc)" in page


def test_a_secret_is_never_shown_back(client):
    _post(client, "auth-groups/add/", {"tag": 1, "user": "pc", "secret": SECRET})
    chap = AuthGroup.objects.get()
    for path in ("/sharing/", f"/sharing/auth-groups/{chap.pk}/"):
        assert SECRET not in client.get(path).content.decode()


def test_field_errors_show_on_the_form(client):
    response = client.post("/sharing/auth-groups/add/", {"tag": 1, "user": "pc", "secret": "short"})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="secret"' in page
    assert AuthGroup.objects.count() == 0


def test_deleting_a_portal_in_use_is_refused_with_a_reason(client):
    _post(client, "portals/add/", {"addresses": "127.0.0.1"})
    portal = Portal.objects.get()
    _post(client, "targets/add/", {"name": "t", "portal": portal.pk, "auth_method": "none"})
    response = client.post(f"/sharing/portal/{portal.pk}/delete/")
    assert response.status_code == 400
    assert "in use by a target" in response.content.decode()
    assert Portal.objects.count() == 1


def test_an_unknown_kind_cannot_be_deleted(client):
    assert client.post("/sharing/user/1/delete/").status_code == 404


def test_deleting_an_unused_portal_asks_first_then_goes_back(client):
    _post(client, "portals/add/", {"addresses": "127.0.0.1", "comment": "lan"})
    portal = Portal.objects.get()
    question = client.get(f"/sharing/portal/{portal.pk}/delete/")
    assert question.status_code == 200
    assert "This cannot be undone." in question.content.decode()
    response = client.post(f"/sharing/portal/{portal.pk}/delete/")
    assert response["Location"] == "/sharing/"
    assert "deleted." in client.get("/sharing/").content.decode()
    assert Portal.objects.count() == 0


def test_chap_without_an_auth_group_is_said_at_the_auth_group_field(client):
    _post(client, "portals/add/", {"addresses": "127.0.0.1", "comment": ""})
    response = client.post(
        "/sharing/targets/add/",
        {"name": "disk", "portal": Portal.objects.get().pk, "auth_method": "chap"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-field-error="auth_group"' in page
    assert "groups:" not in page
    assert not Target.objects.exists()


def test_the_lun_form_offers_only_extents_not_yet_mapped(client, zvol):
    from sharing.iscsi import services

    portal = services.portal_create(addresses=["127.0.0.1"])
    target = services.target_create(name="disk", groups=[{"portal": portal}])
    mapped = services.extent_create(name="mapped", zvol=zvol)
    services.association_create(target=target, extent=mapped)
    page = client.get("/sharing/luns/add/").content.decode()
    extent_select = page.split('name="extent"')[1].split("</select>")[0]
    assert f'value="{mapped.pk}"' not in extent_select


def test_stop_and_restart_ask_first_and_start_does_not(client, monkeypatch):
    from sharing.iscsi import runtime
    from sharing.runtime import ServiceStatus

    status = ServiceStatus(running=True, engine="tgt")
    monkeypatch.setattr(runtime.IscsiRuntime, "status", lambda self: status)
    page = client.get("/sharing/").content.decode()
    restart = 'data-confirm="Restart the iSCSI service? 0 connected initiators lose their disks'
    assert restart in page
    assert 'data-confirm="Stop the iSCSI service?' in page


def test_the_sharing_menu_entry_opens_on_file_shares(client):
    page = client.get("/").content.decode()
    assert '<a class="nav-link" href="/sharing/files/">' in page
    assert '<a class="nav-link" href="/sharing/">' not in page
    files = client.get("/sharing/files/").content.decode()
    assert '<li class="nav-item active">' in files
    assert 'href="/sharing/files/" aria-current="page">' in files


def test_the_tabs_lead_with_files_and_iscsi_keeps_its_address(client):
    for path, active in (("/sharing/files/", "Files"), ("/sharing/", "Blocks")):
        response = client.get(path)
        assert response.status_code == 200
        page = response.content.decode()
        tabs = page[page.index('aria-label="Kinds of sharing"') :]
        assert tabs.index("Files: SMB, NFS") < tabs.index("Blocks: iSCSI")
        assert f'aria-current="page" href="{path}">{active}' in tabs
