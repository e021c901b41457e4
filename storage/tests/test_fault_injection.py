"""A change that fails halfway leaves the dataset as it was and says what failed."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from storage.datasets import services
from storage.engine import get_engine
from storage.zfs import errors as zfs


def _fail(message: str):
    def refuse(*args, **kwargs):
        raise zfs.ZfsError(message, argv=["zfs", "inherit"], returncode=1, stderr=message)

    return refuse


def _local(name: str) -> dict[str, str]:
    found = get_engine().get_properties(name, ["compression", "dedup", "atime"])
    return {prop: f"{pv.value} ({pv.source})" for prop, pv in found.items()}


def test_a_failed_inherit_undoes_the_set_before_it(tank, monkeypatch):
    services.dataset_create(parent="tank", name="docs", compression="gzip", dedup="on")
    before = _local("tank/docs")
    monkeypatch.setattr(type(get_engine()), "inherit_property", _fail("inherit refused"))
    with pytest.raises(ValidationError, match="inherit refused"):
        services.dataset_update(name="tank/docs", compression="zstd", dedup="inherit")
    monkeypatch.undo()
    assert _local("tank/docs") == before


def test_a_failed_grow_undoes_the_property_changes(tank, monkeypatch):
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True, compression="lz4")
    before = _local("tank/vol")
    monkeypatch.setattr(
        type(get_engine()), "grow_zvol", _fail("cannot set property for 'tank/vol': out of space")
    )
    with pytest.raises(ValidationError) as exc:
        services.zvol_update(name="tank/vol", size="128M", compression="gzip-9")
    monkeypatch.undo()
    assert "size" in exc.value.message_dict
    assert _local("tank/vol") == before
    assert get_engine().get_dataset("tank/vol").volsize == 64 << 20


def test_a_refused_property_leaves_the_zvol_ungrown(tank, monkeypatch):
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    monkeypatch.setattr(type(get_engine()), "set_properties", _fail("bad property value"))
    with pytest.raises(ValidationError, match="bad property value"):
        services.zvol_update(name="tank/vol", size="128M", compression="gzip-9")
    monkeypatch.undo()
    assert get_engine().get_dataset("tank/vol").volsize == 64 << 20
