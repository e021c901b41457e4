"""Polling rows stop asking while the tab is hidden, and start again when it is shown."""

from __future__ import annotations

import re

import pytest

from nasui.models import Job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HIDE = "Object.defineProperty(document, 'hidden', {value: %s, configurable: true})"


def test_a_running_jobs_row_polls_only_while_the_tab_is_visible(logged_in):
    page = logged_in
    job = Job.objects.create(kind="self_test", title="Counting", status=Job.Status.RUNNING)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if f"/jobs/{job.pk}/row/" in r.url else None)
    row = re.compile(rf"/jobs/{job.pk}/row/")
    with page.expect_request(row):
        page.goto(page.base + "/jobs/")
    page.evaluate(HIDE % "true")
    page.wait_for_timeout(300)  # a request already under way may still finish
    before = len(asked)
    page.wait_for_timeout(3000)  # three polling periods
    assert len(asked) == before
    with page.expect_request(row, timeout=5000):
        page.evaluate(HIDE % "false")
