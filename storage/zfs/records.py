"""What the ZFS engines return: frozen dataclasses of pools, vdevs, scans, datasets, properties."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

# "... with 0 errors on Sun Nov 22 07:41:52 2026", "in progress since Sun Nov 22 07:41:52 2026"
_SCAN_DATE = re.compile(r"\b(?:on|since) (\w{3} \w{3} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4})")


_SCAN_DURATION = re.compile(r"\bin (?:(\d+) days? )?(\d+):(\d{2}):(\d{2})\b")


COMPRESSION_CHOICES = (
    "off",
    "lz4",
    "gzip",
    *(f"gzip-{n}" for n in range(1, 10)),
    "zstd",
    *(f"zstd-{n}" for n in range(1, 20)),
    "zle",
    "lzjb",
)


DEDUP_CHOICES = ("off", "on", "verify", "sha256", "sha256,verify")


COMMENT_PROPERTY = "nasui:comment"


@dataclass(frozen=True)
class Version:
    """OpenZFS versions of the userland tools and of the loaded kernel module."""

    userland: str
    kernel: str

    @property
    def totals_in_ddt_stats(self) -> bool:
        """True when DDT sizes are printed as totals (OpenZFS 2.3+), not per-entry averages."""
        return _version_tuple(self.kernel or self.userland) >= (2, 3)


@dataclass(frozen=True)
class Pool:
    """One imported pool, as `zpool list` shows it (sizes in bytes)."""

    name: str
    size: int
    allocated: int
    free: int
    fragmentation: int | None  # percent; None when unknown ("-")
    capacity: int  # percent used
    dedupratio: float
    health: str
    ashift: int | None  # the pool property; None when 0 (each vdev chose its own at creation)
    guid: str = ""
    altroot: str = ""

    @property
    def sector_size(self) -> int | None:
        """The allocation unit, 2^ashift bytes (None when ashift is not set)."""
        return 1 << self.ashift if self.ashift else None


@dataclass(frozen=True)
class Vdev:
    """A node of a pool's vdev tree: a pool root, mirror/raidz group, or a leaf disk."""

    name: str
    type: str  # root, mirror, raidz1, raidz2, raidz3, draid, spare, replacing, disk, file
    state: str
    read_errors: int = 0
    write_errors: int = 0
    cksum_errors: int = 0
    children: tuple[Vdev, ...] = ()
    note: str = ""  # trailing text such as "(resilvering)" or "was /dev/sdb"

    @property
    def leaves(self) -> tuple[Vdev, ...]:
        """Every leaf device under this node, left to right."""
        if not self.children:
            return (self,)
        return tuple(leaf for child in self.children for leaf in child.leaves)


@dataclass(frozen=True)
class ScrubStatus:
    """The pool's last or current scan (scrub or resilver)."""

    state: str  # none, scanning, finished, canceled
    function: str = ""  # scrub or resilver
    percent_done: float | None = None
    errors: int = 0
    repaired: int = 0
    scanned: int = 0
    issued: int = 0
    total: int = 0
    text: str = ""  # the raw "scan:" lines, for display

    @property
    def when(self) -> str:
        """When the scan ended (or, while scanning, began), as zpool status prints it."""
        found = _SCAN_DATE.search(self.text)
        return found.group(1) if found else ""

    @property
    def when_local(self) -> datetime | None:
        """`when` as a naive datetime in the machine's local time (zpool prints local time)."""
        if not self.when:
            return None
        return datetime.strptime(" ".join(self.when.split()), "%a %b %d %H:%M:%S %Y")

    @property
    def duration(self) -> int | None:
        """How long a finished scan took, in seconds ("in 1 days 02:03:04")."""
        found = _SCAN_DURATION.search(self.text)
        if not found or self.state != "finished":
            return None
        days, hours, minutes, seconds = (int(g or 0) for g in found.groups())
        return ((days * 24 + hours) * 60 + minutes) * 60 + seconds


@dataclass(frozen=True)
class PoolStatus:
    """`zpool status` of one pool: health, vdev tree by class, scan state and errors."""

    name: str
    state: str
    vdevs: tuple[Vdev, ...]  # top-level data vdevs
    logs: tuple[Vdev, ...] = ()
    cache: tuple[Vdev, ...] = ()
    spares: tuple[Vdev, ...] = ()
    special: tuple[Vdev, ...] = ()
    dedup: tuple[Vdev, ...] = ()
    scan: ScrubStatus = field(default_factory=lambda: ScrubStatus(state="none"))
    status: str = ""
    action: str = ""
    errors: str = ""
    root: Vdev | None = None


@dataclass(frozen=True)
class ImportablePool:
    """A pool that `zpool import` found on the disks and could import."""

    name: str
    guid: str
    state: str
    status: str = ""
    action: str = ""
    vdevs: tuple[Vdev, ...] = ()


@dataclass(frozen=True)
class Dataset:
    """A file system or zvol with the properties the panel shows (sizes in bytes)."""

    name: str
    type: str  # filesystem or volume
    used: int
    available: int
    referenced: int
    logicalused: int
    compressratio: float
    compression: str
    dedup: str
    # The used breakdown: used = usedbydataset + usedbychildren + usedbysnapshots
    # + usedbyrefreservation, as OpenZFS keeps it.
    logicalreferenced: int
    usedbydataset: int
    usedbychildren: int
    usedbysnapshots: int
    usedbyrefreservation: int
    # Unix time the figures were read at. They lag writes until the pool's transaction group
    # syncs (about 5 s on OpenZFS; the sandbox's until its next rescan): see ZfsEngine.settle.
    figures_read_at: float
    recordsize: int | None = None  # file systems only
    volblocksize: int | None = None  # volumes only
    volsize: int | None = None  # volumes only
    quota: int | None = None  # None: no quota
    refquota: int | None = None
    reservation: int | None = None
    refreservation: int | None = None
    atime: bool | None = None  # None for volumes
    mountpoint: str | None = None
    readonly: bool = False
    sync: str = "standard"
    comment: str = ""  # the nasui:comment user property
    encryption: str = "off"  # off or the cipher (aes-256-gcm for encryption=on)
    encryption_root: str = ""  # the dataset whose key this one uses ("" when not encrypted)
    key_status: str = ""  # available or unavailable ("" when not encrypted)
    key_format: str = ""  # passphrase, hex or raw ("" when not encrypted)
    key_location: str = ""  # prompt or file:///... (set on encryption roots only)

    @property
    def pool(self) -> str:
        """The pool this dataset lives in."""
        return self.name.split("/", 1)[0]

    @property
    def is_volume(self) -> bool:
        """True for a zvol."""
        return self.type == "volume"

    @property
    def encrypted(self) -> bool:
        """True when ZFS encrypts this dataset's data."""
        return self.encryption != "off"

    @property
    def locked(self) -> bool:
        """Encrypted with its key not loaded: nothing can be read, mounted or served."""
        return self.encrypted and self.key_status == "unavailable"

    @property
    def is_encryption_root(self) -> bool:
        """True when this dataset holds the key its encrypted descendants inherit."""
        return self.encrypted and self.encryption_root == self.name

    @property
    def sparse(self) -> bool | None:
        """A zvol without a refreservation is sparse (thin); None for file systems."""
        if not self.is_volume:
            return None
        return not self.refreservation


@dataclass(frozen=True)
class PropertyValue:
    """One property as `zfs get` reports it: value and where it comes from."""

    value: str
    source: str  # local, default, inherited from X, temporary, received, -


def _version_tuple(text: str) -> tuple[int, ...]:
    """Turn "zfs-2.1.11-1" into (2, 1, 11)."""
    digits = text.removeprefix("zfs-kmod-").removeprefix("zfs-").split("-")[0]
    parts = []
    for part in digits.split("."):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts)
