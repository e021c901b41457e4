"""The `cli` engine: OpenZFS through zpool, zfs and zdb with parseable output (-H -p)."""

from storage.zfs.cli.engine import CliZfsEngine

__all__ = ["CliZfsEngine"]
