"""tgt behaviours the engine's refusals rest on, measured with raw tgtadm and real clients.

If a tgt upgrade changes one of these, a rule in sharing/iscsi/tgt/rules.py may be relaxed.
"""

from __future__ import annotations

import pytest

from sharing.iscsi.engine.desired import DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.tgt.parsing import parse_targets
from tests.iscsi.iscsi_clients import INITIATOR, read_capacity, url

pytestmark = pytest.mark.iscsi

IQN = "iqn.2024-01.org.nasui.test:facts"
STRANGER = "iqn.2024-01.org.nasui.test:stranger"


@pytest.fixture
def bare_target(tgt, portal, make_disk):
    """A target with one LUN and no ACL at all; tests bind entries by hand."""
    six = PortalSpec("::1", portal.port)
    spec = TargetSpec(IQN, luns=(LunSpec(1, str(make_disk("f.img"))),))
    tgt.apply(DesiredState(portals=(portal, six), targets=(spec,)))
    tgt.tgtadm.run("--mode", "target", "--op", "unbind", "--tid", "1", "--initiator-address", "ALL")
    return tgt


def bind(engine, option: str, entry: str) -> None:
    """Bind one ACL entry to target 1 by hand."""
    engine.tgtadm.run("--mode", "target", "--op", "bind", "--tid", "1", option, entry)


def admitted(port: int, initiator: str = INITIATOR, host: str = "127.0.0.1") -> bool:
    """Whether this initiator may log in and read the LUN."""
    return read_capacity(url(host, port, IQN, 1), initiator)[0].ok


def test_no_acl_entry_admits_nobody(bare_target, portal):
    assert not admitted(portal.port)


def test_a_name_or_an_address_is_enough_to_log_in(bare_target, portal):
    bind(bare_target, "--initiator-name", INITIATOR)
    bind(bare_target, "--initiator-address", "10.0.0.0/8")
    assert admitted(portal.port)  # from 127.0.0.1, outside 10/8: the name alone let it in
    assert not admitted(portal.port, STRANGER)


def test_a_slash_32_entry_never_matches_but_a_bare_address_does(bare_target, portal):
    bind(bare_target, "--initiator-address", "127.0.0.1/32")
    assert not admitted(portal.port)
    bind(bare_target, "--initiator-address", "127.0.0.1")
    assert admitted(portal.port)


def test_an_ipv4_entry_covering_0_0_0_0_admits_ipv6_clients(bare_target, portal):
    bind(bare_target, "--initiator-address", "0.0.0.0/1")
    assert admitted(portal.port, host="[::1]")


def test_an_invalid_block_size_silently_becomes_512(tgt, portal, make_disk):
    tgt.apply(DesiredState(portals=(portal,), targets=(TargetSpec(IQN),)))
    path = str(make_disk("odd.img"))
    tgt.tgtadm.run("--mode", "logicalunit", "--op", "new", "--tid", "1", "--lun", "1",
                   "--backing-store", path, "--bstype", "rdwr", "--blocksize", "1000")  # fmt: skip
    (target,) = parse_targets(tgt.tgtadm.run("--mode", "target", "--op", "show"))
    lun = target.lun(1)
    assert lun is not None
    assert lun.block_size == 512
