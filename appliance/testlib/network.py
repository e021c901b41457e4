"""Network changes on the booted appliance: through the address it has now, seen through the
address it gets (two slirp forwards to the guest's 443: DHCP's 10.0.2.15 and NEW_ADDRESS)."""

from __future__ import annotations

from typing import Any

from appliance.testlib.config import ResultDict
from appliance.testlib.panel import Client, api
from appliance.testlib.poll import poll
from appliance.testlib.vm import NEW_ADDRESS, VM

# A change applies two seconds after its answer; DHCP may take a few more under the emulator.
MOVE_WAIT = 120.0


def dhcp_interface(vm: VM, state: ResultDict) -> str:
    """The name of the interface that has DHCP's address (virtio-net's, e.g. enp0s4)."""
    status, shown = api(vm, state).api("GET", "/api/system/network/")
    assert status == 200, shown
    assert shown["applied"], shown
    names = [i["name"] for i in shown["present"] if "10.0.2.15/24" in i["addresses"]]
    assert len(names) == 1, shown
    return str(names[0])


def through_new_address(vm: VM, state: ResultDict) -> Client:
    """A token client that reaches the guest at NEW_ADDRESS."""
    client = Client(vm.new_address_url)
    client.token = state["token"]
    return client


def change(client: Client, hostname: str, interfaces: list[dict[str, Any]]) -> ResultDict:
    """PUT the settings; the answer (its token when it waits for a confirmation)."""
    body = {"hostname": hostname, "interfaces": interfaces, "dns": ["10.0.2.3"]}
    status, answer = client.api("PUT", "/api/system/network/", body)
    assert status == 200, answer
    return dict(answer)


def static(name: str) -> dict[str, Any]:
    """`name` at NEW_ADDRESS, slirp's gateway."""
    return {"name": name, "dhcp": False, "addresses": [f"{NEW_ADDRESS}/24"], "gateway4": "10.0.2.2"}


def wait_answers(vm: VM, url: str, timeout: float = MOVE_WAIT) -> None:
    """Until the panel answers at `url` (bounded)."""
    assert poll(lambda: vm.health_ok(url), bool, timeout, step=2), f"{url}: no answer"


def wait_silent(vm: VM, url: str, timeout: float = MOVE_WAIT) -> None:
    """Until the panel stops answering at `url` (bounded)."""
    assert poll(lambda: vm.health_ok(url), lambda ok: not ok, timeout, step=2) is False, url
