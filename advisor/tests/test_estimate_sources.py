"""The input as blocks: small files, records, holes, zvols, one file system, hard links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.estimates.engine import sampling, sources
from advisor.estimates.engine.reader import chunks
from advisor.estimates.engine.sources import Input, file_blocks, layout, read_block, walk_files

K = 1024
RECORD = 128 * K


def test_a_small_file_is_one_block_rounded_to_512(tmp_path: Path) -> None:
    (tmp_path / "small").write_bytes(b"x" * 1000)
    blocks = file_blocks(str(tmp_path / "small"), volume=False, block_size=RECORD)
    assert (blocks.lsize, blocks.blocks) == (1024, 1)
    assert read_block(blocks, 0) == b"x" * 1000 + bytes(24)


def test_a_big_file_is_whole_records_with_a_padded_tail(tmp_path: Path) -> None:
    (tmp_path / "big").write_bytes(b"y" * (RECORD + 10))
    blocks = file_blocks(str(tmp_path / "big"), volume=False, block_size=RECORD)
    assert (blocks.lsize, blocks.blocks) == (RECORD, 2)
    assert read_block(blocks, 1) == b"y" * 10 + bytes(RECORD - 10)


def test_holes_are_not_blocks(tmp_path: Path) -> None:
    path = tmp_path / "sparse"
    with path.open("wb") as out:
        out.write(b"a" * RECORD)
        out.seek(10 * RECORD)
        out.write(b"b" * RECORD)
        out.truncate(20 * RECORD)
    blocks = file_blocks(str(path), volume=False, block_size=RECORD)
    if blocks.blocks == 20:
        pytest.skip("this file system does not report holes (SEEK_DATA)")
    assert blocks.ranges == ((0, 1), (10, 11))
    assert [blocks.block_index(n) for n in (0, 1)] == [0, 10]


def test_empty_files_have_no_blocks(tmp_path: Path) -> None:
    (tmp_path / "empty").touch()
    assert file_blocks(str(tmp_path / "empty"), volume=False, block_size=RECORD).blocks == 0


def test_a_zvol_is_one_stream_of_volblocks(tmp_path: Path) -> None:
    (tmp_path / "vol").write_bytes(b"v" * (3 * 16 * K))
    found = layout(Input("zvol", "tank/vol", tmp_path / "vol", 16 * K))
    assert (found.blocks, found.files[0].lsize, found.logical) == (3, 16 * K, 48 * K)


def test_the_walk_stays_on_its_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "child").mkdir()
    (tmp_path / "child" / "inner").write_bytes(b"c")
    (tmp_path / "outer").write_bytes(b"o")
    real_stat = sources.entry_stat

    def other_device(entry: os.DirEntry[str]) -> os.stat_result:
        """Make `child` look like the mountpoint of another dataset."""
        info = real_stat(entry)
        if entry.name == "child":
            fields = list(info)
            fields[2] = info.st_dev + 1  # st_dev
            return os.stat_result(fields)
        return info

    monkeypatch.setattr(sources, "entry_stat", other_device)
    assert [Path(p).name for p in walk_files(tmp_path, lambda _n: None)] == ["outer"]


def test_hard_links_count_once_and_symlinks_not_at_all(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"a" * 5000)
    os.link(tmp_path / "a", tmp_path / "b")
    os.symlink(tmp_path / "a", tmp_path / "c")
    found = layout(Input("path", "p", tmp_path, RECORD))
    assert (len(found.files), found.blocks, found.logical) == (1, 1, 5120)


def test_ordinals_locate_blocks_across_files_and_chunks_read_them_all(tmp_path: Path) -> None:
    (tmp_path / "1").write_bytes(b"1" * (3 * RECORD))
    (tmp_path / "2").touch()
    (tmp_path / "3").write_bytes(b"3" * 700)
    found = layout(Input("path", "p", tmp_path, RECORD))
    located = {found.locate(n)[0].path[-1] + str(found.locate(n)[1]) for n in range(4)}
    assert located == {"10", "11", "12", "30"}
    read = [(c.lsize, c.count) for c in chunks(found, chunk_bytes=2 * RECORD)]
    assert sorted(read) == [(1024, 1), (RECORD, 1), (RECORD, 2)]


def test_the_sample_count_is_what_the_bytes_buy() -> None:
    assert sampling.sample_count(blocks=100, logical=100 * RECORD, sample_bytes=10 * RECORD) == 10
    assert sampling.sample_count(blocks=5, logical=5 * RECORD, sample_bytes=10**12) == 5
