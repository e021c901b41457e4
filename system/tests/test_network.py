"""Network changes through the service, the API and the page: checked whole (each refusal
names its field and changes nothing), put in force on probation when the interfaces change,
kept only once confirmed through the new address, and undone by the beat or by a refusal of
systemd."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from system.network import runtime, selectors, services
from system.network.engine import pending
from system.network.engine.networkd import Interface, Network

pytestmark = pytest.mark.django_db
NIC = "enp0s3"
STATIC = Interface(NIC, dhcp=False, addresses=("10.0.2.16/24",), gateway4="10.0.2.2")


@pytest.fixture(autouse=True)
def box(settings, tmp_path: Path, monkeypatch, eager_jobs) -> list[tuple[str, ...]]:
    """A box with one interface whose network this panel sets; systemd's calls recorded."""
    settings.DATA_DIR = tmp_path
    settings.NASUI_NETWORK = "networkd"
    settings.NASUI_WEB_SERVER = "nginx"
    present = [selectors.Present(NIC, ("10.0.2.15/24",), "52:54:00:12:34:56", True, 1500)]
    monkeypatch.setattr(selectors, "interfaces_present", lambda: present)
    monkeypatch.setattr(selectors, "host_name", lambda: "nasui")
    monkeypatch.setattr(services, "APPLY_DELAY_SECONDS", 0.0)
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(runtime, "apply", lambda files, name, names: calls.append((name, *names)))
    return calls


def test_a_new_host_name_is_in_force_at_once(box, tmp_path: Path) -> None:
    change = services.network_update(Network("family-nas"))
    assert change.token is None  # nothing can cut the user off: nothing to confirm
    assert box == [("family-nas",)]  # no interface reconfigured
    assert (tmp_path / "network" / "hostname").read_text() == "family-nas\n"
    assert selectors.network_current().hostname == "family-nas"
    assert selectors.pending_change() is None


def test_a_change_of_the_interfaces_waits_for_its_confirmation(box, tmp_path: Path) -> None:
    change = services.network_update(Network("nasui", (STATIC,), ("10.0.2.3",)), now=1000.0)
    assert change.token
    assert change.deadline == 1060.0
    assert box == [("nasui", NIC)]  # the worker put it in force
    waiting = selectors.pending_change()
    assert waiting is not None
    assert waiting.applied
    text = (tmp_path / "network" / "10-nasui-enp0s3.network").read_text()
    assert "Address=10.0.2.16/24\nGateway=10.0.2.2\n" in text
    with pytest.raises(
        ValidationError, match=r"Confirm from the new address \(https://10.0.2.16/\)"
    ):
        services.network_confirm(change.token, arrived_at="10.0.2.15")
    with pytest.raises(ValidationError) as wrong:
        services.network_confirm("not-the-token", arrived_at="10.0.2.16")
    assert "token" in wrong.value.message_dict
    services.network_confirm(change.token, arrived_at="10.0.2.16")
    assert selectors.pending_change() is None
    assert not services.network_revert_due(now=2000.0)  # kept: nothing to undo
    assert selectors.network_current().interfaces == (STATIC,)


def test_an_unconfirmed_change_is_undone_after_its_deadline(box) -> None:
    services.network_update(Network("nasui", (STATIC,)), now=1000.0)
    assert not services.network_revert_due(now=1059.0)
    assert services.network_revert_due(now=1060.0)
    assert selectors.network_current() == Network("nasui")  # the image's DHCP again
    assert box[-1] == ("nasui", NIC)  # reconfigured back
    reason, _ = selectors.last_undone() or ("", None)
    assert reason == "It was not confirmed within 60 s."


def test_where_systemd_refuses_a_change_the_one_before_comes_back(box, monkeypatch) -> None:
    def refuse(files, name, names) -> None:
        box.append((name, *names))
        if "Address=10.0.2.16/24" in "".join(files.values()):
            raise runtime.NetworkApplyError("Failed to reconfigure: Permission denied")

    monkeypatch.setattr(runtime, "apply", refuse)
    services.network_update(Network("nasui", (STATIC,)))
    assert selectors.pending_change() is None
    assert selectors.network_current() == Network("nasui")
    assert box == [("nasui", NIC), ("nasui", NIC)]  # tried, then the settings before it
    assert "Permission denied" in (selectors.last_undone() or ("",))[0]


def test_a_refusal_names_its_field_and_changes_nothing(box, tmp_path: Path) -> None:
    services.network_update(Network("nas"))
    bad = Interface(NIC, dhcp=False, addresses=("10.0.2.16/24",), gateway4="192.168.9.1")
    with pytest.raises(ValidationError) as refused:
        services.network_update(Network("nas", (bad,)))
    assert (
        "outside this interface's networks"
        in refused.value.message_dict[f"interfaces.{NIC}.gateway4"][0]
    )
    with pytest.raises(ValidationError) as absent:
        services.network_update(Network("nas", (Interface("eth9"),)))
    assert "There is no interface 'eth9' here." in absent.value.message_dict["interfaces.eth9"]
    assert pending.in_force(tmp_path).keys() == {"settings.json", "hostname"}
    assert box == [("nas",)]


def test_a_new_host_name_gets_a_self_signed_certificate_naming_it(box, settings) -> None:
    from system.certificates import selectors as certificates
    from system.certificates import services as certificate_services

    settings.NASUI_WEB_SERVER = "none"  # no nginx to reload here
    before = certificate_services.certificate_self_signed()
    assert "family-nas" not in before.names
    services.network_update(Network("family-nas"))
    after = certificates.certificate_current()
    assert after is not None
    assert after.names[:2] == ("family-nas", "family-nas.local")


def test_the_api_changes_confirms_and_undoes(admin_client, box) -> None:
    shown = admin_client.get("/api/system/network/").json()
    assert (shown["hostname"], shown["interfaces"], shown["applied"]) == ("nasui", [], True)
    assert shown["present"][0]["addresses"] == ["10.0.2.15/24"]
    static = {"name": NIC, "dhcp": False, "addresses": ["10.0.2.16/24"], "gateway4": "10.0.2.2"}
    body = {"hostname": "nasui", "interfaces": [static], "dns": ["10.0.2.3"]}
    changed = admin_client.put("/api/system/network/", body, content_type="application/json")
    assert changed.status_code == 200, changed.content
    token = changed.json()["token"]
    assert changed.json()["pending"]["applied"] is True
    through_old = admin_client.post(
        "/api/system/network/confirm/", {"token": token}, content_type="application/json",
        HTTP_X_NASUI_LOCAL_ADDRESS="10.0.2.15",
    )  # fmt: skip
    assert through_old.status_code == 400
    assert "Confirm from the new address" in json.dumps(through_old.json())
    kept = admin_client.post(
        "/api/system/network/confirm/", {"token": token}, content_type="application/json",
        HTTP_X_NASUI_LOCAL_ADDRESS="10.0.2.16",
    )  # fmt: skip
    assert kept.status_code == 200, kept.content
    assert kept.json()["pending"] is None
    body["interfaces"] = [{"name": NIC, "mtu": 100}]
    wrong = admin_client.put("/api/system/network/", body, content_type="application/json")
    assert wrong.status_code == 400
    assert "An MTU is 576-9216 bytes." in str(wrong.json()["fields"][f"interfaces.{NIC}.mtu"])
    body["interfaces"] = [{"name": NIC}]
    admin_client.put("/api/system/network/", body, content_type="application/json")
    undone = admin_client.post("/api/system/network/undo/").json()
    assert undone["pending"] is None
    assert undone["interfaces"][0]["addresses"] == ["10.0.2.16/24"]
    assert undone["last_undone"]["reason"] == "It was undone from the panel."


def test_the_page_changes_and_the_confirmation_page_keeps(admin_client, box) -> None:
    page = admin_client.get("/system/network/")
    assert b'data-testid="network-interface-enp0s3"' in page.content
    form = {"hostname": "nasui", "dns": "", f"interfaces.{NIC}.mode": "static",
            f"interfaces.{NIC}.addresses": "10.0.2.16", f"interfaces.{NIC}.mtu": ""}  # fmt: skip
    refused = admin_client.post("/system/network/", form)
    assert refused.status_code == 400
    assert b"needs its prefix length" in refused.content
    form[f"interfaces.{NIC}.addresses"] = "10.0.2.16/24"
    waiting = admin_client.post("/system/network/", form, follow=True)
    assert b"Confirm it from the box&#x27;s new address" in waiting.content
    link = selectors.pending_change()
    assert link is not None
    assert (
        f"https://10.0.2.16/system/network/confirm/{link.token}/".encode()
        in waiting.content.replace(b"http://", b"https://")
    )
    confirm = f"/system/network/confirm/{link.token}/"
    assert b"Keep the new settings" in admin_client.get(confirm).content
    kept = admin_client.post(
        confirm, {"token": link.token}, HTTP_X_NASUI_LOCAL_ADDRESS="10.0.2.16", follow=True
    )
    assert b"The new network settings are kept." in kept.content
    assert selectors.pending_change() is None


def test_a_confirmed_static_address_gets_a_self_signed_certificate_again(box, settings) -> None:
    from system.certificates import selectors as certificates
    from system.certificates import services as certificate_services

    settings.NASUI_WEB_SERVER = "none"  # no nginx to reload here
    before = certificate_services.certificate_self_signed("nasui")
    change = services.network_update(Network("nasui", (STATIC,)))
    assert change.token
    services.network_confirm(change.token, arrived_at="10.0.2.16")
    after = certificates.certificate_current()
    assert after is not None
    assert after.fingerprint != before.fingerprint  # made again, for the box as it is now
    services.network_update(Network("nasui", (STATIC,), ("10.0.2.3",)))  # DNS alone
    assert certificates.certificate_current() == after  # it still names the box: kept


def test_a_confirmation_waits_for_the_worker_to_finish_applying(box, monkeypatch) -> None:
    monkeypatch.setattr(services, "send", lambda *args: None)  # the worker has not run yet
    change = services.network_update(Network("nasui", (STATIC,)), now=1000.0)
    assert change.token
    monkeypatch.setattr(services, "CONFIRM_WAIT_SECONDS", 0.6)
    with pytest.raises(ValidationError, match="not in force yet"):
        services.network_confirm(change.token, arrived_at="10.0.2.16")
    real = selectors.pending_change
    calls = iter(range(100))

    def applied_on_the_second_look() -> selectors.Pending | None:
        if next(calls) == 1:
            services.network_apply_pending([NIC])  # the worker, meanwhile
        return real()

    monkeypatch.setattr(selectors, "pending_change", applied_on_the_second_look)
    services.network_confirm(change.token, arrived_at="10.0.2.16")
    assert real() is None
