"""The "files" accounts engine: private passwd and group files for nss_wrapper (build machines).

A wrapped smbd reads these instead of the host's /etc/passwd and /etc/group, so the
panel's users exist for Samba and for nobody else on the machine.
"""

from __future__ import annotations

from pathlib import Path

from nasui.lib.files import write_if_changed
from sharing.accounts.engine.base import check_reserved
from sharing.accounts.engine.desired import Accounts, UserSpec

SHELL = "/usr/sbin/nologin"
# What smbd itself needs: root (it runs as root, or believes so), and the guest account.
FIXED_PASSWD = (
    f"root:x:0:0:root:/root:{SHELL}",
    f"nobody:x:65534:65534:nobody:/nonexistent:{SHELL}",
)
FIXED_GROUP = ("root:x:0:", "nogroup:x:65534:")


def passwd_line(user: UserSpec, gid: int) -> str:
    """One passwd(5) line: name:x:uid:gid:gecos:home:shell (the specs refuse ':' and newlines)."""
    return f"{user.name}:x:{user.uid}:{gid}:{user.full_name}:{user.home}:{SHELL}"


def render_passwd(accounts: Accounts) -> str:
    """The passwd file: the fixed entries, then each panel user by name."""
    check_reserved(accounts)
    lines = [*FIXED_PASSWD]
    lines += [passwd_line(user, accounts.gid_of(user.group)) for user in accounts.users]
    return "\n".join(lines) + "\n"


def render_group(accounts: Accounts) -> str:
    """The group file: the fixed entries, then each panel group with its extra members."""
    check_reserved(accounts)
    lines = [*FIXED_GROUP]
    lines += [f"{g.name}:x:{g.gid}:{','.join(sorted(g.members))}" for g in accounts.groups]
    return "\n".join(lines) + "\n"


class FilesAccounts:
    """Keeps `passwd` and `group` in `directory` equal to the desired accounts."""

    name = "files"

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)

    @property
    def passwd_path(self) -> Path:
        """The file NSS_WRAPPER_PASSWD points at."""
        return self.directory / "passwd"

    @property
    def group_path(self) -> Path:
        """The file NSS_WRAPPER_GROUP points at."""
        return self.directory / "group"

    def apply(self, accounts: Accounts) -> bool:
        """Write both files (atomically, only when they differ); return whether one changed."""
        passwd, group = render_passwd(accounts), render_group(accounts)
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        # Groups first: a new user's primary group is then known when the user appears.
        changed = write_if_changed(self.group_path, group, mode=0o644)
        return write_if_changed(self.passwd_path, passwd, mode=0o644) or changed
