"""Replication's rows: SSH connections to other boxes (tasks over them to come)."""

from __future__ import annotations

from django.db import models


class SshConnection(models.Model):
    """Another box this one reaches over SSH: where, as whom, with which key, trusting which host
    keys. The address never changes: a key authorized and a host key pinned belong to it."""

    name = models.CharField(max_length=64, unique=True)
    host = models.CharField(max_length=253, help_text="IP address or host name.")
    port = models.PositiveIntegerField(default=22)
    user = models.CharField(max_length=32, default="root")
    # This box's key for that connection (OpenSSH PEM): no page or API ever shows it.
    private_key = models.TextField()
    public_key = models.TextField(help_text="The line to add to the other side's authorized_keys.")
    # The other side's host keys pinned at creation (or by an explicit re-pin): [{kind, blob}].
    host_keys = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)
    # The last check that reached the other side and ran a command there.
    checked_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "SSH connection"

    def __str__(self) -> str:
        return f"{self.name} ({self.user}@{self.host}:{self.port})"
