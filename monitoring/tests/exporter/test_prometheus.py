"""A real Prometheus (Debian's) scrapes /metrics on Django's live server with the example
configuration and the token in a credentials file, and answers queries with the stored figures.
Nothing is skipped: without /usr/bin/prometheus the test fails."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from monitoring.exporter.engine.config import scrape_config
from nasui.lib.net import free_loopback_port

from .conftest import HOST_VALUES, POOL_VALUES

pytestmark = pytest.mark.django_db(transaction=True)
PROMETHEUS = "/usr/bin/prometheus"
WAIT_SECONDS = 60.0


@pytest.fixture
def prometheus(live_server, tmp_path: Path, exporter_on: str) -> Iterator[str]:
    """Prometheus scraping the live server every second; yields its API's base URL."""
    assert Path(PROMETHEUS).exists(), f"{PROMETHEUS} is missing: apt-get install prometheus"
    token_file = tmp_path / "nasui.token"
    token_file.write_text(exporter_on + "\n")
    target = live_server.url.split("://", 1)[1]
    config = tmp_path / "prometheus.yml"
    example = scrape_config(target, scheme="http", credentials_file=str(token_file), interval="1s")
    config.write_text(example)
    port = free_loopback_port()
    log = (tmp_path / "prometheus.log").open("wb")
    proc = subprocess.Popen(
        [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
         f"--web.listen-address=127.0.0.1:{port}"],
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def query(base: str, expr: str) -> list[dict[str, Any]]:
    """The instant vector of `expr` ([] while Prometheus is not up or has nothing yet)."""
    url = f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:  # noqa: S310 (http, built here)
            body = json.load(answer)
    except OSError:
        return []
    return list(body["data"]["result"]) if body.get("status") == "success" else []


def values_by(base: str, expr: str, label: str) -> dict[str, float]:
    """{series' `label`: value} of `expr`."""
    return {s["metric"].get(label, ""): float(s["value"][1]) for s in query(base, expr)}


def wait_for(base: str, expr: str, label: str, count: int) -> dict[str, float]:
    """The series of `expr` once `count` of them are there (fails after WAIT_SECONDS)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = values_by(base, expr, label)
        if len(found) >= count:
            return found
        time.sleep(0.5)
    raise AssertionError(f"Prometheus had no {count} series of {expr} after {WAIT_SECONDS} s")


def test_a_real_prometheus_scrapes_the_stored_pool_and_arc_figures(prometheus, stored_sample):
    pools = wait_for(prometheus, "nasui_pool_size_bytes", "pool", 2)
    assert pools == {"tank": POOL_VALUES["pool.tank.size"], "back": POOL_VALUES["pool.back.size"]}
    arc = wait_for(prometheus, "nasui_arc_size_bytes", "job", 1)
    assert arc == {"nasui": HOST_VALUES["arc.size"]}
    health = values_by(prometheus, 'nasui_pool_health{state="DEGRADED"}', "pool")
    assert health == {"tank": 0.0, "back": 1.0}
    assert values_by(prometheus, 'up{job="nasui"}', "job") == {"nasui": 1.0}
