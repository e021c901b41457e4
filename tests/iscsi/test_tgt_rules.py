"""What tgt can express: refusals that name tgt, and the ACL entries it is given."""

from __future__ import annotations

import pytest

from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.errors import UnsupportedByEngine, redact
from sharing.iscsi.engine.tgt.rules import acl_entries, acl_option, network_entries, validate

IQN = "iqn.2005-10.org.freenas.ctl:disk"
CLIENT = "iqn.1991-05.com.microsoft:pc"


def state(*targets: TargetSpec, **extra) -> DesiredState:
    """A desired state of these targets."""
    return DesiredState(targets=targets, **extra)


def test_it_refuses_lun_0_and_names_tgt():
    with pytest.raises(UnsupportedByEngine, match="LUN 0") as info:
        validate(state(TargetSpec(IQN, luns=(LunSpec(0, "/dev/zvol/tank/v"),))))
    assert info.value.engine == "tgt"
    assert str(info.value).startswith("tgt: ")


def test_it_refuses_names_and_networks_together_rather_than_weaken_access():
    spec = TargetSpec(IQN, initiators=(CLIENT,), networks=("192.168.1.0/24",))
    with pytest.raises(UnsupportedByEngine, match="EITHER the name OR the address"):
        validate(state(spec))


def test_an_empty_initiator_group_admits_everyone():
    assert acl_entries(TargetSpec(IQN)) == ("ALL",)


def test_initiator_names_become_name_entries():
    assert acl_entries(TargetSpec(IQN, initiators=(CLIENT,))) == (CLIENT,)
    assert acl_option(CLIENT) == "--initiator-name"
    assert acl_option("10.0.0.0/8") == "--initiator-address"
    assert acl_option("fd00::/8") == "--initiator-address"
    assert acl_option("ALL") == "--initiator-address"


def test_a_single_host_becomes_a_bare_address_because_tgt_never_matches_slash_32():
    assert network_entries("192.168.1.7/32") == ["192.168.1.7"]
    assert network_entries("2001:db8::7/128") == ["2001:db8::7"]


def test_networks_keep_cidr_with_host_bits_cleared():
    spec = TargetSpec(IQN, networks=("10.1.2.3/8", "192.168.1.0/24"))
    assert acl_entries(spec) == ("10.0.0.0/8", "192.168.1.0/24")
    assert network_entries("2001:db8::/32") == ["2001:db8::/32"]


@pytest.mark.parametrize("network", ["0.0.0.0/0", "0.0.0.0/1", "0.0.0.0/8", "0.1.2.3/32"])
def test_ipv4_networks_covering_0_0_0_0_are_refused_as_they_admit_ipv6_clients(network):
    with pytest.raises(UnsupportedByEngine, match="IPv6"):
        network_entries(network)


@pytest.mark.parametrize("network", ["::/0", "::1/128", "::/64", "::ffff:10.0.0.0/104"])
def test_ipv6_networks_with_zero_prefix_are_refused_as_they_admit_ipv4_clients(network):
    with pytest.raises(UnsupportedByEngine, match="IPv4"):
        network_entries(network)


def test_one_user_with_two_secrets_is_refused_because_tgt_accounts_are_global():
    a = TargetSpec(f"{IQN}a", auth="chap", chap=ChapSpec("alice", "secretsecret12"))
    b = TargetSpec(f"{IQN}b", auth="chap", chap=ChapSpec("alice", "othersecret123"))
    with pytest.raises(UnsupportedByEngine, match="one secret per user"):
        validate(state(a, b))


def test_one_user_with_one_secret_may_serve_several_targets():
    chap = ChapSpec("alice", "secretsecret12")
    a = TargetSpec(f"{IQN}a", auth="chap", chap=chap)
    b = TargetSpec(f"{IQN}b", auth="chap", chap=chap)
    validate(state(a, b, discovery_chap=chap))


def test_commas_are_refused_where_tgtadm_would_split_values():
    with pytest.raises(UnsupportedByEngine, match="','"):
        validate(state(TargetSpec(IQN, auth="chap", chap=ChapSpec("alice", "secret,secret1"))))
    with pytest.raises(UnsupportedByEngine, match="','"):
        validate(state(TargetSpec(IQN, luns=(LunSpec(1, "/srv/a,b.img"),))))


def test_a_target_limited_to_some_portals_is_refused():
    one, two = PortalSpec("127.0.0.1", 3260), PortalSpec("127.0.0.2", 3260)
    spec = TargetSpec(IQN, portals=(one,))
    with pytest.raises(UnsupportedByEngine, match="every portal"):
        validate(state(spec, portals=(one, two)))
    validate(state(spec, portals=(one,)))


def test_secrets_are_redacted_from_commands_in_errors():
    argv = ["tgtadm", "--mode", "account", "--user", "u", "--password", "s3cret", "--password=x"]
    assert "s3cret" not in redact(argv)
    assert "--password=x" not in redact(argv)
