"""/metrics itself (off, token, on), its settings through the API and the Settings page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from access.users.engine import roles
from monitoring.exporter import services
from monitoring.models import ExporterSettings
from nasui.tokens import hash_token_key

pytestmark = pytest.mark.django_db


def test_it_is_off_by_default_and_answers_404():
    assert ExporterSettings.load().enabled is False
    assert Client().get("/metrics").status_code == 404


def test_off_answers_404_even_with_the_right_token(exporter_on):
    services.exporter_update(enabled=False)
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {exporter_on}")
    assert response.status_code == 404


def test_without_a_token_it_answers_401_with_www_authenticate(exporter_on):
    response = Client().get("/metrics")
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer wrong", "Token {key}", "Basic {key}", "Bearer"])
def test_a_wrong_token_or_scheme_answers_401(exporter_on, header):
    response = Client().get("/metrics", HTTP_AUTHORIZATION=header.format(key=exporter_on))
    assert response.status_code == 401


def test_on_without_any_token_made_answers_401():
    services.exporter_update(enabled=True)
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 401


def test_the_right_token_gets_the_text_format(exporter_on, stored_sample):
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {exporter_on}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert 'nasui_pool_size_bytes{pool="tank"} 3.221225472e+09' in response.content.decode()


def test_no_session_cookie_and_no_login_redirect(exporter_on):
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {exporter_on}")
    assert response.status_code == 200
    assert "sessionid" not in response.cookies


def test_only_the_hash_of_the_token_is_stored(exporter_on):
    row = ExporterSettings.load()
    assert row.token_hash == hash_token_key(exporter_on)
    assert exporter_on not in (row.token_hash, row.token_prefix)
    assert exporter_on.startswith(row.token_prefix)


def test_a_new_token_replaces_the_old_one(exporter_on):
    new = services.exporter_token_create()[1]
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {exporter_on}").status_code == 401
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {new}").status_code == 200


def test_last_scraped_at_is_written_at_most_once_a_minute(exporter_on):
    prometheus = Client(HTTP_AUTHORIZATION=f"Bearer {exporter_on}")
    prometheus.get("/metrics")
    first = ExporterSettings.load().last_scraped_at
    assert first is not None
    prometheus.get("/metrics")
    assert ExporterSettings.load().last_scraped_at == first
    ExporterSettings.objects.update(last_scraped_at=first - timedelta(seconds=61))
    prometheus.get("/metrics")
    again = ExporterSettings.load().last_scraped_at
    assert again is not None
    assert again > first


def test_post_is_refused(exporter_on):
    response = Client().post("/metrics", HTTP_AUTHORIZATION=f"Bearer {exporter_on}")
    assert response.status_code == 405


# -- the API ------------------------------------------------------------------------------------


def test_api_reads_and_turns_it_on(token_client):
    api = token_client(roles.ADMIN)
    assert api.get("/api/monitoring/exporter/").json()["enabled"] is False
    response = api.put("/api/monitoring/exporter/", {"enabled": True},
                       content_type="application/json")  # fmt: skip
    assert response.status_code == 200
    assert response.json()["enabled"] is True
    assert ExporterSettings.load().enabled is True


def test_api_put_without_enabled_is_a_400(token_client):
    api = token_client(roles.ADMIN)
    response = api.put("/api/monitoring/exporter/", {}, content_type="application/json")
    assert response.status_code == 400


def test_api_token_is_returned_once_and_works(token_client, stored_sample):
    api = token_client(roles.ADMIN)
    api.put("/api/monitoring/exporter/", {"enabled": True}, content_type="application/json")
    response = api.post("/api/monitoring/exporter/token/")
    assert response.status_code == 201
    key = response.json()["token"]
    shown = api.get("/api/monitoring/exporter/").json()
    assert key not in str(shown)
    assert shown["has_token"] is True
    assert key.startswith(shown["token_prefix"])
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200


@pytest.mark.parametrize("role", [roles.READ_ONLY, roles.SHARING])
def test_only_an_administrator_changes_it(token_client, role):
    api = token_client(role)
    assert api.get("/api/monitoring/exporter/").status_code == 200
    response = api.put("/api/monitoring/exporter/", {"enabled": True},
                       content_type="application/json")  # fmt: skip
    assert response.status_code == 403
    assert api.post("/api/monitoring/exporter/token/").status_code == 403
    assert ExporterSettings.load().token_hash == ""


# -- the pages ----------------------------------------------------------------------------------


def test_the_settings_page_shows_the_card_with_an_example_config(client_of):
    page = client_of(roles.ADMIN).get("/settings/").content.decode()
    assert 'data-testid="exporter-card"' in page
    assert "credentials_file" in page
    assert "Turn on" in page


def test_the_card_makes_a_token_shown_once(client_of):
    browser = client_of(roles.ADMIN)
    page = browser.post("/monitoring/exporter/token/").content.decode()
    row = ExporterSettings.load()
    assert 'data-testid="new-exporter-token"' in page
    assert f">{row.token_prefix}" in page
    assert 'data-testid="new-exporter-token"' not in browser.get("/settings/").content.decode()


def test_the_card_turns_it_on_and_off_through_htmx(client_of):
    browser = client_of(roles.ADMIN)
    page = browser.post("/monitoring/exporter/enabled/", {"enabled": "on"},
                        HTTP_HX_REQUEST="true").content.decode()  # fmt: skip
    assert page.lstrip().startswith('<div class="card" id="exporter-card"')
    assert ExporterSettings.load().enabled is True
    browser.post("/monitoring/exporter/enabled/", {})
    assert ExporterSettings.load().enabled is False


def test_a_read_only_user_sees_the_card_without_its_buttons(client_of):
    page = client_of(roles.READ_ONLY).get("/settings/").content.decode()
    assert 'data-testid="exporter-card"' in page
    assert "/monitoring/exporter/token/" not in page
    assert client_of(roles.SHARING).post("/monitoring/exporter/token/").status_code == 403


def test_the_datasets_task_refreshes_only_while_on(tank, exporter_on):
    from storage.datasets.selectors import cached_dataset_figures

    assert services.exporter_datasets_refresh() == 1  # tank's root
    assert cached_dataset_figures()["datasets"][0][0] == "tank"
    services.exporter_update(enabled=False)
    assert services.exporter_datasets_refresh() is None


def test_a_scrape_older_than_a_minute_is_noted_again():
    row = ExporterSettings.load()
    row.last_scraped_at = timezone.now() - timedelta(minutes=5)
    row.save()
    assert services.exporter_scraped() is True
    assert services.exporter_scraped() is False
