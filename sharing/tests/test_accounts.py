"""Local users and groups: rules with field messages, the accounts they give the file servers."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.accounts import services as accounts
from sharing.models import LocalGroup, LocalUser

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse 1"


def _errors(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


def test_a_user_gets_a_group_of_its_name_and_free_ids(fake_files):
    alice = accounts.user_create(username="alice", password=PASSWORD, full_name="Alice A")
    bob = accounts.user_create(username="bob", password=PASSWORD, group=alice.group)
    assert (alice.uid, alice.group.name, alice.group.gid) == (3000, "alice", 3000)
    assert (bob.uid, bob.group.name) == (3001, "alice")
    users = {u.name: u for u in fake_files.last.accounts.users}
    assert users["alice"].full_name == "Alice A"
    assert users["alice"].nt_hash == alice.nt_hash != ""
    assert "correct horse" not in str(LocalUser.objects.values())


def test_extra_groups_list_their_members(fake_files):
    staff = accounts.group_create(name="staff")
    accounts.user_create(username="carol", password=PASSWORD, groups=[staff])
    groups = {g.name: g for g in fake_files.last.accounts.groups}
    assert groups["staff"].members == ("carol",)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"username": "Bad Name"}, "username", "a-z 0-9 _ -"),
        ({"username": "x" * 33}, "username", "1-32"),
        ({"password": "short"}, "password", "8 to 128 characters"),
        ({"uid": 0}, "uid", "from 1000 to 59999"),
        ({"uid": 70000}, "uid", "from 1000 to 59999"),
        ({"full_name": "a:b"}, "full_name", "without ':'"),
        ({"home_dataset": "tank/nosuch"}, "home_dataset", "no file system named"),
    ],
)
def test_bad_input_names_the_field_and_changes_nothing(fake_files, tank, fields, field, words):
    with pytest.raises(ValidationError) as exc:
        accounts.user_create(**{"username": "dave", "password": PASSWORD, **fields})
    assert words in " ".join(_errors(exc)[field])
    assert not LocalUser.objects.exists()
    assert not LocalGroup.objects.exists()


def test_taken_names_and_ids_are_refused(fake_files):
    erin = accounts.user_create(username="erin", password=PASSWORD)
    with pytest.raises(ValidationError) as exc:
        accounts.user_create(username="erin", password=PASSWORD)
    assert "already a user named erin" in _errors(exc)["username"][0]
    with pytest.raises(ValidationError) as exc:
        accounts.user_create(username="frank", password=PASSWORD, uid=erin.uid)
    assert "taken" in _errors(exc)["uid"][0]
    with pytest.raises(ValidationError) as exc:
        accounts.group_create(name="erin")
    assert "already a group named erin" in _errors(exc)["name"][0]


def test_an_empty_password_keeps_the_hash_and_a_new_one_replaces_it(fake_files):
    gina = accounts.user_create(username="gina", password=PASSWORD)
    first = gina.nt_hash
    accounts.user_update(user=gina, group=gina.group, full_name="Gina")
    assert LocalUser.objects.get(username="gina").nt_hash == first
    accounts.user_update(user=gina, group=gina.group, password="another pass 2")
    assert LocalUser.objects.get(username="gina").nt_hash != first


def test_a_disabled_user_is_disabled_in_the_servers_accounts(fake_files):
    hank = accounts.user_create(username="hank", password=PASSWORD)
    accounts.user_update(user=hank, group=hank.group, disabled=True)
    [spec] = fake_files.last.accounts.users
    assert spec.disabled


def test_a_primary_group_cannot_be_deleted(fake_files):
    ivan = accounts.user_create(username="ivan", password=PASSWORD)
    with pytest.raises(ValidationError) as exc:
        accounts.group_delete(group=ivan.group)
    assert "primary group of ivan" in str(exc.value)
    assert LocalGroup.objects.filter(name="ivan").exists()


def test_a_refused_apply_rolls_the_database_back(fake_files):
    fake_files.refuse = "testparm: broken"
    with pytest.raises(ValidationError) as exc:
        accounts.user_create(username="judy", password=PASSWORD)
    assert "testparm: broken" in str(exc.value)
    assert not LocalUser.objects.exists()
    assert not LocalGroup.objects.exists()


def test_deleting_a_user_takes_its_own_group_unless_another_user_needs_it(fake_files):
    kate = accounts.user_create(username="kate", password=PASSWORD)
    accounts.user_delete(user=kate)
    assert not LocalGroup.objects.filter(name="kate").exists()
    liam = accounts.user_create(username="liam", password=PASSWORD)
    accounts.user_create(username="mia", password=PASSWORD, group=liam.group)
    accounts.user_delete(user=liam)
    assert LocalGroup.objects.filter(name="liam").exists()
