"""Every page works under the Content-Security-Policy: no script or style is blocked."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PAGES = ["/", "/storage/", "/sharing/", "/monitoring/", "/jobs/", "/settings/", "/api/docs/"]


def test_pages_run_under_the_policy_without_a_violation(logged_in, sandbox):
    page = logged_in
    violations: list[str] = []
    page.on(
        "console",
        lambda msg: (
            violations.append(f"{page.url}: {msg.text} {msg.location}")
            if "Content Security Policy" in msg.text
            else None
        ),
    )
    for path in PAGES:
        response = page.goto(page.base + path)
        assert response is not None
        assert response.ok, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
        if path == "/":
            # The theme script runs from its own file (inline scripts are refused).
            assert page.evaluate("document.documentElement.dataset.bsTheme") in ("light", "dark")
    # The docs page draws its operations with its split-out script: it ran. (Swagger UI draws
    # the first tags at once and the rest as they scroll into view: look at the first one.)
    page.locator(".opblock-summary-path").first.wait_for()
    assert page.locator(".opblock-summary-path").first.inner_text().startswith("/api/")
    assert violations == []
