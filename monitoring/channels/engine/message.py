"""What a channel says: one alert event, or a digest of several, in the words each kind wants."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Message:
    """One message: an alert raised or cleared, a digest, or a test.

    `state` is "raised", "cleared", "digest" or "test"; `level` is "danger" or "warning".
    """

    title: str
    text: str
    level: str
    state: str
    host: str
    link: str = ""
    key: str = ""
    raised_at: str = ""
    cleared_at: str = ""

    @property
    def headline(self) -> str:
        """One line naming the event, as the mail's subject does."""
        if self.state == "cleared":
            return f"Cleared: {self.title}"
        if self.state == "raised":
            return f"{self.level.upper()}: {self.title}"
        return self.title

    def as_text(self, limit: int = 4000) -> str:
        """Headline, text and link as plain text, cut to `limit` characters."""
        parts = [f"[nasui {self.host}] {self.headline}", self.text, self.link]
        body = "\n\n".join(part for part in parts if part)
        return body if len(body) <= limit else body[: limit - 1] + "…"

    def fields(self) -> dict[str, str]:
        """Every field by name, for the webhook's body template."""
        return asdict(self) | {"headline": self.headline}


# ntfy 1-5 and Gotify 0-10: a danger wakes the phone, a clearing does not
NTFY_PRIORITY = {"danger": 5, "warning": 4}
GOTIFY_PRIORITY = {"danger": 8, "warning": 5}
QUIET = {"cleared", "test"}


def priority(message: Message, scale: dict[str, int], quiet: int) -> int:
    """The message's priority on a service's scale."""
    return quiet if message.state in QUIET else scale.get(message.level, quiet)


def ntfy_tag(message: Message) -> str:
    """An emoji short code ntfy shows before the title."""
    if message.state == "cleared":
        return "white_check_mark"
    return "rotating_light" if message.level == "danger" else "warning"
