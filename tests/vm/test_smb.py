"""SMB on real OpenZFS: the host copies the four data kinds into lz4, gzip-6 and off datasets.

The guest serves three datasets with the panel's SmbEngine in "wrapped" mode (its private
accounts through nss_wrapper and uid_wrapper: the VM's /etc/passwd is left alone; smbd runs
as the VM's real root, so files land as root and the shares are mode 0777). Samba's
smbclient on the HOST (tests/vm/host_checks.py) puts the data kinds of tests/vm/datakinds.py
through the port scripts/zfsvm.sh forwards to the guest's 4450. Then the panel's figures
(CliZfsEngine.get_dataset) must equal `zfs get`'s, read from the same settled pool.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from vmhelpers import ask_host, wait_for

from sharing.accounts.engine.desired import Accounts, GroupSpec, UserSpec
from sharing.smb.engine import daemon as smb_daemon
from sharing.smb.engine.desired import SmbGlobals, SmbShareSpec, SmbState
from sharing.smb.engine.server import SmbEngine
from storage.zfs import naming
from storage.zfs.base import PoolLayout
from storage.zfs.cli import CliZfsEngine
from tests.vm.datakinds import KINDS

OUT = Path(os.environ.get("NASUI_VM_OUT", "/mnt/out"))
POOL = "smbpool"
SMB_PORT = 4450  # scripts/zfsvm.sh forwards a host port here
GUEST_ADDRESS = "10.0.2.15"  # qemu user-net: where forwarded connections arrive
USER, PASSWORD = "alice", "alice-vm-pw-1"
COMPRESSION = {"lz4": "lz4", "gzip6": "gzip-6", "off": "off"}  # dataset (and share) -> setting
KIND_SIZE, SEED = 2 * 1024 * 1024, 15  # 8 MiB per dataset: small enough for TCG
FIGURES = ("compressratio", "used", "logicalused", "referenced")
START_TIMEOUT = 60.0  # smbd's start under TCG takes longer than the fast lane's 15 s
VAULT, PASSPHRASE = "vault", "smb vault passphrase"
ENCRYPTED = {"encryption": "on", "keyformat": "passphrase", "keylocation": "prompt"}
HOLD = 30  # seconds the host's client keeps the vault's share open while the guest locks it


@dataclass
class Lab:
    """The pool, the running SMB engine, and what the host reported of its copies."""

    zfs: CliZfsEngine
    smb: SmbEngine
    put: dict[str, dict[str, Any]]


def smb_state(nt_hash: str) -> SmbState:
    """One share per dataset, for one user, on the guest's address and the forwarded port."""
    shares = tuple(
        SmbShareSpec(name, f"/{POOL}/{name}", users=(USER,), shadow_copy=True)
        for name in COMPRESSION
    )
    accounts = Accounts(
        users=(UserSpec(USER, 1001, "users", nt_hash=nt_hash),), groups=(GroupSpec("users", 1000),)
    )
    return SmbState(SmbGlobals(bind=(GUEST_ADDRESS,), port=SMB_PORT), shares, accounts)


def smb_checks(kind: str, **fields: Any) -> dict[str, Any]:
    """A host check of `kind` as the share's user (fields add the share, name...)."""
    return {"kind": kind, "user": USER, "password": PASSWORD, **fields}


def make_datasets(engine: CliZfsEngine) -> None:
    """One dataset per compression setting, writable by anyone (smbd writes as real root)."""
    for name, compression in COMPRESSION.items():
        engine.create_dataset(f"{POOL}/{name}", properties={"compression": compression})
        os.chmod(f"/{POOL}/{name}", 0o777)  # noqa: S103 - see the module's docstring


def start_smb(run_dir: Path) -> SmbEngine:
    """The panel's engine, its state applied (with the user's NT hash) and smbd started."""
    smb = SmbEngine(run_dir, mode="wrapped")
    smb.apply(smb_state(smb.nt_hash(USER, PASSWORD)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(smb_daemon, "START_TIMEOUT", START_TIMEOUT)
        smb.start()
    return smb


def put_everything() -> dict[str, dict[str, Any]]:
    """The host puts the four data kinds into every share; fail unless every copy succeeded."""
    checks = [smb_checks("smb_put", id=name, share=name, kinds=list(KINDS), size=KIND_SIZE,
                         seed=SEED) for name in COMPRESSION]  # fmt: skip
    put = ask_host("smb_put", checks, "smb_port")
    bad = {k: f"{v['detail']} / {v['output'][-1500:]}" for k, v in put.items() if not v["ok"]}
    if bad:
        pytest.fail(f"the host's SMB copies failed: {json.dumps(bad, indent=1)}")
    return put


@pytest.fixture(scope="module")
def lab(
    engine: CliZfsEngine,
    module_pool: Callable[..., str],
    all_disks: list[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Lab]:
    """Three datasets shared over SMB, the four data kinds put into each by the host, synced."""
    module_pool(POOL, PoolLayout(type="stripe", groups=((all_disks[0],),)))
    make_datasets(engine)
    smb = start_smb(tmp_path_factory.mktemp("smb") / "run")
    try:
        put = put_everything()
        engine.settle(POOL)
        yield Lab(engine, smb, put)
    finally:
        print(smb.log_tail())
        smb.stop()


def zfs_get(dataset: str) -> dict[str, float]:
    """`zfs get -H -p` of the figures, as numbers (the ratio without its x)."""
    argv = ["zfs", "get", "-H", "-p", "-o", "property,value", ",".join(FIGURES), dataset]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=60).stdout
    pairs = (line.split("\t") for line in out.splitlines())
    return {prop: float(value.rstrip("x")) for prop, value in pairs}


def panel(zfs: CliZfsEngine, dataset: str) -> dict[str, float]:
    """The same figures as the panel reads them."""
    found = zfs.get_dataset(dataset)
    return {prop: float(getattr(found, prop)) for prop in FIGURES}


def sha256(path: Path) -> str:
    """A file's SHA-256 as the server stores it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_panels_figures_equal_zfs_get_after_the_smb_copy(lab: Lab) -> None:
    lab.zfs.settle(POOL)
    rows = {}
    for name in COMPRESSION:
        dataset = f"{POOL}/{name}"
        rows[name] = {"panel": panel(lab.zfs, dataset), "zfs get": zfs_get(dataset)}
    print_table(rows)
    (OUT / "smb_figures.json").write_text(json.dumps(rows, indent=2))
    for name, row in rows.items():
        assert row["panel"] == row["zfs get"], name
        assert row["panel"]["logicalused"] >= len(KINDS) * KIND_SIZE, name
    ratio = {name: row["panel"]["compressratio"] for name, row in rows.items()}
    assert ratio["gzip6"] >= ratio["lz4"] > ratio["off"] == 1.0
    assert rows["gzip6"]["panel"]["used"] <= rows["lz4"]["panel"]["used"]
    assert rows["lz4"]["panel"]["used"] < rows["off"]["panel"]["used"]


def test_every_copy_succeeded_and_is_byte_identical_on_the_dataset(lab: Lab) -> None:
    for name in COMPRESSION:
        sent = lab.put[name]["sha256"]
        assert sorted(sent) == sorted(f"{kind}.bin" for kind in KINDS)
        stored = {file: sha256(Path(f"/{POOL}/{name}/{file}")) for file in sent}
        assert stored == sent, name


def print_table(rows: dict[str, dict[str, dict[str, float]]]) -> None:
    """Per dataset: compressratio, used, logicalused, as the panel and `zfs get` read them."""
    print(f"\n{'dataset':8} {'source':8} {'ratio':>6} {'used':>10} {'logicalused':>12}")
    for name, row in rows.items():
        for source, got in row.items():
            print(f"{name:8} {source:8} {got['compressratio']:6.2f} {got['used']:10.0f} "
                  f"{got['logicalused']:12.0f}")  # fmt: skip


def test_a_file_reads_back_byte_identical_over_smb(lab: Lab) -> None:
    answers = ask_host(
        "smb_get", [smb_checks("smb_get", id="get", share="gzip6", name="text.bin")], "smb_port"
    )
    assert answers["get"]["ok"], answers["get"]["output"][-1500:]
    assert answers["get"]["size"] == KIND_SIZE
    assert answers["get"]["sha256"] == lab.put["gzip6"]["sha256"]["text.bin"]


def test_a_wrong_password_is_refused(lab: Lab) -> None:
    check = smb_checks("smb_refused", id="wrong", share="lz4", password="not-" + PASSWORD)
    answers = ask_host("smb_refused", [check], "smb_port")
    assert answers["wrong"]["ok"], answers["wrong"]["output"][-1500:]
    assert lab.smb.is_running()


def test_previous_versions_are_the_task_named_snapshots(lab: Lab) -> None:
    """A snapshot named as periodic tasks name them is a Windows "Previous version"."""
    path = Path(f"/{POOL}/off/versions.txt")
    path.write_text("first")
    taken = datetime.now(UTC).replace(second=0, microsecond=0)
    lab.zfs.create_snapshot(f"{POOL}/off@{naming.render(naming.DEFAULT_SCHEMA, taken)}")
    path.write_text("second, longer")
    token = taken.strftime("@GMT-%Y.%m.%d-%H.%M.%S")
    check = smb_checks("smb_versions", id="v", share="off", name="versions.txt", token=token)
    answer = ask_host("smb_versions", [check], "smb_port")["v"]
    assert answer["ok"], answer["output"][-1500:]
    assert answer["versions"] == [token]
    assert answer["old"] == "first"


def held_by_smbd(path: str) -> bool:
    """Whether an smbd process works in `path` (a client is connected to its share)."""
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if (proc / "comm").read_text().strip() == "smbd" and str(
                (proc / "cwd").readlink()
            ).startswith(path):
                return True
        except OSError:
            continue
    return False


def test_a_locked_datasets_share_lets_go_is_refused_and_comes_back_after_the_unlock(
    lab: Lab,
) -> None:
    """As the panel locks: smbd is given the shares without the vault's, then the key goes.

    A client connected to the share must not keep ZFS from unmounting it; while locked the
    share is not offered; after the unlock it serves the same file again.
    """
    name = f"{POOL}/{VAULT}"
    lab.zfs.create_dataset(name, properties=ENCRYPTED, key=PASSPHRASE)
    os.chmod(f"/{name}", 0o777)  # noqa: S103 - see the module's docstring
    without = smb_state(lab.smb.nt_hash(USER, PASSWORD))
    vault = SmbShareSpec(VAULT, f"/{name}", users=(USER,))
    served = replace(without, shares=(*without.shares, vault))
    lab.smb.apply(served)
    one = smb_checks("smb_put", id="v", share=VAULT, kinds=["text"], size=64 * 1024, seed=SEED)
    put = ask_host("vault_put", [one], "smb_port")["v"]
    assert put["ok"], put["output"][-1500:]

    held: dict[str, dict[str, Any]] = {}
    hold = smb_checks("smb_hold", id="hold", share=VAULT, seconds=HOLD)
    client = threading.Thread(
        target=lambda: held.update(ask_host("vault_hold", [hold], "smb_port"))
    )
    client.start()
    try:
        assert wait_for(lambda: held_by_smbd(f"/{name}"), timeout=HOLD), "no client connected"
        lab.smb.apply(without)  # the panel's shares while the vault closes
        lab.zfs.unload_key(name)  # DatasetBusy if smbd still worked in it
    finally:
        client.join()
    assert lab.zfs.get_dataset(name).locked
    answer = held["hold"]
    assert "text.bin" in answer["before"], answer["output"][-1500:]
    assert "text.bin" not in answer["after"], answer["output"][-1500:]
    assert "NT_STATUS_" in answer["after"], answer["output"][-1500:]

    gone = smb_checks("smb_refused", id="gone", share=VAULT, status="NT_STATUS_BAD_NETWORK_NAME")
    refused = ask_host("vault_gone", [gone], "smb_port")["gone"]
    assert refused["ok"], refused["output"][-1500:]

    lab.zfs.load_key(name, PASSPHRASE)
    lab.zfs.mount_tree(name)
    lab.smb.apply(served)
    got = ask_host("vault_get", [smb_checks("smb_get", id="g", share=VAULT, name="text.bin")],
                   "smb_port")["g"]  # fmt: skip
    assert got["ok"], got["output"][-1500:]
    assert got["sha256"] == put["sha256"]["text.bin"]
