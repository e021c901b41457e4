"""The settings the benchmark can try: a key, a label, and the ZFS properties it stands for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# The compression a dedup row uses: the panel's default for new datasets, so the row answers
# "what would turning dedup on add to what I have", not dedup on raw blocks.
DEDUP_COMPRESSION = "lz4"


@dataclass(frozen=True)
class Setting:
    """One row of the benchmark: the properties its scratch dataset is created with."""

    key: str
    label: str
    properties: Mapping[str, str] = field(default_factory=dict)

    @property
    def dedup(self) -> bool:
        """True when the row turns dedup on (its space is measured from the pool's ALLOC)."""
        return self.properties.get("dedup", "off") != "off"


def _compression(key: str, label: str, value: str) -> Setting:
    """A compression row; dedup is set off explicitly, since a pool root may have it on."""
    return Setting(key, label, {"compression": value, "dedup": "off"})


# Every row sets both properties: a scratch dataset must not inherit the pool root's choices.
CATALOGUE: dict[str, Setting] = {
    s.key: s
    for s in (
        _compression("off", "No compression", "off"),
        _compression("lz4", "LZ4", "lz4"),
        _compression("gzip-6", "GZIP level 6", "gzip-6"),
        _compression("gzip-1", "GZIP level 1", "gzip-1"),
        _compression("zstd", "ZSTD (level 3)", "zstd"),
        Setting(
            "dedup",
            f"Dedup (with {DEDUP_COMPRESSION.upper()})",
            {"compression": DEDUP_COMPRESSION, "dedup": "on"},
        ),
        _compression("zstd-19", "ZSTD level 19", "zstd-19"),
        _compression("zle", "ZLE (runs of zeros only)", "zle"),
    )
}
# The order; zstd-19 and zle are offered but not tried unless asked.
DEFAULT: tuple[str, ...] = ("off", "lz4", "gzip-6", "gzip-1", "zstd", "dedup")


def unknown_keys(keys: Sequence[str]) -> list[str]:
    """The keys that name no setting of the catalogue."""
    return [key for key in keys if key not in CATALOGUE]


def settings_for(keys: Sequence[str]) -> list[Setting]:
    """The catalogue's settings for `keys`, in the order given (KeyError on an unknown key)."""
    return [CATALOGUE[key] for key in keys]
