"""A network change on probation: confirmed with its token, or reverted after its deadline
(and at boot) to what was last confirmed."""

from __future__ import annotations

from pathlib import Path

from system.network.engine import pending

DHCP = {"10-nasui-enp0s2.network": "[Match]\nName=enp0s2\n\n[Network]\nDHCP=yes\n"}
STATIC = {"10-nasui-enp0s2.network": "[Match]\nName=enp0s2\n\n[Network]\nAddress=10.0.2.16/24\n"}
OTHER = {"10-nasui-enp0s3.network": "[Match]\nName=enp0s3\n\n[Network]\nDHCP=yes\n"}


def confirmed(data_dir: Path, files: dict[str, str]) -> None:
    token = pending.stage(data_dir, files, now=0, grace=60)
    assert pending.confirm(data_dir, token)


def test_a_confirmed_change_stays(tmp_path: Path) -> None:
    confirmed(tmp_path, DHCP)
    token = pending.stage(tmp_path, STATIC, now=100, grace=60)
    assert not pending.confirm(tmp_path, "not the token")
    assert pending.confirm(tmp_path, token)
    assert pending.in_force(tmp_path) == STATIC
    assert pending.pending(tmp_path) is None
    assert not pending.revert(tmp_path)  # nothing pending: nothing to undo


def test_an_unconfirmed_change_reverts_after_its_deadline(tmp_path: Path) -> None:
    confirmed(tmp_path, DHCP)
    pending.stage(tmp_path, STATIC, now=100, grace=60)
    assert pending.in_force(tmp_path) == STATIC
    assert not pending.revert(tmp_path, now=159)  # still within its 60 s
    assert pending.revert(tmp_path, now=160)
    assert pending.in_force(tmp_path) == DHCP
    assert pending.pending(tmp_path) is None


def test_two_changes_before_a_confirmation_revert_to_the_confirmed_files(tmp_path: Path) -> None:
    confirmed(tmp_path, DHCP)
    pending.stage(tmp_path, STATIC, now=100, grace=60)
    pending.stage(tmp_path, OTHER, now=110, grace=60)
    assert pending.in_force(tmp_path) == OTHER
    assert pending.revert(tmp_path)  # at boot: whatever the deadline
    assert pending.in_force(tmp_path) == DHCP


def test_a_first_change_reverts_to_no_file_of_the_panels(tmp_path: Path) -> None:
    pending.stage(tmp_path, STATIC, now=0, grace=60)
    assert pending.revert(tmp_path, now=61)
    assert pending.in_force(tmp_path) == {}  # the image's own DHCP setup applies again


def test_the_boot_undoes_a_change_never_confirmed(tmp_path: Path, capsys) -> None:
    confirmed(tmp_path, DHCP)
    pending.stage(tmp_path, STATIC, now=10**12, grace=60)  # its deadline far away
    assert pending.main(["revert", str(tmp_path)]) == 0
    assert "the settings before it are back" in capsys.readouterr().out
    assert pending.in_force(tmp_path) == DHCP
    assert pending.last_undone(tmp_path)["reason"] == (  # type: ignore[index]
        "The box restarted before the change was confirmed."
    )
    assert pending.main(["revert", str(tmp_path)]) == 0  # nothing pending: nothing said
    assert capsys.readouterr().out == ""
    assert pending.main(["undo"]) == 2
