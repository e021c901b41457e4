"""ACL type, owner, group and mode of a file system: services, pages and API, all or nothing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from nasui.models import Job
from storage import registry
from storage.datasets import selectors, services
from storage.engine import get_engine
from storage.zfs.errors import InvalidProperty

pytestmark = pytest.mark.django_db
JSON = "application/json"
SAM, STAFF = 2001, 3001
PROPS = {"compression": "inherit", "dedup": "inherit", "atime": "inherit"}


@pytest.fixture
def accounts() -> Iterator[None]:
    """A user sam and a group staff, as the sharing app would register them."""
    lister = lambda: registry.Accounts(users={"sam": SAM}, groups={"staff": STAFF})  # noqa: E731
    registry.register_account_lister("test", lister)
    yield
    registry.unregister_account_lister("test")


@pytest.fixture
def docs(tank, accounts) -> Path:
    """tank/docs with a folder and a file inside."""
    services.dataset_create(parent="tank", name="docs")
    root = Path(selectors.dataset_get("tank/docs").mountpoint or "")
    (root / "inner").mkdir()
    (root / "inner" / "file.txt").write_bytes(b"x")
    return root


def _stat(path: Path) -> tuple[int, int, int]:
    info = os.stat(path, follow_symlinks=False)
    return info.st_uid, info.st_gid, info.st_mode & 0o7777


def _acl(name: str) -> tuple[str, str, str, str]:
    found = get_engine().get_properties(name, ["acltype", "xattr"])
    return (
        found["acltype"].value,
        found["acltype"].source,
        found["xattr"].value,
        found["xattr"].source,
    )


# -- the sandbox engine knows acltype as OpenZFS on Linux does -----------------------------------
def test_acltype_is_off_by_default_and_inherited_by_children(tank):
    engine = get_engine()
    engine.create_dataset("tank/a", properties={"acltype": "posix"})
    engine.create_dataset("tank/a/b")
    engine.create_dataset("tank/c")
    b = engine.get_properties("tank/a/b", ["acltype"])["acltype"]
    c = engine.get_properties("tank/c", ["acltype"])["acltype"]
    assert (b.value, b.source) == ("posix", "inherited from tank/a")
    assert (c.value, c.source) == ("off", "default")


@pytest.mark.parametrize(("given", "shown"), [("posixacl", "posix"), ("noacl", "off")])
def test_old_acltype_names_read_back_as_the_new_ones(tank, given, shown):
    get_engine().create_dataset("tank/a", properties={"acltype": given})
    assert get_engine().get_properties("tank/a", ["acltype"])["acltype"].value == shown


def test_zvols_have_no_acltype_and_nfsv4_is_refused(tank):
    engine = get_engine()
    engine.create_zvol("tank/vol", size=64 << 20, sparse=True)
    assert "acltype" not in engine.get_properties("tank/vol", ["acltype"])
    with pytest.raises(InvalidProperty, match="acltype"):
        engine.create_dataset("tank/n", properties={"acltype": "nfsv4"})


# -- services -------------------------------------------------------------------------------------
def test_posix_acls_come_with_xattr_sa(tank):
    services.dataset_create(parent="tank", name="a", acltype="posix")
    assert _acl("tank/a") == ("posix", "local", "sa", "local")
    services.dataset_update(name="tank/a", acltype="inherit")
    assert _acl("tank/a")[:2] == ("off", "default")


def test_a_new_dataset_gets_its_owner_and_mode(tank, accounts):
    made = services.dataset_create(
        parent="tank", name="team", owner="sam", group="staff", mode="0770"
    )
    assert _stat(Path(made.mountpoint or "")) == (SAM, STAFF, 0o770)


def test_a_bad_mode_on_create_names_the_field_and_creates_nothing(tank, accounts):
    with pytest.raises(ValidationError) as exc:
        services.dataset_create(parent="tank", name="team", mode="0999")
    assert list(exc.value.message_dict) == ["mode"]
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_a_failed_owner_change_on_create_leaves_no_dataset(tank, accounts, monkeypatch):
    def refuse(name, wanted):
        raise ValidationError("chown refused")

    monkeypatch.setattr("storage.ownership.services.set_mountpoint", refuse)
    with pytest.raises(ValidationError, match="chown refused"):
        services.dataset_create(parent="tank", name="team", owner="sam", mode="0770")
    assert [d.name for d in selectors.dataset_list("tank")] == ["tank"]


def test_owner_group_and_mode_change_on_the_mountpoint_only(docs):
    saved = services.dataset_update(name="tank/docs", owner="sam", group="staff", mode="2770")
    assert saved.job is None
    assert _stat(docs) == (SAM, STAFF, 0o2770)
    assert _stat(docs / "inner")[0] != SAM


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"mode": "0999"}, "mode"),
        ({"mode": "rwx"}, "mode"),
        ({"owner": "mallory"}, "owner"),
        ({"group": "wheel"}, "group"),
        ({"acltype": "nfsv4"}, "acltype"),
    ],
)
def test_bad_input_names_the_field_and_changes_nothing(docs, given, field):
    before = (_stat(docs), _acl("tank/docs"))
    with pytest.raises(ValidationError) as exc:
        services.dataset_update(
            name="tank/docs", **{"acltype": "posix", "owner": "sam", "mode": "0700", **given}
        )
    assert list(exc.value.message_dict) == [field]
    assert (_stat(docs), _acl("tank/docs")) == before


def test_a_refused_zfs_property_puts_owner_and_mode_back(docs, monkeypatch):
    before = (_stat(docs), _acl("tank/docs"))

    def refuse(self, name, properties):
        raise InvalidProperty("cannot set property for 'tank/docs': 'acltype' refused")

    monkeypatch.setattr(type(get_engine()), "set_properties", refuse)
    with pytest.raises(ValidationError) as exc:
        services.dataset_update(name="tank/docs", acltype="posix", owner="sam", mode="0700")
    monkeypatch.undo()
    assert list(exc.value.message_dict) == ["acltype"]
    assert (_stat(docs), _acl("tank/docs")) == before


def test_a_failed_owner_change_leaves_the_zfs_properties(docs, monkeypatch):
    before = (_stat(docs), _acl("tank/docs"))

    def refuse(name, wanted):
        raise ValidationError("chown refused")

    monkeypatch.setattr("storage.ownership.services.set_mountpoint", refuse)
    with pytest.raises(ValidationError, match="chown refused"):
        services.dataset_update(name="tank/docs", acltype="posix", owner="sam")
    assert (_stat(docs), _acl("tank/docs")) == before


def test_recursive_apply_is_a_job_for_everything_inside(docs, eager_jobs):
    saved = services.dataset_update(
        name="tank/docs", owner="sam", group="staff", mode="0750", permissions_recursive=True
    )
    assert saved.job is not None
    saved.job.refresh_from_db()
    assert saved.job.status == Job.Status.SUCCEEDED, saved.job.error
    assert _stat(docs / "inner") == (SAM, STAFF, 0o750)
    assert _stat(docs / "inner" / "file.txt") == (SAM, STAFF, 0o640)


# -- pages ----------------------------------------------------------------------------------------
def test_the_edit_page_shows_the_present_owner_and_acl_type(admin_client, docs):
    services.dataset_update(name="tank/docs", acltype="posix", owner="sam", mode="0750")
    page = admin_client.get("/storage/datasets/tank/docs/edit/").content.decode()
    assert "Now: owner sam, group root, mode 0750" in page
    assert '<option value="posix" selected>POSIX</option>' in page
    assert '<option value="sam" selected>sam</option>' in page
    assert 'name="permissions_recursive"' in page


def test_the_edit_page_sets_acl_type_owner_and_mode(admin_client, docs):
    form = {**PROPS, "acltype": "posix", "owner": "sam", "group": "staff", "mode": "0770"}
    response = admin_client.post("/storage/datasets/tank/docs/edit/", form)
    assert response.status_code == 302
    assert _acl("tank/docs")[:3] == ("posix", "local", "sa")
    assert _stat(docs) == (SAM, STAFF, 0o770)


def test_the_edit_page_names_a_bad_mode(admin_client, docs):
    before = _stat(docs)
    form = {**PROPS, "acltype": "posix", "owner": "root", "group": "root", "mode": "0778"}
    response = admin_client.post("/storage/datasets/tank/docs/edit/", form)
    assert response.status_code == 400
    assert 'data-field-error="mode"' in response.content.decode()
    assert _stat(docs) == before
    assert _acl("tank/docs")[:2] == ("off", "default")


def test_the_edit_page_starts_the_recursive_job(admin_client, docs, eager_jobs):
    form = {**PROPS, "owner": "sam", "group": "staff", "mode": "0750"}
    form["permissions_recursive"] = "on"
    response = admin_client.post("/storage/datasets/tank/docs/edit/", form, follow=True)
    assert "follow in a job" in response.content.decode()
    assert Job.objects.get(kind="dataset.permissions").status == Job.Status.SUCCEEDED
    assert _stat(docs / "inner")[:2] == (SAM, STAFF)


def test_the_create_page_sets_acl_type_owner_and_mode(admin_client, tank, accounts):
    page = admin_client.get("/storage/datasets/create/?parent=tank").content.decode()
    assert 'name="acltype"' in page
    assert 'name="mode"' in page
    assert 'name="permissions_recursive"' not in page
    form = {**PROPS, "parent": "tank", "name": "team", "acltype": "posix"}
    form.update(owner="sam", group="staff", mode="0770")
    assert admin_client.post("/storage/datasets/create/", form).status_code == 302
    made = selectors.dataset_get("tank/team")
    assert _stat(Path(made.mountpoint or "")) == (SAM, STAFF, 0o770)
    assert _acl("tank/team")[:3] == ("posix", "local", "sa")


def test_the_zvol_page_has_no_permissions(admin_client, tank):
    services.zvol_create(parent="tank", name="vol", size="64M", sparse=True)
    page = admin_client.get("/storage/zvols/tank/vol/edit/").content.decode()
    assert 'name="size"' in page
    assert 'name="acltype"' not in page
    assert 'name="mode"' not in page


# -- API ------------------------------------------------------------------------------------------
def test_the_api_shows_acl_type_and_the_folder(admin_client, docs):
    body = admin_client.get("/api/storage/datasets/tank/docs/").json()
    assert body["acltype"] == "off"
    assert body["permissions"] == {
        "owner": "root",
        "group": "root",
        "uid": 0,
        "gid": 0,
        "mode": f"{_stat(docs)[2]:04o}",
    }


def test_the_api_patch_sets_acl_type_owner_and_mode(admin_client, docs):
    body = {"acltype": "posix", "owner": "sam", "group": "staff", "mode": "0770"}
    response = admin_client.patch("/api/storage/datasets/tank/docs/", body, content_type=JSON)
    assert response.status_code == 200, response.json()
    got = response.json()
    assert (got["acltype"], got["job"]) == ("posix", None)
    assert (got["permissions"]["owner"], got["permissions"]["mode"]) == ("sam", "0770")
    assert _stat(docs) == (SAM, STAFF, 0o770)


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"acltype": "nfsv4"}, "acltype"),
        ({"mode": "99"}, "mode"),
        ({"owner": "mallory"}, "owner"),
        ({"permissions_recursive": "maybe"}, "permissions_recursive"),
    ],
)
def test_the_api_names_the_bad_field_and_changes_nothing(admin_client, docs, given, field):
    before = (_stat(docs), _acl("tank/docs"))
    body = {"acltype": "posix", "owner": "sam", "mode": "0700", **given}
    response = admin_client.patch("/api/storage/datasets/tank/docs/", body, content_type=JSON)
    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]
    assert (_stat(docs), _acl("tank/docs")) == before


def test_the_api_recursive_apply_returns_its_job(admin_client, docs, eager_jobs):
    body = {"mode": "0750", "owner": "sam", "permissions_recursive": True}
    response = admin_client.patch("/api/storage/datasets/tank/docs/", body, content_type=JSON)
    assert response.status_code == 200, response.json()
    job = Job.objects.get(pk=response.json()["job"]["id"])
    assert job.status == Job.Status.SUCCEEDED, job.error
    assert _stat(docs / "inner" / "file.txt")[0] == SAM


def test_the_api_creates_a_dataset_with_owner_and_acl_type(admin_client, tank, accounts):
    body = {"name": "tank/team", "acltype": "posix", "owner": "sam", "mode": "0700"}
    response = admin_client.post("/api/storage/datasets/", body, content_type=JSON)
    assert response.status_code == 201, response.json()
    got = response.json()
    assert (got["acltype"], got["permissions"]["owner"], got["permissions"]["mode"]) == (
        "posix",
        "sam",
        "0700",
    )


def test_an_unmounted_dataset_keeps_its_properties_editable(admin_client, docs, monkeypatch):
    monkeypatch.setattr("storage.ownership.selectors.mountpoint_ownership", lambda mountpoint: None)
    page = admin_client.get("/storage/datasets/tank/docs/edit/").content.decode()
    assert "Not mounted" in page
    assert 'name="mode"' not in page
    form = {**PROPS, "acltype": "posix"}
    assert admin_client.post("/storage/datasets/tank/docs/edit/", form).status_code == 302
    assert _acl("tank/docs")[0] == "posix"
