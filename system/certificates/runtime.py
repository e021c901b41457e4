"""The web server in front of the panel, told about a new certificate (NASUI_WEB_SERVER)."""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings

from nasui.lib.commands import CommandError, run_checked

# nginx -t reads the configuration and loads its certificate and key: a pair it would refuse
# is caught before the reload, which (a signal to the master) reports success either way.
NGINX_TEST = ("nginx", "-t", "-q")
NGINX_RELOAD = ("systemctl", "reload", "nginx.service")
TIMEOUT = 60  # seconds; each takes well under one
# The appliance's console banner shows the certificate's fingerprint: written again, and the
# login prompts shown again with it (agetty --reload), when the certificate changes.
CONSOLE_BANNER = Path("/usr/local/sbin/nasui-banner")
log = logging.getLogger(__name__)


class WebServerError(Exception):
    """The web server would not take the certificate: its own words."""


def reload_web_server() -> bool:
    """Have the web server serve the certificate now in the data directory; whether there is a
    server of the panel's to tell (NASUI_WEB_SERVER). WebServerError if it refuses."""
    if settings.NASUI_WEB_SERVER != "nginx":
        return False
    for command in (NGINX_TEST, NGINX_RELOAD):
        try:
            run_checked(command, timeout=TIMEOUT)
        except CommandError as exc:
            raise WebServerError(exc.message) from exc
    return True


def refresh_console() -> None:
    """Show the new certificate's fingerprint on the appliance's consoles (nothing elsewhere);
    a failure is logged: the certificate is in service either way, the next boot shows it."""
    if settings.NASUI_WEB_SERVER != "nginx" or not CONSOLE_BANNER.exists():
        return
    try:
        run_checked([str(CONSOLE_BANNER)], timeout=TIMEOUT)
        run_checked(["agetty", "--reload"], timeout=TIMEOUT)
    except CommandError:
        log.exception("the console banner could not be written again")
