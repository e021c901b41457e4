#!/usr/bin/env python3
"""Sequential 1 MiB and random 4 KiB I/O through the panel-configured iSCSI target vs the same
I/O on the zvol's backing file directly (qemu-img bench for both, so only the path differs).

    .venv/bin/python bench/iscsi_throughput.py [--size-mib 256] [--depth 16]

Sets up a private data dir with the sandbox engine, a zvol shared by the panel's own services
(the wizard) on the panel's own tgtd, then prints MiB/s, IOPS and the ratio. No assertions.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from nasui.lib.net import free_loopback_port
from tests.iscsi.iscsi_clients import image_opts

PC = "iqn.2026-01.bench.nasui:pc"
BASE = "iqn.2026-11.local.nasui"
MIB = 1024**2
CASES = [  # label, request size, write?, depth multiplier
    ("seq 1 MiB write", MIB, True),
    ("seq 1 MiB read", MIB, False),
    ("4 KiB write", 4096, True),
    ("4 KiB read", 4096, False),
]


def setup() -> tuple[int, Path]:
    """A sandbox pool and zvol shared by the wizard; returns (port, backing file)."""
    data = tempfile.mkdtemp(prefix="nasui-bench-")
    os.environ.update(
        NASUI_DATA_DIR=data,
        NASUI_ZFS_ENGINE="sandbox",
        NASUI_ISCSI_ENGINE="tgt",
        NASUI_HTTPS="0",
        DJANGO_SETTINGS_MODULE="nasui.settings",
    )
    import django

    django.setup()
    from django.core.management import call_command

    from sharing.iscsi import runtime, services
    from sharing.iscsi.services import wizard
    from storage.engine import get_engine
    from storage.zfs.base import PoolLayout

    call_command("migrate", verbosity=0)
    get_engine().create_pool("bench", PoolLayout.single("stripe", ["sda"]))
    port = free_loopback_port()
    runtime.IscsiRuntime().control("start")
    services.settings_update(basename=BASE, port=port)
    wizard.share_new_zvol(
        name="bench", parent="bench", size="1G", volblocksize=4096, initiator=PC, sparse=True
    )
    return port, Path(get_engine().zvol_path("bench/bench"))


def qemu_bench(target: list[str], size: int, count: int, depth: int, write: bool) -> float:
    """Seconds qemu-img bench took for `count` requests of `size` bytes."""
    argv = ["qemu-img", "bench", "-s", str(size), "-c", str(count), "-d", str(depth)]
    argv += ["-w", "--pattern=0x5a"] if write else []
    if size < MIB:  # spread small requests over the whole volume
        argv += ["-S", str(size * 7919 % (512 * MIB) or size)]
    done = subprocess.run([*argv, *target], capture_output=True, text=True, timeout=600)
    match = re.search(r"Run completed in ([\d.]+) seconds", done.stdout)
    if done.returncode != 0 or match is None:
        raise RuntimeError(f"qemu-img bench failed: {done.stdout}{done.stderr}")
    return float(match.group(1))


def rate(count: int, size: int, seconds: float) -> str:
    """'123.4 MiB/s   31590 IOPS'."""
    return f"{count * size / MIB / seconds:8.1f} MiB/s {count / seconds:8.0f} IOPS"


def main() -> None:
    """Run each case on both paths and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size-mib", type=int, default=256, help="data per case")
    parser.add_argument("--depth", type=int, default=16, help="queue depth for 4 KiB I/O")
    args = parser.parse_args()
    port, backing = setup()
    iscsi = ["--image-opts", image_opts(f"127.0.0.1:{port}", f"{BASE}:bench", 1, initiator=PC)]
    direct = ["-f", "raw", "-t", "writeback", str(backing)]
    print(f"{'case':18} {'iSCSI':>22} {'backing file':>22} {'iSCSI/file':>11}")
    try:
        for label, size, write in CASES:
            count = args.size_mib * MIB // size
            if size < MIB:
                count = min(count, 32768)
            depth = 1 if size >= MIB else args.depth
            t_iscsi = qemu_bench(iscsi, size, count, depth, write)
            t_file = qemu_bench(direct, size, count, depth, write)
            figures = [rate(count, size, t) for t in (t_iscsi, t_file)]
            print(f"{label:18} {figures[0]:>22} {figures[1]:>22} {t_file / t_iscsi:6.2f}x")
    finally:
        from sharing.iscsi import runtime

        runtime.engine().stop()


if __name__ == "__main__":
    main()
