#!/usr/bin/env python3
"""Host side of the VM lane's iSCSI checks: real host clients against the target in the VM.

Started by scripts/zfsvm.sh on the HOST (stdlib only, not a pytest module) as
`host_checks.py OUT_DIR HOST_PORT [NFS_PORT MOUNTD_PORT [SMB_PORT]]`, where HOST_PORT is
forwarded to the guest's port 3260, NFS_PORT to its NFS port 2049, MOUNTD_PORT to its
rpc.mountd on 20048 and SMB_PORT to the SMB tests' smbd on 4450.
It idles until a guest test asks, through the shared OUT dir (the guest's /mnt/out):

  guest writes  host_req_NAME.json   {"checks": [{"id", "kind", ...}, ...]}
  host writes   host_ack_NAME        at once (so the guest knows someone is answering)
  host writes   host_res_NAME.json   {"ID": {"ok", "rc", "detail", "output"}, ...}

advise (tests/vm/advise_host.py with the repository's .venv: writes the mixed data into
OUT/mixed and the advisor's estimates on it into OUT/advised.json).
iSCSI kinds: readcap (expect size/block, optionally LBPME), inq (expect texts), qemu_io (write
then verify a pattern), write_random (qemu-io writes incompressible bytes), discard (qemu-io
discards a range: UNMAP), refused (iscsi-inq must fail with an expected message), testcu
(iscsi-test-cu families with an allow-list, a second initiator and a floor of passes).
NFS kinds (libnfs-utils; "version" 4 through NFS_PORT, 3 also through MOUNTD_PORT, no rpcbind):
nfs_ls (list, expect names), nfs_write_read (nfs-cp random bytes up, back down with
"read_version", compare; reports the sha256), nfs_refused (listing and writing must fail).
SMB kinds (Samba's smbclient through SMB_PORT, forwarded to the guest's smbd on 4450; the
password goes in an owner-only -A file): smb_put (generates the named data kinds of
tests/vm/datakinds.py from "size" and "seed" and puts them as KIND.bin; reports each file's
sha256), smb_get (gets "name" back; reports its sha256), smb_refused (a listing with the given
"password" must fail with "status", NT_STATUS_LOGON_FAILURE unless told), smb_hold (lists the
share, keeps its connection "seconds" long, lists again; reports both listings).
Everything it ran and saw also goes to OUT/host_checks.log.
The helper exits when the VM run ends (OUT/rc appears) or after its own time limit.
URLs, qemu options and iscsi-test-cu verdicts come from tests/iscsi/iscsi_clients.py, the
fast lane's client module (standard library only, like this helper).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Started as a script (`python3 tests/vm/host_checks.py`): the repository root is not on
# sys.path by itself.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.iscsi.iscsi_clients import image_opts, parse_test_cu
from tests.iscsi.iscsi_clients import url as iscsi_url
from tests.vm.datakinds import generate

# The helper must outlive every guest test: it lives as long as the VM run may (plus its
# teardown) and ends earlier with the run (OUT/rc) or when scripts/zfsvm.sh is gone.
LIMIT = float(os.environ.get("NASUI_ZFSVM_TIMEOUT", "2700")) + 300
SMB_STATUS = re.compile(r"NT_STATUS_[A-Z_]+")


def log(out: Path, text: str) -> None:
    with (out / "host_checks.log").open("a") as handle:
        handle.write(text.rstrip("\n") + "\n")


def run(out: Path, argv: list[str], timeout: float) -> tuple[int, str]:
    """Run one client with a time limit; return (status, stdout+stderr)."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
        rc, text = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        rc = -1
        partial = [
            p.decode(errors="replace") if isinstance(p, bytes) else p or ""
            for p in (exc.output, exc.stderr)
        ]
        text = f"TIMEOUT after {timeout}s: {''.join(partial)}"
    except FileNotFoundError:
        rc, text = 127, f"{argv[0]}: not installed on the host"
    shown = " ".join(re.sub(r"%[^@]*@", "%********@", a) for a in argv)
    shown = re.sub(r"password=(?:,,|[^,&\s])*", "password=********", shown)
    log(out, f"$ {shown}\n[exit {rc}]\n{text}")
    return rc, text


def url(port: int, check: dict[str, Any], *, secret: str | None = None) -> str:
    """iscsi://user%secret@127.0.0.1:PORT/IQN/LUN[?target_user=..&target_password=..]."""
    return iscsi_url(
        "127.0.0.1",
        port,
        check["target"],
        check.get("lun", 0),
        user=check.get("user") or None,
        secret=secret if secret is not None else check.get("secret"),
        target_user=check.get("target_user") or None,
        target_secret=check.get("target_secret"),
    )


def succeeded_with(rc: int, text: str, missing: list[str]) -> dict[str, Any]:
    """The verdict of a client that had to succeed and print everything expected."""
    missing = [m.strip() for m in missing]
    return {"ok": rc == 0 and not missing, "rc": rc, "detail": f"missing {missing}", "output": text}


def one(
    out: Path,
    port: int,
    check: dict[str, Any],
    nfs: tuple[int, int] | None = None,
    smb: int | None = None,
) -> dict[str, Any]:
    """Run one check; return its verdict."""
    kind = check["kind"]
    if kind == "advise":
        return advise(out, check)
    if kind.startswith("nfs_"):
        return nfs_check(out, nfs, check)
    if kind.startswith("smb_"):
        return smb_check(out, smb, check)
    ini = check["initiator"]
    if kind == "readcap":
        rc, text = run(out, ["iscsi-readcapacity16", "-i", ini, url(port, check)], 60)
        want = [f"LOGICAL BLOCK LENGTH IN BYTES:{check['block_size']}\n",
                f"Total size:{check['size']}\n"]  # fmt: skip
        if "lbpme" in check:  # thin provisioning announced (or not)
            want.append(f"LBPME:{check['lbpme']} ")
        return succeeded_with(rc, text, [w for w in want if w not in text])
    if kind == "inq":
        argv = ["iscsi-inq", "-i", ini]
        if check.get("page") is not None:
            argv += ["-e", "1", "-c", str(check["page"])]
        rc, text = run(out, [*argv, url(port, check)], 60)
        return succeeded_with(rc, text, [w for w in check.get("expect", []) if w not in text])
    if kind == "refused":
        secret = check.get("wrong_secret")
        rc, text = run(out, ["iscsi-inq", "-i", ini, url(port, check, secret=secret)], 60)
        ok = rc != 0 and check["expect"] in text
        return {
            "ok": ok,
            "rc": rc,
            "detail": f"want failure with {check['expect']!r}",
            "output": text,
        }
    if kind == "qemu_io":
        opts = image_opts(
            f"127.0.0.1:{port}",
            check["target"],
            check.get("lun", 0),
            initiator=ini,
            user=check.get("user") or None,
            secret=check.get("secret"),
        )
        pattern, length = check.get("pattern", "0xa5"), check.get("length", "1M")
        argv = ["qemu-io", "--image-opts", opts]
        argv += ["-c", f"write -P {pattern} 0 {length}", "-c", f"read -P {pattern} 0 {length}"]
        rc, text = run(out, argv, 120)
        ok = rc == 0 and "wrote " in text and "read " in text and "fail" not in text.lower()
        return {"ok": ok, "rc": rc, "detail": "write + verified read", "output": text}
    if kind in ("write_random", "discard"):
        return thin_io(out, port, check)
    if kind == "discover":
        return discover(out, port, check)
    if kind == "testcu":
        argv = ["iscsi-test-cu", "-i", ini]
        if check.get("initiator2"):  # reservation tests need a second initiator
            argv += ["-I", check["initiator2"]]
        argv += ["-d", "-t", ",".join(check["families"]), url(port, check)]
        rc, text = run(out, argv, float(check.get("timeout", 600)))
        verdicts = parse_test_cu(text)
        allowed = check.get("allow", {})
        failed = sorted(k for k, v in verdicts.items() if v == "failed")
        unexpected = [k for k in failed if k not in allowed]
        passed = sum(v == "passed" for v in verdicts.values())
        detail = (
            f"{passed} passed, {len(failed)} failed ({', '.join(failed) or 'none'}), "
            f"{sum(v == 'skipped' for v in verdicts.values())} skipped; unexpected: {unexpected}"
        )
        ok = bool(verdicts) and not unexpected and passed >= int(check.get("min_passed", 1))
        return {"ok": ok, "rc": rc, "detail": detail, "output": text[-4000:], "verdicts": verdicts}
    return {"ok": False, "rc": None, "detail": f"unknown kind {kind}", "output": ""}


def advise(out: Path, check: dict[str, Any]) -> dict[str, Any]:
    """Write the mixed data into OUT/mixed and run the advisor on it with the repo's venv."""
    repo = Path(__file__).resolve().parents[2]
    python = repo / ".venv" / "bin" / "python"
    if not python.exists():
        return {"ok": False, "rc": 127, "detail": f"{python} missing: make dev-deps", "output": ""}
    script = str(repo / "tests" / "vm" / "advise_host.py")
    argv = [str(python), script, str(out / "mixed"), str(check["size"]), str(check["seed"]),
            str(out / "advised.json")]  # fmt: skip
    rc, text = run(out, argv, 900)
    return {"ok": rc == 0, "rc": rc, "detail": f"advise_host.py exit {rc}", "output": text}


def discover(out: Path, port: int, check: dict[str, Any]) -> dict[str, Any]:
    """iscsi-ls discovery: the target must be listed, or the login refused with `refused`."""
    address = iscsi_url(
        "127.0.0.1",
        port,
        user=check.get("user") or None,
        secret=check.get("secret"),
        target_user=check.get("target_user") or None,
        target_secret=check.get("target_secret"),
    )
    rc, text = run(out, ["iscsi-ls", "-i", check["initiator"], address], 60)
    if check.get("refused"):
        ok = rc != 0 and check["refused"] in text and check["target"] not in text
        return {"ok": ok, "rc": rc, "detail": f"want {check['refused']!r}", "output": text}
    listed = f"Target:{check['target']} " in text
    return {"ok": rc == 0 and listed, "rc": rc, "detail": "target listed", "output": text}


def thin_io(out: Path, port: int, check: dict[str, Any]) -> dict[str, Any]:
    """qemu-io through the iscsi driver: write random bytes, or discard (UNMAP) a range."""
    opts = image_opts(
        f"127.0.0.1:{port}",
        check["target"],
        check.get("lun", 0),
        initiator=check["initiator"],
        user=check.get("user") or None,
        secret=check.get("secret"),
    )
    offset, length = check.get("offset", 0), check["length"]
    source = out / f"random_{check['id']}.bin"
    if check["kind"] == "write_random":
        # random bytes: compression must not hide what was written
        source.write_bytes(os.urandom(length))
        command, done = f"write -s {source} {offset} {length}", "wrote "
    else:
        # discard=unmap: qemu passes discards on (its iscsi driver sends UNMAP when LBPME)
        opts += ",discard=unmap"
        command, done = f"discard {offset} {length}", "discard "
    try:
        rc, text = run(out, ["qemu-io", "--image-opts", opts, "-c", command], 120)
    finally:
        source.unlink(missing_ok=True)
    ok = rc == 0 and done in text and "fail" not in text.lower()
    return {"ok": ok, "rc": rc, "detail": command, "output": text}


def nfs_url(
    nfs: tuple[int, int], check: dict[str, Any], name: str = "", version: int | None = None
) -> str:
    """nfs://127.0.0.1/EXPORT[/NAME]?version=V&nfsport=P[&mountport=M]&uid=U&gid=G.

    libnfs 4.0 takes no host:port; with nfsport (and mountport for v3) it asks no portmapper.
    """
    path = check["export"].rstrip("/") + (f"/{name}" if name else "")
    version = version or int(check.get("version", 4))
    uid, gid = check.get("uid", 0), check.get("gid", 0)  # AUTH_SYS: who the client claims to be
    mount = f"&mountport={nfs[1]}" if version == 3 else ""
    return f"nfs://127.0.0.1{path}?version={version}&nfsport={nfs[0]}{mount}&uid={uid}&gid={gid}"


def nfs_check(out: Path, nfs: tuple[int, int] | None, check: dict[str, Any]) -> dict[str, Any]:
    """Run one NFS client check through the forwarded NFS (and mountd) ports."""
    if nfs is None:
        return {"ok": False, "rc": None, "detail": "no NFS port forwarded", "output": ""}
    kind = check["kind"]
    if kind == "nfs_ls":
        rc, text = run(out, ["nfs-ls", nfs_url(nfs, check)], 60)
        return succeeded_with(rc, text, [n for n in check.get("expect", []) if n not in text])
    if kind == "nfs_write_read":
        return nfs_write_read(out, nfs, check)
    if kind == "nfs_refused":
        rc_ls, listing = run(out, ["nfs-ls", nfs_url(nfs, check)], 60)
        source = out / f"nfs_{check['id']}.up"
        source.write_bytes(os.urandom(4096))
        try:
            target = nfs_url(nfs, check, check["name"])
            rc_cp, copied = run(out, ["nfs-cp", str(source), target], 60)
        finally:
            source.unlink(missing_ok=True)
        ok = rc_ls != 0 and rc_cp != 0
        detail = f"want nfs-ls and nfs-cp refused: nfs-ls exit {rc_ls}, nfs-cp exit {rc_cp}"
        return {"ok": ok, "rc": rc_ls, "detail": detail, "output": listing + copied}
    return {"ok": False, "rc": None, "detail": f"unknown kind {kind}", "output": ""}


def nfs_write_read(out: Path, nfs: tuple[int, int], check: dict[str, Any]) -> dict[str, Any]:
    """nfs-cp random bytes to the export and back; they must come back byte-identical."""
    data = os.urandom(int(check["size"]))
    source, back = out / f"nfs_{check['id']}.up", out / f"nfs_{check['id']}.down"
    source.write_bytes(data)
    target = nfs_url(nfs, check, check["name"])
    reread = nfs_url(nfs, check, check["name"], check.get("read_version"))
    try:
        rc_up, up = run(out, ["nfs-cp", str(source), target], 300)
        rc_down, down = run(out, ["nfs-cp", reread, str(back)], 300)
        same = back.exists() and back.read_bytes() == data
    finally:
        source.unlink(missing_ok=True)
        back.unlink(missing_ok=True)
    digest = hashlib.sha256(data).hexdigest()
    return {
        "ok": rc_up == 0 and rc_down == 0 and same,
        "rc": rc_up or rc_down,
        "detail": f"{len(data)} bytes up and down, identical: {same}",
        "output": up + down,
        "sha256": digest,
    }


def smb_check(out: Path, smb: int | None, check: dict[str, Any]) -> dict[str, Any]:
    """Run one SMB client check through the forwarded SMB port."""
    if smb is None:
        return {"ok": False, "rc": None, "detail": "no SMB port forwarded", "output": ""}
    with tempfile.TemporaryDirectory(prefix="nasui-smb-") as tmp:
        work = Path(tmp)
        if check["kind"] == "smb_put":
            return smb_put(out, smb, check, work)
        if check["kind"] == "smb_get":
            return smb_get(out, smb, check, work)
        if check["kind"] == "smb_versions":
            return smb_versions(out, smb, check, work)
        if check["kind"] == "smb_refused":
            rc, text = smbclient(out, smb, check, "ls", work, password=check.get("password", ""))
            want = check.get("status", "NT_STATUS_LOGON_FAILURE")
            return {"ok": rc != 0 and want in text, "rc": rc, "detail": f"want {want}",
                    "output": text}  # fmt: skip
        if check["kind"] == "smb_hold":
            return smb_hold(out, smb, check, work)
    return {"ok": False, "rc": None, "detail": f"unknown kind {check['kind']}", "output": ""}


def smbclient(
    out: Path, smb: int, check: dict[str, Any], commands: str, work: Path, password: str = ""
) -> tuple[int, str]:
    """smbclient //127.0.0.1/SHARE -c COMMANDS as check["user"], in `work` (SMB3)."""
    argv = [*smbclient_argv(smb, check, work, password), "-c", commands]
    return run(out, argv, float(check.get("timeout", 300)))


def smbclient_argv(smb: int, check: dict[str, Any], work: Path, password: str = "") -> list[str]:
    """smbclient's command line for the check's share and user (the password in an -A file)."""
    conf, auth = work / "client.conf", work / "auth"
    conf.write_text("[global]\n\tclient min protocol = SMB2_02\n")
    auth.touch(mode=0o600)
    auth.write_text(f"username = {check['user']}\npassword = {password or check['password']}\n")
    argv = ["smbclient", f"//127.0.0.1/{check['share']}", "-p", str(smb), "-m", "SMB3"]
    return [*argv, "-s", str(conf), "-A", str(auth)]


def smb_verdict(rc: int, text: str, detail: str, **extra: Any) -> dict[str, Any]:
    """smbclient may exit 0 after a failed command: any NT_STATUS error fails the check."""
    statuses = SMB_STATUS.findall(text)
    ok = rc == 0 and not statuses
    return {"ok": ok, "rc": rc, "detail": f"{detail}; errors {statuses}", "output": text, **extra}


def smb_put(out: Path, smb: int, check: dict[str, Any], work: Path) -> dict[str, Any]:
    """Generate each data kind and put it on the share as KIND.bin; report the sha256s."""
    digests, commands = {}, []
    for kind in check["kinds"]:
        data = generate(kind, int(check["size"]), int(check["seed"]))
        (work / f"{kind}.bin").write_bytes(data)
        digests[f"{kind}.bin"] = hashlib.sha256(data).hexdigest()
        commands.append(f"put {work / kind}.bin {kind}.bin")
    commands.append("ls")
    rc, text = smbclient(out, smb, check, "; ".join(commands), work)
    for name in digests:
        (work / name).unlink()
    return smb_verdict(rc, text, f"put {sorted(digests)}", sha256=digests)


def smb_get(out: Path, smb: int, check: dict[str, Any], work: Path) -> dict[str, Any]:
    """Get check["name"] from the share; report its size and sha256."""
    local = work / "got.bin"
    rc, text = smbclient(out, smb, check, f"get {check['name']} {local}", work)
    data = local.read_bytes() if local.exists() else b""
    digest = hashlib.sha256(data).hexdigest() if local.exists() else None
    detail = f"got {check['name']}: {len(data)} bytes"
    return smb_verdict(rc, text, detail, sha256=digest, size=len(data))


def smb_versions(out: Path, smb: int, check: dict[str, Any], work: Path) -> dict[str, Any]:
    """List check["name"]'s previous versions (allinfo) and get the one at check["token"]."""
    local = work / "old.bin"
    commands = f"allinfo {check['name']}; get {check['token']}/{check['name']} {local}"
    rc, text = smbclient(out, smb, check, commands, work)
    versions = sorted(set(re.findall(r"@GMT-[0-9.]+-[0-9.]+", text)))
    old = local.read_text(errors="replace") if local.exists() else None
    return smb_verdict(rc, text, f"versions {versions}", versions=versions, old=old)


def smb_hold(out: Path, smb: int, check: dict[str, Any], work: Path) -> dict[str, Any]:
    """List the share, keep the connection "seconds" long, list it again (commands on stdin:
    this smbclient has no `!` to sleep between -c commands); `pwd` marks the second listing."""
    argv = smbclient_argv(smb, check, work)
    log(out, "$ " + " ".join(argv) + "  (ls; hold; pwd; ls on stdin)")
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as client:  # fmt: skip
        assert client.stdin is not None
        client.stdin.write("ls\n")
        client.stdin.flush()
        time.sleep(float(check["seconds"]))
        text, _ = client.communicate("pwd\nls\nquit\n", timeout=120)
    log(out, text)
    before, marker, after = text.partition("Current directory is")
    return {"ok": bool(marker), "rc": client.returncode, "detail": "held the connection",
            "output": text, "before": before, "after": after}  # fmt: skip


def serve(out: Path, port: int, nfs: tuple[int, int] | None = None, smb: int | None = None) -> None:
    info = {"port": port, "nfs_ports": nfs, "smb_port": smb, "pid": os.getpid()}
    (out / "host_checks.json").write_text(json.dumps(info))
    deadline = time.monotonic() + LIMIT
    parent = os.getppid()
    done: set[str] = set()
    while time.monotonic() < deadline and not (out / "rc").exists() and os.getppid() == parent:
        for req in sorted(out.glob("host_req_*.json")):
            name = req.name[len("host_req_") : -len(".json")]
            if name in done:
                continue
            done.add(name)
            (out / f"host_ack_{name}").write_text("ok\n")
            log(out, f"=== round {name} ===")
            try:
                checks = json.loads(req.read_text())["checks"]
                results = {c["id"]: one(out, port, c, nfs, smb) for c in checks}
            except Exception as exc:  # report anything to the guest rather than die silently
                results = {"helper": {"ok": False, "rc": None, "detail": repr(exc), "output": ""}}
            for key, res in results.items():
                log(out, f"--> {name}/{key}: {'PASS' if res['ok'] else 'FAIL'} {res['detail']}")
            tmp = out / f"host_res_{name}.tmp"
            tmp.write_text(json.dumps(results, indent=1))
            tmp.rename(out / f"host_res_{name}.json")
        time.sleep(0.5)


if __name__ == "__main__":
    nfs_ports = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else None
    smb_port = int(sys.argv[5]) if len(sys.argv) > 5 else None
    serve(Path(sys.argv[1]), int(sys.argv[2]), nfs_ports, smb_port)
