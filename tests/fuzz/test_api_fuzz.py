"""The API fuzzed from its own OpenAPI schema (schemathesis): no 5xx, no answer off its schema.

Every operation, a fixed seed and a bounded number of cases, the stateful phase included (it
chains creates to reads, updates and deletes through the schema's links). The server is the
real panel on Django's live server over the sandbox engine, with a token like a script's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.fuzz,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(900),
]
SEED = 20261123
EXAMPLES = int(os.environ.get("NASUI_FUZZ_EXAMPLES", "12"))
# The stateful phase follows the schema's links (nasui.api.links) from creates, lists and job
# starts to what they name: more scenarios and steps than the other phases' examples, so that it
# reaches the reads, updates and deletes of the objects it made.
STATEFUL = int(os.environ.get("NASUI_FUZZ_STATEFUL_EXAMPLES", "40"))
CONFIG = f"""
generation.max-examples = {EXAMPLES}

[phases.stateful]
max-steps = 12
generation.max-examples = {STATEFUL}
"""
CHECKS = ",".join(
    (
        "not_a_server_error",
        "response_schema_conformance",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
    )
)
REPORTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "fuzz"


def test_no_operation_answers_5xx_or_off_its_schema(
    live_server, one_of_each, token, advisor_runs_stay_queued
):
    phases = os.environ.get("NASUI_FUZZ_PHASES", "examples,fuzzing,stateful")
    result = schemathesis(live_server.url, token, CONFIG, CHECKS, phases, REPORTS)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]


def schemathesis(
    url: str,
    token: str,
    config: str,
    checks: str,
    phases: str,
    reports: Path,
    env: dict[str, str] | None = None,
    only: tuple[str, ...] = (),
) -> subprocess.CompletedProcess[str]:
    """Run schemathesis on the live server's schema with `token` (`only` these methods, if
    given); keep its output in `reports`."""
    program = Path(sys.executable).with_name("schemathesis")
    reports.mkdir(parents=True, exist_ok=True)
    (reports / "schemathesis.toml").write_text(config)
    argv = [
        str(program),
        "--config-file",
        str(reports / "schemathesis.toml"),
        "run",
        f"{url}/api/schema/",
        "--header",
        f"Authorization: Token {token}",
        "--checks",
        checks,
        "--seed",
        str(SEED),
        "--generation-database",
        "none",
        # A snapshot's name (dataset@snap) is a pattern few random strings match: hypothesis
        # gives up generating for it, which is about the generator, not the API.
        "--suppress-health-check",
        "filter_too_much",
        "--phases",
        phases,
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--report",
        "junit",
        "--report-dir",
        str(reports),
        "--no-color",
        *(arg for method in only for arg in ("--include-method", method)),
    ]
    # Run from the reports folder: schemathesis keeps its cache in the working directory.
    result = subprocess.run(
        argv, capture_output=True, text=True, timeout=900, check=False, cwd=reports,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    (reports / "output.txt").write_text(result.stdout + result.stderr)
    return result
