"""The iSCSI configuration: the database is its source of truth, engines reconcile with it."""

from __future__ import annotations

import secrets

from django.db import models

from sharing.models.service import ServiceSettings

DEFAULT_BASENAME = "iqn.2026-11.local.nasui"
BLOCK_SIZES = [(512, "512"), (1024, "1024"), (2048, "2048"), (4096, "4096")]


def new_serial() -> str:
    """A unique-enough LUN serial number: 15 hex digits, like TrueNAS's."""
    return secrets.token_hex(8)[:15]


class AuthMethod(models.TextChoices):
    """How an initiator proves who it is: not at all, CHAP, or CHAP both ways."""

    NONE = "none", "None"
    CHAP = "chap", "CHAP"
    MUTUAL = "mutual", "Mutual CHAP"


class IscsiSettings(ServiceSettings):
    """Global settings (one row): IQN base name, listen port and discovery authentication."""

    basename = models.CharField(max_length=120, default=DEFAULT_BASENAME)
    port = models.PositiveIntegerField(default=3260)
    # Discovery (SendTargets) is one per system in both engines, hence a global setting.
    discovery_auth_method = models.CharField(
        max_length=8, choices=AuthMethod.choices, default=AuthMethod.NONE
    )
    discovery_auth_group = models.ForeignKey(
        "AuthGroup", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "iSCSI settings"

    def __str__(self) -> str:
        return f"{self.basename} :{self.port}"


class Portal(models.Model):
    """A set of addresses the target listens on."""

    comment = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        addresses = ", ".join(a.address for a in self.addresses.all())
        return f"Portal {self.pk} ({addresses})"


class PortalAddress(models.Model):
    """One listen address of a portal; an address belongs to one portal only."""

    portal = models.ForeignKey(Portal, on_delete=models.CASCADE, related_name="addresses")
    address = models.GenericIPAddressField(unique=True, unpack_ipv4=True)

    class Meta:
        ordering = ["portal_id", "id"]

    def __str__(self) -> str:
        return self.address


class InitiatorGroup(models.Model):
    """Which initiators may connect: IQNs and/or networks; both empty means everyone."""

    comment = models.CharField(max_length=120, blank=True)
    initiators = models.JSONField(default=list, blank=True)
    networks = models.JSONField(default=list, blank=True)
    # Set when the wizard made this for one target: it goes with that target unless reused.
    made_for = models.CharField(max_length=120, blank=True, editable=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.comment or f"Initiator group {self.pk}"

    @property
    def allows_everyone(self) -> bool:
        """True when no IQN or network restricts access."""
        return not self.initiators and not self.networks


class AuthGroup(models.Model):
    """CHAP credentials under a numeric tag, optionally with mutual (peer) credentials."""

    tag = models.PositiveIntegerField(unique=True)
    user = models.CharField(max_length=64)
    secret = models.CharField(max_length=16)
    peer_user = models.CharField(max_length=64, blank=True)
    peer_secret = models.CharField(max_length=16, blank=True)
    # Set when the wizard made this for one target: it goes with that target unless reused.
    made_for = models.CharField(max_length=120, blank=True, editable=False)

    class Meta:
        ordering = ["tag"]

    def __str__(self) -> str:
        return f"Auth group {self.tag} ({self.user})"

    @property
    def mutual(self) -> bool:
        """True when the target must also prove itself to the initiator."""
        return bool(self.peer_user)


class Target(models.Model):
    """An iSCSI target: its name under the base name, and who may reach it, and how."""

    name = models.CharField(max_length=120, unique=True)
    alias = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class TargetGroup(models.Model):
    """One (portal, initiator group, auth method, auth group) entry of a target."""

    AuthMethod = AuthMethod

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="groups")
    portal = models.ForeignKey(Portal, on_delete=models.PROTECT, related_name="target_groups")
    initiator_group = models.ForeignKey(
        InitiatorGroup, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    auth_method = models.CharField(
        max_length=8, choices=AuthMethod.choices, default=AuthMethod.NONE
    )
    auth_group = models.ForeignKey(
        AuthGroup, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["target_id", "id"]

    def __str__(self) -> str:
        return f"{self.target} via portal {self.portal_id}"


class Extent(models.Model):
    """What holds a LUN's data: a zvol or a file inside a pool."""

    class Kind(models.TextChoices):
        ZVOL = "zvol", "Zvol"
        FILE = "file", "File"

    name = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ZVOL)
    zvol = models.CharField(max_length=255, blank=True, help_text="ZFS name, e.g. tank/vol1.")
    path = models.CharField(max_length=1024, blank=True, help_text="A file inside a pool.")
    blocksize = models.PositiveIntegerField(choices=BLOCK_SIZES, default=512)
    readonly = models.BooleanField(default=False)
    serial = models.CharField(max_length=20, default=new_serial)
    enabled = models.BooleanField(default=True)
    comment = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["zvol"], condition=~models.Q(zvol=""), name="one_extent_per_zvol"
            ),
            models.UniqueConstraint(
                fields=["path"], condition=~models.Q(path=""), name="one_extent_per_file"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def source(self) -> str:
        """The zvol name or file path, whichever this extent uses."""
        return self.zvol if self.kind == self.Kind.ZVOL else self.path


class TargetExtent(models.Model):
    """An extent mapped to a target as one LUN; an extent maps to one target only."""

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="luns")
    extent = models.OneToOneField(Extent, on_delete=models.CASCADE, related_name="mapping")
    lun_id = models.PositiveIntegerField()

    class Meta:
        ordering = ["target_id", "lun_id"]
        constraints = [
            models.UniqueConstraint(fields=["target", "lun_id"], name="unique_lun_per_target")
        ]

    def __str__(self) -> str:
        return f"{self.target} LUN {self.lun_id} -> {self.extent}"
