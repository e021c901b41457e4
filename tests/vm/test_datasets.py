"""Datasets and zvols: compression and dedup choices, properties, growth, destroy, errors."""

from __future__ import annotations

import errno
import os
import shutil
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from vmhelpers import wait_for

from storage.zfs.acl import acl_properties
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import (
    DatasetBusy,
    DatasetExists,
    DatasetNotFound,
    HasChildren,
    InvalidProperty,
    PoolBusy,
    VolumeShrink,
)

POOL = "dpool"
MIB = 1 << 20
COMPRESSIONS = [
    "off", "lz4", "gzip", "gzip-1", "gzip-5", "gzip-9", "zstd", "zstd-1", "zstd-10", "zstd-19",
    "zle", "lzjb",
]  # fmt: skip
# OpenZFS names the default levels without the suffix when it reads them back
ALIASES = {"gzip-6": "gzip", "zstd-3": "zstd"}


@pytest.fixture(scope="module")
def pool(module_pool: Callable[..., str], all_disks: list[str]) -> str:
    """A mirror of two disks for the whole module."""
    return module_pool(POOL, PoolLayout.single("mirror", all_disks[:2]))


@pytest.mark.parametrize("compression", COMPRESSIONS)
def test_it_creates_a_dataset_with_each_compression(
    engine: CliZfsEngine, pool: str, compression: str
) -> None:
    name = f"{pool}/fs-{compression}"
    engine.create_dataset(name, properties={"compression": compression})

    dataset = engine.get_dataset(name)
    assert dataset.type == "filesystem"
    assert dataset.compression == ALIASES.get(compression, compression)
    assert dataset.atime is False  # inherited from the pool's root dataset
    assert dataset.mountpoint == f"/{name}"


@pytest.mark.parametrize("compression", ["off", "lz4", "gzip-9", "zstd", "zstd-5", "zle", "lzjb"])
def test_it_creates_a_zvol_with_each_compression(
    engine: CliZfsEngine, pool: str, compression: str
) -> None:
    name = f"{pool}/vol-{compression}"
    engine.create_zvol(name, size=32 * MIB, sparse=True, properties={"compression": compression})

    zvol = engine.get_dataset(name)
    assert (zvol.type, zvol.volsize, zvol.compression) == ("volume", 32 * MIB, compression)
    assert zvol.recordsize is None
    assert zvol.atime is None


@pytest.mark.parametrize("dedup", ["on", "verify", "off"])
def test_it_sets_dedup_on_datasets_and_zvols(engine: CliZfsEngine, pool: str, dedup: str) -> None:
    engine.create_dataset(f"{pool}/dd-{dedup}", properties={"dedup": dedup})
    engine.create_zvol(
        f"{pool}/dv-{dedup}", size=16 * MIB, sparse=True, properties={"dedup": dedup}
    )

    assert engine.get_dataset(f"{pool}/dd-{dedup}").dedup == dedup
    assert engine.get_dataset(f"{pool}/dv-{dedup}").dedup == dedup


def test_it_makes_thick_zvols_reserve_and_sparse_ones_not(engine: CliZfsEngine, pool: str) -> None:
    engine.create_zvol(f"{pool}/thick", size=64 * MIB, volblocksize=16384)
    engine.create_zvol(f"{pool}/thin", size=64 * MIB, volblocksize=16384, sparse=True)

    thick, thin = engine.get_dataset(f"{pool}/thick"), engine.get_dataset(f"{pool}/thin")
    assert thick.volblocksize == thin.volblocksize == 16384
    assert thick.sparse is False
    assert thick.refreservation
    assert thick.refreservation >= 64 * MIB
    assert thin.sparse is True
    assert thin.refreservation is None
    assert thick.used >= 64 * MIB > thin.used
    assert wait_for(lambda: Path(f"/dev/zvol/{pool}/thick").exists(), timeout=30)


def test_it_refuses_a_size_that_is_not_a_multiple_of_the_block_size(
    engine: CliZfsEngine, pool: str
) -> None:
    with pytest.raises(InvalidProperty):
        engine.create_zvol(f"{pool}/odd", size=MIB + 512, volblocksize=16384)
    with pytest.raises(DatasetNotFound):
        engine.get_dataset(f"{pool}/odd")


def test_it_grows_a_zvol_and_refuses_to_shrink_it(engine: CliZfsEngine, pool: str) -> None:
    name = f"{pool}/grow"
    engine.create_zvol(name, size=32 * MIB, volblocksize=16384)
    engine.grow_zvol(name, 48 * MIB)
    assert engine.get_dataset(name).volsize == 48 * MIB

    with pytest.raises(VolumeShrink):
        engine.grow_zvol(name, 16 * MIB)
    assert engine.get_dataset(name).volsize == 48 * MIB
    assert wait_for(lambda: _block_size(f"/dev/zvol/{pool}/grow") == 48 * MIB, timeout=30)


def _block_size(path: str) -> int:
    try:
        with open(path, "rb") as dev:
            return dev.seek(0, os.SEEK_END)
    except OSError:
        return -1


def test_it_sets_and_inherits_properties(engine: CliZfsEngine, pool: str) -> None:
    parent, child = f"{pool}/parent", f"{pool}/parent/child"
    engine.create_dataset(parent, properties={"compression": "gzip-1"})
    engine.create_dataset(child)
    engine.set_properties(
        child,
        {"compression": "zstd", "quota": str(100 * MIB), "recordsize": "16384",
         "nasui:comment": "photos of the cat"},
    )  # fmt: skip

    got = engine.get_dataset(child)
    assert (got.compression, got.quota, got.recordsize) == ("zstd", 100 * MIB, 16384)
    assert got.comment == "photos of the cat"
    assert engine.get_properties(child, ["compression"])["compression"].source == "local"

    engine.inherit_property(child, "compression")
    assert engine.get_dataset(child).compression == "gzip-1"
    assert engine.get_properties(child, ["compression"])["compression"].source == (
        f"inherited from {parent}"
    )


def test_it_lists_a_pool_in_one_command(engine: CliZfsEngine, pool: str) -> None:
    listing = engine.list_datasets(pool)

    names = [d.name for d in listing]
    assert names[0] == pool
    assert f"{pool}/thick" in names
    assert f"{pool}/parent/child" in names
    assert {d.type for d in listing} == {"filesystem", "volume"}


def test_it_refuses_bad_property_values_with_stderr(engine: CliZfsEngine, pool: str) -> None:
    with pytest.raises(InvalidProperty) as err:
        engine.create_dataset(f"{pool}/bad", properties={"compression": "snappy"})
    assert "compression" in err.value.stderr
    assert err.value.returncode != 0
    assert "zfs create" in str(err.value)


def test_it_raises_typed_errors_for_existing_and_missing_datasets(
    engine: CliZfsEngine, pool: str
) -> None:
    engine.create_dataset(f"{pool}/twice")
    with pytest.raises(DatasetExists) as exists:
        engine.create_dataset(f"{pool}/twice")
    assert "already exists" in exists.value.stderr

    with pytest.raises(DatasetNotFound) as missing:
        engine.destroy_dataset(f"{pool}/never")
    assert "does not exist" in missing.value.stderr


def test_it_destroys_recursively_only_when_asked(engine: CliZfsEngine, pool: str) -> None:
    engine.create_dataset(f"{pool}/tree")
    engine.create_dataset(f"{pool}/tree/leaf")
    with pytest.raises(HasChildren):
        engine.destroy_dataset(f"{pool}/tree")

    engine.destroy_dataset(f"{pool}/tree", recursive=True)
    with pytest.raises(DatasetNotFound):
        engine.get_dataset(f"{pool}/tree/leaf")


def test_it_reports_a_busy_zvol_and_a_busy_pool(engine: CliZfsEngine, pool: str) -> None:
    name = f"{pool}/held"
    engine.create_zvol(name, size=16 * MIB, sparse=True)
    assert wait_for(lambda: Path(f"/dev/zvol/{name}").exists(), timeout=30)

    with open(f"/dev/zvol/{name}", "rb"):  # a reader (like an iSCSI target) keeps it open
        with pytest.raises(DatasetBusy) as busy:
            engine.destroy_dataset(name)
        assert "busy" in busy.value.stderr
        with pytest.raises(PoolBusy):
            engine.export_pool(pool)

    engine.destroy_dataset(name)


# A POSIX ACL as the kernel stores it (linux/posix_acl_xattr.h): version 2, then entries of
# (tag u16, perm u16, id u32) sorted by tag. setfacl writes exactly this xattr; the guest has
# no `acl` package, so the test writes it itself (and runs setfacl too where it exists).
_NO_ID = 0xFFFFFFFF
_ACL_XATTR = "system.posix_acl_access"


def _acl_giving_rw_to(uid: int) -> bytes:
    entries = [(0x01, 7, _NO_ID), (0x02, 6, uid), (0x04, 5, _NO_ID), (0x10, 7, _NO_ID)]
    entries.append((0x20, 0, _NO_ID))
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)


def test_it_sets_acltype_posix_with_xattr_sa_as_the_panel_asks(
    engine: CliZfsEngine, pool: str
) -> None:
    posix, plain = f"{pool}/acl-posix", f"{pool}/acl-off"
    engine.create_dataset(posix, properties=acl_properties("posix"))
    engine.create_dataset(f"{posix}/child")
    engine.create_dataset(plain)

    props = engine.get_properties(posix, ["acltype", "xattr"])
    assert (props["acltype"].value, props["acltype"].source) == ("posix", "local")
    assert (props["xattr"].value, props["xattr"].source) == ("sa", "local")
    child = engine.get_properties(f"{posix}/child", ["acltype"])["acltype"]
    assert (child.value, child.source) == ("posix", f"inherited from {posix}")
    default = engine.get_properties(plain, ["acltype"])["acltype"]
    assert (default.value, default.source) == ("off", "default")
    raw = subprocess.run(
        ["zfs", "get", "-H", "-p", "-o", "name,value,source", "acltype", posix, plain],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = sorted(line.split("\t") for line in raw.stdout.splitlines())  # zfs sorts by name
    assert rows == [[plain, "off", "default"], [posix, "posix", "local"]]


def test_it_reads_the_old_acltype_names_back_as_the_new_ones(
    engine: CliZfsEngine, pool: str
) -> None:
    name = f"{pool}/acl-alias"
    engine.create_dataset(name, properties={"acltype": "posixacl"})
    assert engine.get_properties(name, ["acltype"])["acltype"].value == "posix"
    engine.set_properties(name, {"acltype": "noacl"})
    assert engine.get_properties(name, ["acltype"])["acltype"].value == "off"


def test_a_posix_acl_on_the_mountpoint_works_only_with_acltype_posix(
    engine: CliZfsEngine, pool: str
) -> None:
    posix, plain = f"{pool}/acl-set-posix", f"{pool}/acl-set-off"
    engine.create_dataset(posix, properties=acl_properties("posix"))
    engine.create_dataset(plain, properties=acl_properties("off"))
    acl = _acl_giving_rw_to(4242)

    os.setxattr(f"/{posix}", _ACL_XATTR, acl)
    assert os.getxattr(f"/{posix}", _ACL_XATTR) == acl
    with pytest.raises(OSError, match="not supported") as refused:
        os.setxattr(f"/{plain}", _ACL_XATTR, acl)
    assert refused.value.errno == errno.EOPNOTSUPP
    if shutil.which("setfacl"):
        run = lambda path: subprocess.run(["setfacl", "-m", "u:4243:rw", path]).returncode  # noqa: E731
        assert run(f"/{posix}") == 0
        assert run(f"/{plain}") != 0
