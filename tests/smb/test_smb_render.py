"""smb.conf rendering: the lines each setting gives, and values that could break out refused."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sharing.accounts.engine.desired import Accounts, GroupSpec, UserSpec
from sharing.smb.engine.desired import SmbError, SmbGlobals, SmbShareSpec, SmbState
from sharing.smb.engine.layout import SmbLayout
from sharing.smb.engine.render import SNAPSHOT_FORMAT, render, setting
from sharing.smb.engine.server import SmbEngine

RUN = Path("/srv/nasui/smb")
ACCOUNTS = Accounts(
    users=(UserSpec("alice", 1001, "users"), UserSpec("bob", 1002, "users")),
    groups=(GroupSpec("users", 1000), GroupSpec("staff", 1100)),
)
_LINE = re.compile(r"^(#.*|\[[^\]]+\]|\t[a-z0-9 _:]+ = [^\n]*|)$")


def conf(*shares: SmbShareSpec, **globals_: Any) -> str:
    """smb.conf for these shares and global settings, under RUN."""
    state = SmbState(globals=SmbGlobals(**globals_), shares=shares, accounts=ACCOUNTS)
    return render(state, SmbLayout(RUN))


def section(text: str, name: str) -> list[str]:
    """The parameter lines of one section, without the tab."""
    lines = text.splitlines()
    start = lines.index(f"[{name}]") + 1
    body = []
    for line in lines[start:]:
        if not line.startswith("\t"):
            break
        body.append(line[1:])
    return body


def share(**fields: Any) -> SmbShareSpec:
    """A share of /tank/data named data, with extra fields."""
    return SmbShareSpec(**{"name": "data", "path": "/tank/data", **fields})


def test_the_server_is_standalone_smb2_at_least_and_never_smb1():
    glob = section(conf(), "global")
    assert "server role = standalone server" in glob
    assert "server min protocol = SMB2_02" in glob
    assert "disable netbios = yes" in glob
    assert not any("NT1" in line or "SMB1" in line or "CORE" in line for line in glob)


def test_names_description_and_port_come_from_the_globals():
    glob = section(
        conf(netbios_name="FILER", workgroup="HOME", description="Attic", port=4450), "global"
    )
    assert {"netbios name = FILER", "workgroup = HOME", "server string = Attic"} <= set(glob)
    assert "smb ports = 4450" in glob


def test_no_bind_means_every_interface_and_a_bind_list_binds_only_those():
    assert not any(line.startswith("interfaces") for line in section(conf(), "global"))
    glob = section(conf(bind=("192.168.1.10", "eth0")), "global")
    assert "interfaces = 192.168.1.10 eth0" in glob
    assert "bind interfaces only = yes" in glob


def test_a_wrapped_engine_with_no_bind_listens_on_loopback_only_and_a_system_one_everywhere(
    tmp_path,
):
    state = SmbState(globals=SmbGlobals(port=4450))
    wrapped = section(SmbEngine(tmp_path / "w").render(state), "global")
    assert "interfaces = 127.0.0.1" in wrapped
    system = section(SmbEngine(tmp_path / "s", mode="system").render(state), "global")
    assert not any(line.startswith("interfaces") for line in system)


def test_every_file_samba_writes_is_under_the_run_directory():
    glob = section(conf(), "global")
    paths = {
        key: value
        for key, _, value in (line.partition(" = ") for line in glob)
        if key.endswith(("dir", "directory", "log file")) or key == "passdb backend"
    }
    assert set(paths) >= {
        "private dir",
        "lock directory",
        "state directory",
        "cache directory",
        "pid directory",
        "ncalrpc dir",
        "log file",
        "passdb backend",
    }
    assert paths["passdb backend"] == f"smbpasswd:{RUN}/private/smbpasswd"
    for key, value in paths.items():
        assert value.removeprefix("smbpasswd:").startswith(f"{RUN}/"), key


def test_guests_are_mapped_only_when_a_share_lets_them_in():
    assert "map to guest = never" in section(conf(share()), "global")
    text = conf(share(), share(name="public", path="/tank/public", guest_ok=True))
    assert "map to guest = bad user" in section(text, "global")
    assert "guest ok = yes" in section(text, "public")
    assert "guest ok = no" in section(text, "data")


def test_a_share_says_its_path_comment_and_access():
    body = section(conf(share(comment="Family photos", read_only=True, browseable=False)), "data")
    assert body[:5] == [
        "path = /tank/data",
        "comment = Family photos",
        "read only = yes",
        "browseable = no",
        "guest ok = no",
    ]


def test_valid_users_lists_users_then_groups_and_is_absent_when_both_are_empty():
    assert not any(line.startswith("valid users") for line in section(conf(share()), "data"))
    body = section(conf(share(users=("bob", "alice"), groups=("staff",))), "data")
    assert "valid users = alice bob @staff" in body


def test_no_vfs_module_is_loaded_unless_asked():
    assert not any("vfs objects" in line for line in section(conf(share()), "data"))


def test_previous_versions_read_zfs_snapshots_named_by_the_panel():
    body = section(conf(share(shadow_copy=True)), "data")
    assert "vfs objects = shadow_copy2" in body
    assert {
        "shadow:snapdir = .zfs/snapshot",
        "shadow:sort = desc",
        "shadow:snapprefix = ^\\(auto\\|manual\\)$",  # periodic and blank-named manual ones
        "shadow:delimiter = -",
        "shadow:format = -%Y-%m-%d_%H-%M",  # read from the delimiter on
        "shadow:localtime = no",
    } <= set(body)
    assert SNAPSHOT_FORMAT == "auto-%Y-%m-%d_%H-%M"


def test_time_machine_loads_fruit_with_its_size_limit():
    body = section(conf(share(time_machine=True, time_machine_limit=500 << 30)), "data")
    assert "vfs objects = fruit streams_xattr" in body
    assert "fruit:time machine = yes" in body
    assert f"fruit:time machine max size = {500 << 30}" in body
    plain_mac = section(conf(share(fruit=True)), "data")
    assert "vfs objects = fruit streams_xattr" in plain_mac
    assert not any("time machine" in line for line in plain_mac)


def test_audit_is_off_by_default_and_records_opens_when_on():
    assert not any("full_audit" in line for line in section(conf(share()), "data"))
    body = section(conf(share(audit=True, fruit=True, shadow_copy=True)), "data")
    assert "vfs objects = full_audit fruit streams_xattr shadow_copy2" in body
    success = next(line for line in body if line.startswith("full_audit:success"))
    assert "create_file" in success.split()


def test_every_line_is_a_header_a_comment_a_blank_or_one_parameter():
    everything = share(
        comment="50% off",
        users=("alice",),
        groups=("staff",),
        guest_ok=True,
        shadow_copy=True,
        time_machine=True,
        audit=True,
    )
    text = conf(everything, share(name="Second share", path="/tank/b c"), bind=("::1",))
    bad = [line for line in text.splitlines() if not _LINE.match(line)]
    assert bad == []


def test_a_percent_not_followed_by_a_letter_is_kept_verbatim():
    assert "comment = 50% off" in section(conf(share(comment="50% off")), "data")


@pytest.mark.parametrize(
    "fields",
    [
        {"comment": "x\n[evil]\npath = /etc"},
        {"comment": "ends with a continuation \\"},
        {"comment": "bell\x07"},
        {"comment": "see %U"},
        {"comment": "env %$(HOME)"},
        {"path": "/tank/%U"},
        {"path": "/tank/data "},
        {"path": "/tank/da\nta"},
        {"name": "share%S"},
        {"name": "x]\n[global"},
    ],
)
def test_share_values_that_could_inject_or_expand_are_refused(fields):
    with pytest.raises(SmbError):
        share(**fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"description": "nas\n\tsmb ports = 139"},
        {"description": "host %h"},
        {"bind": ("eth0 lo",)},
        {"bind": ("10.0.0.1;evil",)},
        {"bind": ("fe80::1%eth0",)},
        {"netbios_name": "A" * 16},
    ],
)
def test_global_values_that_could_inject_or_expand_are_refused(fields):
    with pytest.raises(SmbError):
        SmbGlobals(**fields)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "Me\u202edia"}, "name"),
        ({"name": "Me\x7fdia"}, "name"),
        ({"name": "Me\x85dia"}, "name"),
        ({"name": "Me\u2028dia"}, "name"),
        ({"name": "\ufeffMedia"}, "name"),
        ({"name": "global"}, "name"),
        ({"path": "tank/data"}, "path"),
        ({"path": "/tank/\u202edata"}, "path"),
        ({"comment": "films\u200b"}, "comment"),
        ({"time_machine_limit": 1}, "time_machine_limit"),
    ],
)
def test_a_refused_share_says_which_setting_is_at_fault(fields, field):
    with pytest.raises(SmbError) as exc:
        share(**fields)
    assert exc.value.field == field


def test_an_invisible_character_is_named_by_its_code_point():
    with pytest.raises(SmbError, match=r"may not contain the invisible character U\+202E"):
        share(name="Me\u202edia")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"netbios_name": "workgroup!"}, "netbios_name"),
        ({"netbios_name": "NAS\n"}, "netbios_name"),
        ({"workgroup": "HOME\n"}, "workgroup"),
        ({"description": "my\u202enas"}, "description"),
        ({"bind": ("eth0\n",)}, "bind"),
    ],
)
def test_a_refused_global_says_which_setting_is_at_fault(fields, field):
    with pytest.raises(SmbError) as exc:
        SmbGlobals(**fields)
    assert exc.value.field == field


@pytest.mark.parametrize("value", ["a\nb", "trailing\\", "tab\tinside", " padded", "nul\x00"])
def test_setting_refuses_any_value_that_is_not_one_plain_line(value):
    with pytest.raises(SmbError):
        setting("comment", value)


def test_a_run_directory_with_a_line_break_cannot_reach_smb_conf():
    with pytest.raises(SmbError):
        render(SmbState(), SmbLayout(Path("/srv/x\n[evil]")))


def test_previous_versions_match_the_names_periodic_snapshot_tasks_give() -> None:
    from storage.zfs import naming

    assert naming.DEFAULT_SCHEMA == SNAPSHOT_FORMAT
