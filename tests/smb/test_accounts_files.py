"""The "files" accounts engine: passwd and group files that nss_wrapper (and smbd) read."""

from __future__ import annotations

import subprocess

import pytest

from sharing.accounts.engine.desired import AccountError, Accounts, GroupSpec, UserSpec
from sharing.accounts.engine.files import FilesAccounts, render_group, render_passwd
from sharing.smb.engine.wrappers import wrapped_env

ACCOUNTS = Accounts(
    users=(
        UserSpec("bob", 1002, "staff", full_name="Bob Builder"),
        UserSpec("alice", 1001, "users", full_name="Alice, Room 4", home="/tank/home/alice"),
    ),
    groups=(GroupSpec("users", 1000), GroupSpec("staff", 1100, members=("alice", "bob"))),
)


def test_passwd_has_the_fixed_accounts_then_each_user_with_its_primary_gid():
    assert render_passwd(ACCOUNTS).splitlines() == [
        "root:x:0:0:root:/root:/usr/sbin/nologin",
        "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
        "alice:x:1001:1000:Alice, Room 4:/tank/home/alice:/usr/sbin/nologin",
        "bob:x:1002:1100:Bob Builder:/nonexistent:/usr/sbin/nologin",
    ]


def test_group_has_the_fixed_groups_then_each_group_with_its_extra_members():
    assert render_group(ACCOUNTS).splitlines() == [
        "root:x:0:",
        "nogroup:x:65534:",
        "staff:x:1100:alice,bob",
        "users:x:1000:",
    ]


@pytest.mark.parametrize(
    "accounts",
    [
        Accounts(users=(UserSpec("nobody", 1001, "users"),), groups=(GroupSpec("users", 1000),)),
        Accounts(groups=(GroupSpec("nogroup", 1000),)),
        Accounts(groups=(GroupSpec("root", 1000),)),
    ],
)
def test_the_fixed_names_cannot_be_taken(accounts, tmp_path):
    with pytest.raises(AccountError, match="reserved"):
        FilesAccounts(tmp_path).apply(accounts)
    assert not (tmp_path / "passwd").exists()


@pytest.mark.parametrize("char", ["\u202e", "\x7f", "\x85", "\u2028", "\ufeff"])
def test_a_full_name_with_an_invisible_character_never_reaches_passwd(char):
    with pytest.raises(AccountError, match=f"invisible character U\\+{ord(char):04X}"):
        UserSpec("bob", 1002, "staff", full_name=f"Bob{char}Builder")


@pytest.mark.parametrize("name", ["bob\n", "bob\nroot"])
def test_a_name_with_a_line_break_is_refused_whole(name):
    with pytest.raises(AccountError):
        GroupSpec(name, 1000)


def test_apply_writes_both_files_once_and_reports_changes(tmp_path):
    engine = FilesAccounts(tmp_path / "accounts")
    assert engine.apply(ACCOUNTS)
    assert engine.passwd_path.read_text() == render_passwd(ACCOUNTS)
    assert engine.group_path.read_text() == render_group(ACCOUNTS)
    assert engine.passwd_path.stat().st_mode & 0o777 == 0o644
    assert not engine.apply(ACCOUNTS)
    bob = next(user for user in ACCOUNTS.users if user.name == "bob")
    fewer = Accounts(users=(bob,), groups=(GroupSpec("staff", 1100, members=("bob",)),))
    assert engine.apply(fewer)
    assert "alice" not in engine.passwd_path.read_text()
    assert "users" not in engine.group_path.read_text()


@pytest.mark.smb
def test_nss_wrapper_resolves_the_users_and_groups_from_the_files(tmp_path):
    engine = FilesAccounts(tmp_path)
    engine.apply(ACCOUNTS)
    env = wrapped_env(engine.passwd_path, engine.group_path, fake_root=False)

    def getent(*args: str) -> str:
        proc = subprocess.run(
            ["getent", *args], env=env, capture_output=True, text=True, check=False, timeout=10
        )
        return proc.stdout.strip()

    assert getent("passwd", "alice") == (
        "alice:x:1001:1000:Alice, Room 4:/tank/home/alice:/usr/sbin/nologin"
    )
    assert getent("group", "staff") == "staff:x:1100:alice,bob"
    assert getent("passwd", "1002").startswith("bob:x:1002:1100:")
