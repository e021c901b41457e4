"""Serializers of the iSCSI API; CHAP secrets are write-only."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from sharing.iscsi.engine.desired import CHAP_SECRET_RULE
from sharing.iscsi.validation import target_iqn
from sharing.models import (
    AuthGroup,
    Extent,
    InitiatorGroup,
    IscsiSettings,
    Portal,
    Target,
    TargetExtent,
    TargetGroup,
)


class SettingsSerializer(serializers.ModelSerializer[IscsiSettings]):
    """Base name, listen port and discovery authentication."""

    class Meta:
        model = IscsiSettings
        fields = ["basename", "port", "discovery_auth_method", "discovery_auth_group"]
        # PUT replaces base name and port whole (a default would hide a typo); an omitted
        # discovery setting is kept, so an older script cannot switch discovery CHAP off.
        extra_kwargs: dict[str, Any] = {
            "basename": {"required": True},
            "port": {"required": True},
            "discovery_auth_method": {
                "required": False,
                "help_text": "Who may list the targets: none (anyone), chap or mutual. "
                "Kept when omitted.",
            },
            "discovery_auth_group": {
                "required": False,
                "help_text": "The auth group whose CHAP credentials discovery asks for "
                "(with peer credentials for mutual). Kept when omitted.",
            },
        }


class PortalSerializer(serializers.ModelSerializer[Portal]):
    """A portal and its listen addresses."""

    addresses = serializers.ListField(child=serializers.CharField(), allow_empty=False)

    class Meta:
        model = Portal
        fields = ["id", "addresses", "comment"]

    def to_representation(self, instance: Portal) -> dict[str, Any]:
        return {
            "id": instance.pk,
            "addresses": [a.address for a in instance.addresses.all()],
            "comment": instance.comment,
        }


class InitiatorGroupSerializer(serializers.ModelSerializer[InitiatorGroup]):
    """Allowed initiator IQNs and networks; both empty means everyone."""

    initiators = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    networks = serializers.ListField(child=serializers.CharField(), required=False, default=list)

    class Meta:
        model = InitiatorGroup
        fields = ["id", "initiators", "networks", "comment"]


class AuthGroupSerializer(serializers.ModelSerializer[AuthGroup]):
    """CHAP credentials; secrets can be written, never read."""

    # trim_whitespace=False: a secret is stored exactly as sent or refused, never trimmed.
    secret = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"{CHAP_SECRET_RULE}. Left out of an update: the stored one is kept.",
    )
    peer_secret = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"Mutual CHAP: {CHAP_SECRET_RULE}, and not the secret.",
    )

    class Meta:
        model = AuthGroup
        fields = ["id", "tag", "user", "secret", "peer_user", "peer_secret"]
        extra_kwargs: dict[str, Any] = {"tag": {"validators": []}, "peer_user": {"required": False}}


class TargetGroupSerializer(serializers.ModelSerializer[TargetGroup]):
    """One portal entry of a target: who may connect through it, and how."""

    class Meta:
        model = TargetGroup
        fields = ["portal", "initiator_group", "auth_method", "auth_group"]


class TargetSerializer(serializers.ModelSerializer[Target]):
    """A target, its full IQN, its portal entries and its LUNs."""

    groups = TargetGroupSerializer(many=True)
    iqn = serializers.SerializerMethodField()
    luns = serializers.SerializerMethodField()

    class Meta:
        model = Target
        fields = ["id", "name", "alias", "iqn", "groups", "luns"]
        extra_kwargs: dict[str, Any] = {"name": {"validators": []}}

    def get_iqn(self, target: Target) -> str:
        return target_iqn(IscsiSettings.load().basename, target.name)

    def get_luns(self, target: Target) -> list[dict[str, Any]]:
        return [{"lun_id": m.lun_id, "extent": m.extent_id} for m in target.luns.all()]


class ExtentSerializer(serializers.ModelSerializer[Extent]):
    """A zvol or file behind a LUN."""

    class Meta:
        model = Extent
        fields = [
            "id",
            "name",
            "kind",
            "zvol",
            "path",
            "blocksize",
            "readonly",
            "serial",
            "enabled",
            "comment",
        ]
        read_only_fields = ["serial"]
        extra_kwargs: dict[str, Any] = {"name": {"validators": []}}


class ExtentUpdateSerializer(serializers.ModelSerializer[Extent]):
    """What can change on an existing extent."""

    class Meta:
        model = Extent
        fields = ["readonly", "enabled", "comment"]


class AssociationSerializer(serializers.ModelSerializer[TargetExtent]):
    """An extent mapped to a target as a LUN; lun_id defaults to the lowest free one."""

    lun_id = serializers.IntegerField(required=False, allow_null=True, min_value=0)

    class Meta:
        model = TargetExtent
        fields = ["id", "target", "extent", "lun_id"]
        validators: list[Any] = []
        extra_kwargs: dict[str, Any] = {"extent": {"validators": []}}


class WizardSerializer(serializers.Serializer[Any]):
    """Share a new zvol (or an existing one) in one call: zvol, extent, target, LUN."""

    name = serializers.CharField(
        required=False, default="", help_text="Names the target (and a new zvol and extent)."
    )
    existing = serializers.CharField(
        required=False,
        default="",
        help_text="An existing zvol to share instead of making one (no dataset or size then).",
    )
    dataset = serializers.CharField(
        required=False, default="", help_text="The pool or dataset that holds the new zvol."
    )
    size = serializers.CharField(required=False, default="", help_text="The new zvol's size.")
    volblocksize = serializers.IntegerField(required=False, default=16384)
    sparse = serializers.BooleanField(
        required=False, default=False, help_text="Thin: reserve no space up front."
    )
    force = serializers.BooleanField(
        required=False, default=False, help_text="Allow a thick zvol over 80% of the free space."
    )
    compression = serializers.CharField(required=False, default="inherit")
    initiator = serializers.CharField(required=False, allow_blank=True, default="")
    chap_user = serializers.CharField(required=False, allow_blank=True, default="")
    chap_secret = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        write_only=True,
        trim_whitespace=False,
        help_text=f"{CHAP_SECRET_RULE}.",
    )
    open_to_all = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Needed when neither `initiator` nor `chap_user` is given: the target then "
        "admits every initiator on the network.",
    )
