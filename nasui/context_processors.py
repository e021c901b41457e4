"""Values every page's layout needs: navigation and banners."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

NAV = [
    ("dashboard", "Dashboard"),
    ("storage:index", "Storage"),
    ("sharing:index", "Sharing"),
    ("services:index", "Services"),
    ("monitoring:index", "Monitoring"),
    ("alerts:index", "Alerts"),
    ("advisor:index", "Try my data"),
    ("jobs", "Jobs"),
    ("settings", "Settings"),
]


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


def _alert_count(request: HttpRequest) -> int:
    """Open, undismissed alerts, for the badge on the Alerts entry (signed-in pages only)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    from monitoring.alerting.selectors import badge_count

    return badge_count()


def panel(request: HttpRequest) -> dict[str, object]:
    """Navigation entries, the active one, and the banners."""
    current = request.resolver_match.view_name if request.resolver_match else ""
    section = current.split(":")[0] if current else ""
    alerts = _alert_count(request)
    nav = [
        {
            "url_name": name,
            "label": label,
            "active": current == name or (":" in name and name.split(":")[0] == section),
            "badge": alerts if name == "alerts:index" else 0,
        }
        for name, label in NAV
    ]
    return {"nav": nav, "banners": _banners(), "zfs_engine": settings.NASUI_ZFS_ENGINE}
