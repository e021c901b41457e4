"""The SSH engine against a real OpenSSH server on loopback: keys, pinning, refusals."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from replication.connections.engine import hostkeys, keys, ssh
from replication.connections.engine.errors import AuthRefused, HostKeyChanged, Unreachable
from replication.tests.sshd import Sshd


@pytest.fixture
def remote(sshd: Sshd) -> ssh.Remote:
    """This box's new key, authorized on the server, and the server's host key pinned by scan."""
    pair = keys.generate("nasui@test")
    sshd.authorize(pair.public)
    pinned = tuple(hostkeys.scan("127.0.0.1", sshd.port))
    return ssh.Remote("127.0.0.1", sshd.port, "root", pair.private, pinned)


def test_a_new_key_pair_is_openssh_s_and_its_fingerprint_is_ssh_keygen_s(tmp_path: Path) -> None:
    pair = keys.generate("nasui@box")
    assert pair.private.startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    kind, _blob, comment = pair.public.split()
    assert (kind, comment) == ("ssh-ed25519", "nasui@box")
    (tmp_path / "id.pub").write_text(pair.public + "\n")
    listed = subprocess.run(["ssh-keygen", "-l", "-f", str(tmp_path / "id.pub")],
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert listed.split()[1] == pair.fingerprint


def test_the_scan_pins_the_server_s_own_host_key(sshd: Sshd) -> None:
    scanned = hostkeys.scan("127.0.0.1", sshd.port)
    assert [key.blob for key in scanned] == [sshd.host_key_blob]
    assert scanned[0].kind == "ssh-ed25519"
    assert hostkeys.known_hosts("127.0.0.1", sshd.port, scanned).startswith(
        f"[127.0.0.1]:{sshd.port} "
    )


def test_a_command_runs_there_with_every_argument_quoted(
    remote: ssh.Remote, tmp_path: Path
) -> None:
    assert ssh.run(remote, ["echo", "hello"]) == "hello\n"
    victim = tmp_path / "still-here"
    victim.touch()
    said = ssh.run(remote, ["printf", "%s|", "a b", f"; rm {victim}", "$(id)", "'"])
    assert said == f"a b|; rm {victim}|$(id)|'|"
    assert victim.exists()


def test_a_changed_host_key_is_refused_naming_both_fingerprints(
    sshd: Sshd, remote: ssh.Remote
) -> None:
    pinned = remote.host_keys[0].fingerprint
    sshd.restart(new_host_key=True)
    with pytest.raises(HostKeyChanged) as refused:
        ssh.run(remote, ["echo", "hello"])
    offered = keys.fingerprint(sshd.host_key_blob)
    assert f"now offers a host key ({offered})" in str(refused.value)
    assert f"than the one pinned ({pinned})" in str(refused.value)


def test_a_key_the_other_side_does_not_know_is_refused_with_what_to_do(remote: ssh.Remote) -> None:
    stranger = replace(remote, private_key=keys.generate("stranger").private)
    with pytest.raises(AuthRefused, match=r"add its public key to ~root/.ssh/authorized_keys"):
        ssh.run(stranger, ["true"])


def test_nothing_listening_is_unreachable(remote: ssh.Remote, sshd: Sshd) -> None:
    sshd.stop()
    with pytest.raises(Unreachable, match=f"Cannot connect to root@127.0.0.1 port {sshd.port}"):
        ssh.run(remote, ["true"])
    with pytest.raises(Unreachable, match="No SSH server answered"):
        hostkeys.scan("127.0.0.1", sshd.port, timeout=2)


def test_a_host_or_user_that_would_be_an_option_never_reaches_ssh(remote: ssh.Remote) -> None:
    for bad in (replace(remote, host="-oProxyCommand=touch /tmp/owned"),
                replace(remote, user="-oProxyCommand=x")):  # fmt: skip
        with pytest.raises(ValueError, match="not a host or user"):
            ssh.run(bad, ["true"])
    with pytest.raises(ValueError, match="not a host name"):
        hostkeys.scan("-oProxyCommand=x", 22)
