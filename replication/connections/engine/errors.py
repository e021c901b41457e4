"""What can go wrong talking to another box, in words a user can act on."""

from __future__ import annotations


class SshError(Exception):
    """A connection failed; the message says why and what to do."""


class Unreachable(SshError):
    """Nothing answered at the address (refused, timed out, unknown name)."""


class HostKeyChanged(SshError):
    """The other side's host key is not the one pinned: refused, as a man in the middle would be."""


class AuthRefused(SshError):
    """The other side does not accept this box's key for the user."""


class RemoteFailed(SshError):
    """Connected, but the command on the other side failed."""
