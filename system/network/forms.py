"""The network page's form: the host name, the DNS servers, and one group of fields for each
interface present (named interfaces.<name>.<setting>, as the service's refusals name them)."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from nasui.forms import StyledForm
from system.network.engine.networkd import Interface, Network
from system.network.selectors import Present

MODES = [
    ("", "As the image sets it (DHCP)"),
    ("dhcp", "DHCP"),
    ("static", "Static addresses"),
]


def words(text: str) -> tuple[str, ...]:
    """A list typed with spaces, commas or new lines."""
    return tuple(part for part in re.split(r"[\s,]+", text) if part)


class NetworkForm(StyledForm):
    """Every setting of the box's network, as one change."""

    hostname = forms.CharField(
        label="Host name", max_length=63,
        help_text="One name (nas, family-nas): the box answers to it and to <name>.local.",
    )  # fmt: skip
    dns = forms.CharField(
        label="DNS servers", max_length=200, required=False,
        help_text="Up to three addresses, separated by spaces. Empty: those DHCP gives.",
    )  # fmt: skip

    def __init__(self, *args: Any, present: list[Present], **kwargs: Any) -> None:
        """A group of fields for each interface in `present`."""
        super().__init__(*args, **kwargs)
        self.interfaces = [item.name for item in present]
        for name in self.interfaces:
            key = f"interfaces.{name}"
            self.fields[f"{key}.mode"] = forms.ChoiceField(
                label="Addresses", choices=MODES, required=False
            )
            self.fields[f"{key}.addresses"] = forms.CharField(
                label="Static addresses", required=False, max_length=400,
                help_text="With their prefix length: 192.168.1.20/24, 2001:db8::20/64.",
            )  # fmt: skip
            self.fields[f"{key}.gateway4"] = forms.CharField(
                label="IPv4 gateway", required=False, max_length=45
            )
            self.fields[f"{key}.gateway6"] = forms.CharField(
                label="IPv6 gateway", required=False, max_length=45
            )
            self.fields[f"{key}.mtu"] = forms.IntegerField(
                label="MTU", required=False, help_text="Empty: the default (1500)."
            )
            for setting in ("addresses", "gateway4", "gateway6"):
                self.show_when(f"{key}.{setting}", f"{key}.mode=static")
            self.show_when(f"{key}.mtu", f"{key}.mode=dhcp,static")

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each interface's name and its bound fields, for the template."""
        settings = ("mode", "addresses", "gateway4", "gateway6", "mtu")
        return [
            (name, [self[f"interfaces.{name}.{setting}"] for setting in settings])
            for name in self.interfaces
        ]

    def network(self) -> Network:
        """The cleaned data as the engine's configuration."""
        data = self.cleaned_data
        interfaces = []
        for name in self.interfaces:
            mode = data.get(f"interfaces.{name}.mode") or ""
            if not mode:
                continue
            static = mode == "static"
            interfaces.append(
                Interface(
                    name=name,
                    dhcp=not static,
                    addresses=words(data.get(f"interfaces.{name}.addresses") or "")
                    if static
                    else (),
                    gateway4=(data.get(f"interfaces.{name}.gateway4") or "").strip()
                    if static
                    else "",
                    gateway6=(data.get(f"interfaces.{name}.gateway6") or "").strip()
                    if static
                    else "",
                    mtu=data.get(f"interfaces.{name}.mtu"),
                )
            )
        return Network(data["hostname"].strip(), tuple(interfaces), words(data.get("dns") or ""))


def initial_of(network: Network) -> dict[str, Any]:
    """The form's starting values: the settings in force."""
    initial: dict[str, Any] = {"hostname": network.hostname, "dns": " ".join(network.dns)}
    for interface in network.interfaces:
        key = f"interfaces.{interface.name}"
        initial.update({
            f"{key}.mode": "dhcp" if interface.dhcp else "static",
            f"{key}.addresses": " ".join(interface.addresses),
            f"{key}.gateway4": interface.gateway4,
            f"{key}.gateway6": interface.gateway6,
            f"{key}.mtu": interface.mtu,
        })  # fmt: skip
    return initial


class ConfirmForm(StyledForm):
    """The confirmation of a change on probation: its token."""

    token = forms.CharField(max_length=64, widget=forms.HiddenInput)
