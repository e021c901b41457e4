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


def panel(request: HttpRequest) -> dict[str, object]:
    """Navigation entries, the active one, and the banners."""
    current = request.resolver_match.view_name if request.resolver_match else ""
    section = current.split(":")[0] if current else ""
    nav = [
        {
            "url_name": name,
            "label": label,
            "active": current == name or (":" in name and name.split(":")[0] == section),
        }
        for name, label in NAV
    ]
    return {"nav": nav, "banners": _banners(), "zfs_engine": settings.NASUI_ZFS_ENGINE}
