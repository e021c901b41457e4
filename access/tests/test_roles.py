"""The roles' rule, on its own: reads are everyone's; each role writes only in its places."""

from __future__ import annotations

import pytest

from access.users.engine import roles


@pytest.mark.parametrize("role", [roles.ADMIN, roles.SHARING, roles.READ_ONLY])
@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "get"])
def test_every_role_reads_everything(role, method):
    assert roles.may(role, method, "/api/storage/pools/").allowed


@pytest.mark.parametrize(
    ("role", "method", "path", "allowed"),
    [
        (roles.ADMIN, "DELETE", "/api/storage/pools/tank/", True),
        (roles.ADMIN, "POST", "/system/network/", True),
        (roles.SHARING, "POST", "/api/sharing/smb/shares/", True),
        (roles.SHARING, "PATCH", "/api/services/smb/", True),
        (roles.SHARING, "POST", "/sharing/files/users/add/", True),
        (roles.SHARING, "POST", "/api/storage/pools/", False),
        (roles.SHARING, "DELETE", "/api/storage/datasets/tank%2Fmedia/", False),
        (roles.SHARING, "PUT", "/api/system/clock/", False),
        (roles.SHARING, "POST", "/access/users/add/", False),
        (roles.SHARING, "POST", "/sharingx/", False),
        (roles.READ_ONLY, "POST", "/api/sharing/smb/shares/", False),
        (roles.READ_ONLY, "PATCH", "/api/jobs/1/", False),
        (roles.READ_ONLY, "POST", "/storage/pools/new/", False),
    ],
)
def test_writes_go_only_where_the_role_may(role, method, path, allowed):
    assert roles.may(role, method, path).allowed is allowed


@pytest.mark.parametrize("role", [roles.ADMIN, roles.SHARING, roles.READ_ONLY])
@pytest.mark.parametrize("path", ["/settings/password/", "/logout/", "/settings/tokens/"])
def test_everyone_keeps_their_own_account(role, path):
    assert roles.may(role, "POST", path).allowed


def test_no_role_is_refused_even_a_read():
    verdict = roles.may(None, "GET", "/")
    assert not verdict.allowed
    assert "panel users of this NAS" in verdict.reason


def test_a_refusal_says_the_roles_rule():
    assert "read-only" in roles.may(roles.READ_ONLY, "POST", "/api/x/").reason
    assert "sharing administrator" in roles.may(roles.SHARING, "POST", "/api/x/").reason


def test_a_sharing_administrators_snapshots_depend_on_the_dataset():
    path = "/api/storage/snapshots/"
    assert roles.about_a_dataset(roles.SHARING, "POST", path)
    assert not roles.may(roles.SHARING, "POST", path).allowed
    assert roles.may(roles.SHARING, "POST", path, shared_dataset=True).allowed
    clone = "/api/storage/snapshots/tank%2Fm@a/clone/"
    assert not roles.may(roles.SHARING, "POST", clone, shared_dataset=True).allowed
    assert not roles.may(roles.READ_ONLY, "POST", path, shared_dataset=True).allowed
    assert not roles.about_a_dataset(roles.SHARING, "GET", path)


def test_a_read_only_token_narrows_any_role():
    assert roles.narrower(roles.ADMIN, read_only=True) == roles.READ_ONLY
    assert roles.narrower(roles.SHARING, read_only=False) == roles.SHARING
