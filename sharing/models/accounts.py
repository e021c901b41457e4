"""Local users and groups: the accounts file shares admit (the panel's own login is separate)."""

from __future__ import annotations

from django.db import models


class LocalGroup(models.Model):
    """A local group of file-sharing users."""

    name = models.CharField(max_length=32, unique=True)
    gid = models.PositiveIntegerField(unique=True)
    comment = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LocalUser(models.Model):
    """A local user of the file shares; its password lives only as Samba's NT hash."""

    username = models.CharField(max_length=32, unique=True)
    uid = models.PositiveIntegerField(unique=True)
    full_name = models.CharField(max_length=120, blank=True)
    email = models.EmailField(blank=True)
    group = models.ForeignKey(LocalGroup, on_delete=models.PROTECT, related_name="primary_users")
    groups = models.ManyToManyField(LocalGroup, blank=True, related_name="members")
    disabled = models.BooleanField(default=False)
    # A file system of a panel pool that becomes the user's home ("" for none).
    home_dataset = models.CharField(max_length=255, blank=True)
    # Made by Samba's own tool when the password was set; never the password itself.
    nt_hash = models.CharField(max_length=32, blank=True, editable=False)
    password_set_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["username"]

    def __str__(self) -> str:
        return self.username

    @property
    def has_password(self) -> bool:
        """Whether the user can log in to the file shares at all."""
        return bool(self.nt_hash)
