"""Validation of user input for ZFS objects: names, sizes with units, property choices.

Each check raises django ValidationError keyed by the field, so pages and the API report the
same message for the same mistake.
"""

from __future__ import annotations

from nasui.lib import units
from nasui.lib.units import format_size as format_size  # re-exported: services say v.format_size
from nasui.validation import fail
from storage.zfs import layout, names
from storage.zfs.base import COMPRESSION_CHOICES, MIN_DISKS

# ZFS keeps sizes in signed 64-bit fields in places: 8 EiB is beyond any real pool anyway.
MAX_SIZE = 2**63 - 1
# The zvol form's checkbox says this, and the refusal that asks for it names it the same way.
FORCE_LABEL = "Allow a thick zvol over 80% of the free space"
# Thick by default in every form and the API, as in ZFS: a thin zvol on a full pool fails
# the initiator's writes, so thin is a choice the user makes knowingly.
SPARSE_LABEL = "Sparse (thin): reserve no space up front"
MAX_NAME = 200  # ZFS allows 255 bytes for a full name; the panel keeps room for snapshots
SIZE_HINT = "Enter a size such as 512M, 20G or 1.5T (units K, M, G, T, P)."

# One table of names: the form's choices and every message about a layout say the same words.
LAYOUT_CHOICES = [(key, f"{name} ({what})") for key, (name, what) in layout.LAYOUTS.items()]
COMPRESSION_FORM_CHOICES = ["inherit", *COMPRESSION_CHOICES]
DEDUP_FORM_CHOICES = ["inherit", "off", "on", "verify"]
SYNC_FORM_CHOICES = ["inherit", "standard", "always", "disabled"]
# What each sync value trades: measured in bench/lio_throughput.py (sync=disabled made O_SYNC
# 4K writes through iSCSI 3.3x faster), and what that speed costs.
SYNC_HELP = (
    "standard (ZFS's default): a write a program or client asks to be safe (fsync, O_SYNC, "
    "an iSCSI or NFS flush) is on disk before it is acknowledged. always: every write is, "
    "slowest. disabled: none is, much faster for VMs and databases, but a power cut or crash "
    "loses the last seconds of writes they were told were safe, which can corrupt a VM's "
    "file system or a database."
)
RECORDSIZES = [2**n for n in range(9, 21)]  # 512 B .. 1 MiB
VOLBLOCKSIZES = [2**n for n in range(9, 18)]  # 512 B .. 128 KiB
DEFAULT_VOLBLOCKSIZE = 16 * units.KIB
DEFAULT_RECORDSIZE = 128 * units.KIB


SCRATCH_REFUSAL = (
    f"Names starting with “{names.SCRATCH_PREFIX}” are kept for the benchmark's scratch data."
)


def validate_pool_name(name: str, field: str = "name") -> str:
    """Pool names: a letter first, then letters, digits, _ . : -; not a vdev keyword."""
    name = name.strip()
    if not name:
        raise fail(field, "Give the pool a name.")
    if len(name) > MAX_NAME:
        raise fail(field, f"At most {MAX_NAME} characters.")
    problem = names.pool_name_problem(name)
    if problem:
        raise fail(field, problem)
    return name


LEADING_SLASH = "A dataset name starts with its pool, not /: e.g. tank/media."
EMPTY_PART = "A part of the name is empty: no // and no / at the end."


def name_part_problem(part: str) -> str | None:
    """Why one /-separated part of a name, as typed, is refused before ZFS's rules (or None)."""
    if part != part.strip():
        return f"“{part}”: spaces around a name part are not allowed."
    if not part:
        return EMPTY_PART
    return None


def validate_dataset_name(name: str, field: str = "name") -> str:
    """A full dataset name: pool/component[/component…], each component ZFS-valid.

    Refused, never rewritten: a leading /, an empty part (// or a / at the end) and spaces
    around a part each get their own message (the form or serializer trims the whole field).
    """
    if name.startswith("/"):
        raise fail(field, LEADING_SLASH)
    if "/" not in name:
        raise fail(field, "Name a dataset inside a pool, e.g. tank/media.")
    if len(name) > MAX_NAME:
        raise fail(field, f"At most {MAX_NAME} characters in the full name.")
    pool, *components = name.split("/")
    for part in (pool, *components):
        problem = name_part_problem(part)
        if problem:
            raise fail(field, problem)
    validate_pool_name(pool, field)
    for component in components:
        problem = names.component_problem(component)
        if problem:
            raise fail(field, problem)
    return name


def split_dataset_name(full: str, field: str = "name") -> tuple[str, str]:
    """A full name checked as typed, then split: tank/a/b -> ("tank/a", "b")."""
    validate_dataset_name(full, field)
    parent, _, name = full.rpartition("/")
    return parent, name


def validate_component(name: str, field: str = "name") -> str:
    """The last part of a dataset name, as typed in a form next to its parent."""
    if not name.strip():
        raise fail(field, "Give it a name.")
    if "/" in name:
        raise fail(field, "Type the name only; the parent is chosen separately.")
    problem = name_part_problem(name)
    if problem:
        raise fail(field, problem)
    if names.component_problem(name):
        raise fail(field, "Use only letters, digits, underscore, hyphen, colon and period.")
    if name.startswith(names.SCRATCH_PREFIX):
        raise fail(field, SCRATCH_REFUSAL)
    return name


def parse_size(text: str | int, field: str = "size", *, allow_zero: bool = False) -> int:
    """'10G', '1.5 TiB', '512K', '4096' -> bytes (binary units, as ZFS reads them)."""
    if isinstance(text, int):
        value = text
    else:
        try:
            value = units.parse_size(str(text))
        except units.NotWholeBytes as exc:
            raise fail(
                field, f"{text} is not a whole number of bytes; use a unit, e.g. 1.5K."
            ) from exc
        except units.NotASize as exc:
            raise fail(field, SIZE_HINT) from exc
    if value < 0 or (value == 0 and not allow_zero):
        raise fail(field, "Must be larger than zero.")
    if value > MAX_SIZE:
        raise fail(field, "At most 8 EiB: ZFS keeps sizes in 64 bits.")
    return value


def check_confirmation(name: str, typed: str) -> None:
    """Destroying needs the exact name typed again."""
    if typed.strip() != name:
        raise fail("confirm", f"Type “{name}” to confirm.")


def validate_choice(value: str, choices: list[str], field: str) -> str:
    """One of a fixed list of words."""
    if value not in choices:
        raise fail(field, f"“{value}” is not one of: {', '.join(choices)}.")
    return value


def validate_block_size(value: int, choices: list[int], field: str) -> int:
    """A power of two within ZFS's range for this property."""
    if value not in choices:
        raise fail(
            field,
            f"Must be a power of two from {format_size(choices[0])} to {format_size(choices[-1])}.",
        )
    return value


def validate_layout(layout_key: str, disk_count: int, width: int | None) -> tuple[str, int]:
    """Check disk counts for a layout; return (vdev type, disks per vdev).

    Messages name the layout as the form's choices do (RAID-Z1, not raidz1).
    """
    vdev_type = "mirror" if layout_key == "raid10" else layout_key
    if vdev_type not in MIN_DISKS or layout_key not in layout.LAYOUTS:
        raise fail("layout", f"Pick one of: {', '.join(k for k, _ in LAYOUT_CHOICES)}.")
    shown = layout.display_name(layout_key)
    minimum = MIN_DISKS[vdev_type]
    if layout_key == "raid10":
        width = width or 2
        if disk_count < 2 * width:
            raise fail("disks", f"RAID10 needs at least two mirrors of {width}: {2 * width} disks.")
    elif layout_key == "stripe":
        width = 1
    elif width is None:
        width = disk_count
    if disk_count < minimum or width < minimum:
        raise fail("disks", f"{shown} needs at least {minimum} disks per vdev.")
    if disk_count % width:
        raise fail(
            "disks",
            f"{disk_count} disks cannot be split into {shown} vdevs of {width}: "
            "all data vdevs must have the same width.",
        )
    return vdev_type, width
