"""Serializers of the SSH connection API: never the private key."""

from __future__ import annotations

from rest_framework import serializers

from replication.connections import selectors
from replication.connections.engine.hostkeys import HostKey
from replication.connections.services import Offer
from replication.models import SshConnection


class SshConnectionSerializer(serializers.ModelSerializer[SshConnection]):
    """A connection: where, as whom, this box's public key and the host keys pinned."""

    # Declared, not derived from the model: the services say why a name is refused.
    name = serializers.CharField(
        max_length=64, help_text="1-64 letters, digits, - _ or ., starting with a letter or digit."
    )
    host = serializers.CharField(max_length=253, help_text="IP address or host name.")
    port = serializers.IntegerField(min_value=1, max_value=65535, default=22)
    user = serializers.CharField(
        max_length=32, default="root", help_text="The user on the other side (a POSIX name)."
    )
    host_key_fingerprints = serializers.SerializerMethodField()
    authorize_command = serializers.SerializerMethodField()

    class Meta:
        model = SshConnection
        # private_key is left out on purpose: it never leaves this box.
        fields = (
            "id", "name", "host", "port", "user", "public_key", "authorize_command",
            "host_key_fingerprints", "created", "checked_at", "last_error",
        )  # fmt: skip
        read_only_fields = ("public_key", "created", "checked_at", "last_error")

    def get_host_key_fingerprints(self, connection: SshConnection) -> list[str]:
        """SHA256:... of each pinned host key."""
        return selectors.fingerprints(connection)

    def get_authorize_command(self, connection: SshConnection) -> str:
        """The line to run on the other side so that it accepts this box's key."""
        return selectors.authorize_command(connection)


class RepinSerializer(serializers.Serializer[None]):
    """What the user saw before asking to pin the host key offered now."""

    fingerprints = serializers.ListField(
        child=serializers.CharField(max_length=100),
        required=False,
        max_length=10,
        help_text="The fingerprints (SHA256:...) you expect: other keys are refused, not pinned.",
    )


class PairSerializer(serializers.Serializer[dict[str, str]]):
    """Pair with another nasui: its panel's address and one of its administrators."""

    name = serializers.CharField(max_length=64, help_text="The new connection's name.")
    address = serializers.CharField(
        max_length=300, help_text="The other panel: host or IP, https:// assumed, port if needed."
    )
    username = serializers.CharField(max_length=150, help_text="An administrator there.")
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, write_only=True, help_text="Used once, not kept."
    )
    code = serializers.CharField(
        max_length=32, required=False, default="", allow_blank=True, write_only=True,
        help_text="If that administrator signs in with a code: the 6 digits their app shows now.",
    )  # fmt: skip
    ssh_port = serializers.IntegerField(
        min_value=1, max_value=65535, required=False, allow_null=True, default=None,
        help_text="Its SSH port as reached from here, if a router forwards another one "
        "(null: the port its panel names).",
    )  # fmt: skip


class PairingRequestSerializer(serializers.Serializer[dict[str, str]]):
    """What a pairing nasui sends: an administrator's credentials here and its public key."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, write_only=True)
    code = serializers.CharField(
        max_length=32, required=False, default="", allow_blank=True, write_only=True,
        help_text="For an administrator with two-factor sign-in: their code now.",
    )  # fmt: skip
    public_key = serializers.CharField(max_length=2000, help_text="One OpenSSH public key line.")
    comment = serializers.CharField(
        max_length=100, required=False, default="", allow_blank=True,
        help_text="Who it is, e.g. nasui@backup-box (kept beside the key).",
    )  # fmt: skip


class HostKeySerializer(serializers.Serializer[HostKey]):
    kind = serializers.CharField()
    blob = serializers.CharField()


class OfferSerializer(serializers.Serializer[Offer]):
    """How the pairing nasui reaches this box: SSH user, port and host keys."""

    user = serializers.CharField()
    port = serializers.IntegerField()
    host_keys = HostKeySerializer(many=True)
