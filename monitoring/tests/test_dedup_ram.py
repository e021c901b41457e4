"""One formula for the dedup table's RAM: the dedup box shows one figure for the data it was
measured on, and the monitoring alert's default ARC maximum is the estimate's."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from monitoring.metrics.engine import alerts
from nasui.lib.units import format_bytes
from nasui.models import Job
from storage.zfs import dedup

pytestmark = pytest.mark.django_db
GIB = 1024**3


def _measured(place: str, **dedup_result: object) -> Job:
    result = {
        "dedup": {"ratio": 1.5, "unique_blocks": 4000, "ddt_bytes": 1_200_000,
                  "core_bytes_per_entry": 300, "per_entry_source": "pool",
                  "verdict": "worth", "reason": "It saves far more than it costs.",
                  **dedup_result},
    }  # fmt: skip
    return Job.objects.create(
        kind="advisor.estimate", title="e", status=Job.Status.SUCCEEDED, result=result,
        arguments={"source": place}, finished_at=timezone.now(),
    )  # fmt: skip


def _ram_figures(body: str) -> set[str]:
    """Every "about <size>" of the dedup box."""
    return set(re.findall(r"about (\d[\d.]* [KMGTP]?i?B)", body))


def test_the_dedup_box_of_measured_data_shows_one_ram_figure(admin_client, tank) -> None:
    _measured("tank")
    body = admin_client.get("/storage/dedup-estimate/?dedup=on&parent=tank").content.decode()
    assert 'data-testid="dedup-measured"' in body
    assert _ram_figures(body) == {format_bytes(dedup.ddt_ram_bytes(4000, 300))}
    assert "the unique blocks measured in tank" in body


def test_a_measurement_made_with_the_rule_of_thumb_is_sized_with_it_too(admin_client, tank) -> None:
    _measured("tank", per_entry_source="rule", core_bytes_per_entry=320)
    body = admin_client.get("/storage/dedup-estimate/?dedup=on&parent=tank").content.decode()
    assert _ram_figures(body) == {format_bytes(dedup.ddt_ram_bytes(4000))}


def test_the_estimate_and_the_monitoring_alert_share_the_default_arc_maximum() -> None:
    estimate = dedup.estimate_dedup(
        data_bytes=GIB, block_size=4096, ram_total=8 * GIB, arc_max=None
    )
    allowed, _ = alerts.ddt_limit({"mem.total": 8.0 * GIB}, 1.0) or (0.0, "")
    assert allowed == estimate.arc_max == dedup.arc_maximum(8 * GIB, None)
    assert estimate.ram_bytes == dedup.ddt_ram_bytes(estimate.entries)
