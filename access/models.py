"""The access app's models, defined in their sub-domains (Django looks for them here)."""

from access.users.models import PanelRole

__all__ = ["PanelRole"]
