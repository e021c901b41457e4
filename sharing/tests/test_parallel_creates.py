"""Ten writes at the same moment: each is made, or refused in words; never a database error.

Each write runs in its own thread with its own database connection, as the web's workers are
separate processes: the checks (a name still free, the next free id) and the save are one step.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from sharing.accounts import services as accounts
from sharing.models import LocalGroup, LocalUser, NfsShare, SmbShare
from sharing.nfs import services as nfs
from sharing.smb import services as smb
from storage.datasets import selectors as dataset_selectors
from storage.datasets import services as dataset_services

# In the fuzz lane too (-m fuzz): what found the 500s and the hangs.
pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]
WRITERS = 10


def at_once(write: Callable[[int], Any]) -> tuple[list[Any], list[str]]:
    """Run `write(i)` for ten i in ten threads released together: what was made, the refusals."""
    made: list[Any] = []
    refused: list[str] = []
    unexpected: list[BaseException] = []
    start = threading.Barrier(WRITERS)

    def run(i: int) -> None:
        try:
            start.wait()
            made.append(write(i))
        except ValidationError as exc:
            refused.extend(exc.messages)
        except BaseException as exc:  # a database error is what this test must never see
            unexpected.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not unexpected, unexpected
    return made, refused


@pytest.fixture
def folders(fake_files, tank) -> list[str]:
    """Ten file systems tank/d0..d9; their mountpoints."""
    for i in range(WRITERS):
        dataset_services.dataset_create(parent="tank", name=f"d{i}")
    return [dataset_selectors.dataset_get(f"tank/d{i}").mountpoint or "" for i in range(WRITERS)]


def test_ten_groups_of_one_name_make_one_group(fake_files):
    made, refused = at_once(lambda i: accounts.group_create(name="family"))
    assert len(made) == 1
    assert refused == ["There is already a group named family."] * (WRITERS - 1)
    assert LocalGroup.objects.filter(name="family").count() == 1


def test_ten_groups_of_ten_names_get_ten_gids(fake_files):
    made, refused = at_once(lambda i: accounts.group_create(name=f"g{i}"))
    assert refused == []
    assert len({group.gid for group in made}) == WRITERS
    assert LocalGroup.objects.count() == WRITERS


def test_ten_users_of_one_name_make_one_user(fake_files):
    made, refused = at_once(lambda i: accounts.user_create(username="mum", password="a-long-pw"))
    assert len(made) == 1
    assert len(refused) == WRITERS - 1
    assert set(refused) == {"There is already a user named mum."}


def test_ten_users_of_ten_names_get_ten_uids_and_gids(fake_files):
    made, refused = at_once(lambda i: accounts.user_create(username=f"u{i}", password="a-long-pw"))
    assert refused == []
    assert len({user.uid for user in made}) == WRITERS
    assert len(set(LocalUser.objects.values_list("group__gid", flat=True))) == WRITERS


def test_ten_smb_shares_of_one_name_make_one_share(folders):
    made, refused = at_once(lambda i: smb.smb_share_create(name="media", path=folders[i]))
    assert len(made) == 1
    assert set(refused) == {"There is already a share named media (Windows ignores case)."}
    assert SmbShare.objects.count() == 1


def test_ten_smb_shares_of_ten_names_are_all_made(folders):
    _made, refused = at_once(lambda i: smb.smb_share_create(name=f"s{i}", path=folders[i]))
    assert refused == []
    assert SmbShare.objects.count() == WRITERS


def test_ten_exports_of_one_dataset_make_one_export(folders):
    made, refused = at_once(
        lambda i: nfs.nfs_share_create(path=folders[0], networks=["10.0.0.0/8"])
    )
    assert len(made) == 1
    assert len(refused) == WRITERS - 1
    assert NfsShare.objects.count() == 1


def test_ten_exports_of_ten_datasets_are_all_made(folders):
    _made, refused = at_once(
        lambda i: nfs.nfs_share_create(path=folders[i], networks=["10.0.0.0/8"])
    )
    assert refused == []
    assert NfsShare.objects.count() == WRITERS


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/sharing/groups/", lambda i, folders: {"name": "family"}),
        ("/api/sharing/groups/", lambda i, folders: {"name": f"g{i}"}),
        ("/api/sharing/users/", lambda i, folders: {"username": "mum", "password": "a-long-pw"}),
        ("/api/sharing/users/", lambda i, folders: {"username": f"u{i}", "password": "a-long-pw"}),
        ("/api/sharing/smb/shares/", lambda i, folders: {"name": "media", "path": folders[i]}),
        ("/api/sharing/smb/shares/", lambda i, folders: {"name": f"s{i}", "path": folders[i]}),
        (
            "/api/sharing/nfs/shares/",
            lambda i, folders: {"path": folders[0], "networks": ["10.0.0.0/8"]},
        ),
        (
            "/api/sharing/nfs/shares/",
            lambda i, folders: {"path": folders[i], "networks": ["10.0.0.0/8"]},
        ),
    ],
)
def test_ten_api_creates_at_once_answer_201_or_400(folders, admin_user, url, body):
    from django.test import Client

    def create(i: int) -> int:
        client = Client()
        client.force_login(admin_user)
        return client.post(url, body(i, folders), content_type="application/json").status_code

    codes, refused = at_once(create)
    assert refused == []
    assert set(codes) <= {201, 400}
    assert 201 in codes
