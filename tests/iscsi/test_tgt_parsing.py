"""Parsers on output captured from a real tgtd 1.0.85 (tests/iscsi/capture_fixtures.py)."""

from __future__ import annotations

import pytest

from sharing.iscsi.engine.tgt.parsing import (
    parse_accounts,
    parse_portals,
    parse_system_state,
    parse_targets,
)
from sharing.iscsi.engine.tgt.state import tgt_size_mb


def test_it_parses_targets_with_luns_accounts_and_acls(fixture_text):
    t1, t3 = parse_targets(fixture_text("target_show.txt"))
    assert (t1.tid, t1.name, t1.state) == (1, "iqn.2024-01.org.nasui:disk1", "ready")
    assert [lu.lun for lu in t1.luns] == [0, 1, 2]
    assert t1.incoming == ("alice",)
    assert t1.outgoing == "tgtout"
    assert t1.acl == ("10.0.0.0/8", "iqn.2024-01.org.client:one")
    assert (t3.tid, t3.acl, t3.incoming, t3.outgoing) == (3, ("ALL",), (), None)


def test_it_reads_lun_details(fixture_text):
    t1, _t3 = parse_targets(fixture_text("target_show.txt"))
    controller, disk, readonly = t1.luns
    assert (controller.type, controller.path, controller.bstype) == ("controller", "", "null")
    assert (disk.type, disk.block_size, disk.size_mb, disk.bstype) == ("disk", 4096, 67, "rdwr")
    assert disk.path.endswith("/a.img")
    assert (disk.serial, disk.readonly, disk.online) == ("beaf11", False, True)
    assert disk.scsi_id == "IET     00010001"
    assert (readonly.readonly, readonly.serial, readonly.block_size) == (True, "SERIAL0002", 512)
    assert (controller.thin, disk.thin, readonly.thin) == (False, False, True)


def test_it_keeps_spaces_and_colons_in_backing_paths(fixture_text):
    _t1, t3 = parse_targets(fixture_text("target_show.txt"))
    lu = t3.lun(7)
    assert lu is not None
    assert lu.path.endswith("/c odd:name.img")
    assert lu.block_size == 1024


def test_it_parses_connected_sessions_over_ipv4_and_ipv6(fixture_text):
    t1, t3 = parse_targets(fixture_text("target_show_sessions.txt"))
    (nexus1,) = t1.nexuses
    (nexus3,) = t3.nexuses
    assert nexus1.initiator == "iqn.2024-01.org.client:one"
    assert nexus1.alias == ""
    assert [(c.cid, c.address) for c in nexus1.connections] == [(0, "127.0.0.1")]
    assert nexus3.initiator == "iqn.2024-01.org.client:two"
    assert [c.address for c in nexus3.connections] == ["::1"]


def test_targets_without_sessions_have_no_nexus(fixture_text):
    assert all(not t.nexuses for t in parse_targets(fixture_text("target_show.txt")))


def test_empty_output_means_no_targets_and_no_accounts(fixture_text):
    assert parse_targets(fixture_text("target_show_empty.txt")) == []
    assert parse_accounts(fixture_text("account_show_empty.txt")) == []


def test_it_parses_the_global_account_list(fixture_text):
    assert sorted(parse_accounts(fixture_text("account_show.txt"))) == ["alice", "disco", "tgtout"]


def test_it_parses_ipv4_and_bracketed_ipv6_portals(fixture_text):
    portals = parse_portals(fixture_text("portal_show.txt"))
    assert {ip for ip, _port in portals} == {"127.0.0.1", "::1"}
    assert len({port for _ip, port in portals}) == 1


def test_it_reads_the_system_state(fixture_text):
    assert parse_system_state(fixture_text("system_show.txt")) == "ready"
    assert parse_system_state("") == ""


@pytest.mark.parametrize(
    ("size", "shown"),
    [(0, 0), (16 << 20, 17), (32 << 20, 34), (48 << 20, 50), (64 << 20, 67)],
)
def test_size_figure_matches_what_tgt_prints(size, shown):
    # 64 MiB and 16 MiB were captured (fixtures); 48 MiB was read off a live tgtd.
    assert tgt_size_mb(size) == shown


def test_size_figures_in_fixture_match_the_formula(fixture_text):
    t1, t3 = parse_targets(fixture_text("target_show.txt"))
    assert t1.luns[1].size_mb == tgt_size_mb(64 << 20)
    assert t1.luns[2].size_mb == tgt_size_mb(32 << 20)
    assert t3.luns[1].size_mb == tgt_size_mb(16 << 20)
