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

from nasui import services

pytestmark = [
    pytest.mark.fuzz,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(900),
]
SEED = 20261123
EXAMPLES = int(os.environ.get("NASUI_FUZZ_EXAMPLES", "12"))
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


@pytest.fixture
def token(django_user_model) -> str:
    """A token of a superuser, as a script would hold one."""
    user = django_user_model.objects.create_superuser("fuzz", password="a long fuzz passphrase")
    return services.api_token_create(user=user, name="fuzz")[1]


@pytest.fixture
def storage(tank) -> None:
    """A pool with a dataset and a zvol, so that reads and writes meet real objects."""
    from storage.datasets import services as storage_services

    storage_services.dataset_create(parent="tank", name="media")
    storage_services.zvol_create(parent="tank", name="disk", size="64M", sparse=True)


@pytest.fixture
def advisor_runs_stay_queued(monkeypatch) -> None:
    """Advisor runs are recorded but not run: with eager jobs, an estimate of "/" or a fio run
    the fuzzer starts would run inside its request for minutes (the advisor's tests run them)."""
    from advisor.benchmarks import tasks as bench_tasks
    from advisor.estimates import tasks

    for task in (tasks.estimate, bench_tasks.benchmark, bench_tasks.fio):
        monkeypatch.setattr(task, "delay", lambda *args, **kwargs: None)


def test_no_operation_answers_5xx_or_off_its_schema(
    live_server, storage, token, advisor_runs_stay_queued
):
    schemathesis = Path(sys.executable).with_name("schemathesis")
    argv = [
        str(schemathesis),
        "run",
        f"{live_server.url}/api/schema/",
        "--header",
        f"Authorization: Token {token}",
        "--checks",
        CHECKS,
        "--max-examples",
        str(EXAMPLES),
        "--seed",
        str(SEED),
        "--generation-database",
        "none",
        "--phases",
        os.environ.get("NASUI_FUZZ_PHASES", "examples,fuzzing,stateful"),
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--report",
        "junit",
        "--report-dir",
        str(REPORTS),
        "--no-color",
    ]
    REPORTS.mkdir(parents=True, exist_ok=True)
    # Run from the reports folder: schemathesis keeps its cache in the working directory.
    result = subprocess.run(
        argv, capture_output=True, text=True, timeout=900, check=False, cwd=REPORTS
    )
    (REPORTS / "output.txt").write_text(result.stdout + result.stderr)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
