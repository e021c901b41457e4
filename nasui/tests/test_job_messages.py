"""A "…started" note lasts while its job runs: not on a page showing the job finished."""

from __future__ import annotations

from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.template.loader import render_to_string

from nasui.pages import JOB_STARTED

STARTED = Message(constants.SUCCESS, "Estimate started.", extra_tags=JOB_STARTED)
SAVED = Message(constants.SUCCESS, "Saved.")


def _render(job_finished: bool) -> str:
    context = {"messages": [STARTED, SAVED], "job_finished": job_finished}
    return render_to_string("partials/messages.html", context)


def test_while_the_job_runs_the_note_shows_and_goes_when_it_ends():
    page = _render(job_finished=False)
    assert "Estimate started." in page
    assert page.count("data-until-job-finished") == 1  # only the job's note goes on the event
    assert 'class="alert alert-success alert-dismissible"' in page  # the level, not the tags


def test_a_page_showing_the_job_finished_leaves_the_note_out():
    page = _render(job_finished=True)
    assert "Estimate started." not in page
    assert "Saved." in page
