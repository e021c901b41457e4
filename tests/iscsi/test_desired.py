"""Engine-neutral specs: iSCSI name rules (RFC 3720/3721/3980) and spec invariants."""

from __future__ import annotations

import pytest

from sharing.iscsi.engine.desired import (
    ChapSpec,
    DesiredState,
    LunSpec,
    PortalSpec,
    TargetSpec,
    chap_secret_problems,
    lowest_free_lun,
    normalize_network,
)
from sharing.iscsi.engine.errors import InvalidSpec
from sharing.iscsi.engine.iqn import (
    is_valid_name,
    join_target_name,
    validate_eui,
    validate_iqn,
    validate_name,
    validate_target_suffix,
)

BASE = "iqn.2005-10.org.freenas.ctl"


@pytest.mark.parametrize(
    "name",
    [
        "iqn.2005-10.org.freenas.ctl:disk0",
        "iqn.1991-05.com.microsoft:desktop-abc.example.com",
        "iqn.1993-08.org.debian:01:7f3a2b9c1d",
        "iqn.2001-04.com.example",
        "iqn.2024-12.a-b.c:x:y.z-1",
    ],
)
def test_it_accepts_valid_iqns(name):
    assert validate_iqn(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "iqn.2005-13.org.example:x",  # month 13
        "iqn.2005-00.org.example:x",  # month 00
        "iqn.05-10.org.example:x",  # two-digit year
        "iqn.2005-10:org.example",  # no naming authority
        "iqn.2005-10.org..example:x",  # empty label
        "iqn.2005-10.-org.example:x",  # label starting with a hyphen
        "iqn.2005-10.org.example:",  # empty identifier
        "iqn.2005-10.org.example:a b",  # space
        "iqn.2005-10.org.example:a_b",  # underscore
        "iqn.2005-10.org.exämple:x",  # non-ASCII
        "iqn.2005-10.org.example:" + "a" * 220,  # over 223 bytes
        "2005-10.org.example:x",
    ],
)
def test_it_refuses_invalid_iqns(name):
    with pytest.raises(InvalidSpec):
        validate_iqn(name)


def test_it_folds_iqn_case_like_stringprep():
    assert validate_iqn("IQN.2005-10.Org.Example:Disk") == "iqn.2005-10.org.example:disk"


def test_it_accepts_eui_names_with_16_hex_digits():
    assert validate_eui("eui.02004567a425678d") == "eui.02004567A425678D"


@pytest.mark.parametrize("name", ["eui.02004567A425678", "eui.02004567A425678DX", "eui.0200456"])
def test_it_refuses_malformed_eui_names(name):
    with pytest.raises(InvalidSpec):
        validate_eui(name)


def test_it_accepts_naa_names_of_16_or_32_hex_digits():
    assert validate_name("naa.52004567BA64678D") == "naa.52004567BA64678D"
    assert is_valid_name("naa." + "6" * 32)
    assert not is_valid_name("naa." + "6" * 20)


def test_it_refuses_names_of_unknown_type():
    assert not is_valid_name("wwn.0x1234")


def test_it_joins_base_name_and_target_name():
    assert join_target_name(BASE, "disk0") == f"{BASE}:disk0"


def test_it_ignores_a_trailing_colon_on_the_base_name():
    assert join_target_name(BASE + ":", "disk0") == f"{BASE}:disk0"


def test_it_keeps_a_target_name_that_is_already_a_full_name():
    assert join_target_name(BASE, "iqn.2020-01.com.other:lun") == "iqn.2020-01.com.other:lun"


@pytest.mark.parametrize("suffix", ["", "disk_0", "disk 0", "a" * 121])
def test_it_refuses_bad_target_names(suffix):
    with pytest.raises(InvalidSpec):
        validate_target_suffix(suffix)


def test_portal_writes_ipv6_endpoints_in_brackets():
    assert PortalSpec("::1", 3260).endpoint == "[::1]:3260"
    assert PortalSpec("[0:0::1]", 13260).ip == "::1"
    assert PortalSpec("127.0.0.1").endpoint == "127.0.0.1:3260"


@pytest.mark.parametrize(("ip", "port"), [("localhost", 3260), ("127.0.0.1", 0), ("::1", 70000)])
def test_portal_refuses_bad_addresses_and_ports(ip, port):
    with pytest.raises(InvalidSpec):
        PortalSpec(ip, port)


def test_networks_are_normalised_to_cidr():
    assert normalize_network("10.1.2.3/8") == "10.0.0.0/8"
    assert normalize_network("192.168.1.0/255.255.255.0") == "192.168.1.0/24"
    assert normalize_network("192.168.1.7") == "192.168.1.7/32"
    with pytest.raises(InvalidSpec):
        normalize_network("10.0.0.0/33")


def test_chap_secrets_are_hidden_from_repr():
    chap = ChapSpec("alice", "secretsecret12", "target", "mutualsecret34")
    assert "secretsecret12" not in repr(chap)
    assert "mutualsecret34" not in repr(chap)


def test_mutual_chap_needs_both_peer_fields_and_a_different_secret():
    with pytest.raises(InvalidSpec):
        ChapSpec("alice", "secretsecret12", peer_user="target")
    with pytest.raises(InvalidSpec):
        ChapSpec("alice", "secretsecret12", "target", "secretsecret12")


def test_chap_user_may_not_contain_spaces():
    with pytest.raises(InvalidSpec):
        ChapSpec("al ice", "secretsecret12")


def test_chap_secret_policy_matches_truenas():
    assert chap_secret_problems("secretsecret12") == []
    assert chap_secret_problems("short")
    assert chap_secret_problems(" secretsecret1")
    assert chap_secret_problems("secret#secret1")


@pytest.mark.parametrize(
    "secret",
    ["secret\tsecret", "secret\nsecret", "inner space1", "secretsecret\u202e", "sécretsecret1"],
)
def test_chap_secrets_are_printable_ascii_without_spaces(secret):
    [problem] = chap_secret_problems(secret)
    assert problem.startswith("must be printable ASCII without spaces")


def test_chap_secret_length_is_counted_in_bytes():
    assert chap_secret_problems("x" * 16) == []
    assert "must be 12 to 16 bytes long" in chap_secret_problems("x" * 15 + "é")


@pytest.mark.parametrize("size", [256, 8192, 520])
def test_lun_refuses_block_sizes_tgt_would_silently_turn_into_512(size):
    with pytest.raises(InvalidSpec):
        LunSpec(1, "/dev/zvol/tank/vol", block_size=size)


def test_lun_needs_an_absolute_path():
    with pytest.raises(InvalidSpec):
        LunSpec(1, "tank/vol")


def test_target_auth_mode_must_match_the_credentials():
    chap = ChapSpec("alice", "secretsecret12")
    with pytest.raises(InvalidSpec):
        TargetSpec(f"{BASE}:a", auth="chap")
    with pytest.raises(InvalidSpec):
        TargetSpec(f"{BASE}:a", auth="none", chap=chap)
    with pytest.raises(InvalidSpec):
        TargetSpec(f"{BASE}:a", auth="mutual", chap=chap)
    with pytest.raises(InvalidSpec):
        TargetSpec(f"{BASE}:a", auth="kerberos")  # type: ignore[arg-type]


def test_target_normalises_names_and_networks_and_sorts_luns():
    spec = TargetSpec(
        f"{BASE}:A",
        initiators=("IQN.1991-05.com.microsoft:PC", "iqn.1991-05.com.microsoft:pc"),
        luns=(LunSpec(2, "/b"), LunSpec(1, "/a")),
    )
    assert spec.iqn == f"{BASE}:a"
    assert spec.initiators == ("iqn.1991-05.com.microsoft:pc",)
    assert [lun.lun for lun in spec.luns] == [1, 2]


def test_target_refuses_duplicate_lun_ids():
    with pytest.raises(InvalidSpec):
        TargetSpec(f"{BASE}:a", luns=(LunSpec(1, "/a"), LunSpec(1, "/b")))


def test_state_refuses_one_backing_store_behind_two_luns():
    with pytest.raises(InvalidSpec, match="exported twice"):
        DesiredState(
            targets=(
                TargetSpec(f"{BASE}:a", luns=(LunSpec(1, "/dev/zvol/tank/v"),)),
                TargetSpec(f"{BASE}:b", luns=(LunSpec(1, "/dev/zvol/tank/v"),)),
            )
        )


def test_state_refuses_duplicate_targets_and_unknown_portals():
    with pytest.raises(InvalidSpec):
        DesiredState(targets=(TargetSpec(f"{BASE}:a"), TargetSpec(f"{BASE}:A")))
    with pytest.raises(InvalidSpec, match="not configured"):
        DesiredState(targets=(TargetSpec(f"{BASE}:a", portals=(PortalSpec("10.0.0.1"),)),))


def test_lowest_free_lun_starts_where_the_engine_says():
    assert lowest_free_lun([0, 1, 3]) == 2
    assert lowest_free_lun([], first=1) == 1
    assert lowest_free_lun([1, 2], first=1) == 3
