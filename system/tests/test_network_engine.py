"""The network engine: a whole configuration checked (each refusal names its field), then
rendered as systemd-networkd files."""

from __future__ import annotations

from typing import Any

import pytest

from system.network.engine.networkd import Interface, Network, NetworkError, check, render

PRESENT = ["enp0s2", "enp0s3"]
ADDR, GW4, MTU = (f"interfaces.enp0s2.{name}" for name in ("addresses", "gateway4", "mtu"))


def static(**kwargs: Any) -> Interface:
    values: dict[str, Any] = {"name": "enp0s2", "dhcp": False, "addresses": ("192.168.1.20/24",)}
    values.update(kwargs)
    return Interface(**values)


def refused(network: Network) -> NetworkError:
    with pytest.raises(NetworkError) as caught:
        check(network, PRESENT)
    return caught.value


def test_dhcp_renders_one_file_per_interface() -> None:
    network = check(Network("nas", (Interface("enp0s2"),), ("192.168.1.1",)), PRESENT)
    assert render(network) == {
        "10-nasui-enp0s2.network": "[Match]\nName=enp0s2\n\n[Network]\nDHCP=yes\nDNS=192.168.1.1\n"
    }


def test_a_static_interface_with_gateways_and_mtu() -> None:
    interface = static(
        addresses=("192.168.1.20/24", "2001:db8::20/64"),
        gateway4="192.168.1.1",
        gateway6="fe80::1",
        mtu=9000,
    )
    text = render(check(Network("nas", (interface,)), PRESENT))["10-nasui-enp0s2.network"]
    assert "Address=192.168.1.20/24\nAddress=2001:db8::20/64\n" in text
    assert "Gateway=192.168.1.1\nGateway=fe80::1\nIPv6AcceptRA=no\n" in text
    assert text.endswith("[Link]\nMTUBytes=9000\n")


@pytest.mark.parametrize(
    ("network", "field", "words"),
    [
        (Network("-nas"), "hostname", "A host name is 1-63"),
        (Network("nas", (Interface("wlan9"),)), "interfaces.wlan9", "no interface 'wlan9'"),
        (Network("nas", (Interface("enp0s2"), Interface("enp0s2"))), "interfaces.enp0s2", "once"),
        (Network("nas", (static(addresses=()),)), ADDR, "needs an address"),
        (Network("nas", (static(addresses=("10.1.1.1",)),)), ADDR, "prefix length"),
        (Network("nas", (static(addresses=("10.0.0.0/8",)),)), ADDR, "network's own"),
        (Network("nas", (static(addresses=("300.1.1.1/8",)),)), ADDR, "not an address"),
        (Network("nas", (static(gateway4="10.0.0.1"),)), GW4, "outside"),
        (Network("nas", (static(gateway4="fe80::1"),)), GW4, "not an IPv4"),
        (Network("nas", (static(mtu=100),)), MTU, "576-9216"),
        (Network("nas", (static(addresses=("2001:db8::2/64",), mtu=999),)), MTU, "IPv6 needs"),
        (Network("nas", (Interface("enp0s2", addresses=("10.1.1.2/8",)),)), ADDR, "DHCP gives"),
        (Network("nas", dns=("dns.example",)), "dns", "not an IPv4 or IPv6"),
        (Network("nas", dns=("1.1.1.1", "8.8.8.8", "9.9.9.9", "1.0.0.1")), "dns", "At most"),
    ],
)  # fmt: skip
def test_refusals_name_their_field(network: Network, field: str, words: str) -> None:
    error = refused(network)
    assert error.field == field
    assert words in str(error)
