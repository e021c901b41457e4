"""Values every page's layout needs: navigation and banners."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

NAV = [
    ("dashboard", "Dashboard"),
    ("storage:index", "Storage"),
    ("sharing:files", "Sharing"),  # file shares first: what most homes want
    ("services:index", "Services"),
    ("replication:index", "Replication"),
    ("monitoring:index", "Monitoring"),
    ("alerts:index", "Alerts"),
    ("advisor:index", "Try my data"),
    ("jobs", "Jobs"),
    ("system:index", "System"),
    ("settings", "Settings"),
]
# Sections shown under another's navigation entry (the panel's users are a System tab).
UNDER = {"access": "system"}


def _banners() -> list[dict[str, str]]:
    """Warnings shown on every page, such as the sandbox storage engine being active."""
    if settings.NASUI_ZFS_ENGINE == "sandbox":
        return [
            {
                "level": "warning",
                "text": "Sandbox storage engine: this machine has no OpenZFS, so pools, datasets "
                f"and zvols are simulated with files under {settings.NASUI_SANDBOX_DIR}. "
                "Nothing here touches real disks.",
            }
        ]
    return []


# url name -> what the navigation entry's badge counts; the apps register theirs at start-up
# (the core knows no app: monitoring registers its open alerts).
_badges: dict[str, Callable[[], int]] = {}


def register_badge(url_name: str, count: Callable[[], int]) -> None:
    """Show `count()` on the navigation entry of `url_name` (0 shows nothing)."""
    _badges[url_name] = count


def _badge_counts(request: HttpRequest) -> dict[str, int]:
    """Each registered badge's count, on signed-in pages only."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {name: count() for name, count in _badges.items()}


def panel(request: HttpRequest) -> dict[str, object]:
    """Navigation entries, the active one, and the banners."""
    current = request.resolver_match.view_name if request.resolver_match else ""
    section = current.split(":")[0] if current else ""
    section = UNDER.get(section, section)
    badges = _badge_counts(request)
    nav = [
        {
            "url_name": name,
            "label": label,
            "active": current == name or (":" in name and name.split(":")[0] == section),
            "badge": badges.get(name, 0),
        }
        for name, label in NAV
    ]
    return {
        "nav": nav,
        "banners": _banners(),
        "zfs_engine": settings.NASUI_ZFS_ENGINE,
        # Every time on the pages is in it (nasui.timezones): the footer says so.
        "time_zone": timezone.get_current_timezone_name(),
    }
