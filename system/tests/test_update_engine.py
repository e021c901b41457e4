"""Update files and GRUB's environment block: a signed root file system checked before it is
written and while it is, and the slot to boot written where GRUB reads it."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from system.updates.engine import bootenv, bundle, slots

KEY = Ed25519PrivateKey.generate()
TRUSTED = [KEY.public_key()]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A small 'file system': mostly zeros, some noise."""
    path = tmp_path / "root.ext4"
    path.write_bytes(os.urandom(300_000) + bytes(3 << 20))
    return path


def made(tmp_path: Path, root: Path, key: Ed25519PrivateKey = KEY) -> Path:
    out = tmp_path / "nasui-update.tar"
    bundle.make(root, "v2", key, out)
    return out


def test_a_signed_update_is_written_whole(tmp_path: Path, root: Path) -> None:
    update = made(tmp_path, root)
    manifest = bundle.read_manifest(update, TRUSTED)
    assert (manifest.release, manifest.size) == ("v2", root.stat().st_size)
    assert update.stat().st_size < root.stat().st_size // 2  # compressed
    target, seen = io.BytesIO(), list[int]()
    bundle.write_root(update, manifest, target, seen.append)
    assert target.getvalue() == root.read_bytes()
    assert seen[-1] == manifest.size


def test_an_update_signed_by_another_key_is_refused(tmp_path: Path, root: Path) -> None:
    update = made(tmp_path, root, Ed25519PrivateKey.generate())
    with pytest.raises(bundle.UpdateError, match="not signed by a key this box trusts"):
        bundle.read_manifest(update, TRUSTED)


def test_a_root_that_is_not_the_manifests_is_refused(tmp_path: Path, root: Path) -> None:
    update = made(tmp_path, root)
    manifest = bundle.read_manifest(update, TRUSTED)
    other = bundle.Manifest(manifest.release, "0" * 64, manifest.size)  # another hash
    with pytest.raises(bundle.UpdateError, match="does not match its manifest"):
        bundle.write_root(update, other, io.BytesIO())
    shorter = bundle.Manifest(manifest.release, manifest.sha256, 1000)
    with pytest.raises(bundle.UpdateError, match="bigger than its manifest"):
        bundle.write_root(update, shorter, io.BytesIO())


def test_a_cut_short_or_foreign_file_is_refused(tmp_path: Path, root: Path) -> None:
    update = made(tmp_path, root)
    cut = tmp_path / "cut.tar"
    cut.write_bytes(update.read_bytes()[:200_000])
    with pytest.raises(bundle.UpdateError, match="cut short or damaged"):
        bundle.read_manifest(cut, TRUSTED)  # before a byte is written anywhere
    foreign = tmp_path / "photo.jpg"
    foreign.write_bytes(b"\xff\xd8\xff" + os.urandom(5000))
    with pytest.raises(bundle.UpdateError, match="Not an update file"):
        bundle.read_manifest(foreign, TRUSTED)
    empty = tmp_path / "empty.tar"
    with tarfile.open(empty, "w"):
        pass
    with pytest.raises(bundle.UpdateError, match=r"it has no manifest\.json"):
        bundle.read_manifest(empty, TRUSTED)


def test_the_environment_block_keeps_its_size_and_other_variables(tmp_path: Path) -> None:
    env = tmp_path / "grubenv"
    env.write_bytes(bootenv.render({"saved_entry": "0"}))
    assert bootenv.good_slot(bootenv.read(env)) == "A"
    assert bootenv.update(env, nasui_try="B") == {"saved_entry": "0", "nasui_try": "B"}
    assert env.stat().st_size == bootenv.SIZE
    assert bootenv.update(env, nasui_try="", nasui_good="B") == {
        "saved_entry": "0",
        "nasui_good": "B",
    }
    assert bootenv.good_slot(bootenv.read(env)) == "B"
    assert env.read_bytes().startswith(b"# GRUB Environment Block\nsaved_entry=0\nnasui_good=B\n#")
    with pytest.raises(bootenv.BootEnvError, match="do not fit"):
        bootenv.render({"x": "y" * 2000})
    with pytest.raises(bootenv.BootEnvError, match="not a GRUB environment block"):
        bootenv.parse(b"hello")


def test_the_running_slot_is_the_kernels_word() -> None:
    assert (
        slots.running("BOOT_IMAGE=/boot/vmlinuz root=LABEL=NASUI_ROOT_B nasui.slot=B quiet") == "B"
    )
    assert slots.running("root=LABEL=NASUI_ROOT ro") is None
    assert slots.running("nasui.slot=C") is None
    assert bootenv.other("A") == "B"
    assert slots.device("B", Path("/dev/disk/by-partlabel")) == Path(
        "/dev/disk/by-partlabel/nasui-root-b"
    )
    assert slots.label("A") == "NASUI_ROOT_A"
