"""Fixtures for the whole fast suite: a real Redis, a real Celery worker, sandbox storage."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nasui.lib.net import free_loopback_port
from storage.pools import services as pool_services
from tests.folders import traversable

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run
# under a running loop unless told that this (single-threaded test) use is fine.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parent


def _wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answered on 127.0.0.1:{port} within {timeout} s")


@pytest.fixture(scope="session", autouse=True)
def redis_url() -> Iterator[str]:
    """A private redis-server for the suite; the cache and Celery are pointed at it."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.exit("redis-server is not installed: run `make test`, which installs it", 2)
    port = free_loopback_port()
    workdir = tempfile.mkdtemp(prefix="nasui-redis-")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", workdir],
        stdout=subprocess.DEVNULL,
    )
    _wait_for_port(port)
    url = f"redis://127.0.0.1:{port}/0"
    _point_at_redis(url)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


def _point_at_redis(url: str) -> None:
    """Aim Django's cache and Celery at the suite's Redis (before either connected anywhere)."""
    from django.conf import settings

    from nasui.celery import app

    os.environ["NASUI_REDIS_URL"] = url
    settings.CACHES["default"]["LOCATION"] = url
    settings.CELERY_BROKER_URL = url
    app.conf.update(broker_url=url)


@pytest.fixture(autouse=True)
def _empty_cache(redis_url: str) -> None:
    """Each test starts with an empty cache (throttling counters, heartbeats)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def celery_worker_process(
    redis_url: str, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `celery worker` process using the suite's Redis and test database."""
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    argv = ["worker", "--pool=solo", "--loglevel=INFO", "--without-mingle", "--without-gossip"]
    with _celery(argv, log, "ready.", NASUI_REDIS_URL=redis_url) as proc:
        yield proc


@pytest.fixture
def celery_beat_process(
    redis_url: str, celery_worker_process: subprocess.Popen[bytes], tmp_path: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `celery beat` (temporary schedule file) sampling every second, for one test."""
    argv = ["beat", "--loglevel=INFO", "--schedule", str(tmp_path / "beat-schedule")]
    env = {"NASUI_REDIS_URL": redis_url, "NASUI_SAMPLE_SECONDS": "1"}
    with _celery(argv, tmp_path / "beat.log", "beat: Starting", **env) as proc:
        yield proc
    # a task already handed to the worker may still be writing: let it finish
    time.sleep(1.5)


@pytest.fixture
def celery_worker_with_beat_thread(
    redis_url: str, django_db_setup: None, tmp_path: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """The appliance's worker: a thread pool with beat as a thread of it, sampling every second."""
    argv = ["worker", "--pool=threads", "--concurrency=2", "--beat-thread", "--loglevel=INFO"]
    argv += ["--schedule", str(tmp_path / "beat-schedule"), "--without-mingle", "--without-gossip"]
    env = {"NASUI_REDIS_URL": redis_url, "NASUI_SAMPLE_SECONDS": "1"}
    with _celery(argv, tmp_path / "worker.log", "ready.", **env) as proc:
        yield proc
    time.sleep(1.5)  # a task already running may still be writing


@pytest.fixture
def disposable_celery_worker(
    redis_url: str, django_db_setup: None, tmp_path: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A worker of its own (solo pool: jobs run in its one process) that a test may kill."""
    argv = ["worker", "--pool=solo", "--loglevel=INFO", "--without-mingle", "--without-gossip"]
    argv += ["--queues", "disposable"]
    with _celery(argv, tmp_path / "worker.log", "ready.", NASUI_REDIS_URL=redis_url) as proc:
        yield proc


@contextlib.contextmanager
def _celery(
    argv: list[str], log: Path, ready: str, **env: str
) -> Iterator[subprocess.Popen[bytes]]:
    """A celery process on the suite's test database, stopped (killed if need be) at the end."""
    from django.conf import settings

    database = f"sqlite:///{settings.DATABASES['default']['NAME']}"
    command = [sys.executable, "-m", "celery", "-A", "nasui", *argv]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "NASUI_DATABASE_URL": database, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for_log(log, ready, proc)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def _wait_for_log(log: Path, needle: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if needle in log.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError(f"celery worker did not start:\n{log.read_text(errors='replace')}")


# -- storage on the sandbox engine, for storage and sharing tests ----------------------------
@pytest.fixture
def sandbox(settings, tmp_path: Path) -> Iterator[object]:
    """A sandbox engine with six 4 GiB disk files, used by every storage call in the test."""
    from storage.engine import get_engine

    traversable(tmp_path)  # its pools are shared to users, as a NAS's are
    settings.NASUI_ZFS_ENGINE = "sandbox"
    settings.NASUI_SANDBOX_DIR = tmp_path / "sandbox"
    settings.NASUI_SANDBOX_DISKS = 6
    settings.NASUI_SANDBOX_DISK_GIB = 4
    get_engine.cache_clear()
    yield get_engine()
    get_engine.cache_clear()


@pytest.fixture
def eager_jobs(monkeypatch) -> Iterator[None]:
    """Run job tasks in this process at once (the real task code, without a broker).

    The test's transaction never commits, so on_commit runs its callback immediately here;
    the worker tests and browser tests cover the real hand-over through Redis.
    """
    from nasui.celery import app

    monkeypatch.setattr("nasui.services.transaction.on_commit", lambda callback: callback())
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture
def tank(sandbox, eager_jobs, admin_user):
    """A raidz1 pool named tank on sda, sdb, sdc."""

    pool_services.pool_create(
        name="tank", layout="raidz1", disks=["sda", "sdb", "sdc"], user=admin_user
    )
    return sandbox


# -- the panel's own iSCSI target (tgt), for sharing and browser tests --------------------------
@pytest.fixture
def target_service(settings, tmp_path: Path) -> Iterator[int]:
    """The panel's own tgt engine in a private data dir, started like the supervisor does."""
    settings.DATA_DIR = tmp_path / "data"
    settings.NASUI_ISCSI_ENGINE = "tgt"
    from sharing.iscsi import runtime

    runtime.engine.cache_clear()
    port = free_loopback_port()
    runtime.IscsiRuntime().control("start")
    try:
        yield port
    finally:
        runtime.engine().stop()
        runtime.engine.cache_clear()


# -- the panel's own SMB server (a wrapped smbd), for sharing and browser tests ----------------


@pytest.fixture
def smb_service(settings, tmp_path: Path) -> Iterator[int]:
    """The panel's own smbd (a wrapped one) in a private data dir, on a free port."""
    traversable(tmp_path)
    settings.DATA_DIR = tmp_path / "data"
    settings.NASUI_SMB_MODE = "wrapped"
    settings.NASUI_SMB_PORT = free_loopback_port()
    from sharing.smb import runtime as smb_runtime

    smb_runtime.smb_engine.cache_clear()
    smb_runtime.SmbRuntime().control("start")
    try:
        yield settings.NASUI_SMB_PORT
    finally:
        smb_runtime.smb_engine().stop()
        smb_runtime.smb_engine.cache_clear()
