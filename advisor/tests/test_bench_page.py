"""The benchmark's page: the recommendation at the top, in words, and what the sample was."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from advisor.benchmarks.engine.recommend import recommend
from advisor.tests.test_views import BENCHMARK, make_run

pytestmark = pytest.mark.django_db
SAMPLE = {
    "bytes": 64 * 1024 * 1024,
    "files": 4,
    "whole_files": 0,
    "source_files": 4,
    "source_bytes": 192 * 1024 * 1024,
    "chunk_bytes": 1024 * 1024,
    "seed": 1,
    "description": "Sample: 64.0 MiB of 192.0 MiB from 4 of 4 files "
    "(random files, large ones in 1 MiB chunks spread over them).",
}


def _page(client: Any, *, compresses: bool) -> str:
    result = copy.deepcopy(BENCHMARK)
    result["recommendation"] = recommend(result["rows"], speeds=compresses).as_dict()
    result |= {"sample": SAMPLE, "compresses_on_write": compresses}
    run = make_run("benchmark", result=result)
    return str(client.get(f"/advisor/runs/{run.pk}/").content.decode())


def _card(page: str) -> str:
    """The recommendation card's HTML."""
    return page.split('data-testid="recommendation"', 1)[1].split('<div class="card mb-3">')[0]


def test_with_a_compressing_engine_the_card_names_the_setting_and_its_speed(admin_client):
    page = _page(admin_client, compresses=True)
    card = _card(page)
    assert "Recommended: LZ4" in card
    assert "(390 against 410 MB/s)" in card
    assert "GZIP level 6 saves a further 11%" in card  # when the stronger level pays
    assert 'data-testid="speed-note"' not in card
    assert "This sandbox does not compress while writing" not in page


def test_on_the_sandbox_the_card_rests_on_space_and_says_why(admin_client):
    page = _page(admin_client, compresses=False)
    card = _card(page)
    assert "Recommended: ZSTD (level 3)" in card
    assert "MB/s" not in card
    assert 'data-testid="speed-note"' in card
    assert "Speeds are not used: this sandbox does not compress while writing" in card
    assert "This sandbox does not compress while writing" in page  # under the table too
    assert 'data-testid="recommendation-stronger"' in card


def test_the_page_says_what_the_sample_was(admin_client):
    page = _page(admin_client, compresses=True)
    assert 'data-testid="sample"' in page
    assert "from 4 of 4 files (random files, large ones in 1 MiB chunks spread over them)" in page


def test_a_run_from_before_still_shows_its_recommendation(admin_client):
    run = make_run("benchmark")  # no sample, label or speed note in its result
    page = admin_client.get(f"/advisor/runs/{run.pk}/").content.decode()
    assert "Recommended: lz4" in page
    assert 'data-testid="sample"' not in page
    assert 'data-testid="speed-note"' not in page
