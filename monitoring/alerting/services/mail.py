"""The SMTP settings (one row) and the test mail: writes go through here."""

from __future__ import annotations

import re
import socket
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_email
from django.utils import timezone

from monitoring.alerting.engine import mail
from monitoring.alerting.services.ca import ca_file_problem, ca_store, pem_problem
from monitoring.models import MailSettings, Security, SentMail

HOST = re.compile(r"[A-Za-z0-9_.:-]{1,253}|\[[0-9A-Fa-f:.]+\]")
FIELDS = ("enabled", "host", "port", "security", "username", "from_address", "to_addresses",
          "ca_file", "panel_url")  # fmt: skip
ALERTS_PATH = "/alerts/"


def mail_settings_get() -> MailSettings:
    """The settings row, created with defaults on first use."""
    return MailSettings.load()


def smtp_config(config: MailSettings) -> mail.SmtpConfig:
    """The plain transport settings of a row."""
    return mail.SmtpConfig(
        host=config.host, port=config.port, security=config.security,
        from_address=config.from_address, to=tuple(config.to_addresses),
        username=config.username, password=config.password, ca_file=config.ca_file,
    )  # fmt: skip


def panel_address(config: MailSettings) -> str:
    """The panel's address for links in mails: the one set on the e-mail settings, else the
    first origin the panel is configured to trust (NASUI_CSRF_TRUSTED_ORIGINS); "" if neither."""
    if config.panel_url:
        return config.panel_url.rstrip("/")
    for origin in settings.CSRF_TRUSTED_ORIGINS:
        if origin.startswith(("https://", "http://")) and "*" not in origin:
            return origin.rstrip("/")
    return ""


def panel_link(config: MailSettings) -> str:
    """The line of every mail that leads to the panel; where to look when its address is unknown."""
    address = panel_address(config)
    if address:
        return f"Open the panel: {address}{ALERTS_PATH}"
    return (
        f"Open the panel: the Alerts page ({ALERTS_PATH}) at the address you use to log in to "
        f"the panel of {socket.gethostname()}. Enter that address under Alerts, E-mail settings, "
        "to get a link here."
    )


def mail_settings_warnings(config: MailSettings) -> list[str]:
    """What is allowed but unwise in the saved settings, in words."""
    if config.security == Security.NONE and config.username and config.password:
        server = config.host or "the server"
        return [
            f"Security is None: the SMTP password crosses the network to {server} in clear "
            "text, readable by anyone on the way. Choose STARTTLS or TLS if the server offers it."
        ]
    return []


def _check(values: dict[str, Any]) -> None:
    """Field rules beyond each field's type; every error names its field."""
    errors = _field_problems(values)
    if values["enabled"]:
        errors |= _missing_for_sending(values)
    if errors:
        raise ValidationError(errors)


def _field_problems(values: dict[str, Any]) -> dict[str, str]:
    """What is wrong with each field on its own."""
    errors: dict[str, str] = {}
    if values["host"] and not HOST.fullmatch(values["host"]):
        errors["host"] = "A host name or IP address: letters, digits, dots, dashes and colons."
    if values["from_address"]:
        try:
            validate_email(values["from_address"])
        except ValidationError:
            errors["from_address"] = "Enter a valid e-mail address."
    if values["security"] not in Security.values:
        errors["security"] = f"Choose one of: {', '.join(Security.values)}."
    if not 1 <= int(values["port"]) <= 65535:
        errors["port"] = "A port is between 1 and 65535."
    for address in values["to_addresses"]:
        try:
            validate_email(address)
        except ValidationError:
            errors["to_addresses"] = f"“{address}” is not an e-mail address."
    if values["ca_file"] and (problem := ca_file_problem(values["ca_file"])):
        errors["ca_file"] = problem
    if values["panel_url"] and not _is_web_address(values["panel_url"]):
        errors["panel_url"] = "The address you open the panel at, e.g. https://nas.example.com."
    return errors


def _is_web_address(text: str) -> bool:
    """An http:// or https:// address."""
    try:
        URLValidator(schemes=["https", "http"])(text)
    except ValidationError:
        return False
    return True


def _missing_for_sending(values: dict[str, Any]) -> dict[str, str]:
    """What mail cannot be sent without, once it is turned on."""
    errors: dict[str, str] = {}
    for name, label in (("host", "server"), ("from_address", "sender address")):
        if not values[name]:
            errors[name] = f"Needed to send mail: enter the {label}, or turn e-mail off."
    if not values["to_addresses"]:
        errors["to_addresses"] = "Needed to send mail: enter at least one recipient."
    return errors


def _password_change(password: str | None, clear_password: bool) -> str | None:
    """The password to store: a new one, "" to forget it, or None to keep the stored one."""
    if clear_password and password:
        raise ValidationError(
            {"clear_password": "Either type a new password or clear the stored one, not both."}
        )
    return "" if clear_password else (password or None)


def _checked_upload(ca_pem: bytes | None) -> bytes | None:
    """An uploaded CA certificate once checked (ValidationError if it is not one), or None."""
    if ca_pem and (problem := pem_problem(ca_pem)):
        raise ValidationError({"ca_pem": problem})
    return ca_pem or None


def mail_settings_update(
    *,
    password: str | None = None,
    clear_password: bool = False,
    ca_pem: bytes | None = None,
    **changes: Any,
) -> MailSettings:
    """Change the settings; an empty or missing password keeps the stored one, clear_password
    forgets it; ca_pem (an uploaded PEM certificate) replaces the CA file.

    Emptying the user name also forgets the password: without a login it has no use.
    """
    config = mail_settings_get()
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValidationError({name: "Unknown setting." for name in sorted(unknown)})
    new_password = _password_change(password, clear_password)
    values = {name: changes.get(name, getattr(config, name)) for name in FIELDS}
    values["to_addresses"] = [a.strip() for a in values["to_addresses"] if a.strip()]
    upload = _checked_upload(ca_pem)
    if upload is not None:
        values["ca_file"] = ""  # replaced by the upload, kept once every other field is right
    _check(values)
    if upload is not None:
        values["ca_file"] = ca_store(upload)
    for name, value in values.items():
        setattr(config, name, value)
    if new_password is not None:
        config.password = new_password
    if not config.username:
        config.password = ""
    config.full_clean()
    config.save()
    return config


def record_failure(config: MailSettings, error: str, now: datetime) -> None:
    """Keep the last failure for the settings page."""
    MailSettings.objects.filter(pk=config.pk).update(last_error=error, last_error_at=now)


def send_test_mail() -> str:
    """Send a test mail with the saved settings; the outcome in words (ValidationError if not)."""
    config = mail_settings_get()
    needed = ((config.host, "server"), (config.from_address, "sender"),
              (config.to_addresses, "recipients"))  # fmt: skip
    missing = [label for value, label in needed if not value]
    if missing:
        raise ValidationError(f"Save the {', '.join(missing)} first.")
    now = timezone.now()
    subject = "[nasui] Test mail"
    body = (
        "This is a test mail from nasui. Alert mails will arrive like this one.\n\n"
        f"{panel_link(config)}\n"
    )
    try:
        mail.send(smtp_config(config), subject, body)
    except mail.MailError as exc:
        record_failure(config, str(exc), now)
        raise ValidationError(str(exc)) from exc
    recipients = ", ".join(config.to_addresses)
    SentMail.objects.create(sent_at=now, kind=SentMail.Kind.TEST, subject=subject,
                            recipients=recipients)  # fmt: skip
    MailSettings.objects.filter(pk=config.pk).update(last_sent_at=now)
    return f"Test mail sent to {recipients} through {config.host}:{config.port}."
