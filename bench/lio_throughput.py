#!/usr/bin/env python3
"""fio on a zvol directly vs through LIO over a loopback iSCSI session, in the ZFS VM.

The production iSCSI path: real OpenZFS, the panel's own LIO engine (sharing/iscsi/lio)
exporting a zvol, and the kernel initiator (iscsi_tcp + open-iscsi's iscsid/iscsiadm) logged
in over 127.0.0.1 inside the same guest. Every variant prints one table (direct and iSCSI in
the same run, with the ratio against the target: 0.8 sequential, 0.6 random 4 KiB).

The guest image carries open-iscsi (scripts/zfsvm.sh's GUEST_PKGS), so in the VM:

    scripts/zfsvm.sh run python3 bench/lio_throughput.py
    # with an older guest image, stage Debian's open-iscsi on the host into the VM's out dir
    # (mounted at /mnt/out in the guest) and point --tools at it:
    python3 bench/lio_throughput.py stage /tmp/liobench/open-iscsi       # on the host
    NASUI_ZFSVM_OUT=/tmp/liobench scripts/zfsvm.sh run python3 bench/lio_throughput.py \\
        --tools /mnt/out/open-iscsi
    ... --runtime 5 --variants base,fileio-wb    # longer jobs, fewer variants

In the VM the pool is a stripe of /dev/vda-vdd (blank); elsewhere (a real machine with ZFS,
LIO and open-iscsi) name the disks to wipe: `--disks /dev/sdX /dev/sdY`. The default run
(9 variants, 3 s jobs) took ~13.5 min in the TCG guest, boot included.

Prints figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MIB = 1024 * 1024
POOL = "liobench"
TARGET_IQN = "iqn.2005-10.org.nasui:liobench"
INITIATOR_IQN = "iqn.2024-01.org.nasui:liobench-ini"
PORTAL = ("127.0.0.1", 3260)
VM_HOSTNAME = "zfsvm"  # scripts/zfsvm.sh's guest
OPEN_ISCSI_DEBS = ("open-iscsi", "libopeniscsiusr", "libisns0")
SEQ_TARGET, RAND_TARGET = 0.8, 0.6
SO_ATTRIBUTES = ("block_size", "emulate_write_cache", "emulate_fua_write", "queue_depth",
                 "hw_queue_depth", "hw_max_sectors", "optimal_sectors")  # fmt: skip


@dataclass(frozen=True)
class Profile:
    """One fio job: pattern, block size, queue depth (sync: O_SYNC writes)."""

    name: str
    rw: str
    bs: str
    depth: int
    sync: bool = False

    @property
    def target(self) -> float:
        return SEQ_TARGET if self.bs == "1M" else RAND_TARGET


PROFILES = (
    Profile("seq write 1M QD1", "write", "1M", 1),
    Profile("seq write 1M QD32", "write", "1M", 32),
    Profile("seq read 1M QD1", "read", "1M", 1),
    Profile("seq read 1M QD32", "read", "1M", 32),
    Profile("rand write 4K QD1", "randwrite", "4k", 1),
    Profile("rand write 4K QD32", "randwrite", "4k", 32),
    Profile("rand read 4K QD1", "randread", "4k", 1),
    Profile("rand read 4K QD32", "randread", "4k", 32),
    Profile("rand write 4K QD1 O_SYNC", "randwrite", "4k", 1, sync=True),
)


@dataclass(frozen=True)
class Variant:
    """One configuration of zvol + LIO + initiator, measured as one table."""

    key: str
    title: str
    volblocksize: int = 16 * 1024  # the panel's default (storage/validation.py)
    sync: str = "standard"
    lun_block_size: int = 512  # the panel's default (LunSpec)
    plugin: str = "block"  # "block" (iblock, the engine's choice for a zvol) or "fileio"
    write_back: bool = False  # fileio only: buffered, emulate_write_cache=1
    tpg_attributes: dict[str, str] = field(default_factory=dict)
    tpg_parameters: dict[str, str] = field(default_factory=dict)
    queue_depth: int = 32  # open-iscsi's node.session.queue_depth (its default)
    # initiator side, not the panel's: raise the iSCSI disk's max_sectors_kb to this (0: keep)
    initiator_max_kb: int = 0
    only: tuple[str, ...] = ()  # profile names (empty: all)

    def profiles(self) -> list[Profile]:
        return [p for p in PROFILES if not self.only or p.name in self.only]


QD32 = tuple(p.name for p in PROFILES if p.depth == 32)
RAND = tuple(p.name for p in PROFILES if p.bs == "4k")
SEQ = tuple(p.name for p in PROFILES if p.bs == "1M")
WRITES = tuple(p.name for p in PROFILES if "write" in p.rw)
VARIANTS = (
    Variant("base", "panel defaults: zvol 16K sync=standard, iblock, LUN 512 B"),
    Variant("lun4k", "LUN block size 4096", lun_block_size=4096, only=RAND),
    Variant("fileio", "fileio on the zvol device (engine's CreateSo: O_DSYNC)", plugin="fileio"),
    Variant(
        "fileio-wb",
        "fileio write_back=True (emulate_write_cache=1, page cache)",
        plugin="fileio",
        write_back=True,
    ),
    Variant(
        "r2t",
        "TPG parameters: InitialR2T=No, FirstBurstLength 256K, MaxBurstLength 1M",
        tpg_parameters={
            "InitialR2T": "No",
            "FirstBurstLength": "262144",
            "MaxBurstLength": "1048576",
        },
        only=WRITES,
    ),
    Variant(
        "cmdsn16",
        "TPG default_cmdsn_depth 16 (LIO's default is 64)",
        tpg_attributes={"default_cmdsn_depth": "16"},
        only=QD32,
    ),
    Variant(
        "maxsec",
        "INITIATOR max_sectors_kb raised to 1024 (Linux caps it at LIO's OPTIMAL TRANSFER "
        "LENGTH, the zvol's volblocksize)",
        initiator_max_kb=1024,
        only=SEQ,
    ),
    Variant("sync-off", "zvol sync=disabled (16K)", sync="disabled", only=WRITES),
    Variant("vbs64k", "zvol volblocksize 64K", volblocksize=64 * 1024),
    Variant("vbs8k", "zvol volblocksize 8K", volblocksize=8 * 1024, only=RAND),
)


# -- small helpers -----------------------------------------------------------------------------


def run(argv: Sequence[str], *, env: dict[str, str] | None = None, check: bool = True) -> str:
    """Run a command (argument list), return its stdout; raise with stderr on failure."""
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `check` until true, or raise after `timeout` seconds."""
    limit = time.monotonic() + timeout
    while not check():
        if time.monotonic() > limit:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.3)


# -- staging open-iscsi on the host ------------------------------------------------------------


def stage(dest: Path) -> None:
    """Download Debian's open-iscsi (+ its two libraries) and unpack them under `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["apt-get", "download", *OPEN_ISCSI_DEBS], cwd=tmp, check=True)
        for deb in sorted(Path(tmp).glob("*.deb")):
            run(["dpkg-deb", "-x", str(deb), str(dest)])
            print(f"staged {deb.name}")
    print(f"iscsid: {dest / 'sbin/iscsid'}")


# -- the initiator -----------------------------------------------------------------------------


class Initiator:
    """open-iscsi in the guest: iscsid in the background, iscsiadm for node/session work."""

    def __init__(self, tools: Path | None) -> None:
        self.env = dict(os.environ)
        if shutil.which("iscsiadm") and shutil.which("iscsid"):
            self.iscsiadm, self.iscsid = "iscsiadm", "iscsid"
        elif tools is not None and (tools / "sbin/iscsid").exists():
            self.iscsiadm, self.iscsid = str(tools / "sbin/iscsiadm"), str(tools / "sbin/iscsid")
            self.env["LD_LIBRARY_PATH"] = str(tools / "usr/lib/x86_64-linux-gnu")
        else:
            raise SystemExit(
                "no iscsiadm/iscsid in the guest: stage Debian's open-iscsi (see the docstring)"
            )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        for module in ("iscsi_tcp", "sd_mod"):
            run(["modprobe", module], check=False)
        etc = Path("/etc/iscsi")
        etc.mkdir(parents=True, exist_ok=True)
        Path("/run/lock/iscsi").mkdir(parents=True, exist_ok=True)
        (etc / "initiatorname.iscsi").write_text(f"InitiatorName={INITIATOR_IQN}\n")
        (etc / "iscsid.conf").write_text(
            "node.startup = manual\n"
            "node.session.cmds_max = 128\n"
            "node.session.queue_depth = 32\n"
            "node.session.iscsi.InitialR2T = No\n"
            "node.session.iscsi.ImmediateData = Yes\n"
            "node.session.iscsi.FirstBurstLength = 262144\n"
            "node.session.iscsi.MaxBurstLength = 16776192\n"
            "node.conn[0].iscsi.MaxRecvDataSegmentLength = 262144\n"
            "discovery.sendtargets.iscsi.MaxRecvDataSegmentLength = 32768\n"
        )
        self.proc = subprocess.Popen(
            [
                self.iscsid,
                "-f",
                "-c",
                str(etc / "iscsid.conf"),
                "-i",
                str(etc / "initiatorname.iscsi"),
            ],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None

    def adm(self, *args: str, check: bool = True) -> str:
        return run([self.iscsiadm, *args], env=self.env, check=check)

    def login(self, queue_depth: int) -> str:
        """Log in to the target over loopback; return the SCSI disk (/dev/sdX)."""
        portal = f"{PORTAL[0]}:{PORTAL[1]}"
        node = ["-m", "node", "-T", TARGET_IQN, "-p", portal]
        self.adm(*node, "-o", "new")
        self.adm(*node, "-o", "update", "-n", "node.session.queue_depth", "-v", str(queue_depth))
        self.adm(
            *node, "-o", "update", "-n", "node.session.cmds_max", "-v", str(max(128, queue_depth))
        )
        self.adm(*node, "--login")
        found: list[str] = []

        def attached() -> bool:
            out = self.adm("-m", "session", "-P", "3", check=False)
            found[:] = re.findall(r"Attached scsi disk (\w+)\s+State: running", out)
            return bool(found) and Path(f"/dev/{found[0]}").exists()

        wait_for(attached, 60, "the iSCSI disk")
        return f"/dev/{found[0]}"

    def logout(self) -> None:
        node = ["-m", "node", "-T", TARGET_IQN, "-p", f"{PORTAL[0]}:{PORTAL[1]}"]
        self.adm(*node, "--logout", check=False)
        self.adm(*node, "-o", "delete", check=False)

    def negotiated(self) -> str:
        """The session's negotiated parameters, one line."""
        out = self.adm("-m", "session", "-P", "2", check=False)
        keys = ("FirstBurstLength", "MaxBurstLength", "ImmediateData", "InitialR2T",
                "MaxRecvDataSegmentLength", "MaxXmitDataSegmentLength")  # fmt: skip
        pairs = [m for k in keys for m in re.findall(rf"({k}): (\S+)", out)[:1]]
        return ", ".join(f"{k}={v}" for k, v in pairs)


# -- LIO through the panel's engine --------------------------------------------------------------


def export(lio: Any, zvol: str, variant: Variant, size: int) -> None:
    """Export `zvol` as LUN 0 for the initiator: the engine's plan, with the variant's changes."""
    from sharing.iscsi.engine.desired import DesiredState, LunSpec, PortalSpec, TargetSpec
    from sharing.iscsi.engine.lio import kernel
    from sharing.iscsi.engine.lio.state import TPG_TAG
    from sharing.iscsi.engine.lio.steps import CreateLun, CreateSo, run_step

    portal = PortalSpec(*PORTAL)
    lun = LunSpec(0, zvol, block_size=variant.lun_block_size, serial="NASUIBENCH0", size=size)
    target = TargetSpec(TARGET_IQN, portals=(portal,), initiators=(INITIATOR_IQN,), luns=(lun,))
    desired = DesiredState(targets=(target,), portals=(portal,))
    rts = kernel.rtslib()
    if variant.plugin == "block":
        lio.apply(desired)  # exactly what the panel does
    else:
        for step in lio.plan(desired):
            if isinstance(step, CreateSo):
                so = dataclasses.replace(step.so, plugin="fileio", unmap=False)
                if variant.write_back:  # the engine cannot express write_back: rtslib directly
                    obj = rts.FileIOStorageObject(
                        so.name, dev=so.path, wwn=so.serial, write_back=True
                    )
                    obj.set_attribute("block_size", str(so.block_size))
                else:
                    run_step(dataclasses.replace(step, so=so))
            elif isinstance(step, CreateLun):
                run_step(dataclasses.replace(step, plugin="fileio"))
            else:
                run_step(step)
    tpg = rts.TPG(rts.Target(rts.FabricModule("iscsi"), TARGET_IQN, mode="lookup"), TPG_TAG)
    for name, value in variant.tpg_attributes.items():
        tpg.set_attribute(name, value)
    for name, value in variant.tpg_parameters.items():
        tpg.set_parameter(name, value)


def raise_max_sectors(dev: str, kib: int) -> None:
    """Let the initiator's disk send I/Os of up to `kib` KiB (bounded by max_hw_sectors_kb)."""
    queue = Path("/sys/block") / Path(dev).name / "queue"
    hw = int((queue / "max_hw_sectors_kb").read_text())
    (queue / "max_sectors_kb").write_text(str(min(kib, hw)))


def disk_facts(dev: str) -> str:
    """What the initiator's SCSI disk reports: queue depth, cache mode (WCE), FUA, max I/O."""
    block = Path("/sys/block") / Path(dev).name
    facts = {"queue_depth": block / "device/queue_depth",
             "max_sectors_kb": block / "queue/max_sectors_kb"}  # fmt: skip
    for disk in (block / "device/scsi_disk").glob("*"):
        facts["cache_type"] = disk / "cache_type"
        facts["FUA"] = disk / "FUA"
    shown = [f"{k}={v.read_text().strip()}" for k, v in facts.items() if v.exists()]
    return f"{dev} " + " ".join(shown)


def so_summary() -> str:
    """The exported storage object's plugin and cache-related attributes."""
    from sharing.iscsi.engine.lio import kernel

    root = kernel.root()
    parts = []
    for so in root.storage_objects:
        attrs = {a: so.get_attribute(a) for a in SO_ATTRIBUTES}
        parts.append(f"{so.plugin} {so.name}: " + " ".join(f"{k}={v}" for k, v in attrs.items()))
    return "; ".join(parts)


# -- fio -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    mbs: float
    iops: float
    cpu: float  # share of all the guest's CPUs busy during the job (0-1)


def cpu_times() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


def fio(dev: str, profile: Profile, runtime: int, size: int) -> Result:
    """One fio job on `dev`: MB/s (10^6) and IOPS of its direction."""
    argv = ["fio", "--name=bench", f"--filename={dev}", f"--rw={profile.rw}", f"--bs={profile.bs}",
            f"--iodepth={profile.depth}", "--ioengine=libaio", "--direct=1", "--time_based",
            f"--runtime={runtime}", "--ramp_time=1", f"--size={size}", "--norandommap",
            "--randrepeat=0", "--output-format=json"]  # fmt: skip
    if profile.sync:
        argv.append("--sync=1")
    busy0, total0 = cpu_times()
    out = run(argv)
    busy1, total1 = cpu_times()
    job = json.loads(out)["jobs"][0]
    side = job["write" if "write" in profile.rw else "read"]
    seconds = max(side["runtime"], 1) / 1000  # ms, without the ramp
    cpu = (busy1 - busy0) / max(total1 - total0, 1)
    return Result(side["io_bytes"] / seconds / 1e6, side["total_ios"] / seconds, cpu)


def prefill(dev: str, size: int) -> None:
    """Write the whole device once, so reads never hit holes."""
    run(["fio", "--name=fill", f"--filename={dev}", "--rw=write", "--bs=1M", "--iodepth=8",
         "--ioengine=libaio", "--direct=1", f"--size={size}", "--output-format=terse"])  # fmt: skip


# -- ZFS -------------------------------------------------------------------------------------------


@contextmanager
def pool(disks: Sequence[str]) -> Iterator[Any]:
    """A striped pool over `disks` through the panel's ZFS engine; destroyed afterwards."""
    from storage.zfs.base import PoolLayout
    from storage.zfs.cli import CliZfsEngine

    engine = CliZfsEngine()
    engine.create_pool(POOL, PoolLayout.single("stripe", list(disks)), force=True)
    try:
        yield engine
    finally:
        run(["zpool", "destroy", "-f", POOL], check=False)


def zvol_for(engine: Any, variant: Variant, size: int) -> str:
    """The zvol of this variant's volblocksize (made on first use), with its sync setting."""
    name = f"{POOL}/vol{variant.volblocksize // 1024}k"
    dev = f"/dev/zvol/{name}"
    if not Path(dev).exists():
        engine.create_zvol(name, size=size, volblocksize=variant.volblocksize)
        wait_for(lambda: Path(dev).exists(), 60, dev)
        prefill(dev, size)
    engine.set_properties(name, {"sync": variant.sync})
    return dev


# -- the run ---------------------------------------------------------------------------------------


Pair = tuple[Result, Result]  # (direct on the zvol, through iSCSI)


def table(variant: Variant, pairs: dict[str, Pair]) -> None:
    """Print one variant's table: each profile on the zvol, then through iSCSI, back to back."""
    print("| profile | direct MB/s | direct IOPS | CPU | iSCSI MB/s | iSCSI IOPS | CPU | ratio "
          "| target | met? |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for profile in variant.profiles():
        d, i = pairs[profile.name]
        ratio = ratio_of(d, i)
        met = "yes" if ratio >= profile.target else "no"
        cells = (profile.name, f"{d.mbs:.1f}", f"{d.iops:.0f}", f"{d.cpu:.0%}",
                 f"{i.mbs:.1f}", f"{i.iops:.0f}", f"{i.cpu:.0%}", f"{ratio:.2f}",
                 str(profile.target), met)  # fmt: skip
        print("| " + " | ".join(cells) + " |")
    sys.stdout.flush()


def ratio_of(direct: Result, iscsi: Result) -> float:
    """iSCSI over direct (IOPS; the block size is the same)."""
    return iscsi.iops / direct.iops if direct.iops else 0.0


def summary(results: dict[str, dict[str, Pair]]) -> None:
    """Every variant's ratio side by side (- where a variant skipped the profile)."""
    keys = list(results)
    print("### ratios iSCSI/direct per variant (each pair measured back to back)")
    print("| profile | target | " + " | ".join(keys) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in keys) + " |")
    for profile in PROFILES:
        cells = [profile.name, str(profile.target)]
        for key in keys:
            pair = results[key].get(profile.name)
            cells.append(f"{ratio_of(*pair):.2f}" if pair else "-")
        print("| " + " | ".join(cells) + " |")
    print("\n### iSCSI IOPS per variant")
    print("| profile | " + " | ".join(keys) + " |")
    print("| --- | " + " | ".join("---:" for _ in keys) + " |")
    for profile in PROFILES:
        cells = [profile.name]
        for key in keys:
            pair = results[key].get(profile.name)
            cells.append(f"{pair[1].iops:.0f}" if pair else "-")
        print("| " + " | ".join(cells) + " |")


def probe_block_wce() -> str:
    """Whether LIO lets the panel turn on emulate_write_cache on an iblock (zvol) object."""
    from sharing.iscsi.engine.lio import kernel

    rts = kernel.rtslib()
    for so in kernel.root().storage_objects:
        before = so.get_attribute("emulate_write_cache")
        try:
            so.set_attribute("emulate_write_cache", "1")
        except rts.RTSLibError as exc:
            return f"emulate_write_cache=1 on iblock refused: {exc}"
        after = so.get_attribute("emulate_write_cache")
        so.set_attribute("emulate_write_cache", before)
        return f"emulate_write_cache on iblock: {before} -> 1 accepted (reads back {after})"
    return "no storage object"


def bench(args: argparse.Namespace) -> None:
    from sharing.iscsi.engine.lio import LioEngine

    wanted = args.variants.split(",") if args.variants else [v.key for v in VARIANTS]
    variants = [v for v in VARIANTS if v.key in wanted]
    size = args.size_mib * MIB
    t_start = time.monotonic()
    initiator = Initiator(Path(args.tools) if args.tools else None)
    initiator.start()
    lio = LioEngine(save_file=Path(tempfile.mkdtemp(prefix="liobench-")) / "saveconfig.json")
    lio.start()
    print(f"fio {run(['fio', '--version']).strip()}, runtime {args.runtime} s per job (+1 s ramp), "
          f"zvol {args.size_mib} MiB on a stripe of {len(args.disks)} virtio disks; each profile "
          "runs on the zvol, then at once through iSCSI; "
          "ratio = iSCSI IOPS / direct IOPS\n")  # fmt: skip
    results: dict[str, dict[str, Pair]] = {}
    try:
        with pool(args.disks) as engine:
            for variant in variants:
                t0 = time.monotonic()
                zvol = zvol_for(engine, variant, size)
                export(lio, zvol, variant, size)
                dev = initiator.login(variant.queue_depth)
                try:
                    print(f"### {variant.key}: {variant.title}")
                    print(f"LIO: {so_summary()}")
                    if variant.initiator_max_kb:
                        raise_max_sectors(dev, variant.initiator_max_kb)
                    print(f"initiator: {disk_facts(dev)}; {initiator.negotiated()}")
                    if variant.key == "base":
                        print(probe_block_wce())
                    sys.stdout.flush()
                    pairs: dict[str, Pair] = {}
                    for p in variant.profiles():
                        pairs[p.name] = (
                            fio(zvol, p, args.runtime, size),
                            fio(dev, p, args.runtime, size),
                        )
                finally:
                    initiator.logout()
                    lio.stop()
                results[variant.key] = pairs
                table(variant, pairs)
                print(f"({time.monotonic() - t0:.0f} s)\n")
            summary(results)
    finally:
        initiator.stop()
        lio.stop()
    print(f"\ntotal {time.monotonic() - t_start:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command")
    staging = sub.add_parser("stage", help="host: unpack Debian's open-iscsi into DIR")
    staging.add_argument("dir")
    parser.add_argument("--tools", help="staged open-iscsi (guest path), if not installed")
    parser.add_argument(
        "--disks", nargs="+", help="blank disks to WIPE for the pool (in the VM: vda-vdd)"
    )
    parser.add_argument("--size-mib", type=int, default=256, help="zvol size (default 256)")
    parser.add_argument("--runtime", type=int, default=3, help="seconds per fio job (default 3)")
    keys = ",".join(v.key for v in VARIANTS)
    parser.add_argument("--variants", help=f"comma-separated subset of {keys}")
    args = parser.parse_args()
    if args.command != "stage" and not args.disks:
        if socket.gethostname() != VM_HOSTNAME:
            parser.error("--disks is required outside the ZFS VM (the disks are wiped)")
        args.disks = ["/dev/vda", "/dev/vdb", "/dev/vdc", "/dev/vdd"]
    if args.command == "stage":
        stage(Path(args.dir))
    else:
        bench(args)


if __name__ == "__main__":
    main()
