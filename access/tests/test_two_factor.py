"""Two-factor sign-in with codes from a real generator (Debian's oathtool): set-up, the login's
second step, a wrong and a replayed code, recovery codes, the token endpoint, the lock-out,
and a user an administrator requires it of."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from access.tests.conftest import PASSWORD
from access.twofactor import selectors, services
from access.twofactor.models import TotpDevice
from access.users.engine import roles

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("oathtool") is None, reason="oathtool (make dev-deps)"),
]
JSON = "application/json"


def oathtool(secret: str, offset_steps: int = 0) -> str:
    """The code an authenticator app shows now (or `offset_steps` steps from now)."""
    argv = ["oathtool", "--totp", "-b", secret]
    if offset_steps:
        argv += ["-N", f"@{int(time.time()) + 30 * offset_steps}"]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()


def enrolled(user: User) -> tuple[str, list[str]]:
    """Two-factor sign-in set up for `user`: its secret and recovery codes."""
    device = services.setup_start(user=user)
    codes = services.setup_confirm(user=user, code=oathtool(device.secret, -1))
    return device.secret, codes


def sign_in(client: Client, name: str) -> Any:
    return client.post("/login/", {"username": name, "password": PASSWORD})


def test_setting_it_up_from_the_page_shows_a_qr_code_then_recovery_codes_once(client_of):
    browser = client_of(roles.READ_ONLY)
    assert browser.post("/access/two-factor/start/").status_code == 302
    page = browser.get("/access/two-factor/").content.decode()
    assert "<svg" in page
    found = re.search(r'data-testid="secret">(\w+)<', page)
    assert found is not None
    secret = found.group(1)
    wrong = browser.post("/access/two-factor/confirm/", {"code": "000000"})
    assert wrong.status_code == 400
    assert "not right" in wrong.content.decode()
    done = browser.post("/access/two-factor/confirm/", {"code": oathtool(secret)})
    codes = re.findall(r"<li>([a-z0-9]{5}-[a-z0-9]{5})</li>", done.content.decode())
    assert len(codes) == 10
    again = browser.get("/access/two-factor/").content.decode()
    assert secret not in again
    assert codes[0] not in again
    assert 'data-testid="codes-left">10<' in again


def test_the_login_asks_for_the_code_after_the_password(user_of, client):
    user = user_of(roles.ADMIN, "mum")
    secret, _ = enrolled(user)
    first = sign_in(client, "mum")
    assert first.status_code == 302
    assert first["Location"] == "/login/code/"
    assert client.get("/storage/").status_code == 302  # not signed in yet
    wrong = client.post("/login/code/", {"code": "123456"})
    assert wrong.status_code == 400
    assert "not right" in wrong.content.decode()
    right = client.post("/login/code/", {"code": oathtool(secret)})
    assert right.status_code == 302
    assert client.get("/settings/").status_code == 200


def test_a_code_is_good_once(user_of, client):
    user = user_of(roles.ADMIN, "mum")
    secret, _ = enrolled(user)
    code = oathtool(secret, 1)  # the next step's: not the one the set-up used
    sign_in(client, "mum")
    assert client.post("/login/code/", {"code": code}).status_code == 302
    other = Client()
    sign_in(other, "mum")
    replayed = other.post("/login/code/", {"code": code})
    assert replayed.status_code == 400
    assert "used already" in replayed.content.decode()


def test_a_recovery_code_signs_in_once(user_of, client):
    user = user_of(roles.ADMIN, "mum")
    _, codes = enrolled(user)
    sign_in(client, "mum")
    assert client.post("/login/code/", {"code": codes[3].upper()}).status_code == 302
    assert selectors.recovery_codes_left(user) == 9
    other = Client()
    sign_in(other, "mum")
    assert other.post("/login/code/", {"code": codes[3]}).status_code == 400


def test_wrong_codes_count_towards_the_lock_out(user_of, client, settings):
    user = user_of(roles.ADMIN, "mum")
    secret, _ = enrolled(user)
    sign_in(client, "mum")
    answers = [client.post("/login/code/", {"code": "000000"}).status_code for _ in range(6)]
    assert 429 in answers
    assert client.post("/login/code/", {"code": oathtool(secret)}).status_code == 429


def test_the_token_endpoint_asks_for_the_code(user_of, client):
    user = user_of(roles.ADMIN, "mum")
    secret, _ = enrolled(user)
    body = {"username": "mum", "password": PASSWORD, "name": "script"}
    asked = client.post("/api/tokens/", body, content_type=JSON)
    assert asked.status_code == 400
    assert "code" in asked.json()["fields"]
    wrong = client.post("/api/tokens/", {**body, "code": "000000"}, content_type=JSON)
    assert wrong.status_code == 401
    made = client.post("/api/tokens/", {**body, "code": oathtool(secret)}, content_type=JSON)
    assert made.status_code == 201, made.json()


def test_a_user_required_to_use_it_sets_it_up_before_anything_else(admin_client, user_of):
    kid = user_of(roles.READ_ONLY, "kid")
    answer = admin_client.patch(
        f"/api/access/users/{kid.pk}/", {"two_factor_required": True}, content_type=JSON
    )
    assert answer.json()["two_factor_required"] is True
    browser = Client()
    browser.force_login(kid)
    assert browser.get("/storage/")["Location"] == "/access/two-factor/"
    assert browser.get("/access/two-factor/").status_code == 200
    token = Client()
    made = token.post("/api/tokens/", {"username": "kid", "password": PASSWORD, "name": "t"},
                      content_type=JSON)  # fmt: skip
    key = made.json()["token"]
    refused = Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/storage/pools/")
    assert refused.status_code == 403
    assert "two-factor" in refused.json()["detail"]
    enrolled(kid)
    assert browser.get("/storage/").status_code == 200


def test_turning_it_off_takes_a_current_code_or_an_administrator(admin_client, user_of, client):
    user = user_of(roles.READ_ONLY, "kid")
    secret, _ = enrolled(user)
    client.force_login(user)
    refused = client.post("/access/two-factor/off/", {"code": "000000"})
    assert refused.status_code == 400
    assert selectors.enrolled(user)
    assert client.post("/access/two-factor/off/", {"code": oathtool(secret, 1)}).status_code == 302
    assert not selectors.enrolled(user)
    enrolled(user)
    assert admin_client.post(f"/access/users/{user.pk}/two-factor/off/").status_code == 302
    assert not TotpDevice.objects.filter(user=user).exists()


def test_no_secret_or_code_reaches_the_api(admin_client, user_of):
    user = user_of(roles.READ_ONLY, "kid")
    secret, codes = enrolled(user)
    listed = admin_client.get("/api/access/users/").content.decode()
    assert secret not in listed
    assert all(code not in listed for code in codes)
    assert '"two_factor":true' in listed.replace(" ", "")
