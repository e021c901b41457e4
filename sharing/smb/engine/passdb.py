"""Samba's passdb: an smbpasswd file rendered from the users' NT hashes, and making a hash.

The panel never keeps a password. When one is set, Samba's own `pdbedit` takes it on stdin
in a throw-away passdb and we read back the NT hash it wrote; the live passdb is then a
file rendered from the hashes in the desired state (smbd reads it at every logon).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from sharing.accounts.engine.desired import Accounts, UserSpec, check_name
from sharing.smb.engine.errors import ENGINE, PasswordRefused, SmbCommandFailed
from sharing.smb.engine.tools import find_binary, run_checked
from sharing.smb.engine.wrappers import wrapped_env

NO_LM_HASH = "X" * 32
# smbpasswd's "last change time": fixed, so the file only changes when a hash or flag does.
# Not 0: Samba reads a zero as "must change the password at next logon".
LAST_CHANGE = "LCT-00000001"
SCRATCH_UID = 1000


def account_flags(user: UserSpec) -> str:
    """`[U ...]`: a normal user whose password does not expire (X), disabled (D) if so."""
    flags = "UDX" if user.disabled else "UX"
    return f"[{flags:<11}]"


def smbpasswd_line(user: UserSpec) -> str:
    """name:uid:LM:NT:[flags]:LCT-...: (no LM hash: LANMAN authentication is off)."""
    if user.nt_hash is None:
        raise ValueError(f"user {user.name} has no NT hash")
    hashes = f"{NO_LM_HASH}:{user.nt_hash}"
    return f"{user.name}:{user.uid}:{hashes}:{account_flags(user)}:{LAST_CHANGE}:"


def render_smbpasswd(accounts: Accounts) -> str:
    """One line per user with a hash; a user without one has no entry and cannot log in."""
    return "".join(smbpasswd_line(user) + "\n" for user in accounts.users if user.nt_hash)


def parse_nt_hash(text: str, user: str) -> str | None:
    """The NT hash of `user` in smbpasswd text, or None."""
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 4 and fields[0] == user and len(fields[3]) == 32:
            return fields[3].upper()
    return None


def check_password(password: str) -> None:
    """Samba reads the password as one line of stdin: refuse what cannot be one."""
    if not password:
        raise PasswordRefused(f"{ENGINE}: the password must not be empty")
    if any(ch in password for ch in "\r\n\x00"):
        raise PasswordRefused(f"{ENGINE}: the password must not contain a line break or NUL")


def make_nt_hash(user: str, password: str, *, pdbedit: str | None = None) -> str:
    """The NT hash Samba makes of `password`: pdbedit -a -t in a throw-away private passdb."""
    check_name(user, "user")
    check_password(password)
    binary = pdbedit or find_binary("pdbedit")
    with tempfile.TemporaryDirectory(prefix="nasui-smbpw-") as tmp:
        scratch = Path(tmp)
        conf, env = _scratch(scratch, user)
        argv = [binary, "-s", str(conf), "-a", "-t", "-u", user]
        # The password goes to pdbedit's stdin only (twice: it asks for confirmation).
        run_checked(argv, env=env, stdin=f"{password}\n{password}\n")
        found = parse_nt_hash((scratch / "smbpasswd").read_text(), user)
    if found is None:
        raise SmbCommandFailed(f"{ENGINE}: pdbedit wrote no NT hash for {user}", argv=argv)
    return found


def _scratch(directory: Path, user: str) -> tuple[Path, Mapping[str, str]]:
    """A minimal smb.conf and account files in `directory` where `user` exists."""
    entry = f"{user}:x:{SCRATCH_UID}:{SCRATCH_UID}::/nonexistent:/bin/false"
    (directory / "passwd").write_text(f"root:x:0:0:root:/root:/bin/false\n{entry}\n")
    (directory / "group").write_text(f"root:x:0:\n{user}:x:{SCRATCH_UID}:\n")
    dirs = {
        "private dir": "private",
        "lock directory": "lock",
        "state directory": "state",
        "cache directory": "cache",
        "pid directory": "pid",
        "ncalrpc dir": "ncalrpc",
    }
    lines = ["[global]", f"\tpassdb backend = smbpasswd:{directory / 'smbpasswd'}"]
    for key, name in dirs.items():
        (directory / name).mkdir(mode=0o700)
        lines.append(f"\t{key} = {directory / name}")
    lines.append(f"\tlog file = {directory / 'log'}")
    conf = directory / "smb.conf"
    conf.write_text("\n".join(lines) + "\n")
    # Root needs no pretending; anyone else does, to write a passdb as Samba wants.
    env = wrapped_env(directory / "passwd", directory / "group", fake_root=os.geteuid() != 0)
    return conf, env
