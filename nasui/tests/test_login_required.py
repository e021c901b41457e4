"""Every page and endpoint needs a login or a token, except login, static files and health."""

from __future__ import annotations

import re

import pytest
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from drf_spectacular.generators import SchemaGenerator

# api/tokens/ is the API's login: it takes a user name and password (under the same lock-out).
# api/replication/pairing/ likewise: another nasui sends an administrator's credentials with
# its key. metrics: Prometheus' scrape, off by default and guarded by a token of its own.
PUBLIC = {"login/", "health/", "api/tokens/", "api/replication/pairing/", "metrics"}


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + _concrete(str(pattern.pattern)))
        elif isinstance(pattern, URLPattern):
            yield prefix + _concrete(str(pattern.pattern))


def _sample(group: re.Match[str]) -> str:
    """A value the group's own regex accepts: "1", or a snapshot-like "t@1"."""
    return next(v for v in ("1", "t@1") if re.fullmatch(group.group(1), v))


def _concrete(route: str) -> str:
    """Fill every converter or regex group of a URL pattern with a plausible value."""
    if route.startswith("^"):  # a regex pattern, as DRF's routers make
        route = re.sub(r"\(\?P<format>[^)]*\)", "json", route)
        route = re.sub(r"\(\?P<\w+>([^)]*)\)", _sample, route)
        route = route.lstrip("^").rstrip("$").replace("/?", "/").replace("\\.", ".")
    else:
        route = re.sub(r"<(?:\w+:)?format>", ".json", route)
        route = re.sub(r"<(?:\w+:)?\w+>", "1", route)
    return route


def _schema_route(path: str) -> str:
    """A schema path with its parameters filled by a value the URL patterns accept."""
    for value in ("1", "t@1"):
        route = re.sub(r"\{[^}]+\}", value, path)
        try:
            resolve(route)
        except Resolver404:
            continue
        return route
    raise AssertionError(f"no URL pattern takes {path}")


def all_routes() -> list[str]:
    routes = {"/" + r for r in _walk(get_resolver().url_patterns)}
    schema = SchemaGenerator().get_schema(request=None, public=True)
    routes |= {_schema_route(path) for path in schema["paths"]}
    return sorted(r for r in routes if r.lstrip("/") not in PUBLIC)


def test_the_enumeration_finds_pages_and_api_paths():
    routes = all_routes()
    assert "/" in routes
    assert "/api/jobs/" in routes
    assert "/api/schema/" in routes
    assert len(routes) >= 15


@pytest.mark.django_db
@pytest.mark.parametrize("route", all_routes())
@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_requests_are_refused(client, route, method):
    response = getattr(client, method)(route)
    if route.startswith("/api/") and not route.startswith("/api/docs/"):
        assert response.status_code in (401, 403), response.content
    else:
        assert response.status_code == 302, (route, response.status_code)
        assert response["Location"].startswith("/login/")


@pytest.mark.django_db
def test_login_and_health_are_public(client):
    assert client.get("/login/").status_code == 200
    assert client.get("/health/").status_code in (200, 503)


@pytest.mark.django_db
def test_metrics_is_off_or_asks_for_its_own_token(client):
    from monitoring.exporter.services import exporter_update

    assert client.get("/metrics").status_code == 404
    exporter_update(enabled=True)
    assert client.get("/metrics").status_code == 401


@pytest.mark.django_db
def test_a_bad_token_gets_401_with_a_clear_body(client):
    response = client.get("/api/jobs/", HTTP_AUTHORIZATION="Token nasui_nope")
    assert response.status_code == 401
    assert response.json() == {
        "detail": "Invalid or revoked token.",
        "code": "authentication_failed",
        "fields": {},
    }


@pytest.fixture
def member(django_user_model):
    """A signed-in user who is not an administrator (not staff)."""
    return django_user_model.objects.create_user("guest", password="a long test phrase")


@pytest.mark.parametrize("url", ["/", "/storage/", "/sharing/files/", "/settings/", "/jobs/"])
def test_a_user_who_is_not_an_administrator_gets_no_page(client, member, url):
    client.force_login(member)
    response = client.get(url)
    assert response.status_code == 403
    assert "Only the panel users of this NAS may use its panel" in response.content.decode()


@pytest.mark.parametrize("url", ["/api/jobs/", "/api/storage/pools/", "/api/schema/"])
def test_nor_the_api_with_a_session(client, member, url):
    client.force_login(member)
    assert client.get(url).status_code == 403


def test_nor_the_api_with_a_token_made_before_they_stopped_being_one(client, member):
    from nasui import services

    _, key = services.api_token_create(user=member, name="script")
    response = client.get("/api/jobs/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 403


def test_nor_a_new_token(client, member):
    body = {"username": "guest", "password": "a long test phrase", "name": "x"}
    response = client.post("/api/tokens/", body, content_type="application/json")
    assert response.status_code == 403
    assert "Only the panel users" in response.json()["detail"]
