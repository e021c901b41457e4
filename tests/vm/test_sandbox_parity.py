"""The sandbox's space accounting against real OpenZFS on the same data.

The same files go into datasets and zvols with the same settings on a real pool and on a
sandbox (in /tmp); their ratios must agree within the documented tolerances, and the figures
are written to $NASUI_VM_OUT/parity.json for the notes.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from vmhelpers import sync_pool, wait_for

from storage.zfs.base import Dataset, PoolLayout, ZfsEngine
from storage.zfs.cli import CliZfsEngine
from storage.zfs.sandbox import SandboxZfsEngine

MIB = 1 << 20
POOL = "parity"
# Real ZFS adds metadata and rounds allocations the sandbox does not model (facts.md:
# 30.87x real vs 32.00x in the sandbox for fully compressible 128K records).
RATIO_TOLERANCE = 0.10
DEDUP_TOLERANCE = 0.05
# Byte figures may also differ by the metadata real ZFS adds (indirect blocks, dnodes), more
# at the pool's root, which is charged the pool's own metadata (the MOS). A thick zvol's real
# refreservation also covers its metadata (3 MiB for 64 MiB at 16K): within the 10%.
METADATA_SLACK = 512 * 1024
ROOT_SLACK = 4 * MIB
BREAKDOWN = ("usedbydataset", "usedbychildren", "usedbysnapshots", "usedbyrefreservation")
COMPARED = ("used", "logicalreferenced", "refreservation", *BREAKDOWN)


def text_data(size: int) -> bytes:
    """Compressible text: the guest's Python standard library sources, repeated to size."""
    chunks = [p.read_bytes() for p in sorted(Path("/usr/lib/python3.11").glob("*.py"))]
    data = b"".join(chunks)
    return (data * (size // len(data) + 1))[:size]


def random_data(size: int, seed: int) -> bytes:
    """Incompressible bytes, the same on every run."""
    return random.Random(seed).randbytes(size)


@dataclass(frozen=True)
class Case:
    """One dataset or zvol: its settings and the bytes written into it."""

    name: str
    props: dict[str, str]
    data: bytes
    volblocksize: int | None = None  # a zvol when set
    thick: bool = False  # a zvol with a refreservation of its size


TEXT = text_data(8 * MIB)
CHUNK = random_data(4 * MIB, seed=1)
CASES = [
    Case("random_lz4", {"compression": "lz4"}, random_data(16 * MIB, seed=2)),
    Case("text_lz4", {"compression": "lz4"}, TEXT),
    Case("text_gzip6", {"compression": "gzip-6"}, TEXT),
    Case("text_zstd", {"compression": "zstd"}, TEXT),
    Case("text_off", {"compression": "off"}, TEXT),
    Case("dup_files", {"compression": "off", "dedup": "on"}, CHUNK * 2),
    Case("vol16k_lz4", {"compression": "lz4"}, TEXT, volblocksize=16384),
    Case("vol4k_dedup", {"compression": "off", "dedup": "on"}, CHUNK * 2, volblocksize=4096),
    Case("vol16k_thick", {"compression": "lz4"}, CHUNK, volblocksize=16384, thick=True),
    Case("reserved", {"compression": "off", "reservation": str(32 * MIB)}, CHUNK),
]


def _write_real(engine: CliZfsEngine, case: Case) -> None:
    name = f"{POOL}/{case.name}"
    if case.volblocksize:
        engine.create_zvol(
            name,
            size=64 * MIB,
            volblocksize=case.volblocksize,
            sparse=not case.thick,
            properties=case.props,
        )
        device = Path(f"/dev/zvol/{name}")
        assert wait_for(device.exists, timeout=30)
        with device.open("r+b") as vol:
            vol.write(case.data)
    else:
        engine.create_dataset(name, properties=case.props)
        Path(f"/{name}/data").write_bytes(case.data)


def _write_sandbox(sandbox: SandboxZfsEngine, case: Case) -> None:
    name = f"{POOL}/{case.name}"
    if case.volblocksize:
        sandbox.create_zvol(
            name,
            size=64 * MIB,
            volblocksize=case.volblocksize,
            sparse=not case.thick,
            properties=case.props,
        )
        with sandbox.zvol_path(name).open("r+b") as vol:
            vol.write(case.data)
    else:
        sandbox.create_dataset(name, properties=case.props)
        mountpoint = sandbox.get_dataset(name).mountpoint
        assert mountpoint
        Path(mountpoint, "data").write_bytes(case.data)


@pytest.fixture(scope="module")
def engines(
    module_pool: Callable[..., str], all_disks: list[str], engine: CliZfsEngine, tmp_path_factory
) -> tuple[CliZfsEngine, SandboxZfsEngine]:
    """A real stripe pool and a sandbox stripe pool holding the same data."""
    module_pool(POOL, PoolLayout.single("stripe", all_disks[:1]))
    sandbox = SandboxZfsEngine(tmp_path_factory.mktemp("sandbox"), disk_count=1)
    sandbox.create_pool(POOL, PoolLayout.single("stripe", ["sda"]))
    for case in CASES:
        _write_real(engine, case)
        _write_sandbox(sandbox, case)
    sync_pool(engine, POOL)
    sandbox.rescan()
    return engine, sandbox


def _figures(engine: object) -> dict[str, float]:
    found = {d.name.split("/", 1)[-1]: d.compressratio for d in engine.list_datasets(POOL)}  # type: ignore[attr-defined]
    found["pool dedupratio"] = engine.get_pool(POOL).dedupratio  # type: ignore[attr-defined]
    return found


def test_sandbox_ratios_match_real_zfs(engines: tuple[CliZfsEngine, SandboxZfsEngine]) -> None:
    real, sandbox = (_figures(e) for e in engines)
    rows = {name: {"real": real[name], "sandbox": sandbox[name]} for name in real if name != POOL}
    out = os.environ.get("NASUI_VM_OUT")
    if out:
        Path(out, "parity.json").write_text(json.dumps(rows, indent=2))
    print(
        "\n".join(
            f"{n:16} real {r['real']:6.2f}  sandbox {r['sandbox']:6.2f}" for n, r in rows.items()
        )
    )
    for name, row in rows.items():
        tolerance = DEDUP_TOLERANCE if name == "pool dedupratio" else RATIO_TOLERANCE
        assert abs(row["sandbox"] - row["real"]) <= tolerance * row["real"], (name, row)


def _space(engine: ZfsEngine) -> dict[str, Dataset]:
    """The pool's datasets by name without the pool (the root by the pool's name)."""
    return {d.name.split("/", 1)[-1]: d for d in engine.list_datasets(POOL)}


def test_sandbox_used_breakdown_matches_real_zfs(
    engines: tuple[CliZfsEngine, SandboxZfsEngine],
) -> None:
    real, sandbox = (_space(e) for e in engines)
    rows = {
        name: {prop: [getattr(real[name], prop) or 0, getattr(sandbox[name], prop) or 0]
               for prop in COMPARED}
        for name in real
    }  # fmt: skip
    out = os.environ.get("NASUI_VM_OUT")
    if out:
        Path(out, "parity_breakdown.json").write_text(json.dumps(rows, indent=2))
    print(json.dumps(rows, indent=1))
    for name in real:
        for found in (real[name], sandbox[name]):
            assert found.used == sum(getattr(found, part) for part in BREAKDOWN), name
        slack = ROOT_SLACK if name == POOL else METADATA_SLACK
        for prop, (want, got) in rows[name].items():
            assert abs(got - want) <= RATIO_TOLERANCE * want + slack, (name, prop, want, got)
    # a reservation is charged to the parent in both, and a thick zvol's unused space to itself
    assert sandbox["reserved"].used < 8 * MIB
    assert sandbox["vol16k_thick"].usedbyrefreservation > 50 * MIB
