"""Turn the ZFS engines' typed errors into field-level validation errors, once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from nasui.validation import fail
from storage.zfs import errors as zfs

T = TypeVar("T")

# A plain sentence for each error class; the engine's own words follow it.
FRIENDLY: dict[type[zfs.ZfsError], tuple[str, str]] = {
    zfs.PoolExists: ("name", "A pool with this name already exists."),
    zfs.DatasetExists: ("name", "A dataset or zvol with this name already exists."),
    zfs.PoolNotFound: (NON_FIELD_ERRORS, "No such pool."),
    zfs.DatasetNotFound: (NON_FIELD_ERRORS, "No such dataset or zvol."),
    zfs.PoolBusy: (NON_FIELD_ERRORS, "The pool is busy: something still uses it."),
    zfs.DatasetBusy: (NON_FIELD_ERRORS, "It is busy: something still uses it."),
    zfs.WrongKey: ("passphrase", "That passphrase or key does not unlock it."),
    zfs.KeyAlreadyLoaded: (NON_FIELD_ERRORS, "It is unlocked already."),
    zfs.KeyNotLoaded: (NON_FIELD_ERRORS, "It is locked: unlock it first."),
    zfs.NotAnEncryptionRoot: ("name", "Its key belongs to the dataset it inherits it from."),
    zfs.HasChildren: ("recursive", "It has children or snapshots: confirm a recursive delete."),
    zfs.NoSpace: ("size", "Not enough free space in the pool."),
    zfs.VolumeShrink: ("size", "A zvol can only grow: shrinking would destroy data."),
    zfs.DeviceInUse: ("disks", "A chosen disk is in use."),
    zfs.DeviceNotFound: ("disks", "A chosen disk does not exist."),
    zfs.InvalidLayout: ("disks", "The disks do not make a valid layout."),
    zfs.InvalidProperty: (NON_FIELD_ERRORS, "ZFS refused a setting."),
    zfs.PermissionDenied: (NON_FIELD_ERRORS, "The panel is not allowed to run ZFS commands."),
    zfs.ZfsUnavailable: (NON_FIELD_ERRORS, "ZFS is not available on this machine."),
    zfs.ZfsTimeout: (NON_FIELD_ERRORS, "ZFS did not answer in time."),
}
PROPERTY_FIELDS = (
    "compression",
    "dedup",
    "recordsize",
    "volblocksize",
    "quota",
    "reservation",
    "atime",
    "acltype",
)


def _field_for_property(message: str) -> str | None:
    """Guess the form field from a ZFS message that names a property."""
    lowered = message.lower()
    if "volsize" in lowered:
        return "size"
    return next((name for name in PROPERTY_FIELDS if name in lowered), None)


def to_validation_error(
    exc: zfs.ZfsError,
    field: str | None = None,
    *,
    fields: Mapping[type[zfs.ZfsError], str] | None = None,
) -> ValidationError:
    """A ValidationError naming the field the failure is about, with ZFS's own reason.

    `fields` names the field for some error classes when the caller knows better than the
    usual guess (NoSpace on a file system comes from its reservation, not a size).
    """
    default_field, sentence = next(
        (value for cls, value in FRIENDLY.items() if isinstance(exc, cls)),
        (NON_FIELD_ERRORS, "ZFS refused the change."),
    )
    known = next((f for cls, f in (fields or {}).items() if isinstance(exc, cls)), None)
    target = field or known or default_field
    if isinstance(exc, zfs.InvalidProperty):
        target = field or known or _field_for_property(exc.message) or default_field
    detail = exc.message.strip()
    text = f"{sentence} ZFS said: {detail}" if detail and detail != sentence else sentence
    return ValidationError({target: [text]})


def engine_call(
    call: Callable[[], T],
    field: str | None = None,
    *,
    sentences: Mapping[type[zfs.ZfsError], str] | None = None,
    fields: Mapping[type[zfs.ZfsError], str] | None = None,
) -> T:
    """Run one engine operation; its typed error becomes a ValidationError on `field`.

    `sentences` says, for the refusals only some operations meet, what to tell the user
    before the engine's own words (a disk replace: "That would leave some data without...").
    `fields` names the field of some error classes (see to_validation_error).
    """
    try:
        return call()
    except zfs.ZfsError as exc:
        sentence = next((s for cls, s in (sentences or {}).items() if isinstance(exc, cls)), None)
        if sentence is None or field is None:
            raise to_validation_error(exc, field, fields=fields) from exc
        raise fail(field, f"{sentence} ZFS said: {exc.message}") from exc
