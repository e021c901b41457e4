"""Pieces of zfs/zpool command lines built from checked input."""

from __future__ import annotations

import re
from collections.abc import Mapping

from storage.zfs.errors import InvalidProperty

PROPERTY_NAME = re.compile(r"[a-z][a-z0-9_.:-]*")


def property_args(flag: str, properties: Mapping[str, str]) -> list[str]:
    """{'compression': 'lz4'} -> ['-o', 'compression=lz4'] with names checked."""
    args: list[str] = []
    for key, value in properties.items():
        if not PROPERTY_NAME.fullmatch(key):
            raise InvalidProperty(f"invalid property name {key!r}")
        if "\n" in str(value) or "\0" in str(value):
            raise InvalidProperty(f"invalid value for {key}")
        args += [flag, f"{key}={value}"]
    return args
