"""A file extent's path must resolve inside a pool's dataset, never to the system or the panel."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError

from sharing.iscsi import services
from sharing.models import Extent
from sharing.runtime import ApplyError
from storage.engine import get_engine


@pytest.fixture
def media(tank) -> Path:
    """The mountpoint of the sandbox pool's root file system, with a 1 MiB image file in it."""
    mountpoint = Path(get_engine().get_dataset("tank").mountpoint or "")
    (mountpoint / "disk.img").write_bytes(b"\0" * (1 << 20))
    return mountpoint


def _path_error(exc: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(exc.value.message_dict["path"])


def test_a_file_inside_a_dataset_becomes_an_extent(fake_target, media):
    extent = services.extent_create(name="img", kind="file", path=str(media / "disk.img"))
    assert Path(extent.path) == (media / "disk.img").resolve()


def test_dot_dot_out_of_the_dataset_is_refused(fake_target, media):
    escape = f"{media}/{'../' * 12}etc/shadow"
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="bad", kind="file", path=escape)
    assert "inside a dataset" in _path_error(exc)
    assert not Extent.objects.exists()


def test_a_link_inside_the_dataset_to_a_system_file_is_refused(fake_target, media):
    os.symlink("/etc/shadow", media / "innocent.img")
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="bad", kind="file", path=str(media / "innocent.img"))
    assert "inside a dataset" in _path_error(exc)
    assert not Extent.objects.exists()


def test_a_link_to_the_panels_database_is_refused(fake_target, media):
    database = Path(settings.DATABASES["default"]["NAME"])
    os.symlink(database, media / "db.img")
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="bad", kind="file", path=str(media / "db.img"))
    assert "path" in exc.value.message_dict
    assert not Extent.objects.exists()


def test_the_sandbox_state_beside_the_mountpoint_is_refused(fake_target, media):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="bad", kind="file", path=f"{media}/../state.json")
    assert "inside a dataset" in _path_error(exc)


def test_a_relative_path_is_refused(fake_target, media):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="bad", kind="file", path="tank/disk.img")
    assert "absolute path" in _path_error(exc)


def test_the_mountpoint_itself_is_not_a_file(fake_target, media):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="bad", kind="file", path=str(media))
    assert "inside a dataset" in _path_error(exc)


def test_choosing_no_zvol_asks_for_one(fake_target, zvol):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="e", kind="zvol", zvol="")
    assert exc.value.message_dict == {"zvol": ["Pick the zvol this extent serves."]}


def test_under_a_dataset_mounted_at_root_system_files_are_still_refused(monkeypatch, settings):
    from storage import paths

    settings.NASUI_ZFS_ENGINE = "cli"
    monkeypatch.setattr(paths, "dataset_mountpoints", lambda: [Path("/")])
    assert "never shares" in (paths.pool_path_problem("/etc/shadow") or "")
    assert "never shares" in (paths.pool_path_problem(str(settings.DATA_DIR / "x.img")) or "")
    assert paths.pool_path_problem("/srv/vm/disk.img") is None


def test_a_link_swapped_in_after_creation_is_never_handed_to_the_target(fake_target, media):
    from sharing.iscsi import runtime

    image = media / "disk.img"
    extent = services.extent_create(name="img", kind="file", path=str(image))
    portal = services.portal_create(addresses=["127.0.0.1"])
    target = services.target_create(name="img", groups=[{"portal": portal}])
    services.association_create(target=target, extent=extent)
    image.unlink()
    os.symlink("/etc/passwd", image)
    with pytest.raises(ApplyError, match=r"disk\.img"):
        runtime.IscsiRuntime().apply()


def test_a_file_that_does_not_exist_is_refused_at_the_form(fake_target, media):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="ghost", kind="file", path=str(media / "ghost.img"))
    assert f"There is no file at {(media / 'ghost.img').resolve()}" in _path_error(exc)
    assert not Extent.objects.exists()


def _two_file_luns(media: Path) -> tuple[Extent, Extent, object]:
    """A target serving two image files as LUNs."""
    for name in ("a.img", "b.img"):
        (media / name).write_bytes(b"\0" * (1 << 20))
    a = services.extent_create(name="a", kind="file", path=str(media / "a.img"))
    b = services.extent_create(name="b", kind="file", path=str(media / "b.img"))
    portal = services.portal_create(addresses=["127.0.0.1"])
    target = services.target_create(name="vm", groups=[{"portal": portal}])
    services.association_create(target=target, extent=a)
    services.association_create(target=target, extent=b)
    return a, b, target


def test_a_lun_whose_file_vanished_is_left_out_and_said_so(fake_target, media):
    from sharing.iscsi.runtime import IscsiRuntime

    _two_file_luns(media)
    (media / "a.img").unlink()  # behind the panel's back
    IscsiRuntime().apply()  # the rest is still served
    [target] = fake_target.last.targets
    assert [lun.path for lun in target.luns] == [str((media / "b.img").resolve())]
    status = IscsiRuntime().status()
    assert f"Not served, their data is missing: a ({(media / 'a.img').resolve()})" in status.message


def test_every_lun_can_be_removed_when_their_files_are_gone(fake_target, media):
    from sharing.models import TargetExtent

    _two_file_luns(media)
    (media / "a.img").unlink()
    (media / "b.img").unlink()
    for mapping in list(TargetExtent.objects.all()):
        services.association_delete(association=mapping)
    assert not TargetExtent.objects.exists()
    assert fake_target.last.targets[0].luns == ()
