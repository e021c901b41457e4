"""The iSCSI service layer: rules with field messages, the desired state it applies, undo."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from sharing.iscsi import forms as f
from sharing.iscsi import services
from sharing.iscsi.services import wizard
from sharing.models import AuthGroup, Extent, InitiatorGroup, Portal, Target
from storage.datasets import selectors as storage
from storage.pools import services as pool_services

pytestmark = pytest.mark.django_db
SECRET = "s3cret-secret"


def _errors(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


@pytest.fixture
def chain(fake_target, zvol):
    """Portal, initiator group, CHAP group, target and a LUN over tank/vol."""
    portal = services.portal_create(addresses=["127.0.0.1"])
    group = services.initiator_group_create(initiators=["iqn.2026-01.test:pc"])
    chap = services.auth_group_create(tag=1, user="alice", secret=SECRET)
    target = services.target_create(
        name="disk1",
        groups=[
            {"portal": portal, "initiator_group": group, "auth_method": "chap", "auth_group": chap}
        ],
    )
    extent = services.extent_create(name="disk1", zvol=zvol, blocksize=4096)
    services.association_create(target=target, extent=extent)
    return target


def test_the_chain_becomes_one_target_spec(chain, fake_target):
    spec = fake_target.last.targets[0]
    assert spec.iqn == "iqn.2026-11.local.nasui:disk1"
    assert spec.initiators == ("iqn.2026-01.test:pc",)
    assert spec.auth == "chap"
    assert spec.chap is not None
    assert (spec.chap.user, spec.chap.secret) == ("alice", SECRET)
    assert [(p.ip, p.port) for p in spec.portals] == [("127.0.0.1", 3260)]
    [lun] = spec.luns
    assert (lun.lun, lun.block_size) == (1, 4096)  # tgt keeps LUN 0 for itself
    assert lun.path.endswith("vol.zvol")


def test_a_refused_apply_rolls_the_database_back(chain, fake_target):
    fake_target.refuse = "tgtadm: invalid request"
    with pytest.raises(ValidationError) as exc:
        services.initiator_group_create(initiators=["iqn.2026-01.test:other"])
    assert "The tgt target refused the change: tgtadm: invalid request" in str(exc.value)
    assert InitiatorGroup.objects.count() == 1
    # ...and the running target was given the saved state again
    assert len(fake_target.last.targets) == 1


@pytest.mark.parametrize(
    ("secret", "fragment"),
    [
        ("short", "12 to 16 bytes"),
        (" leading-space1", "whitespace"),
        ("has#hash-inside", "'#'"),
        ("x" * 17, "12 to 16 bytes"),
    ],
)
def test_chap_secrets_follow_the_rules(fake_target, secret, fragment):
    with pytest.raises(ValidationError) as exc:
        services.auth_group_create(tag=1, user="u", secret=secret)
    assert fragment in _errors(exc)["secret"][0]
    assert AuthGroup.objects.count() == 0


def test_the_mutual_secret_must_differ(fake_target):
    with pytest.raises(ValidationError) as exc:
        services.auth_group_create(
            tag=1, user="u", secret=SECRET, peer_user="t", peer_secret=SECRET
        )
    assert _errors(exc) == {"peer_secret": ["The peer secret must differ from the secret."]}


def test_an_empty_secret_on_edit_keeps_the_stored_one(fake_target):
    group = services.auth_group_create(tag=1, user="u", secret=SECRET)
    services.auth_group_update(group=group, user="bob")
    group.refresh_from_db()
    assert (group.user, group.secret) == ("bob", SECRET)


def test_bad_initiator_names_and_networks_name_the_field(fake_target):
    with pytest.raises(ValidationError) as exc:
        services.initiator_group_create(initiators=["my-pc"])
    assert "is not an iSCSI name" in _errors(exc)["initiators"][0]
    with pytest.raises(ValidationError) as exc:
        services.initiator_group_create(networks=["10.0.0.300/8"])
    assert "networks" in _errors(exc)


def test_netmask_networks_are_stored_as_cidr(fake_target):
    group = services.initiator_group_create(networks=["10.1.2.3/255.0.0.0"])
    assert group.networks == ["10.0.0.0/8"]


def test_an_address_belongs_to_one_portal(fake_target):
    services.portal_create(addresses=["127.0.0.1"])
    with pytest.raises(ValidationError) as exc:
        services.portal_create(addresses=["127.0.0.1"])
    assert "already belongs to portal" in _errors(exc)["addresses"][0]
    assert Portal.objects.count() == 1


@pytest.mark.parametrize("name", ["Disk1", "disk 1", "disk/1", "x" * 121])
def test_target_names_are_checked(fake_target, name):
    portal = services.portal_create(addresses=["127.0.0.1"])
    with pytest.raises(ValidationError) as exc:
        services.target_create(name=name, groups=[{"portal": portal}])
    assert "name" in _errors(exc)


def test_chap_needs_an_auth_group(fake_target):
    portal = services.portal_create(addresses=["127.0.0.1"])
    with pytest.raises(ValidationError) as exc:
        services.target_create(name="t", groups=[{"portal": portal, "auth_method": "chap"}])
    assert "CHAP needs an auth group" in _errors(exc)["groups.auth_group"][0]


def test_a_zvol_belongs_to_one_extent_and_an_extent_to_one_target(chain, zvol):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="again", zvol=zvol)
    assert "already the extent" in _errors(exc)["zvol"][0]
    other = services.target_create(name="disk2", groups=[{"portal": Portal.objects.first()}])
    with pytest.raises(ValidationError) as exc:
        services.association_create(target=other, extent=Extent.objects.get())
    assert "already mapped" in _errors(exc)["extent"][0]


def test_lun_ids_are_unique_and_tgt_refuses_lun_0(chain, fake_target, tank):
    from storage.datasets import services as storage_services

    storage_services.zvol_create(parent="tank", name="vol2", size="16M", sparse=True)
    extent = services.extent_create(name="second", zvol="tank/vol2")
    with pytest.raises(ValidationError) as exc:
        services.association_create(target=chain, extent=extent, lun_id=0)
    assert _errors(exc) == {"lun_id": ["The tgt target starts LUN ids at 1."]}
    with pytest.raises(ValidationError) as exc:
        services.association_create(target=chain, extent=extent, lun_id=1)
    assert _errors(exc) == {"lun_id": ["LUN 1 is taken on this target."]}
    assert services.association_create(target=chain, extent=extent).lun_id == 2


def test_an_unknown_zvol_is_refused(fake_target, sandbox):
    with pytest.raises(ValidationError) as exc:
        services.extent_create(name="e", zvol="tank/nope")
    assert _errors(exc) == {"zvol": ["There is no zvol named “tank/nope”."]}


def test_a_zvol_in_use_cannot_be_destroyed(chain, zvol):
    from storage.datasets import services as storage_services

    with pytest.raises(ValidationError) as exc:
        storage_services.zvol_destroy(name=zvol, confirm=zvol)
    assert "In use by iSCSI extent disk1" in str(exc.value)
    with pytest.raises(ValidationError):
        pool_services.pool_destroy(name="tank", confirm="tank")
    services.extent_delete(extent=Extent.objects.get())
    storage_services.zvol_destroy(name=zvol, confirm=zvol)


def test_removing_the_association_drops_the_lun(chain, fake_target):
    services.association_delete(association=chain.luns.get())
    assert fake_target.last.targets[0].luns == ()


def test_a_disabled_extent_is_not_exported(chain, fake_target):
    extent = Extent.objects.get()
    services.extent_update(extent=extent, readonly=False, enabled=False)
    assert fake_target.last.targets[0].luns == ()


def test_the_wizard_makes_the_whole_chain(fake_target, tank):
    result = wizard.share_new_zvol(
        name="pc-backup",
        parent="tank",
        size="128M",
        volblocksize=4096,
        initiator="iqn.1991-05.com.microsoft:pc",
        chap_user="pc",
        chap_secret=SECRET,
    )
    assert result.zvol == "tank/pc-backup"
    assert result.extent.blocksize == 4096
    spec = fake_target.last.target("iqn.2026-11.local.nasui:pc-backup")
    assert spec is not None
    assert spec.initiators == ("iqn.1991-05.com.microsoft:pc",)
    assert spec.auth == "chap"
    assert [lun.lun for lun in spec.luns] == [1]
    assert [p.ip for p in spec.portals] == ["127.0.0.1"]  # beside a desktop: this machine only


def test_the_wizard_leaves_nothing_behind_when_sharing_fails(fake_target, tank):
    fake_target.refuse = "no space for a new target"
    with pytest.raises(ValidationError):
        wizard.share_new_zvol(name="pc", parent="tank", size="64M", open_to_all=True)
    assert Target.objects.count() == 0
    assert Extent.objects.count() == 0
    assert "tank/pc" not in {d.name for d in storage.dataset_list("tank")}


def test_the_wizard_checks_chap_before_making_anything(fake_target, tank):
    with pytest.raises(ValidationError) as exc:
        wizard.share_new_zvol(name="pc", parent="tank", size="64M", chap_user="pc", chap_secret="x")
    assert "chap_secret" in _errors(exc)
    assert "tank/pc" not in {d.name for d in storage.dataset_list("tank")}


def test_the_wizard_never_opens_a_target_to_everyone_unasked(fake_target, tank):
    with pytest.raises(ValidationError) as exc:
        wizard.share_new_zvol(name="pc", parent="tank", size="64M")
    assert "Let any initiator connect" in _errors(exc)["open_to_all"][0]
    assert Target.objects.count() == 0
    assert "tank/pc" not in {d.name for d in storage.dataset_list("tank")}


def test_an_open_target_is_made_when_the_user_says_so(fake_target, tank):
    wizard.share_new_zvol(name="pc", parent="tank", size="64M", open_to_all=True)
    spec = fake_target.last.target("iqn.2026-11.local.nasui:pc")
    assert spec is not None
    assert (spec.initiators, spec.auth) == ((), "none")


def test_deleting_a_wizard_target_takes_the_groups_made_for_it(fake_target, tank):
    from sharing.models import AuthGroup, InitiatorGroup

    result = wizard.share_new_zvol(
        name="pc", parent="tank", size="64M", initiator="iqn.1991-05.com.microsoft:pc",
        chap_user="pc", chap_secret=SECRET,
    )  # fmt: skip
    services.target_delete(target=result.target)
    assert not InitiatorGroup.objects.exists()
    assert not AuthGroup.objects.exists()


def test_a_wizard_group_another_target_uses_stays(fake_target, tank):
    from sharing.models import InitiatorGroup

    result = wizard.share_new_zvol(
        name="pc", parent="tank", size="64M", initiator="iqn.1991-05.com.microsoft:pc"
    )
    group = InitiatorGroup.objects.get()
    portal = result.target.groups.get().portal
    services.target_create(name="other", groups=[{"portal": portal, "initiator_group": group}])
    services.target_delete(target=result.target)
    assert InitiatorGroup.objects.filter(pk=group.pk).exists()


def test_tgt_refuses_a_group_mixing_iqns_and_networks_where_it_is_made(fake_target):
    with pytest.raises(ValidationError) as exc:
        services.initiator_group_create(
            initiators=["iqn.2026-01.test:pc"], networks=["192.168.1.0/24"]
        )
    assert "IQNs only or networks only" in _errors(exc)["networks"][0]


def test_lio_refuses_networks_where_the_group_is_made(fake_target, settings):
    settings.NASUI_ISCSI_ENGINE = "lio"
    with pytest.raises(ValidationError) as exc:
        services.initiator_group_create(networks=["192.168.1.0/24"])
    assert "by IQN only" in _errors(exc)["networks"][0]
    assert services.initiator_group_create(initiators=["iqn.2026-01.test:pc"]).pk


def test_the_group_form_says_what_the_running_engine_allows(admin_client, fake_target):
    page = admin_client.get("/sharing/initiator-groups/add/").content.decode()
    assert "tgt admits by IQN or by network" in page


def test_tgt_refuses_a_second_portal_where_it_is_made(fake_target):
    first = services.portal_create(addresses=["127.0.0.1"])
    with pytest.raises(ValidationError) as exc:
        services.portal_create(addresses=["::1"])
    message = _errors(exc)["addresses"][0]
    assert "serves every target on every portal" in message
    assert f"add these addresses to portal {first.pk}" in message
    assert Portal.objects.count() == 1
    both = services.portal_update(portal=first, addresses=["127.0.0.1", "::1"])
    assert sorted(a.address for a in both.addresses.all()) == ["127.0.0.1", "::1"]


def test_lio_takes_a_second_portal(fake_target, settings):
    settings.NASUI_ISCSI_ENGINE = "lio"
    services.portal_create(addresses=["127.0.0.1"])
    assert services.portal_create(addresses=["::1"]).pk
    page_hint = "Each target listens only on the portals chosen for it."
    assert page_hint in f.PortalForm().fields["addresses"].help_text


def test_the_portal_form_says_what_tgt_allows(admin_client, fake_target):
    page = admin_client.get("/sharing/portals/add/").content.decode()
    assert "tgt serves every target on every address" in page


def test_the_wizard_shares_an_existing_zvol_under_its_own_name(fake_target, zvol):
    result = wizard.share(existing=zvol, initiator="iqn.1991-05.com.microsoft:pc")
    assert (result.zvol, result.target.name, result.extent.blocksize) == (zvol, "vol", 4096)
    assert storage.dataset_get(zvol).is_volume
    with pytest.raises(ValidationError) as exc:
        wizard.share(existing=zvol, name="again", open_to_all=True)
    assert "already shared" in _errors(exc)["existing"][0]


def test_the_wizard_asks_for_a_size_or_an_existing_zvol(fake_target, tank):
    with pytest.raises(ValidationError) as exc:
        wizard.share(name="pc", parent="tank", size="", open_to_all=True)
    assert "existing zvol" in _errors(exc)["size"][0]


def test_the_wizard_makes_a_thick_zvol_by_default_like_the_zvol_form(fake_target, tank):
    result = wizard.share(name="pc", parent="tank", size="64M", open_to_all=True)
    assert storage.dataset_get(result.zvol).sparse is False
    assert f.WizardForm(parents=["tank"]).fields["sparse"].initial is None


def test_a_big_thick_wizard_zvol_asks_for_the_wizards_own_checkbox(fake_target, tank):
    free = storage.dataset_get("tank").available
    size = f"{free * 9 // 10 // 16384 * 16384}"
    with pytest.raises(ValidationError) as exc:
        wizard.share(name="big", parent="tank", size=size, open_to_all=True)
    assert f"tick “{f.WizardForm.base_fields['force'].label}”" in _errors(exc)["size"][0]
    result = wizard.share(name="big", parent="tank", size=size, open_to_all=True, force=True)
    assert storage.dataset_get(result.zvol).volsize == int(size)


def test_the_appliance_wizard_listens_on_every_address(fake_target, tank, settings):
    settings.NASUI_SHARE_ADDRESS = "0.0.0.0"  # noqa: S104 - as the appliance's configuration
    wizard.share_new_zvol(name="lan", parent="tank", size="64M", open_to_all=True)
    spec = fake_target.last.target("iqn.2026-11.local.nasui:lan")
    assert spec is not None
    assert [p.ip for p in spec.portals] == ["0.0.0.0"]  # noqa: S104
    assert Portal.objects.get().comment == "All IPv4 addresses"
