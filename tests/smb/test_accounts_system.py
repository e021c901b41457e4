"""The "system" accounts engine planned against copies of /etc files, with a recording runner.

The commands themselves (useradd...) only run on the appliance; here we check which ones
the engine would run, and that it never touches an account it did not make.
"""

from __future__ import annotations

import json

import pytest

from sharing.accounts.engine.desired import AccountError, Accounts, GroupSpec, UserSpec
from sharing.accounts.engine.errors import AccountConflict, AccountsCommandFailed
from sharing.accounts.engine.system import SystemAccounts

PASSWD = """root:x:0:0:root:/root:/bin/bash
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
admin:x:1000:1000:Admin,,,:/home/admin:/bin/bash
"""
GROUP = """root:x:0:
nogroup:x:65534:
admin:x:1000:
sudo:x:27:admin
"""
ACCOUNTS = Accounts(
    users=(
        UserSpec("alice", 1001, "family", full_name="Alice"),
        UserSpec("bob", 1002, "family", full_name="Bob"),
    ),
    groups=(GroupSpec("family", 1100), GroupSpec("photos", 1101, members=("alice",))),
)
NOLOGIN = "/usr/sbin/nologin"


def user_line(name: str, uid: int, gecos: str) -> str:
    """A passwd line as the engine would have made it (group family)."""
    return f"{name}:x:{uid}:1100:{gecos}:/nonexistent:{NOLOGIN}\n"


class Recorder:
    """Stands in for the account tools: records each argv, optionally failing one."""

    def __init__(self, fail_on: str = "") -> None:
        self.calls: list[list[str]] = []
        self.fail_on = fail_on

    def __call__(self, argv):
        self.calls.append(list(argv))
        if argv[0] == self.fail_on:
            raise AccountsCommandFailed(f"{argv[0]} failed", argv=argv, returncode=1)


@pytest.fixture
def etc(tmp_path):
    """Copies of /etc/passwd and /etc/group with a person's own login (admin)."""
    (tmp_path / "passwd").write_text(PASSWD)
    (tmp_path / "group").write_text(GROUP)
    return tmp_path


def engine(etc, runner=None) -> SystemAccounts:
    """The engine on the copies, its record in the same directory."""
    return SystemAccounts(etc / "managed.json", passwd=etc / "passwd", group=etc / "group",
                          runner=runner or Recorder())  # fmt: skip


def test_new_accounts_are_made_groups_first_with_every_field_set(etc):
    steps = engine(etc).plan(ACCOUNTS)
    assert steps == [
        ["groupadd", "--gid", "1100", "family"],
        ["groupadd", "--gid", "1101", "photos"],
        ["useradd", "--no-create-home", "--uid", "1001", "--gid", "1100", "--comment", "Alice",
         "--home-dir", "/nonexistent", "--shell", NOLOGIN, "--groups", "photos", "alice"],
        ["useradd", "--no-create-home", "--uid", "1002", "--gid", "1100", "--comment", "Bob",
         "--home-dir", "/nonexistent", "--shell", NOLOGIN, "--groups", "", "bob"],
    ]  # fmt: skip


def test_accounts_that_already_match_need_no_command(etc):
    (etc / "passwd").write_text(
        PASSWD + user_line("alice", 1001, "Alice") + user_line("bob", 1002, "Bob")
    )
    (etc / "group").write_text(GROUP + "family:x:1100:\nphotos:x:1101:alice\n")
    (etc / "managed.json").write_text(json.dumps({"users": ["alice", "bob"],
                                                  "groups": ["family", "photos"]}))  # fmt: skip
    recorder = Recorder()
    assert not engine(etc, recorder).apply(ACCOUNTS)
    assert recorder.calls == []


def test_a_changed_field_or_membership_is_one_usermod(etc):
    (etc / "passwd").write_text(
        PASSWD + user_line("alice", 1001, "Alice") + user_line("bob", 1002, "Robert")
    )
    (etc / "group").write_text(GROUP + "family:x:1100:\nphotos:x:1101:\n")
    (etc / "managed.json").write_text(json.dumps({"users": ["alice", "bob"],
                                                  "groups": ["family", "photos"]}))  # fmt: skip
    steps = engine(etc).plan(ACCOUNTS)
    assert [(step[0], step[-1]) for step in steps] == [("usermod", "alice"), ("usermod", "bob")]
    assert steps[1][steps[1].index("--comment") + 1] == "Bob"


def test_only_accounts_the_panel_made_are_removed(etc):
    (etc / "passwd").write_text(PASSWD + f"olduser:x:1005:1100::/nonexistent:{NOLOGIN}\n")
    (etc / "group").write_text(GROUP + "oldgroup:x:1105:\n")
    (etc / "managed.json").write_text(json.dumps({"users": ["olduser"], "groups": ["oldgroup"]}))
    steps = engine(etc).plan(Accounts())
    assert steps == [["userdel", "olduser"], ["groupdel", "oldgroup"]]
    assert not any("admin" in step for step in steps)


@pytest.mark.parametrize(
    ("accounts", "message"),
    [
        (Accounts(users=(UserSpec("admin", 1001, "g"),), groups=(GroupSpec("g", 1100),)),
         "user admin already exists"),
        (Accounts(users=(UserSpec("eve", 1000, "g"),), groups=(GroupSpec("g", 1100),)),
         "id 1000 already belongs to system user admin"),
        (Accounts(groups=(GroupSpec("sudo", 1100),)), "group sudo already exists"),
        (Accounts(groups=(GroupSpec("staff", 1000),)), "id 1000 already belongs to system group"),
    ],
)  # fmt: skip
def test_a_system_account_the_panel_did_not_make_is_never_taken_over(etc, accounts, message):
    recorder = Recorder()
    with pytest.raises(AccountConflict, match=message):
        engine(etc, recorder).apply(accounts)
    assert recorder.calls == []


def test_the_names_smbd_needs_are_refused(etc):
    with pytest.raises(AccountError, match="reserved"):
        engine(etc).plan(Accounts(groups=(GroupSpec("nogroup", 1100),)))


def test_the_record_keeps_names_made_before_a_failure_so_they_stay_managed(etc):
    with pytest.raises(AccountsCommandFailed):
        engine(etc, Recorder(fail_on="useradd")).apply(ACCOUNTS)
    record = json.loads((etc / "managed.json").read_text())
    assert record == {"users": ["alice", "bob"], "groups": ["family", "photos"]}
    # The groups it did add are the panel's now: applying again re-plans, no conflict.
    (etc / "group").write_text(GROUP + "family:x:1100:\nphotos:x:1101:\n")
    steps = engine(etc).plan(ACCOUNTS)
    assert [step[0] for step in steps] == ["useradd", "useradd"]
