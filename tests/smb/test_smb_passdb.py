"""The passdb: smbpasswd lines rendered from NT hashes, and hashes made by Samba's pdbedit."""

from __future__ import annotations

import subprocess

import pytest

from sharing.accounts.engine.desired import Accounts, GroupSpec, UserSpec
from sharing.smb.engine import passdb
from sharing.smb.engine.errors import PasswordRefused

HASH = "8846F7EAEE8FB117AD06BDD830B7586C"  # the NT hash of "password" (MS-NLMP test vector)
GROUPS = (GroupSpec("users", 1000),)


def accounts(*users: UserSpec) -> Accounts:
    """Accounts with these users in the group users."""
    return Accounts(users=users, groups=GROUPS)


def test_a_user_with_a_hash_gets_an_enabled_entry_that_never_expires():
    text = passdb.render_smbpasswd(accounts(UserSpec("alice", 1001, "users", nt_hash=HASH)))
    assert text == f"alice:1001:{'X' * 32}:{HASH}:[UX         ]:LCT-00000001:\n"


def test_a_disabled_user_keeps_the_hash_with_the_disabled_flag():
    text = passdb.render_smbpasswd(
        accounts(UserSpec("carol", 1003, "users", disabled=True, nt_hash=HASH))
    )
    fields = text.rstrip("\n").split(":")
    assert fields[3] == HASH
    assert fields[4] == "[UDX        ]"
    assert len(fields[4]) == 13


def test_users_without_a_hash_have_no_entry():
    text = passdb.render_smbpasswd(
        accounts(UserSpec("dave", 1004, "users"), UserSpec("alice", 1001, "users", nt_hash=HASH))
    )
    assert [line.split(":")[0] for line in text.splitlines()] == ["alice"]


@pytest.mark.parametrize("password", ["", "two\nlines", "carriage\rreturn", "nul\x00"])
def test_passwords_samba_cannot_read_as_one_line_are_refused_before_anything_runs(
    password, monkeypatch
):
    def no_run(*args, **kwargs):
        raise AssertionError("nothing may run")

    monkeypatch.setattr(subprocess, "run", no_run)
    with pytest.raises(PasswordRefused):
        passdb.make_nt_hash("alice", password)


@pytest.mark.smb
def test_pdbedit_makes_the_known_nt_hash_of_a_password():
    assert passdb.make_nt_hash("alice", "password") == HASH


@pytest.mark.smb
def test_the_same_password_gives_the_same_hash_whoever_sets_it_and_another_differs():
    first = passdb.make_nt_hash("alice", "Grüße, 42!")
    assert passdb.make_nt_hash("bob", "Grüße, 42!") == first
    assert passdb.make_nt_hash("alice", "Grüsse, 42!") != first


@pytest.mark.smb
def test_the_password_goes_to_stdin_and_never_on_the_command_line(monkeypatch):
    calls = []
    real_run = subprocess.run

    def spy(argv, *args, **kwargs):
        calls.append((list(argv), kwargs.get("input")))
        return real_run(argv, *args, **kwargs)

    monkeypatch.setattr(subprocess, "run", spy)
    passdb.make_nt_hash("alice", "s3cret-Phrase")
    assert calls
    assert all("s3cret-Phrase" not in " ".join(argv) for argv, _ in calls)
    assert any(stdin and "s3cret-Phrase" in stdin for _, stdin in calls)
