"""smb.conf from the desired state: pure text, one parameter per line, nothing a value can break.

The specs refuse line breaks, backslashes and %-substitutions in free text; `setting` checks
every value once more (engine paths included), so no value can ever add a line of its own.
"""

from __future__ import annotations

from sharing.smb.engine.desired import SmbError, SmbGlobals, SmbShareSpec, SmbState
from sharing.smb.engine.layout import SmbLayout

HEADER = "# Written by nasui from its database; edits here are replaced at the next apply."
# ZFS snapshots the panel names from the time: auto-<UTC time> by periodic tasks (e.g.
# tank/media@auto-2024-05-01_13-00, -2 added when two share a minute) and manual-<UTC time> when
# the user leaves the name blank (manual-2024-05-01_13-00-27). Samba reads the time after either
# prefix and ignores what follows it; a name the user typed has no time, and Windows cannot list
# it (the snapshot form says so).
SNAPSHOT_PREFIXES = ("auto", "manual")
SNAPSHOT_DELIMITER = "-"
SNAPSHOT_TIME_FORMAT = "%Y-%m-%d_%H-%M"
SNAPSHOT_FORMAT = SNAPSHOT_PREFIXES[0] + SNAPSHOT_DELIMITER + SNAPSHOT_TIME_FORMAT
# What full_audit records when a share is audited: sessions, opens and namespace changes.
AUDIT_SUCCESS = "connect disconnect create_file renameat unlinkat mkdirat"
AUDIT_FAILURE = "connect create_file"


def setting(key: str, value: str | int | bool) -> str:
    """One `key = value` line; a value that could end or continue the line is refused."""
    text = _value(value)
    if not text.isprintable() or text.endswith("\\") or text != text.strip():
        raise SmbError(f"smb.conf: unsafe value for {key!r}: {text!r}")
    return f"\t{key} = {text}"


def _value(value: str | int | bool) -> str:
    """smb.conf spelling: yes/no for booleans, digits for numbers."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render(state: SmbState, layout: SmbLayout) -> str:
    """The whole smb.conf: [global], then one section per share in name order."""
    guests = any(share.guest_ok for share in state.shares)
    sections = [global_section(state.globals, layout, guests=guests)]
    sections += [share_section(share) for share in state.shares]
    return HEADER + "\n\n" + "\n\n".join("\n".join(s) for s in sections) + "\n"


def global_section(globals_: SmbGlobals, layout: SmbLayout, *, guests: bool) -> list[str]:
    """[global]: who the server is, where it listens, SMB2 at least, private files."""
    return [
        "[global]",
        *_identity(globals_),
        *_listening(globals_),
        *_authentication(layout, guests=guests),
        *_no_printing(),
        *_private_files(layout),
    ]


def _identity(globals_: SmbGlobals) -> list[str]:
    """A standalone server's names; SMB2 is the floor (SMB1 is never offered)."""
    return [
        setting("server role", "standalone server"),
        setting("netbios name", globals_.netbios_name),
        setting("workgroup", globals_.workgroup),
        setting("server string", globals_.description),
        setting("server min protocol", "SMB2_02"),
    ]


def _listening(globals_: SmbGlobals) -> list[str]:
    """One TCP port, no NetBIOS; bound to the given addresses or interfaces only, if any."""
    lines = [setting("smb ports", globals_.port), setting("disable netbios", True)]
    if globals_.bind:
        lines.append(setting("interfaces", " ".join(globals_.bind)))
        lines.append(setting("bind interfaces only", True))
    return lines


def _authentication(layout: SmbLayout, *, guests: bool) -> list[str]:
    """Users from the rendered smbpasswd passdb; unknown users become guests only if needed."""
    return [
        setting("security", "user"),
        setting("passdb backend", f"smbpasswd:{layout.smbpasswd}"),
        setting("guest account", "nobody"),
        setting("map to guest", "bad user" if guests else "never"),
        setting("usershare max shares", 0),
    ]


def _no_printing() -> list[str]:
    """A file server: no printers, no spooler."""
    return [
        setting("load printers", False),
        setting("printing", "bsd"),
        setting("printcap name", "/dev/null"),
        setting("disable spoolss", True),
    ]


def _private_files(layout: SmbLayout) -> list[str]:
    """Every directory Samba writes to, and its log, under the engine's run directory."""
    lines = [setting(name, str(path)) for name, path in layout.data_dirs().items()]
    lines += [
        setting("logging", "file"),
        setting("log file", str(layout.log)),
        setting("max log size", 1000),
    ]
    return lines


def share_folders(conf: str) -> dict[str, str]:
    """The shares of a rendered smb.conf and their folders (name -> path)."""
    folders, section = {}, ""
    for line in conf.splitlines():
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section and section != "global" and line.startswith("\tpath = "):
            folders[section] = line.removeprefix("\tpath = ")
    return folders


def share_section(share: SmbShareSpec) -> list[str]:
    """One share: its directory, who may use it and how, then its VFS modules' settings."""
    lines = [
        f"[{share.name}]",
        setting("path", share.path),
        setting("comment", share.comment) if share.comment else "",
        setting("read only", share.read_only),
        setting("browseable", share.browseable),
        setting("guest ok", share.guest_ok),
        *_valid_users(share),
        *_vfs(share),
    ]
    return [line for line in lines if line]


def _valid_users(share: SmbShareSpec) -> list[str]:
    """`valid users` from users and @groups; none listed: every user with a password."""
    names = [*sorted(share.users), *(f"@{group}" for group in sorted(share.groups))]
    return [setting("valid users", " ".join(names))] if names else []


def vfs_modules(share: SmbShareSpec) -> list[str]:
    """The VFS stack, top first: audit sees what the client asked; fruit before streams_xattr."""
    modules = ["full_audit"] if share.audit else []
    modules += ["fruit", "streams_xattr"] if share.uses_fruit else []
    modules += ["shadow_copy2"] if share.shadow_copy else []
    return modules


def _vfs(share: SmbShareSpec) -> list[str]:
    """`vfs objects` and each module's parameters."""
    modules = vfs_modules(share)
    if not modules:
        return []
    lines = [setting("vfs objects", " ".join(modules))]
    if share.audit:
        lines += _audit()
    if share.time_machine:
        lines.append(setting("fruit:time machine", True))
        if share.time_machine_limit is not None:
            lines.append(setting("fruit:time machine max size", share.time_machine_limit))
    if share.shadow_copy:
        lines += _shadow_copy()
    return lines


def _shadow_copy() -> list[str]:
    """Windows "Previous versions" from the dataset's ZFS snapshots (names in UTC)."""
    return [
        setting("shadow:snapdir", ".zfs/snapshot"),
        # Look for .zfs upwards from each directory: it sits at the dataset's root.
        setting("shadow:snapdirseverywhere", True),
        setting("shadow:sort", "desc"),
        # The name up to its first delimiter must match this POSIX basic regular expression;
        # the time is read from the delimiter on, so the format starts with it.
        setting("shadow:snapprefix", "^\\(" + "\\|".join(SNAPSHOT_PREFIXES) + "\\)$"),
        setting("shadow:delimiter", SNAPSHOT_DELIMITER),
        setting("shadow:format", SNAPSHOT_DELIMITER + SNAPSHOT_TIME_FORMAT),
        setting("shadow:localtime", False),
    ]


def _audit() -> list[str]:
    """full_audit: who (user, client address, share) opened, renamed, deleted what."""
    return [
        setting("full_audit:prefix", "%u|%I|%S"),
        setting("full_audit:success", AUDIT_SUCCESS),
        setting("full_audit:failure", AUDIT_FAILURE),
        setting("full_audit:facility", "LOCAL5"),
        setting("full_audit:priority", "NOTICE"),
    ]
