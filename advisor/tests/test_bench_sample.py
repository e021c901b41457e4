"""The benchmark's sample: drawn across the whole source, reproducible, and said in words."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from advisor.benchmarks.engine import copying

MIB = 1024 * 1024
RECORD = 128 * 1024


def _marked(path: Path, size_mib: int, mark: bytes) -> None:
    """A file whose every MiB says which file and which MiB it is: b'<mark>:<n>:' repeated."""
    with path.open("wb") as out:
        for n in range(size_mib):
            block = f"{mark.decode()}:{n:04d}:".encode()
            out.write((block * (MIB // len(block) + 1))[:MIB])


def _marks(data: bytes) -> collections.Counter[str]:
    """How many MiB of each file's mark a copied file holds (one per whole MiB block)."""
    return collections.Counter(
        data[start : start + 7].split(b":")[0].decode() for start in range(0, len(data), MIB)
    )


@pytest.fixture
def four(tmp_path: Path) -> Path:
    """Four 8 MiB files of distinct content, named so file-name order would take one first."""
    root = tmp_path / "four"
    (root / "sub").mkdir(parents=True)
    for name in ("a.bin", "b.bin", "c.bin", "sub/d.bin"):
        _marked(root / name, 8, name[-5].encode())
    return root


def _copy(pieces: list[copying.Piece], target: Path) -> dict[str, bytes]:
    """Copy the pieces under target; each copied file's bytes by its relative name."""
    target.mkdir()
    copying.copy_sample(pieces, target)
    return {p.relative: (target / p.relative).read_bytes() for p in pieces}


def test_a_sample_smaller_than_the_tree_holds_bytes_of_every_file(four, tmp_path):
    pieces = copying.plan_sample(four, 8 * MIB)  # a quarter of the 32 MiB tree
    assert copying.sample_size(pieces) == 8 * MIB
    copied = _copy(pieces, tmp_path / "copy")
    assert sorted(copied) == ["a.bin", "b.bin", "c.bin", "sub/d.bin"]
    every = collections.Counter[str]()
    for data in copied.values():
        every.update(_marks(data))
    assert every == {"a": 2, "b": 2, "c": 2, "d": 2}  # each file in proportion: 2 MiB of 8


def test_the_same_seed_draws_the_same_sample_and_another_seed_another(four, tmp_path):
    first = copying.plan_sample(four, 8 * MIB)
    assert copying.plan_sample(four, 8 * MIB) == first
    assert _copy(first, tmp_path / "one") == _copy(
        copying.plan_sample(four, 8 * MIB), tmp_path / "two"
    )
    assert copying.plan_sample(four, 8 * MIB, seed=2) != first


def test_chunks_are_whole_mib_at_whole_mib_offsets(four):
    pieces = copying.plan_sample(four, 8 * MIB)
    assert {p.length for p in pieces} == {MIB}
    assert all(p.offset % MIB == 0 for p in pieces)
    # one file's chunks come together, in the order they sit in it
    relatives = [p.relative for p in pieces]
    assert relatives == sorted(relatives, key=relatives.index)
    for name in set(relatives):
        offsets = [p.offset for p in pieces if p.relative == name]
        assert offsets == sorted(offsets)


def test_a_big_single_file_is_sampled_at_spread_offsets(tmp_path):
    big = tmp_path / "disk.img"
    _marked(big, 64, b"z")
    sample = copying.draw_sample(big, 8 * MIB)
    offsets = [p.offset for p in sample.pieces]
    assert len(offsets) == 8
    assert [offset // (8 * MIB) for offset in offsets] == list(range(8))  # one per eighth
    assert {p.relative for p in sample.pieces} == {copying.SINGLE_NAME}
    copied = _copy(list(sample.pieces), tmp_path / "copy")[copying.SINGLE_NAME]
    blocks = [copied[n * MIB : n * MIB + 6] for n in range(8)]
    assert blocks == [f"z:{offset // MIB:04d}".encode() for offset in offsets]
    assert copying.describe(sample) == (
        "Sample: 8.0 MiB of 64.0 MiB, in 1 MiB chunks spread over it."
    )


def test_a_sample_cut_short_ends_on_a_whole_record(tmp_path):
    big = tmp_path / "disk.img"
    _marked(big, 16, b"z")
    pieces = copying.plan_sample(big, 3 * MIB + 2 * RECORD)
    assert copying.sample_size(pieces) == 3 * MIB + 2 * RECORD
    assert [p.length for p in pieces] == [MIB, MIB, MIB, 2 * RECORD]  # the cut one last


def test_every_kind_of_file_weighs_in_the_sample_what_it_weighs_in_the_source(tmp_path):
    root = tmp_path / "mixed"
    (root / "small").mkdir(parents=True)
    for n in range(400):  # 400 files of 40 KiB: 15.6 MiB of the 95.6 in small files
        (root / "small" / f"{n:03d}.txt").write_bytes(b"s" * 40 * 1024)
    _marked(root / "video.mkv", 48, b"v")
    _marked(root / "vm.img", 32, b"m")
    sample = copying.draw_sample(root, 16 * MIB)
    weight = collections.Counter[str]()
    for piece in sample.pieces:
        weight[piece.relative.split("/")[0]] += piece.length
    source = {"small": 400 * 40 * 1024, "video.mkv": 48 * MIB, "vm.img": 32 * MIB}
    for kind, size in source.items():
        expected = size / sample.source_bytes * sample.bytes
        assert weight[kind] == pytest.approx(expected, rel=0.15), kind
    assert sample.bytes <= 16 * MIB
    assert sample.bytes >= 15 * MIB  # small files make it a little short, never over
    assert 57 <= sum(1 for p in sample.pieces if p.relative.startswith("small/")) <= 77


def test_a_source_smaller_than_the_sample_is_copied_whole(four):
    sample = copying.draw_sample(four, 64 * MIB)
    assert [(p.relative, p.offset, p.length) for p in sample.pieces] == [
        ("a.bin", 0, 8 * MIB),
        ("b.bin", 0, 8 * MIB),
        ("c.bin", 0, 8 * MIB),
        ("sub/d.bin", 0, 8 * MIB),
    ]
    assert copying.describe(sample) == "Sample: the whole source, 32.0 MiB in 4 files."


def test_the_sample_says_what_it_was(four, tmp_path):
    sample = copying.draw_sample(four, 8 * MIB)
    assert copying.describe(sample) == (
        "Sample: 8.0 MiB of 32.0 MiB from 4 of 4 files "
        "(random files, large ones in 1 MiB chunks spread over them)."
    )
    assert copying.summary(sample) | {"description": ""} == {
        "bytes": 8 * MIB,
        "files": 4,
        "whole_files": 0,
        "source_files": 4,
        "source_bytes": 32 * MIB,
        "chunk_bytes": MIB,
        "seed": copying.SEED,
        "description": "",
    }
    small = tmp_path / "small"
    small.mkdir()
    for n in range(10):
        (small / f"{n}.txt").write_bytes(b"x" * 1000)
    assert copying.describe(copying.draw_sample(small, 5000)) == (
        "Sample: 4.9 KiB of 9.8 KiB from 5 of 10 files (random files)."
    )
    one = tmp_path / "one.bin"
    one.write_bytes(b"1" * 1000)
    assert copying.describe(copying.draw_sample(one, MIB)) == "Sample: all 1000 B of it."
