"""The panel's address in a message, as the alert mails give it."""

from __future__ import annotations

from monitoring.alerting.services.mail import mail_settings_get, panel_address

ALERTS_PATH = "/alerts/"


def panel_link() -> str:
    """The Alerts page's full address, or "" when the panel's address is not known."""
    address = panel_address(mail_settings_get())
    return f"{address}{ALERTS_PATH}" if address else ""
