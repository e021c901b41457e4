"""SMB (Samba) settings and shares of datasets."""

from __future__ import annotations

from django.db import models

from sharing.models.accounts import LocalGroup, LocalUser
from sharing.models.service import ServiceSettings


class SmbSettings(ServiceSettings):
    """Server-wide SMB settings (one row); SMB2 is the floor and SMB1 is never offered."""

    netbios_name = models.CharField(max_length=15, default="NASUI")
    workgroup = models.CharField(max_length=15, default="WORKGROUP")
    description = models.CharField(max_length=120, default="nasui")
    # Addresses to listen on; empty: every interface.
    bind = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "SMB settings"

    def __str__(self) -> str:
        return f"{self.netbios_name} ({self.workgroup})"


class SmbShare(models.Model):
    """A dataset's directory shared over SMB, and who may use it how."""

    name = models.CharField(max_length=80, unique=True)
    # The file system whose mountpoint is shared (path is read from it when applied).
    dataset = models.CharField(max_length=255)
    comment = models.CharField(max_length=120, blank=True)
    read_only = models.BooleanField(default=False)
    browseable = models.BooleanField(default=True)
    guest_ok = models.BooleanField(default=False)
    users = models.ManyToManyField(LocalUser, blank=True, related_name="smb_shares")
    groups = models.ManyToManyField(LocalGroup, blank=True, related_name="smb_shares")
    shadow_copy = models.BooleanField(default=True)
    fruit = models.BooleanField(default=False)
    time_machine = models.BooleanField(default=False)
    time_machine_limit = models.PositiveBigIntegerField(null=True, blank=True)
    audit = models.BooleanField(default=False)
    enabled = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
