"""The pure reconciliation: which tgtadm steps, in which order, for a given running state."""

from __future__ import annotations

from sharing.iscsi.engine.desired import ChapSpec, DesiredState, LunSpec, PortalSpec, TargetSpec
from sharing.iscsi.engine.tgt.plan import plan
from sharing.iscsi.engine.tgt.records import Records, lun_key
from sharing.iscsi.engine.tgt.state import RunningState, TgtLun, TgtTarget, tgt_size_mb
from sharing.iscsi.engine.tgt.steps import Step

IQN = "iqn.2024-01.org.nasui:disk"
CLIENT = "iqn.1991-05.com.microsoft:pc"
PORTAL = PortalSpec("127.0.0.1", 3260)
SIZE = 64 << 20
CHAP = ChapSpec("alice", "secretsecret12")


def desired(*targets: TargetSpec, **extra) -> DesiredState:
    """A desired state on the test portal."""
    return DesiredState(targets=targets, portals=(PORTAL,), **extra)


def running_disk(*, acl=("ALL",), incoming=(), luns=None, tid=1, thin=True) -> TgtTarget:
    """The running target as tgt shows it with one thin 64 MiB LUN (as the engine makes it)."""
    luns = luns or (
        TgtLun(0, "controller", bstype="null", serial="beaf10"),
        TgtLun(1, "disk", serial="beaf11", size_mb=tgt_size_mb(SIZE), block_size=512,
               thin=thin, bstype="rdwr", path="/d/a.img"),
    )  # fmt: skip
    return TgtTarget(tid=tid, name=IQN, luns=luns, acl=acl, incoming=incoming)


def running(*targets: TgtTarget, accounts=()) -> RunningState:
    """What tgtd shows: these targets and accounts, the test portal."""
    return RunningState(targets=targets, accounts=accounts, portals=(("127.0.0.1", 3260),))


def ops(steps: list[Step]) -> list[str]:
    """Each step as 'mode op detail' for compact assertions (probes excluded)."""
    out = []
    for step in steps:
        if step.tolerate is not None:
            continue
        flags = [a for a in step.args if a in ("--outgoing", "--force")]
        rest = [a for a in step.args if a not in flags]
        args = dict(zip(rest[::2], rest[1::2], strict=True))
        keys = ("--targetname", "--initiator-name", "--initiator-address", "--user", "--param",
                "--params", "--lun", "--tid")  # fmt: skip
        detail = next((args[k] for k in keys if k in args), "")
        extra = flags
        out.append(" ".join([args["--mode"], args["--op"], detail, *extra]))
    return out


def test_a_new_target_gets_credentials_and_luns_before_its_acl_opens_it():
    spec = TargetSpec(IQN, initiators=(CLIENT,), auth="chap", chap=CHAP,
                      luns=(LunSpec(1, "/d/a.img", 4096, readonly=True, serial="S1"),))  # fmt: skip
    steps = plan(desired(spec), running(), Records(), {"/d/a.img": SIZE})
    assert ops(steps) == [
        "account new alice",
        "target new iqn.2024-01.org.nasui:disk",
        "account bind alice",
        "logicalunit new 1",
        "logicalunit update thin_provisioning=1,readonly=1,scsi_sn=S1",
        f"target bind {CLIENT}",
    ]
    new_lun = next(s for s in steps if "logicalunit" in s.args and "new" in s.args)
    assert new_lun.args[new_lun.args.index("--bstype") :][:2] == ("--bstype", "rdwr")
    assert "4096" in new_lun.args


def test_a_matching_state_needs_only_discovery_probes():
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img"),))
    steps = plan(desired(spec), running(running_disk()), Records(), {"/d/a.img": SIZE})
    assert ops(steps) == []


def test_access_is_tightened_before_it_is_widened():
    spec = TargetSpec(IQN, initiators=(CLIENT,), luns=(LunSpec(1, "/d/a.img"),))
    steps = plan(desired(spec), running(running_disk()), Records(), {"/d/a.img": SIZE})
    assert ops(steps) == ["target unbind ALL", f"target bind {CLIENT}"]


def test_chap_is_bound_before_a_stale_account_is_removed():
    spec = TargetSpec(IQN, auth="chap", chap=CHAP, luns=(LunSpec(1, "/d/a.img"),))
    records = Records()
    records.accounts["alice"] = records.fingerprint("alice", "secretsecret12")
    now = running(running_disk(incoming=("bob",)), accounts=("alice", "bob"))
    assert ops(plan(desired(spec), now, records, {"/d/a.img": SIZE})) == [
        "account bind alice",
        "account unbind bob",
        "account delete bob",
    ]


def test_an_unknown_or_changed_secret_recreates_and_rebinds_the_account():
    spec = TargetSpec(IQN, auth="chap", chap=CHAP, luns=(LunSpec(1, "/d/a.img"),))
    now = running(running_disk(incoming=("alice",)), accounts=("alice",))
    steps = plan(desired(spec), now, Records(), {"/d/a.img": SIZE})
    assert ops(steps) == ["account delete alice", "account new alice", "account bind alice"]
    assert "secretsecret12" in steps[1].args  # tgtadm needs it; errors redact it


def test_a_grown_backing_file_re_adds_the_lun():
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img"),))
    steps = plan(desired(spec), running(running_disk()), Records(), {"/d/a.img": 2 * SIZE})
    assert ops(steps) == [
        "logicalunit delete 1",
        "logicalunit new 1",
        "logicalunit update thin_provisioning=1",
    ]
    assert steps[1].change is not None
    assert "size now" in steps[1].change.detail


def test_growth_below_tgts_rounding_is_caught_by_the_record():
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img"),))
    records = Records(sizes={lun_key(IQN, 1, "/d/a.img"): SIZE})
    steps = plan(desired(spec), running(running_disk()), records, {"/d/a.img": SIZE + 4096})
    assert ops(steps)[:2] == ["logicalunit delete 1", "logicalunit new 1"]


def test_a_block_size_change_re_adds_and_a_readonly_change_updates_in_place():
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img", 4096),))
    steps = plan(desired(spec), running(running_disk()), Records(), {"/d/a.img": SIZE})
    assert ops(steps)[:2] == ["logicalunit delete 1", "logicalunit new 1"]
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img", readonly=True),))
    steps = plan(desired(spec), running(running_disk()), Records(), {"/d/a.img": SIZE})
    assert ops(steps) == ["logicalunit update readonly=1"]


def test_every_new_lun_is_made_thin_by_the_update_that_follows_it():
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img"), LunSpec(2, "/d/b.img", serial="S2")))
    steps = plan(desired(spec), running(), Records(), {"/d/a.img": SIZE, "/d/b.img": SIZE})
    updates = [s.args for s in steps if "update" in s.args]
    assert [u[u.index("--lun") + 1] for u in updates] == ["1", "2"]
    assert [u[-1] for u in updates] == ["thin_provisioning=1", "thin_provisioning=1,scsi_sn=S2"]


def test_a_running_lun_without_thin_provisioning_is_updated_in_place_and_reported():
    spec = TargetSpec(IQN, luns=(LunSpec(1, "/d/a.img"),))
    now = running(running_disk(thin=False))
    steps = plan(desired(spec), now, Records(), {"/d/a.img": SIZE})
    assert ops(steps) == ["logicalunit update thin_provisioning=1"]
    (update,) = [s for s in steps if "update" in s.args]
    assert update.change is not None
    assert update.change.detail == "thin_provisioning=1"


def test_stale_luns_targets_and_portals_are_removed():
    other = TgtTarget(tid=2, name="iqn.2024-01.org.nasui:old")
    now = RunningState(
        targets=(running_disk(), other), portals=(("127.0.0.1", 3260), ("::1", 3260))
    )
    steps = plan(desired(TargetSpec(IQN)), now, Records(), {})
    assert ops(steps) == [
        "portal delete portal=[::1]:3260",
        "target delete 2 --force",
        "logicalunit delete 1",
    ]


def test_new_targets_take_the_lowest_free_tid():
    a = TargetSpec("iqn.2024-01.org.nasui:a")
    steps = plan(desired(a, TargetSpec(IQN)), running(running_disk(tid=1)), Records(), {})
    new = next(s for s in steps if "--targetname" in s.args)
    assert new.args[new.args.index("--tid") + 1] == "2"


def test_mutual_chap_binds_an_outgoing_account():
    chap = ChapSpec("alice", "secretsecret12", "tgtalice", "mutualsecret34")
    spec = TargetSpec(IQN, auth="mutual", chap=chap)
    assert ops(plan(desired(spec), running(), Records(), {})) == [
        "account new alice",
        "account new tgtalice",
        "target new iqn.2024-01.org.nasui:disk",
        "account bind alice",
        "account bind tgtalice --outgoing",
        "target bind ALL",
    ]


def test_discovery_chap_is_probed_because_tgt_does_not_show_it():
    chap = ChapSpec("disco", "discosecret12")
    steps = plan(desired(discovery_chap=chap), running(), Records(), {})
    probes = [(s.args, s.tolerate) for s in steps if s.tolerate]
    assert (("--mode", "account", "--op", "bind", "--user", "disco"), "already exists") in [
        (args, tol.split("account ")[-1]) for args, tol in probes
    ]
    assert any("--outgoing" in args and "unbind" in args for args, _tol in probes)
