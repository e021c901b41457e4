"""Thin wrappers around the real initiators (libiscsi tools, qemu-io) used by the live tests.

The one client module of the iSCSI tests (tests/iscsi, sharing/tests, tests/browser) and of
the VM lane's host helper (tests/vm/host_checks.py, which runs it with the host's plain
python3): standard library only.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from urllib.parse import quote

INITIATOR = "iqn.2024-01.org.nasui.test:initiator"
SECOND_INITIATOR = "iqn.2024-01.org.nasui.test:second"
TIMEOUT = 60
# The iscsi-test-cu SCSI families both engines' conformance runs cover (tgt adds "iSCSI").
SCSI_FAMILIES = (
    "SCSI.Inquiry",
    "SCSI.ReadCapacity10",
    "SCSI.ReadCapacity16",
    "SCSI.Read10",
    "SCSI.Write10",
    "SCSI.TestUnitReady",
)
_CU_TEST = re.compile(r"^\s*Test: (\S+) \.\.\.(.*)$")
_CU_SUITE = re.compile(r"^Suite: (\S+)$")
# CUnit's run summary row for tests: Total, Ran, Passed, Failed, Inactive.
_CU_SUMMARY = re.compile(r"^\s*tests\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Result:
    """Exit status and combined output of one client command."""

    returncode: int
    output: str

    @property
    def ok(self) -> bool:
        """Whether the command succeeded."""
        return self.returncode == 0


def run(argv: list[str], timeout: float = TIMEOUT) -> Result:
    """Run a client with an argument list and a timeout; never a shell."""
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    return Result(proc.returncode, proc.stdout + proc.stderr)


def url(
    host: str,
    port: int,
    iqn: str = "",
    lun: int | None = None,
    *,
    user: str | None = None,
    secret: str | None = None,
    target_user: str | None = None,
    target_secret: str | None = None,
) -> str:
    """A libiscsi URL: iscsi://[user%secret@]host:port[/iqn/lun][?target_user=..&..].

    Credentials are percent-escaped: libiscsi decodes them, and a raw `%`, `@`, `/`, `?` or
    `&` would otherwise end the field early.
    """
    cred = f"{_escape(user)}%{_escape(secret or '')}@" if user else ""
    path = f"/{iqn}/{lun}" if iqn and lun is not None else ""
    query = ""
    if target_user:
        query = (
            f"?target_user={_escape(target_user)}&target_password={_escape(target_secret or '')}"
        )
    return f"iscsi://{cred}{host}:{port}{path}{query}"


def _escape(value: str) -> str:
    """A URL field with every reserved character percent-escaped (`/` too)."""
    return quote(value, safe="")


def image_opts(
    portal: str,
    iqn: str,
    lun: int,
    *,
    initiator: str = INITIATOR,
    user: str | None = None,
    secret: str | None = None,
) -> str:
    """qemu's `--image-opts` for one LUN through its iSCSI driver (`portal` is `IP:PORT`).

    qemu splits options at `,`; a value keeps a comma by doubling it.
    """
    opts = {
        "driver": "iscsi",
        "transport": "tcp",
        "portal": portal,
        "target": iqn,
        "lun": str(lun),
        "initiator-name": initiator,
    }
    if user is not None:
        opts.update(user=user, password=secret or "")
    return ",".join(f"{key}={value.replace(',', ',,')}" for key, value in opts.items())


def discover(address: str, initiator: str = INITIATOR) -> tuple[Result, list[str]]:
    """`iscsi-ls` discovery: the result and the target names it listed."""
    result = run(["iscsi-ls", "-i", initiator, address])
    names = re.findall(r"^Target:(\S+) Portal:", result.output, flags=re.MULTILINE)
    return result, names


def list_luns(address: str, initiator: str = INITIATOR) -> Result:
    """`iscsi-ls -s`: targets with their LUNs."""
    return run(["iscsi-ls", "-s", "-i", initiator, address])


def read_capacity(lun_url: str, initiator: str = INITIATOR) -> tuple[Result, int, int]:
    """`iscsi-readcapacity16`: the result, total size in bytes and logical block size."""
    result = run(["iscsi-readcapacity16", "-i", initiator, lun_url])
    size = re.search(r"^Total size:(\d+)", result.output, flags=re.MULTILINE)
    block = re.search(r"^LOGICAL BLOCK LENGTH IN BYTES:(\d+)", result.output, flags=re.MULTILINE)
    return result, int(size.group(1)) if size else -1, int(block.group(1)) if block else -1


def size_only(lun_url: str, initiator: str = INITIATOR) -> int:
    """`iscsi-readcapacity16 -s`: just the size in bytes (-1 on failure)."""
    result = run(["iscsi-readcapacity16", "-s", "-i", initiator, lun_url])
    text = result.output.strip()
    return int(text) if result.ok and text.isdigit() else -1


def qemu_io(
    port: int,
    iqn: str,
    lun: int,
    commands: list[str],
    *,
    initiator: str = INITIATOR,
    user: str | None = None,
    secret: str | None = None,
) -> Result:
    """Run qemu-io commands (`write -P 0xa5 0 1M`, `read -P 0xa5 0 1M`) against one LUN."""
    opts = image_opts(f"127.0.0.1:{port}", iqn, lun, initiator=initiator, user=user, secret=secret)
    argv = ["qemu-io", "--image-opts", opts]
    for command in commands:
        argv += ["-c", command]
    return run(argv)


def parse_test_cu(text: str) -> dict[str, str]:
    """iscsi-test-cu output -> {"Suite.Test": "passed" | "failed" | "skipped"}.

    A test's verdict may come lines after its `Test:` line (skip messages come between).
    """
    results: dict[str, str] = {}
    suite = ""
    pending: str | None = None
    for line in text.splitlines():
        suite_match = _CU_SUITE.match(line)
        if suite_match:
            suite, pending = suite_match.group(1), None
            continue
        test = _CU_TEST.match(line)
        rest = line
        if test:
            pending = f"{suite}.{test.group(1)}"
            rest = test.group(2)
        if pending is None:
            continue
        verdict = _verdict(rest)
        if verdict:
            skipped = "[SKIPPED]" in rest or results.get(pending) == "skipped"
            results[pending] = "skipped" if skipped and verdict == "passed" else verdict
            pending = None
        elif "[SKIPPED]" in rest:
            results[pending] = "skipped"
    return results


def _verdict(text: str) -> str:
    """'passed' / 'failed' if the line ends a test, else ''."""
    stripped = text.strip()
    if stripped.endswith("passed"):
        return "passed"
    if stripped.endswith("FAILED"):
        return "failed"
    return ""


@dataclass(frozen=True)
class CuSummary:
    """CUnit's count of tests: a skipped test counts as passed, as iscsi-test-cu reports it."""

    total: int
    ran: int
    passed: int
    failed: int


def parse_test_cu_summary(text: str) -> CuSummary | None:
    """The `tests` row of iscsi-test-cu's run summary, or None if the run did not finish."""
    match = _CU_SUMMARY.search(text)
    if match is None:
        return None
    total, ran, passed, failed = (int(group) for group in match.groups())
    return CuSummary(total, ran, passed, failed)


def run_test_cu(
    lun_url: str, families: list[str], timeout: float = 180
) -> tuple[Result, dict[str, str]]:
    """Run iscsi-test-cu for some families against one LUN and parse per-test verdicts.

    Two initiator names: the reservation tests log in a second time as `-I` and need it
    admitted; `-d` allows the tests that write.
    """
    argv = ["iscsi-test-cu", "-i", INITIATOR, "-I", SECOND_INITIATOR, "-d"]
    argv += ["-t", ",".join(families), lun_url]
    result = run(argv, timeout=timeout)
    return result, parse_test_cu(result.output)


def vpd_page(lun_url: str, page: int, initiator: str = INITIATOR) -> tuple[Result, dict[str, str]]:
    """`iscsi-inq -e 1 -c PAGE`: the result and the page's `name:value` lines as a dict."""
    result = run(["iscsi-inq", "-i", initiator, "-e", "1", "-c", str(page), lun_url])
    fields: dict[str, str] = {}
    for line in result.output.splitlines():
        name, sep, value = line.rpartition(":")
        if sep and name.strip():
            fields[name.strip()] = value.strip()
    return result, fields
