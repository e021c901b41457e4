"""Sending one mail with smtplib (plain Python): timeouts, STARTTLS or TLS, optional login,
and SMTP failures put into words for the settings page."""

from __future__ import annotations

import smtplib
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

TIMEOUT_SECONDS = 10.0  # per socket operation: a dead server never holds up an evaluation


@dataclass(frozen=True)
class SmtpConfig:
    """Where and how to send."""

    host: str
    port: int
    security: str  # none, starttls or tls
    from_address: str
    to: tuple[str, ...]
    username: str = ""
    password: str = field(default="", repr=False)
    ca_file: str = ""  # a PEM CA trusted besides the system's
    timeout: float = TIMEOUT_SECONDS


class MailError(Exception):
    """Sending failed; the message says why in words."""


def tls_context(ca_file: str) -> ssl.SSLContext:
    """Verify the server's certificate and name against the system CAs and `ca_file`."""
    context = ssl.create_default_context()
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


def build_message(config: SmtpConfig, subject: str, body: str) -> EmailMessage:
    """A plain-text mail from the configured sender to every recipient."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = config.from_address
    message["To"] = ", ".join(config.to)
    message["Date"] = formatdate(localtime=True)
    message["Message-ID"] = make_msgid(domain=config.from_address.rpartition("@")[2] or None)
    message.set_content(body)
    return message


def _connect(config: SmtpConfig) -> smtplib.SMTP:
    """An open session, encrypted as configured."""
    if config.security == "tls":
        context = tls_context(config.ca_file)
        return smtplib.SMTP_SSL(config.host, config.port, timeout=config.timeout, context=context)
    session = smtplib.SMTP(config.host, config.port, timeout=config.timeout)
    if config.security == "starttls":
        session.ehlo()
        if not session.has_extn("starttls"):
            session.close()
            raise MailError(f"{config.host} does not offer STARTTLS: choose another security.")
        session.starttls(context=tls_context(config.ca_file))
        session.ehlo()
    return session


def send(config: SmtpConfig, subject: str, body: str) -> None:
    """Deliver one mail; MailError with a readable reason on any failure."""
    try:
        session = _connect(config)
        try:
            if config.username:
                session.login(config.username, config.password)
            session.send_message(build_message(config, subject, body))
        finally:
            _quit(session)
    except MailError:
        raise
    # ValueError: a host name the resolver refuses to encode (an over-long label, say)
    except (OSError, smtplib.SMTPException, ValueError) as exc:
        raise MailError(describe(exc, config)) from exc


def _quit(session: smtplib.SMTP) -> None:
    """Say goodbye; a server that already hung up is fine."""
    try:
        session.quit()
    except (OSError, smtplib.SMTPException):
        session.close()


def _reply(exc: smtplib.SMTPResponseException) -> str:
    """The server's code and words."""
    text = exc.smtp_error.decode(errors="replace") if isinstance(exc.smtp_error, bytes) else ""
    return f"{exc.smtp_code} {text}".strip()


# (failure, its sentence from the server's address, the error and the settings): the first
# class that matches wins, so the more specific ones come first.
_SENTENCES: tuple[tuple[type[BaseException], Callable[[str, Any, SmtpConfig], str]], ...] = (
    (smtplib.SMTPAuthenticationError,
     lambda where, e, c: f"{where} refused the user name or password ({_reply(e)})."),
    (smtplib.SMTPRecipientsRefused,
     lambda where, e, c: f"{where} refused the recipient(s) {', '.join(sorted(e.recipients))}."),
    (smtplib.SMTPSenderRefused,
     lambda where, e, c: f"{where} refused the sender {c.from_address} ({_reply(e)})."),
    (smtplib.SMTPResponseException,
     lambda where, e, c: f"{where} answered with an error: {_reply(e)}."),
    (smtplib.SMTPServerDisconnected,
     lambda where, e, c: f"{where} closed the connection unexpectedly ({e})."),
    (ssl.SSLCertVerificationError,
     lambda where, e, c: f"The certificate of {where} could not be verified: {e.verify_message}."),
    (ssl.SSLError, lambda where, e, c: f"The TLS handshake with {where} failed: {e.reason or e}."),
    (socket.gaierror, lambda where, e, c: f"The host name {c.host} could not be resolved."),
    (TimeoutError, lambda where, e, c: f"{where} did not answer within {c.timeout:.0f} s."),
    (ConnectionRefusedError,
     lambda where, e, c: f"{where} refused the connection: is the host and port right?"),
    (ValueError, lambda where, e, c: f"The host name {c.host} is not valid ({e})."),
    (FileNotFoundError, lambda where, e, c: f"The CA file {c.ca_file} does not exist."),
)  # fmt: skip


def describe(exc: BaseException, config: SmtpConfig) -> str:
    """An SMTP failure in words, naming the server."""
    where = f"{config.host}:{config.port}"
    for kind, sentence in _SENTENCES:
        if isinstance(exc, kind):
            return sentence(where, exc, config)
    return f"Sending through {where} failed: {exc}."
