"""The "system" accounts engine: real /etc/passwd and /etc/group entries (the appliance).

It only ever changes accounts it manages: their names are kept in a record on the data
partition, so after an upgrade that brings a fresh /etc/passwd they are made again, and a
system account it did not make (root, sshd, a person's login) is never changed or removed;
a desired account that collides with one is refused. Homes are never created or deleted.
Logins other than SMB are closed (nologin shell, no Unix password); the disabled flag is
enforced by Samba's passdb.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from nasui.lib.files import write_if_changed
from sharing.accounts.engine.base import check_reserved
from sharing.accounts.engine.desired import Accounts, UserSpec
from sharing.accounts.engine.errors import AccountConflict, AccountsCommandFailed

SHELL = "/usr/sbin/nologin"
ETC_PASSWD = Path("/etc/passwd")
ETC_GROUP = Path("/etc/group")
TIMEOUT = 30.0
Runner = Callable[[Sequence[str]], None]


@dataclass(frozen=True)
class Entry:
    """One passwd or group line as the system has it."""

    name: str
    ident: int
    fields: tuple[str, ...]


def parse_db(text: str) -> dict[str, Entry]:
    """passwd(5) or group(5) text -> entries by name (the id is the third field)."""
    entries = {}
    for line in text.splitlines():
        fields = tuple(line.split(":"))
        if len(fields) >= 4 and fields[2].isdigit():
            entries[fields[0]] = Entry(fields[0], int(fields[2]), fields)
    return entries


def run_command(argv: Sequence[str]) -> None:
    """Run one account tool (no shell, C locale); failure is AccountsCommandFailed."""
    try:
        proc = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
            env={"LC_ALL": "C", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AccountsCommandFailed(f"{argv[0]} could not run: {exc}", argv=argv) from exc
    if proc.returncode != 0:
        raise AccountsCommandFailed(
            f"{argv[0]} failed", argv=argv, returncode=proc.returncode, stderr=proc.stderr
        )


class SystemAccounts:
    """Keeps the panel's users and groups in /etc/passwd and /etc/group as desired."""

    name = "system"

    def __init__(
        self,
        record: Path | str,
        *,
        passwd: Path | str = ETC_PASSWD,
        group: Path | str = ETC_GROUP,
        runner: Runner = run_command,
    ) -> None:
        self.record = Path(record)
        self.passwd = Path(passwd)
        self.group = Path(group)
        self.runner = runner

    def managed(self) -> tuple[set[str], set[str]]:
        """The user and group names the panel made (from the record; empty if none)."""
        try:
            data = json.loads(self.record.read_text())
            return set(data["users"]), set(data["groups"])
        except (OSError, ValueError, KeyError, TypeError):
            return set(), set()

    def plan(self, accounts: Accounts) -> list[list[str]]:
        """The commands that make the system match: groups, users, then removals."""
        users, groups = parse_db(_read(self.passwd)), parse_db(_read(self.group))
        mine_users, mine_groups = self.managed()
        self._refuse_conflicts(accounts, users, groups)
        steps = [*self._group_steps(accounts, groups)]
        steps += self._user_steps(accounts, users, groups)
        desired_users = {u.name for u in accounts.users}
        desired_groups = {g.name for g in accounts.groups}
        steps += [["userdel", name] for name in sorted(mine_users - desired_users) if name in users]
        stale = sorted(mine_groups - desired_groups)
        steps += [["groupdel", name] for name in stale if name in groups]
        return steps

    def apply(self, accounts: Accounts) -> bool:
        """Run the plan; the record names every account we may have made, even after a failure."""
        steps = self.plan(accounts)
        mine_users, mine_groups = self.managed()
        users = {u.name for u in accounts.users}
        groups = {g.name for g in accounts.groups}
        self._save(mine_users | users, mine_groups | groups)
        for argv in steps:
            self.runner(argv)
        self._save(users, groups)
        return bool(steps)

    def _save(self, users: set[str], groups: set[str]) -> None:
        """Write the record of managed names (atomically, only when it changes)."""
        self.record.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"users": sorted(users), "groups": sorted(groups)}, indent=1)
        write_if_changed(self.record, text + "\n", mode=0o600)

    def _refuse_conflicts(
        self, accounts: Accounts, users: dict[str, Entry], groups: dict[str, Entry]
    ) -> None:
        """A name or id held by an account we did not make is never taken over."""
        check_reserved(accounts)
        mine_users, mine_groups = self.managed()
        _refuse_taken("user", [(u.name, u.uid) for u in accounts.users], users, mine_users)
        _refuse_taken("group", [(g.name, g.gid) for g in accounts.groups], groups, mine_groups)

    @staticmethod
    def _group_steps(accounts: Accounts, groups: dict[str, Entry]) -> list[list[str]]:
        """groupadd what is missing, groupmod a changed gid."""
        steps = []
        for group in accounts.groups:
            current = groups.get(group.name)
            if current is None:
                steps.append(["groupadd", "--gid", str(group.gid), group.name])
            elif current.ident != group.gid:
                steps.append(["groupmod", "--gid", str(group.gid), group.name])
        return steps

    @staticmethod
    def _user_steps(
        accounts: Accounts, users: dict[str, Entry], groups: dict[str, Entry]
    ) -> list[list[str]]:
        """useradd what is missing, usermod what differs (ids, names, home, shell, groups)."""
        steps = []
        for user in accounts.users:
            gid = accounts.gid_of(user.group)
            extra = sorted(g.name for g in accounts.groups if user.name in g.members)
            options = _user_options(user, gid, extra)
            current = users.get(user.name)
            if current is None:
                steps.append(["useradd", "--no-create-home", *options, user.name])
            elif _differs(current, user, gid) or extra != _member_of(user.name, groups):
                steps.append(["usermod", *options, user.name])
        return steps


def _refuse_taken(
    kind: str, wanted: list[tuple[str, int]], system: dict[str, Entry], mine: set[str]
) -> None:
    """AccountConflict when a wanted name or id is a system account the panel did not make."""
    foreign = {entry.ident: entry.name for entry in system.values() if entry.name not in mine}
    for name, ident in wanted:
        if name in system and name not in mine:
            raise AccountConflict(f"{kind} {name} already exists on the system")
        if ident in foreign:
            raise AccountConflict(
                f"{kind} id {ident} already belongs to system {kind} {foreign[ident]}"
            )


def _user_options(user: UserSpec, gid: int, extra: list[str]) -> list[str]:
    """The useradd/usermod options that set every field the panel owns."""
    return [
        "--uid",
        str(user.uid),
        "--gid",
        str(gid),
        "--comment",
        user.full_name,
        "--home-dir",
        user.home,
        "--shell",
        SHELL,
        "--groups",
        ",".join(extra),
    ]


def _differs(current: Entry, user: UserSpec, gid: int) -> bool:
    """Whether the system's passwd line differs from the desired one."""
    wanted = (str(user.uid), str(gid), user.full_name, user.home, SHELL)
    return current.fields[2:7] != wanted


def _member_of(name: str, groups: dict[str, Entry]) -> list[str]:
    """The system groups that list `name` as an extra member."""
    return sorted(g.name for g in groups.values() if name in g.fields[3].split(","))


def _read(path: Path) -> str:
    """A file's text, or '' when it does not exist."""
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""
