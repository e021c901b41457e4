"""The audit log: one row per change made in a scripted session (pages and API, refusals
included) and per sign-in; filters, CSV, pruning; never a secret."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from access.audit import services
from access.audit.models import AuditEntry
from access.tests.conftest import PASSWORD
from access.users.engine import roles

pytestmark = pytest.mark.django_db
JSON = "application/json"
SECRET_PASSWORD = "the group's secret password 77"


def row(*, action: str, result: str, username: str = "mum") -> AuditEntry:
    """A row as the middleware records it."""
    return services.record(
        user=None, username=username, address="10.0.0.2", via="api", method="POST",
        action=action, target="", path="/x/", result=result,
    )  # fmt: skip


def test_a_scripted_session_leaves_one_row_per_change_and_no_secret(user_of, client, tank):
    user_of(roles.ADMIN, "mum")
    made = client.post(
        "/api/tokens/", {"username": "mum", "password": PASSWORD, "name": "s"}, content_type=JSON
    )
    api = Client(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    key = made.json()["token"]
    assert api.get("/api/storage/pools/").status_code == 200  # a read: no row
    assert (
        api.post("/api/sharing/groups/", {"name": "family"}, content_type=JSON).status_code == 201
    )
    body = {"username": "kid", "password": SECRET_PASSWORD, "role": "readonly"}
    assert api.post("/api/access/users/", body, content_type=JSON).status_code == 201
    assert api.post("/api/sharing/groups/", {"name": "a b"}, content_type=JSON).status_code == 400
    reader = Client()
    reader.post("/login/", {"username": "kid", "password": "wrong password!"})
    reader.post("/login/", {"username": "kid", "password": SECRET_PASSWORD})
    assert reader.post("/storage/pools/create/", {"name": "x"}).status_code == 403

    rows = list(AuditEntry.objects.order_by("id"))
    seen = [(r.username, r.action, r.result) for r in rows]
    assert seen == [
        ("mum", "token", "done"),
        ("mum", "files-api:group-list", "done"),
        ("mum", "access-api:panel-user-list", "done"),
        ("mum", "files-api:group-list", "refused"),
        ("kid", "login", "refused"),
        ("kid", "login", "done"),
        ("kid", "storage:pool-create", "refused"),
    ]
    assert rows[1].target == "name=family"
    assert rows[2].target == "username=kid"
    assert rows[6].status == 403
    assert all(r.address == "127.0.0.1" for r in rows)
    dumped = " ".join(str(vars(r)) for r in rows)
    for secret in (SECRET_PASSWORD, PASSWORD, key, "wrong password!"):
        assert secret not in dumped


def test_the_page_filters_and_the_csv_follows_the_filter(admin_client):
    for action, result in [("a:one", "done"), ("a:two", "refused"), ("b:three", "done")]:
        row(action=action, result=result)
    page = admin_client.get("/access/audit/?result=refused").content.decode()
    assert 'data-action="a:two"' in page
    assert 'data-action="a:one"' not in page
    answer = admin_client.get("/access/audit/export.csv?q=a:")
    rows = list(csv.reader(io.StringIO(b"".join(answer.streaming_content).decode())))
    assert rows[0][:3] == ["at", "username", "address"]
    assert sorted(r[5] for r in rows[1:]) == ["a:one", "a:two"]
    api = admin_client.get("/api/access/audit/?result=done&q=three").json()
    assert [r["action"] for r in api["results"]] == ["b:three"]
    bad = admin_client.get("/api/access/audit/?since=yesterday")
    assert bad.status_code == 400
    assert "since" in bad.json()["fields"]


def test_a_formula_in_a_cell_is_quoted_in_the_csv(admin_client):
    row(username="=cmd|' /C calc'!A0", action="login", result="refused")
    text = b"".join(admin_client.get("/access/audit/export.csv").streaming_content).decode()
    assert "'=cmd" in text


def test_rows_older_than_the_kept_days_are_pruned(admin_client):
    old = row(action="old", result="done")
    AuditEntry.objects.filter(pk=old.pk).update(at=timezone.now() - timedelta(days=40))
    assert admin_client.post("/access/audit/keep/", {"keep_days": "30"}).status_code == 302
    assert services.prune() == 1
    assert AuditEntry.objects.filter(action="old").count() == 0
    assert admin_client.post("/access/audit/keep/", {"keep_days": "0"}).status_code == 400


def test_a_read_only_user_reads_the_log_but_cannot_change_how_long_it_keeps(client_of):
    browser = client_of(roles.READ_ONLY)
    assert browser.get("/access/audit/").status_code == 200
    assert browser.post("/access/audit/keep/", {"keep_days": "1"}).status_code == 403
