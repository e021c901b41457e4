"""The tgt engine against a real private tgtd, checked with real initiators (libiscsi, qemu-io)."""

from __future__ import annotations

import pytest

from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, TargetSpec
from sharing.iscsi.engine.errors import UnsupportedByEngine
from tests.iscsi.iscsi_clients import (
    INITIATOR,
    discover,
    list_luns,
    qemu_io,
    read_capacity,
    size_only,
    url,
)

pytestmark = pytest.mark.iscsi

IQN = "iqn.2024-01.org.nasui.test:disk"
FOREIGN = "iqn.2024-01.org.nasui.test:stranger"
SECRET = "secretsecret12"
AUTH_FAILURE = "Authentication failure(513)"
NOT_FOUND = "Target not found(515)"


def state(portal, *targets, **extra) -> DesiredState:
    """A desired state on one portal."""
    return DesiredState(targets=targets, portals=(portal,), **extra)


def test_discovery_lists_the_target_and_a_second_apply_changes_nothing(tgt, portal, make_disk):
    desired = state(portal, TargetSpec(IQN, luns=(LunSpec(1, str(make_disk("a.img"))),)))
    first = tgt.apply(desired)
    assert first.changed
    assert {c.kind for c in first.changes} >= {"target", "lun", "acl"}
    result, names = discover(url("127.0.0.1", portal.port))
    assert result.ok, result.output
    assert names == [IQN]
    second = tgt.apply(desired)
    assert not second.changed, second.lines()


def test_initiators_see_the_files_size_and_each_block_size(tgt, portal, make_disk):
    big, small = make_disk("big.img", 48 << 20), make_disk("small.img", 24 << 20)
    luns = (LunSpec(1, str(big), block_size=4096), LunSpec(2, str(small), block_size=512))
    tgt.apply(state(portal, TargetSpec(IQN, luns=luns)))
    one, two = (url("127.0.0.1", portal.port, IQN, n) for n in (1, 2))
    assert size_only(one) == 48 << 20
    assert size_only(two) == 24 << 20
    assert read_capacity(one)[2] == 4096
    assert read_capacity(two)[2] == 512


def test_written_data_lands_in_the_backing_file_and_reads_back(tgt, portal, make_disk):
    disk = make_disk("data.img")
    spec = TargetSpec(IQN, initiators=(INITIATOR,), auth="chap", chap=ChapSpec("alice", SECRET),
                      luns=(LunSpec(1, str(disk), block_size=4096),))  # fmt: skip
    tgt.apply(state(portal, spec))
    cred = {"user": "alice", "secret": SECRET}
    written = qemu_io(portal.port, IQN, 1, ["write -P 0xa5 1M 1M"], **cred)
    assert written.ok, written.output
    assert "wrote 1048576/1048576" in written.output
    with disk.open("rb") as handle:
        handle.seek(1 << 20)
        assert handle.read(1 << 20) == b"\xa5" * (1 << 20)
        assert handle.read(4096) == b"\0" * 4096
    back = qemu_io(portal.port, IQN, 1, ["read -P 0xa5 1M 1M", "read -P 0 0 1M"], **cred)
    assert back.ok, back.output
    assert "verification failed" not in back.output.lower()


def test_wrong_or_missing_chap_and_foreign_initiators_are_refused(tgt, portal, make_disk):
    spec = TargetSpec(IQN, initiators=(INITIATOR,), auth="chap", chap=ChapSpec("alice", SECRET),
                      luns=(LunSpec(1, str(make_disk("a.img"))),))  # fmt: skip
    tgt.apply(state(portal, spec))

    def capacity(initiator: str = INITIATOR, **cred: str):
        return read_capacity(url("127.0.0.1", portal.port, IQN, 1, **cred), initiator)[0]

    assert capacity(user="alice", secret=SECRET).ok
    wrong = capacity(user="alice", secret="wrongsecret99")
    assert not wrong.ok
    assert AUTH_FAILURE in wrong.output
    missing = capacity()
    assert not missing.ok
    assert AUTH_FAILURE in missing.output
    foreign = capacity(FOREIGN, user="alice", secret=SECRET)
    assert not foreign.ok
    assert NOT_FOUND in foreign.output
    assert discover(url("127.0.0.1", portal.port), FOREIGN)[1] == []


def test_mutual_chap_needs_the_right_target_secret(tgt, portal, make_disk):
    # A fresh tgtd per test: libiscsi 1.19 fails mutual CHAP from the 10th login on a TPG.
    chap = ChapSpec("bob", SECRET, "tgtbob", "mutualsecret34")
    tgt.apply(state(portal, TargetSpec(IQN, auth="mutual", chap=chap,
                                       luns=(LunSpec(1, str(make_disk("m.img"))),))))  # fmt: skip
    base = {"user": "bob", "secret": SECRET, "target_user": "tgtbob"}
    good = read_capacity(
        url("127.0.0.1", portal.port, IQN, 1, **base, target_secret="mutualsecret34")
    )
    assert good[0].ok, good[0].output
    bad = read_capacity(
        url("127.0.0.1", portal.port, IQN, 1, **base, target_secret="wrongsecret99")
    )
    assert not bad[0].ok
    assert "Invalid CHAP_R response" in bad[0].output


def test_a_changed_chap_secret_replaces_the_old_one(tgt, portal, make_disk):
    lun = (LunSpec(1, str(make_disk("a.img"))),)
    tgt.apply(state(portal, TargetSpec(IQN, auth="chap", chap=ChapSpec("alice", SECRET), luns=lun)))
    report = tgt.apply(
        state(
            portal, TargetSpec(IQN, auth="chap", chap=ChapSpec("alice", "newsecret1234"), luns=lun)
        )
    )
    assert [str(c) for c in report.of_kind("account")] == ["change account alice (secret set)"]
    lun_url = url("127.0.0.1", portal.port, IQN, 1, user="alice", secret="newsecret1234")
    assert read_capacity(lun_url)[0].ok
    old = read_capacity(url("127.0.0.1", portal.port, IQN, 1, user="alice", secret=SECRET))[0]
    assert AUTH_FAILURE in old.output


def test_discovery_chap_guards_discovery(tgt, portal, make_disk):
    disco = ChapSpec("disco", "discosecret12")
    desired = state(portal, TargetSpec(IQN), discovery_chap=disco)
    tgt.apply(desired)
    anonymous, _names = discover(url("127.0.0.1", portal.port))
    assert AUTH_FAILURE in anonymous.output
    ok, names = discover(url("127.0.0.1", portal.port, user="disco", secret="discosecret12"))
    assert ok.ok
    assert names == [IQN]
    assert not tgt.apply(desired).changed
    dropped = tgt.apply(state(portal, TargetSpec(IQN)))
    assert dropped.lines() == ["remove account disco"]  # deleting it also unbinds it
    assert discover(url("127.0.0.1", portal.port))[1] == [IQN]


def test_networks_admit_by_address_and_a_single_host_works(tgt, portal, make_disk):
    lun = (LunSpec(1, str(make_disk("a.img"))),)
    lun_url = url("127.0.0.1", portal.port, IQN, 1)
    for networks, allowed in ((("10.0.0.0/8",), False), (("127.0.0.1/32",), True),
                              (("127.0.0.0/8",), True)):  # fmt: skip
        tgt.apply(state(portal, TargetSpec(IQN, networks=networks, luns=lun)))
        result = read_capacity(lun_url)[0]
        assert result.ok == allowed, (networks, result.output)
        if not allowed:
            assert NOT_FOUND in result.output


def test_removing_a_lun_makes_it_disappear_for_the_client(tgt, portal, make_disk):
    a, b = str(make_disk("a.img")), str(make_disk("b.img"))
    tgt.apply(state(portal, TargetSpec(IQN, luns=(LunSpec(1, a), LunSpec(2, b)))))
    address = url("127.0.0.1", portal.port)
    assert "Lun:2" in list_luns(address).output
    report = tgt.apply(state(portal, TargetSpec(IQN, luns=(LunSpec(1, a),))))
    assert report.lines() == [f"remove lun 2 on {IQN}"]
    listing = list_luns(address).output
    assert "Lun:1" in listing
    assert "Lun:2" not in listing
    assert size_only(url("127.0.0.1", portal.port, IQN, 2)) == -1


def test_lun_0_is_refused_before_anything_changes(tgt, portal, make_disk):
    bad = state(portal, TargetSpec(IQN, luns=(LunSpec(0, str(make_disk("a.img"))),)))
    with pytest.raises(UnsupportedByEngine, match=r"tgt: .*LUN 0"):
        tgt.apply(bad)
    assert tgt.read_state().targets == ()


def test_a_grown_backing_file_is_seen_after_apply_or_refresh(tgt, portal, make_disk):
    disk = make_disk("grow.img", 32 << 20)
    desired = state(portal, TargetSpec(IQN, luns=(LunSpec(1, str(disk), 4096),)))
    tgt.apply(desired)
    lun_url = url("127.0.0.1", portal.port, IQN, 1)
    with disk.open("r+b") as handle:
        handle.truncate(40 << 20)
    assert size_only(lun_url) == 32 << 20  # tgt does not notice by itself
    assert [c.kind for c in tgt.apply(desired).changes] == ["lun"]
    assert size_only(lun_url) == 40 << 20
    with disk.open("r+b") as handle:
        handle.truncate((40 << 20) + 65536)  # below tgt's MB rounding: the record catches it
    assert tgt.refresh_lun_size(IQN, 1).changed
    assert size_only(lun_url) == (40 << 20) + 65536
    assert read_capacity(lun_url)[2] == 4096
    assert not tgt.apply(desired).changed
