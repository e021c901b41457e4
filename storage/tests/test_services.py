"""Storage services on the sandbox engine: rules, field-level errors, nothing half-applied."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from nasui.models import Job
from storage.datasets import selectors, services
from storage.disks import selectors as disk_selectors
from storage.engine import get_engine
from storage.pools import selectors as pool_selectors
from storage.pools import services as pool_services
from storage.scrub import services as scrub_services
from storage.zfs import errors as zfs_errors

pytestmark = pytest.mark.django_db


def _errors(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


def test_a_raidz1_pool_is_created_by_a_job_with_the_panel_defaults(tank):
    job = Job.objects.get(kind="pool.create")
    assert job.status == "succeeded", job.error
    pool = pool_selectors.pool_get("tank")
    assert pool.health == "ONLINE"
    detail = pool_selectors.pool_detail("tank")
    assert [v.type for v in detail.status.vdevs] == ["raidz1"]
    assert [leaf.name for leaf in detail.status.vdevs[0].leaves] == ["sda", "sdb", "sdc"]
    assert detail.root is not None
    assert detail.root.compression == "lz4"
    assert detail.root.atime is False


def test_disks_show_which_pool_uses_them(tank):
    rows = {row.name: row for row in disk_selectors.disk_list()}
    assert rows["sda"].pool == "tank"
    assert rows["sdd"].free


def test_a_disk_in_use_is_refused_and_no_job_starts(tank, admin_user):
    with pytest.raises(ValidationError) as exc:
        pool_services.pool_create(
            name="other", layout="mirror", disks=["sdc", "sdd"], user=admin_user
        )
    assert _errors(exc) == {"disks": ["Disk sdc is in use (tank)."]}
    assert Job.objects.filter(kind="pool.create").count() == 1


def test_a_duplicate_pool_name_is_refused(tank, admin_user):
    with pytest.raises(ValidationError) as exc:
        pool_services.pool_create(
            name="tank", layout="mirror", disks=["sdd", "sde"], user=admin_user
        )
    assert _errors(exc) == {"name": ["A pool with this name already exists."]}


def test_an_unknown_disk_is_refused(sandbox, admin_user):
    with pytest.raises(ValidationError) as exc:
        pool_services.pool_create(name="p", layout="stripe", disks=["nvme9"], user=admin_user)
    assert _errors(exc) == {"disks": ["There is no disk named “nvme9”."]}


def test_raid10_builds_striped_mirrors(sandbox, eager_jobs, admin_user):
    pool_services.pool_create(
        name="fast", layout="raid10", disks=["sda", "sdb", "sdc", "sdd"], user=admin_user
    )
    status = pool_selectors.pool_detail("fast").status
    assert [v.type for v in status.vdevs] == ["mirror", "mirror"]
    assert [[leaf.name for leaf in v.leaves] for v in status.vdevs] == [
        ["sda", "sdb"],
        ["sdc", "sdd"],
    ]


def test_a_dataset_gets_its_properties(tank):
    ds = services.dataset_create(
        parent="tank", name="media", compression="gzip-6", dedup="off", quota="10G"
    )
    assert ds.name == "tank/media"
    assert ds.compression == "gzip"  # ZFS reads gzip-6 back as gzip
    assert ds.quota == 10 * 1024**3


def test_bad_dataset_input_names_the_field_and_changes_nothing(tank):
    with pytest.raises(ValidationError) as exc:
        services.dataset_create(parent="tank", name="bad name")
    assert list(_errors(exc)) == ["name"]
    with pytest.raises(ValidationError) as exc:
        services.dataset_create(parent="tank", name="x", compression="brotli")
    assert list(_errors(exc)) == ["compression"]
    with pytest.raises(ValidationError) as exc:
        services.dataset_create(parent="tank", name="x", quota="lots")
    assert list(_errors(exc)) == ["quota"]
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_a_dataset_edit_can_inherit_again(tank):
    services.dataset_create(parent="tank", name="a", compression="zstd")
    saved = services.dataset_update(name="tank/a", compression="inherit")
    assert (saved.dataset.compression, saved.job) == ("lz4", None)


def test_an_existing_dataset_name_is_a_field_error(tank):
    services.dataset_create(parent="tank", name="a")
    with pytest.raises(ValidationError) as exc:
        services.dataset_create(parent="tank", name="a")
    assert "already exists" in _errors(exc)["name"][0]


def test_destroy_needs_the_name_typed(tank):
    services.dataset_create(parent="tank", name="a")
    with pytest.raises(ValidationError) as exc:
        services.dataset_destroy(name="tank/a", confirm="tank/b")
    assert _errors(exc) == {"confirm": ["Type “tank/a” to confirm."]}
    services.dataset_destroy(name="tank/a", confirm="tank/a")
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_a_parent_with_children_needs_recursive(tank):
    services.dataset_create(parent="tank", name="a")
    services.dataset_create(parent="tank/a", name="b")
    with pytest.raises(ValidationError) as exc:
        services.dataset_destroy(name="tank/a", confirm="tank/a")
    assert "recursive" in _errors(exc)
    services.dataset_destroy(name="tank/a", confirm="tank/a", recursive=True)
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_held_snapshots_stop_a_destroy_until_their_release_is_asked(tank):
    services.dataset_create(parent="tank", name="a")
    services.dataset_create(parent="tank/a", name="b")
    engine = get_engine()
    engine.create_snapshot("tank/a/b@base")
    engine.hold("tank/a/b@base", "nasui-repl-4")
    with pytest.raises(ValidationError) as exc:
        services.dataset_destroy(name="tank/a", confirm="tank/a", recursive=True)
    words = _errors(exc)["release_holds"][0]
    assert "tank/a/b@base (nasui-repl-4)" in words
    assert engine.hold_tags(["tank/a/b@base"]) == {"tank/a/b@base": ["nasui-repl-4"]}
    services.dataset_destroy(name="tank/a", confirm="tank/a", recursive=True, release_holds=True)
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_the_engine_refuses_a_held_snapshot_as_zfs_destroy_r_does(tank):
    engine = get_engine()
    engine.create_dataset("tank/a")
    engine.create_snapshot("tank/a@base")
    engine.hold("tank/a@base", "keep")
    with pytest.raises(zfs_errors.DatasetBusy, match="cannot destroy snapshot tank/a@base"):
        engine.destroy_dataset("tank/a", recursive=True)
    assert engine.get_dataset("tank/a").name == "tank/a"


def test_the_pool_root_cannot_be_destroyed_as_a_dataset(tank):
    with pytest.raises(ValidationError) as exc:
        services.dataset_destroy(name="tank", confirm="tank")
    assert "destroy the pool instead" in _errors(exc)["name"][0]


def test_a_zvol_with_dedup_and_4k_blocks(tank):
    zvol = services.zvol_create(
        parent="tank", name="vol", size="1G", volblocksize=4096, dedup="on", sparse=True
    )
    assert zvol.is_volume
    assert zvol.volsize == 1024**3
    assert zvol.volblocksize == 4096
    assert zvol.dedup == "on"
    assert zvol.sparse is True


def test_zvol_size_must_be_a_multiple_of_the_block_size(tank):
    with pytest.raises(ValidationError) as exc:
        services.zvol_create(parent="tank", name="v", size="10000", volblocksize=4096)
    assert _errors(exc) == {"size": ["Must be a multiple of the block size (4K)."]}


def test_a_thick_zvol_over_80_percent_needs_force(tank):
    free = selectors.dataset_get("tank").available
    big = (int(free * 0.9) // 16384) * 16384
    with pytest.raises(ValidationError) as exc:
        services.zvol_create(parent="tank", name="big", size=big)
    message = _errors(exc)["size"][0]
    assert "over 80%" in message
    assert "GiB free" in message  # readable, not a raw byte count
    assert "Allow a thick zvol over 80% of the free space" in message  # the checkbox's label
    zvol = services.zvol_create(parent="tank", name="big", size=big, force=True)
    assert zvol.sparse is False


def test_a_zvol_grows_but_never_shrinks(tank):
    services.zvol_create(parent="tank", name="v", size="64M", sparse=True)
    assert services.zvol_update(name="tank/v", size="128M").volsize == 128 * 1024**2
    with pytest.raises(ValidationError) as exc:
        services.zvol_update(name="tank/v", size="32M")
    assert "only grow" in _errors(exc)["size"][0]
    assert selectors.dataset_get("tank/v").volsize == 128 * 1024**2


def test_pool_destroy_needs_the_typed_name(tank, admin_user):
    with pytest.raises(ValidationError) as exc:
        pool_services.pool_destroy(name="tank", confirm="", user=admin_user)
    assert list(_errors(exc)) == ["confirm"]
    pool_services.pool_destroy(name="tank", confirm="tank", user=admin_user)
    assert pool_selectors.pool_list() == []


def test_export_then_import_under_a_new_name(tank):
    services.dataset_create(parent="tank", name="keep")
    pool_services.pool_export(name="tank")
    assert pool_selectors.pool_list() == []
    found = pool_selectors.importable_pools()
    assert [p.name for p in found] == ["tank"]
    pool_services.pool_import(name_or_guid="tank", new_name="vault")
    assert [d.name for d in selectors.dataset_list("vault")] == ["vault", "vault/keep"]


def test_importing_an_unknown_pool_is_a_field_error(sandbox):
    with pytest.raises(ValidationError) as exc:
        pool_services.pool_import(name_or_guid="ghost")
    assert list(_errors(exc)) == ["pool"]


def test_a_scrub_job_follows_the_scrub_to_its_end(tank, admin_user):
    job = scrub_services.pool_scrub(name="tank", user=admin_user)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    assert job.result == {"pool": "tank", "state": "finished", "errors": 0}
    assert job.message == "Scrub of tank finished, 0 errors"
    scan = pool_selectors.pool_detail("tank").status.scan
    assert scan.state == "finished"
    assert scan.when  # the date it ended, as zpool status says it


def test_the_pool_page_says_when_the_last_scrub_ended(client, tank, admin_user):
    scrub_services.pool_scrub(name="tank", user=admin_user)
    client.force_login(admin_user)
    page = client.get("/storage/pools/tank/").content.decode()
    assert 'data-testid="scan-when"' in page
    assert "scrub finished on" in page


def test_a_record_size_of_zero_is_refused_not_ignored(tank):
    with pytest.raises(ValidationError) as exc:
        services.dataset_create(parent="tank", name="zero", recordsize=0)
    assert "recordsize" in exc.value.message_dict


def test_a_reservation_beyond_the_pool_is_refused_and_nothing_is_made(tank):
    with pytest.raises(ValidationError):
        services.dataset_create(parent="tank", name="greedy", reservation="1P")
    assert "tank/greedy" not in [d.name for d in selectors.dataset_list("tank")]
