"""The fuzz lane's objects: one of each kind the API lists, on the sandbox engine."""

from __future__ import annotations

import pytest

from nasui import services


@pytest.fixture
def token(django_user_model) -> str:
    """A token of a superuser, as a script would hold one."""
    user = django_user_model.objects.create_superuser("fuzz", password="a long fuzz passphrase")
    return services.api_token_create(user=user, name="fuzz")[1]


@pytest.fixture
def storage(tank) -> None:
    """A pool with a dataset and a zvol, so that reads and writes meet real objects."""
    from storage.datasets import services as storage_services

    storage_services.dataset_create(parent="tank", name="media")
    storage_services.zvol_create(parent="tank", name="disk", size="64M", sparse=True)


@pytest.fixture
def one_of_each(storage, target_service, smb_service) -> None:
    """One object of every kind the API lists, as rows: a list's first object is what the
    schema's links hand to the detail, update, delete and action operations. The panel's own
    tgtd and smbd serve them on free ports and are stopped after the run (none is left behind
    listening on 3260 or 445)."""
    from django.utils import timezone

    from monitoring.models import Channel
    from replication.models import ReplicationTask
    from sharing import models as sharing
    from sharing.iscsi import services as iscsi
    from storage.models import SmartTestTask, SnapshotTask
    from storage.snapshots import services as snapshots
    from system.models import UpsSettings

    iscsi.settings_update(basename="iqn.2026-11.local.nasui", port=target_service)
    family = sharing.LocalGroup.objects.create(name="family", gid=3000)
    user = sharing.LocalUser.objects.create(username="mum", uid=3000, group=family)
    share = sharing.SmbShare.objects.create(name="media", dataset="tank/media")
    share.users.add(user)
    sharing.NfsShare.objects.create(dataset="tank/media", networks=["192.168.1.0/24"])
    portal = sharing.Portal.objects.create(comment="loopback")
    sharing.PortalAddress.objects.create(portal=portal, address="127.0.0.1")
    initiators = sharing.InitiatorGroup.objects.create(initiators=["iqn.2026-11.org.example:pc"])
    sharing.AuthGroup.objects.create(tag=1, user="pc", secret="a-secret-of-14")
    target = sharing.Target.objects.create(name="disk")
    sharing.TargetGroup.objects.create(target=target, portal=portal, initiator_group=initiators)
    extent = sharing.Extent.objects.create(name="disk", zvol="tank/disk")
    sharing.TargetExtent.objects.create(target=target, extent=extent, lun_id=0)
    SnapshotTask.objects.create(dataset="tank/media")
    SmartTestTask.objects.create(disks=["sda"])
    snapshots.snapshot_create(dataset="tank/media", name="before-fuzz")
    # a closed loopback port: the test action fails at once, naming it
    Channel.objects.create(
        name="phone", kind="ntfy", levels=["danger"], options={"server": "http://127.0.0.1:9"},
        secrets={"topic": "nas"}, enabled_at=timezone.now(),
    )  # fmt: skip
    ReplicationTask.objects.create(
        name="media", direction="local", source="tank/media", target="tank/copy",
        naming_schema="auto-%Y-%m-%d_%H-%M", trigger="manual",
    )  # fmt: skip
    # a dummy UPS whose upsd is not running: its status reads as an error, never a 5xx
    UpsSettings.objects.create(pk=1, mode="dummy", dummy_file="/nonexistent/ups.dev")


@pytest.fixture
def advisor_runs_stay_queued(monkeypatch) -> None:
    """Advisor runs are recorded but not run: with eager jobs, an estimate of "/" or a fio run
    the fuzzer starts would run inside its request for minutes (the advisor's tests run them)."""
    from advisor.benchmarks import tasks as bench_tasks
    from advisor.estimates import tasks

    for task in (tasks.estimate, bench_tasks.benchmark, bench_tasks.fio):
        monkeypatch.setattr(task, "delay", lambda *args, **kwargs: None)
