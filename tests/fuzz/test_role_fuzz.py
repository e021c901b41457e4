"""The API fuzzed as the limited roles: a read-only user's requests change nothing (every write
answers 403), a sharing administrator's reach no pool, disk or system setting.

Beyond the per-response check (tests/fuzz/role_checks.py), the database and the storage
engine are read before and after: a write that answered 403 but changed something anyway
would show there.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User

from access.audit.models import AuditEntry
from access.users import services as users
from access.users.engine import roles
from nasui import services
from tests.fuzz.test_api_fuzz import REPORTS, schemathesis

pytestmark = [
    pytest.mark.fuzz,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(900),
]
# Every write is refused on its path before its body is read: a few examples of each
# operation, without the stateful chains (which need writes to pass), reach them all.
CONFIG = """
generation.max-examples = 3
"""
CHECKS = "not_a_server_error,writes_are_refused"
WRITES = ("POST", "PUT", "PATCH", "DELETE")
REPO = Path(__file__).resolve().parents[2]
# What a refused request may still change: the session and lock-out records of a login, a
# token's last use; what reading the alerts writes (the panel's record of what it saw); and
# the audit log, which records every refusal (checked on its own below).
UNTRACKED = {
    "access.auditentry",
    "sessions.session",
    "axes.accessattempt",
    "axes.accesslog",
    "axes.accessfailurelog",
    "monitoring.alertrecord",
}


def defaults_made() -> None:
    """Make the rows a first read makes (one-row settings, each pool's scrub task) so that
    a read does not count as a change."""
    from nasui.models import SettingsRow
    from storage.scrub.services import scrub_tasks

    for model in apps.get_models():
        if issubclass(model, SettingsRow):
            model.load()
    scrub_tasks()


def fingerprint() -> dict[str, str]:
    """A digest of every table the panel keeps (tokens without their last use)."""
    digests = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in UNTRACKED:
            continue
        rows = list(model._default_manager.order_by("pk").values())
        for row in rows:
            row.pop("last_used_at", None)
            row.pop("last_used_from", None)
            row.pop("last_login", None)
        digests[label] = hashlib.sha256(json.dumps(rows, default=str).encode()).hexdigest()
    return digests


def storage_state() -> list[str]:
    """Every dataset, zvol and snapshot with its properties, as the engine lists them."""
    from storage.engine import get_engine

    engine = get_engine()
    found: list[Any] = [*engine.list_datasets("tank")]
    found += engine.list_snapshots("tank", recursive=True)
    # Everything but when its figures were read (a read's time, not a change).
    return sorted(repr({**asdict(item), "figures_read_at": None}) for item in found)


def token_of(role: str) -> str:
    """A token of a new user with `role`."""
    user = users.user_create(username=f"fuzz-{role}", password="a long fuzz passphrase", role=role)
    assert isinstance(user, User)
    return services.api_token_create(user=user, name="fuzz")[1]


def run_as(live_server, role: str, allowed: str = "") -> tuple[dict[str, str], list[str]]:
    """Fuzz the API with a token of `role`; the database's and the engine's state before."""
    token = token_of(role)
    defaults_made()
    before, engine_before = fingerprint(), storage_state()
    result = schemathesis(
        live_server.url,
        token,
        CONFIG,
        CHECKS,
        "examples,fuzzing",
        REPORTS / role,
        env={
            "SCHEMATHESIS_HOOKS": "tests.fuzz.role_checks",
            "PYTHONPATH": str(REPO),
            "NASUI_FUZZ_WRITES_ALLOWED": allowed,
        },
        only=WRITES,  # reads are every role's: the runs spend their time on the writes
    )
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
    return before, engine_before


def test_a_read_only_user_changes_nothing(live_server, one_of_each, advisor_runs_stay_queued):
    before, engine_before = run_as(live_server, roles.READ_ONLY)
    assert fingerprint() == before
    assert storage_state() == engine_before
    # The audit log saw the writes asked for, every one refused.
    asked = AuditEntry.objects.filter(username=f"fuzz-{roles.READ_ONLY}")
    assert asked.exists()
    assert set(asked.values_list("result", flat=True)) == {"refused"}


def test_a_sharing_administrator_reaches_no_pool_disk_or_system_setting(
    live_server, one_of_each, advisor_runs_stay_queued
):
    """Its writes to shares, their users and the sharing services may pass (a share's wizard
    may make the dataset it shares); no other table changes."""
    # (and the snapshots of tank/media, which one_of_each shares)
    places = (*roles.WRITES[roles.SHARING], *roles.SHARED_SNAPSHOTS)
    before, _ = run_as(live_server, roles.SHARING, ",".join(places))
    after = fingerprint()
    changed = {label for label in before if after.get(label) != before[label]}
    assert changed <= {label for label in before if label.startswith(("sharing.", "nasui.job"))}
