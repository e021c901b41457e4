"""NFS settings and exports of datasets."""

from __future__ import annotations

from django.db import models

from sharing.models.accounts import LocalGroup, LocalUser
from sharing.models.service import ServiceSettings


class NfsSettings(ServiceSettings):
    """Server-wide NFS settings (one row): NFSv4 on port 2049 always, NFSv3 if asked."""

    v3 = models.BooleanField(default=False)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "NFS settings"

    def __str__(self) -> str:
        return "NFSv3 and v4" if self.v3 else "NFSv4"


class NfsShare(models.Model):
    """A dataset's directory exported over NFS to some networks and hosts."""

    class MapMode(models.TextChoices):
        NONE = "none", "Root becomes nobody (root squash)"
        ROOT = "root", "Root becomes the user below (maproot)"
        ALL = "all", "Everyone becomes the user below (mapall)"

    # The file system whose mountpoint is exported (the path is read from it when applied).
    dataset = models.CharField(max_length=255, unique=True)
    comment = models.CharField(max_length=120, blank=True)
    networks = models.JSONField(default=list, blank=True)
    hosts = models.JSONField(default=list, blank=True)
    read_only = models.BooleanField(default=False)
    map_mode = models.CharField(max_length=4, choices=MapMode.choices, default=MapMode.NONE)
    map_user = models.ForeignKey(
        LocalUser, null=True, blank=True, on_delete=models.PROTECT, related_name="nfs_maps"
    )
    map_group = models.ForeignKey(
        LocalGroup, null=True, blank=True, on_delete=models.PROTECT, related_name="nfs_maps"
    )
    enabled = models.BooleanField(default=True)

    class Meta:
        ordering = ["dataset"]

    def __str__(self) -> str:
        return self.dataset
