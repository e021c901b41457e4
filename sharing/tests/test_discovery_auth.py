"""Discovery authentication: a global setting, checked like a target's, applied to the engine."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.iscsi import services
from sharing.models import AuthGroup, IscsiSettings

pytestmark = pytest.mark.django_db
JSON = "application/json"
BASE = "iqn.2026-11.local.nasui"
SECRET, PEER_SECRET = "disco-secret-1", "disco-peer-22"


@pytest.fixture
def one_way(fake_target) -> AuthGroup:
    """CHAP credentials without peer credentials."""
    return services.auth_group_create(tag=7, user="lister", secret=SECRET)


@pytest.fixture
def mutual(fake_target) -> AuthGroup:
    """CHAP credentials with peer (target) credentials."""
    return services.auth_group_create(
        tag=8, user="lister2", secret=SECRET, peer_user="nas", peer_secret=PEER_SECRET
    )


def _set(method: str, group: AuthGroup | None) -> IscsiSettings:
    return services.settings_update(
        basename=BASE, port=3260, discovery_auth_method=method, discovery_auth_group=group
    )


def test_discovery_chap_reaches_the_engine(one_way, fake_target):
    _set("chap", one_way)
    chap = fake_target.last.discovery_chap
    assert chap is not None
    assert (chap.user, chap.secret, chap.mutual) == ("lister", SECRET, False)


def test_mutual_discovery_chap_carries_the_peer_credentials(mutual, fake_target):
    _set("mutual", mutual)
    chap = fake_target.last.discovery_chap
    assert chap is not None
    assert (chap.peer_user, chap.peer_secret) == ("nas", PEER_SECRET)


def test_one_way_discovery_ignores_the_groups_peer_credentials(mutual, fake_target):
    _set("chap", mutual)
    chap = fake_target.last.discovery_chap
    assert chap is not None
    assert not chap.mutual


def test_none_forgets_the_group_and_opens_discovery(one_way, fake_target):
    _set("chap", one_way)
    row = _set("none", one_way)
    assert row.discovery_auth_group is None
    assert fake_target.last.discovery_chap is None


@pytest.mark.parametrize(
    ("method", "group", "field", "words"),
    [
        ("chap", None, "discovery_auth_group", "CHAP needs an auth group"),
        ("mutual", "one_way", "discovery_auth_group", "no peer user for mutual CHAP"),
        ("kerberos", None, "discovery_auth_method", "must be one of: none, chap, mutual"),
    ],
)
def test_an_unusable_choice_names_the_field_and_changes_nothing(
    request, fake_target, method, group, field, words
):
    chosen = request.getfixturevalue(group) if group else None
    with pytest.raises(ValidationError) as exc:
        _set(method, chosen)
    assert words in " ".join(exc.value.message_dict[field])
    assert IscsiSettings.load().discovery_auth_method == "none"


def test_a_group_discovery_uses_cannot_be_deleted(one_way, fake_target):
    _set("chap", one_way)
    with pytest.raises(ValidationError) as exc:
        services.auth_group_delete(group=one_way)
    assert "Discovery authentication uses this auth group" in str(exc.value)
    assert AuthGroup.objects.filter(pk=one_way.pk).exists()


def test_mutual_discovery_keeps_its_groups_peer_user(mutual, fake_target):
    _set("mutual", mutual)
    with pytest.raises(ValidationError) as exc:
        services.auth_group_update(group=mutual, user="lister2", secret=SECRET)
    assert "Discovery uses this group for mutual CHAP" in " ".join(
        exc.value.message_dict["peer_user"]
    )
    mutual.refresh_from_db()
    assert mutual.peer_user == "nas"


def test_the_api_sets_discovery_auth_and_keeps_it_when_omitted(admin_client, one_way):
    url = "/api/sharing/iscsi/settings/"
    body = {"basename": BASE, "port": 3260}
    on = {**body, "discovery_auth_method": "chap", "discovery_auth_group": one_way.pk}
    assert admin_client.put(url, on, content_type=JSON).status_code == 200
    kept = admin_client.put(url, body, content_type=JSON)
    assert kept.status_code == 200
    assert kept.json()["discovery_auth_method"] == "chap"
    assert kept.json()["discovery_auth_group"] == one_way.pk


def test_the_api_names_the_field_of_a_missing_group(admin_client, fake_target):
    body = {"basename": BASE, "port": 3260, "discovery_auth_method": "mutual"}
    response = admin_client.put("/api/sharing/iscsi/settings/", body, content_type=JSON)
    assert response.status_code == 400
    assert "discovery_auth_group" in response.json()["fields"]


def test_the_settings_page_saves_discovery_auth(admin_client, one_way):
    form = {
        "basename": BASE,
        "port": "3260",
        "discovery_auth_method": "chap",
        "discovery_auth_group": str(one_way.pk),
    }
    response = admin_client.post("/sharing/settings/", form)
    assert response.status_code in (200, 302)
    row = IscsiSettings.load()
    assert (row.discovery_auth_method, row.discovery_auth_group_id) == ("chap", one_way.pk)
    page = admin_client.get("/sharing/").content.decode()
    assert "discovery needs CHAP" in page
