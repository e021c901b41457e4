"""A user logs in, sees the dashboard, opens every section and logs out."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long test passphrase"
SECTIONS = ["Storage", "Sharing", "Monitoring", "Jobs", "Settings", "Dashboard"]


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_superuser("admin", password=PASSWORD)


def _log_in(page) -> None:
    page.goto(page.base + "/")
    assert "/login/" in page.url
    page.get_by_label("User name").fill("admin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(page.base + "/")


def test_log_in_visit_every_section_and_log_out(page, admin):
    _log_in(page)
    assert page.get_by_role("heading", name="Dashboard").is_visible()
    assert page.get_by_test_id("health").is_visible()
    nav = page.get_by_role("list", name="Main")
    for section in SECTIONS:
        nav.get_by_role("link", name=section).click()
        page.get_by_role("heading", name=section, exact=True).wait_for()
        link = nav.get_by_role("link", name=section)
        assert link.get_attribute("aria-current") == "page"
    page.get_by_test_id("logout").click()
    page.wait_for_url(re.compile(r".*/login/$"))
    page.goto(page.base + "/jobs/")
    assert "/login/" in page.url


def test_a_wrong_password_shows_a_message(page, admin):
    page.goto(page.base + "/login/")
    page.get_by_label("User name").fill("admin")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("alert").inner_text().startswith("Please enter a correct username")


def test_the_sandbox_banner_shows_on_every_page(page, admin):
    _log_in(page)
    assert "Sandbox storage engine" in page.get_by_test_id("banner").inner_text()


def test_a_token_is_created_shown_once_and_revoked(page, admin):
    _log_in(page)
    page.goto(page.base + "/settings/")
    page.get_by_label("Token name").fill("nightly report")
    page.get_by_role("button", name="Create token").click()
    key = page.locator("#new-token-key").inner_text()
    assert key.startswith("nasui_")
    page.goto(page.base + "/settings/")
    assert key not in page.content()
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('tr[data-token="nightly report"]').get_by_role("button", name="Revoke").click()
    page.get_by_text("revoked.").wait_for()


def test_a_self_test_job_updates_live_on_the_jobs_page(page, admin, celery_worker_process):
    _log_in(page)
    page.goto(page.base + "/jobs/")
    page.get_by_label("Steps").fill("6")
    page.get_by_role("button", name="Run self-test").click()
    row = page.locator("tbody tr").first
    # The row is swapped in place by htmx polling, without a page reload.
    page.wait_for_function(
        "() => document.querySelector('tbody tr').dataset.status === 'succeeded'", timeout=30_000
    )
    assert "100%" in row.inner_text()
    assert "Succeeded" in row.inner_text()


def test_the_jobs_page_follows_a_job_through_the_event_stream_not_by_polling(
    page, admin, celery_worker_process, django_user_model
):
    from nasui.services import job_start

    _log_in(page)
    page.goto(page.base + "/jobs/")
    page.wait_for_function("() => window.nasuiLive === true", timeout=10_000)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/row/" in r.url else None)
    # a slow job: four changes (running, two steps, succeeded) over about six seconds, when
    # polling would have fetched its row six times or more
    job = job_start(
        kind="self_test",
        title="Slow self-test",
        task="nasui.self_test",
        user=django_user_model.objects.get(username="admin"),
        steps=2,
        delay=3.0,
    )
    page.reload()  # the new job's row, on a page listening to the stream
    page.wait_for_function("() => window.nasuiLive === true", timeout=10_000)
    page.evaluate(
        """id => { window.jobEvents = 0;
                  document.body.addEventListener("nasui-job-" + id, () => window.jobEvents++); }""",
        job.pk,
    )
    fetched.clear()
    page.wait_for_function(
        f"() => document.getElementById('job-{job.pk}').dataset.status === 'succeeded'",
        timeout=30_000,
    )
    events = page.evaluate("() => window.jobEvents")
    # one fetch per event, and perhaps the one that reads the row again once the stream opened
    assert 1 <= len(fetched) <= events + 1, (fetched, events)
    assert "100%" in page.locator(f"#job-{job.pk}").inner_text()
