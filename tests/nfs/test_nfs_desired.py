"""NFS export specs: what they normalise, and what they refuse before anything is written."""

from __future__ import annotations

import pytest

from sharing.nfs.engine.desired import NfsError, NfsExportSpec, NfsState


def test_it_normalises_networks_to_cidr_and_sorts_them() -> None:
    spec = NfsExportSpec("/tank/media", networks=("10.0.0.7/24", "192.168.1.5", "10.0.0.0/24"))
    assert spec.networks == ("10.0.0.0/24", "192.168.1.5/32")


def test_it_normalises_hosts_and_keeps_names_in_lower_case() -> None:
    spec = NfsExportSpec("/tank/media", hosts=("Client1.LAN", "2001:DB8::1", "[::1]"))
    assert spec.hosts == ("2001:db8::1", "::1", "client1.lan")


def test_it_drops_a_trailing_slash_of_the_path() -> None:
    assert NfsExportSpec("/tank/media/", hosts=("h",)).path == "/tank/media"


def test_it_refuses_an_export_without_clients() -> None:
    with pytest.raises(NfsError, match="at least one network or host"):
        NfsExportSpec("/tank/media")


@pytest.mark.parametrize("path", ["tank/media", "/tank/../etc", "/tank/./m", 'a"b', "/t\nx"])
def test_it_refuses_paths_exports_cannot_carry_or_that_are_not_plain(path: str) -> None:
    with pytest.raises(NfsError):
        NfsExportSpec(path, hosts=("h",))


@pytest.mark.parametrize("path", ['/tank/a"b', "/tank/a\\040b", "/tank/a\tb", "/tank/\x7f"])
def test_it_refuses_quotes_backslashes_and_control_characters_in_paths(path: str) -> None:
    with pytest.raises(NfsError, match="cannot be written"):
        NfsExportSpec(path, hosts=("h",))


@pytest.mark.parametrize(
    ("host", "what"),
    [
        ("*", "wildcards"),
        ("*.lan", "wildcards"),
        ("host?", "wildcards"),
        ("@trusted", "netgroups"),
        ("h(rw)", "parentheses"),
        ("a,b", "commas"),
        ('"h"', "quotes"),
        ("a b", "without spaces"),
        ("", "without spaces"),
        ("10.0.0.0/24", "networks"),
        ("-bad-", "neither"),
    ],
)
def test_it_refuses_hosts_that_are_not_one_plain_host(host: str, what: str) -> None:
    with pytest.raises(NfsError, match=what):
        NfsExportSpec("/tank/media", hosts=(host,))


def test_it_refuses_a_network_that_is_not_one() -> None:
    with pytest.raises(NfsError, match="not an IP network"):
        NfsExportSpec("/tank/media", networks=("10.0.0.0/33",))


def test_it_refuses_security_other_than_sys() -> None:
    with pytest.raises(NfsError, match="only sys"):
        NfsExportSpec("/tank/media", hosts=("h",), security="krb5p")


def test_it_needs_both_ids_to_map_root_or_all() -> None:
    with pytest.raises(NfsError, match="group to map to"):
        NfsExportSpec("/tank/media", hosts=("h",), map_mode="root", anon_uid=1000)
    with pytest.raises(NfsError, match="user to map to"):
        NfsExportSpec("/tank/media", hosts=("h",), map_mode="all", anon_gid=1000)


def test_it_refuses_ids_without_a_map_mode_and_names_instead_of_ids() -> None:
    with pytest.raises(NfsError, match="map mode root or all"):
        NfsExportSpec("/tank/media", hosts=("h",), anon_uid=1000, anon_gid=1000)
    with pytest.raises(NfsError, match="numeric id"):
        NfsExportSpec("/tank/media", hosts=("h",), map_mode="all", anon_uid="joe", anon_gid=1)  # type: ignore[arg-type]


def test_it_refuses_ids_out_of_range_and_unknown_modes() -> None:
    with pytest.raises(NfsError, match="outside"):
        NfsExportSpec("/t", hosts=("h",), map_mode="all", anon_uid=-1, anon_gid=1)
    with pytest.raises(NfsError, match="map mode"):
        NfsExportSpec("/t", hosts=("h",), map_mode="some")  # type: ignore[arg-type]


def test_a_state_sorts_exports_by_path() -> None:
    state = NfsState(
        (NfsExportSpec("/tank/b", hosts=("h",)), NfsExportSpec("/tank/a", hosts=("h",)))
    )
    assert [e.path for e in state.exports] == ["/tank/a", "/tank/b"]
    assert state.v3 is False


def test_a_state_refuses_two_exports_of_one_path() -> None:
    one = NfsExportSpec("/tank/media", hosts=("a",))
    two = NfsExportSpec("/tank/media/", networks=("10.0.0.0/8",))
    with pytest.raises(NfsError, match="one export per path: /tank/media"):
        NfsState((one, two))
