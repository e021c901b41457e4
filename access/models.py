"""The access app's models, defined in their sub-domains (Django looks for them here)."""

from access.audit.models import AuditEntry, AuditSettings
from access.sessions.models import SignedIn
from access.twofactor.models import RecoveryCode, TotpDevice, TwoFactorPolicy
from access.users.models import PanelRole

__all__ = [
    "AuditEntry",
    "AuditSettings",
    "PanelRole",
    "RecoveryCode",
    "SignedIn",
    "TotpDevice",
    "TwoFactorPolicy",
]
