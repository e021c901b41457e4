"""docker-compose.yml: parsed by Debian's docker-compose (no container engine runs here)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _config(*args: str) -> dict[str, Any]:
    binary = shutil.which("docker-compose")
    assert binary, "docker-compose is not installed: `make test` installs it"
    result = subprocess.run(
        [binary, "-f", str(ROOT / "docker-compose.yml"), *args, "config"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)


def test_compose_defines_web_worker_beat_and_redis_with_healthchecks():
    services = _config()["services"]
    assert set(services) >= {"web", "worker", "beat", "redis"}
    for name, service in services.items():
        assert service["healthcheck"]["test"], name
    assert services["worker"]["command"][:4] == ["celery", "-A", "nasui", "worker"]
    assert services["web"]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_postgres_is_an_optional_profile():
    services = _config("--profile", "postgres")["services"]
    assert services["postgres"]["profiles"] == ["postgres"]
    assert all("profiles" not in services[name] for name in ("web", "worker", "beat", "redis"))
    assert services["postgres"]["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
