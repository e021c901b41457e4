"""Shares and LUNs on encrypted datasets: let go before a lock, served again after an unlock.

A locked dataset keeps its mountpoint property, so without these checks a share would serve
(and take writes into) the empty folder of its parent beneath it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from sharing.iscsi import runtime as iscsi_runtime
from sharing.iscsi import services as iscsi
from sharing.nfs import selectors as nfs_selectors
from sharing.nfs import services as nfs
from sharing.smb import services as smb
from storage.datasets import selectors as storage
from storage.datasets import services as storage_services
from storage.encryption import services as encryption

pytestmark = pytest.mark.django_db
PASSPHRASE = "correct horse battery"


@pytest.fixture(autouse=True)
def data_dir(settings, tmp_path: Path) -> None:
    settings.DATA_DIR = tmp_path / "data"
    settings.DATA_DIR.mkdir()


@pytest.fixture
def vault(fake_files, fake_target, tank) -> str:
    """An encrypted file system tank/vault, shared over SMB and NFS; its mountpoint."""
    storage_services.dataset_create(
        parent="tank",
        name="vault",
        encryption="passphrase",
        passphrase=PASSPHRASE,
        passphrase_confirm=PASSPHRASE,
    )
    path = storage.dataset_get("tank/vault").mountpoint or ""
    smb.smb_share_create(name="Vault", path=path)
    nfs.nfs_share_create(path=path, networks=["192.168.1.0/24"])
    return path


def _smb_shares(fake_files) -> list[str]:
    return [share.name for share in fake_files.last.shares]


def test_the_file_servers_let_go_before_the_lock_and_serve_again_after_the_unlock(
    vault, fake_files
):
    assert _smb_shares(fake_files) == ["Vault"]
    encryption.lock(name="tank/vault")
    assert _smb_shares(fake_files) == []  # applied before ZFS unmounted it
    assert nfs_selectors.build_nfs_state().exports == ()
    assert storage.dataset_path("tank/vault") == ""
    encryption.unlock(name="tank/vault", passphrase=PASSPHRASE)
    assert _smb_shares(fake_files) == ["Vault"]
    [export] = nfs_selectors.build_nfs_state().exports
    assert export.path == vault


def test_a_server_that_cannot_let_go_stops_the_lock(vault, fake_files):
    fake_files.refuse = "smbd is wedged"
    with pytest.raises(ValidationError) as caught:
        encryption.lock(name="tank/vault")
    assert "tank/vault stays unlocked: smbd is wedged" in str(caught.value)
    assert not storage.dataset_get("tank/vault").locked


def test_a_lun_on_a_locked_zvol_is_left_out_and_said_so(fake_files, fake_target, tank):
    storage_services.zvol_create(parent="tank", name="disk", size="64M", sparse=True,
                                 encryption="key")  # fmt: skip
    extent = iscsi.extent_create(name="disk", zvol="tank/disk")
    portal = iscsi.portal_create(addresses=["127.0.0.1"])
    target = iscsi.target_create(name="vm", groups=[{"portal": portal}])
    iscsi.association_create(target=target, extent=extent)
    [served] = fake_target.last.targets
    assert len(served.luns) == 1
    encryption.lock(name="tank/disk")
    [served] = fake_target.last.targets
    assert served.luns == ()
    missing: list[str] = []
    iscsi_runtime.desired_state(missing)
    assert missing == ["disk (tank/disk is locked)"]
    encryption.unlock(name="tank/disk")  # its key is on the appliance
    [served] = fake_target.last.targets
    assert len(served.luns) == 1
