"""Sandbox engine building blocks: codecs, raidz geometry, slop, names (no Django)."""

from __future__ import annotations

import os

import pytest

from storage.zfs.codecs import algorithm, compressed_size, zle_size
from storage.zfs.errors import InvalidProperty
from storage.zfs.sandbox.blocks import Policy, block_layout, physical_size
from storage.zfs.sandbox.disks import disk_name
from storage.zfs.sandbox.layout import block_asize, deflate_ratio, slop
from storage.zfs.sandbox.names import parse_size
from storage.zfs.sandbox.props import normalize

K = 1024
MIB = K * K


def test_zle_squeezes_zero_runs_only():
    assert zle_size(bytes(192)) == 1
    assert zle_size(bytes(128 * K)) == -(-128 * K // 192)
    assert zle_size(b"\x01" * 64) == 65
    assert zle_size(b"\x01" * 65) == 67
    assert zle_size(b"ab\x00cd") == 6  # a lone zero stays in the literal run
    assert zle_size(b"ab" + bytes(10) + b"cd") == 3 + 1 + 3


def test_algorithm_names():
    assert algorithm("gzip") == "gzip-6"
    assert algorithm("on") == "lz4"
    assert algorithm("zstd") == "zstd-3"
    assert algorithm("zstd-12") == "zstd-12"


def test_compressed_sizes_include_the_zfs_headers():
    data = bytes(4096)
    assert compressed_size(data, "off") == 4096
    assert compressed_size(data, "lz4") < 64
    assert compressed_size(data, "gzip-6") < 64
    assert compressed_size(data, "zstd-3") < 64
    with pytest.raises(InvalidProperty):
        compressed_size(data, "brotli")


def test_physical_size_rules():
    random = os.urandom(128 * K)
    assert physical_size(random, "lz4") == 128 * K
    assert physical_size(b"a" * 128 * K, "lz4") == 4096
    assert physical_size(b"a" * 3072, "gzip-6") == 3072  # a sector would not be smaller
    assert physical_size(b"a" * 128 * K, "off") == 128 * K


def test_block_layout_of_files_and_zvols():
    fs = Policy(block_size=128 * K, algo="lz4", is_volume=False)
    assert block_layout(0, fs) == (128 * K, 0)
    assert block_layout(100, fs) == (512, 1)
    assert block_layout(128 * K, fs) == (128 * K, 1)
    assert block_layout(128 * K + 1, fs) == (128 * K, 2)
    vol = Policy(block_size=16 * K, algo="lz4", is_volume=True)
    assert block_layout(MIB, vol) == (16 * K, 64)


@pytest.mark.parametrize(
    ("vdev", "width", "psize", "asize"),
    [
        ("stripe", 1, 100, 4096),
        ("mirror", 2, 128 * K, 128 * K),
        ("raidz1", 3, 4096, 8192),
        ("raidz1", 3, 128 * K, 192 * K),
        ("raidz2", 4, 128 * K, 66 * 4096),  # 32 data + 32 parity, padded to a multiple of 3
        ("raidz3", 5, 4096, 4 * 4096),
    ],
)
def test_raidz_allocation(vdev, width, psize, asize):
    assert block_asize(vdev, width, psize) == asize


def test_deflate_ratios():
    assert deflate_ratio("mirror", 2) == 512
    assert deflate_ratio("raidz1", 3) == 341


def test_slop_space():
    assert slop(2 * 1024**3) == 128 * MIB
    assert slop(64 * 1024**3) == 2 * 1024**3
    assert slop(100 * MIB) == 50 * MIB


def test_disk_names():
    assert [disk_name(i) for i in (0, 1, 25, 26, 27)] == ["sda", "sdb", "sdz", "sdaa", "sdab"]


def test_sizes_and_normalized_values():
    assert parse_size("128K", "recordsize") == 128 * K
    assert parse_size("1.5G", "quota") == 1536 * MIB
    assert normalize("quota", "none", "filesystem") == "0"
    assert normalize("recordsize", "1M", "filesystem") == str(MIB)
    assert normalize("compression", "GZIP-6", "filesystem") == "gzip"
    with pytest.raises(InvalidProperty, match="atime"):
        normalize("atime", "on", "volume")
