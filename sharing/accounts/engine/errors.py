"""Typed errors of the accounts engines (a bad spec is desired.AccountError)."""

from __future__ import annotations

from nasui.lib.commands import CommandError
from sharing.accounts.engine.desired import AccountError


class AccountConflict(AccountError):
    """A desired name or id is already held by a system account the panel does not manage."""


class AccountsCommandFailed(CommandError):
    """useradd, usermod, groupadd... exited with an error or did not finish."""
