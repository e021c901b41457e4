"""What the settings row of every server the panel runs has: its one row, "start at boot"."""

from __future__ import annotations

from django.db import models

from nasui.models import SettingsRow


class ServiceSettings(SettingsRow):
    """The one settings row of a server the panel runs (iSCSI, SMB, NFS)."""

    # The supervisor's first check in each boot starts the service only when this is on.
    start_at_boot = models.BooleanField(default=True)

    class Meta:
        abstract = True
