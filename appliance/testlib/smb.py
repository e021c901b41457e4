"""The host's SMB clients (smbclient, smbprotocol) against the appliance's smbd on port 445."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from appliance.testlib.config import SMB_FILE, SMB_PASSWORD, SMB_SHARE, SMB_USER, ResultDict
from appliance.testlib.panel import api
from appliance.testlib.poll import poll
from appliance.testlib.vm import VM
from tests.smb.smb_clients import HOST, Result, SmbClient

READ_CONTROL = 0x00020000  # the access right a security descriptor is read with
SECURITY_INFO = 0x03  # SMB2_0_INFO_SECURITY
OWNER_SECURITY_INFORMATION = 0x00000001
SMB_WAIT = 300  # seconds after /health/ for smbd to let the user in


def smb_client(vm: VM) -> SmbClient:
    """smbclient on the forwarded SMB port, with a private client config in the VM's workdir."""
    workdir = vm.workdir / "smb"
    workdir.mkdir(exist_ok=True)
    return SmbClient(vm.smb_port, workdir)


def fetch(vm: VM, password: str = SMB_PASSWORD) -> tuple[Result, Path]:
    """`get` the test file into the client's workdir as the share's user; smbclient's result."""
    client = smb_client(vm)
    copy = client.workdir / "fetched.bin"
    copy.unlink(missing_ok=True)
    result = client.run(SMB_SHARE, f"get {SMB_FILE} {copy.name}", user=SMB_USER, password=password)
    return result, copy


def assert_smb_reads_back(vm: VM, state: ResultDict) -> None:
    """After a boot, the user logs in and reads the file written before, byte-identical."""
    # nasui-smb re-creates the account and starts smbd a little after /health/ answers: on a fresh
    # root (an upgrade) and a slow emulator that took up to ~2 min. The bound only costs time when
    # smbd never comes; then the panel's own view of its SMB server and the console say why.
    waited = time.monotonic()
    result, copy = poll(lambda: fetch(vm), lambda r: r[0].ok, SMB_WAIT)
    print(f"SMB answered {time.monotonic() - waited:.0f}s after /health/")
    if not result.ok:
        status, service = api(vm, state).api("GET", "/api/services/smb/")
        raise AssertionError(f"{result.output}\npanel: {status} {service}\n{vm.tail()}")
    assert copy.read_bytes() == state["smb_data"]
    assert_owned_by(vm, state["smb_uid"])


def owner_sid(port: int, share: str, name: str, user: str, password: str) -> str:
    """The owner SID of share/name, read from its security descriptor over smbprotocol."""
    import smbclient
    from smbclient._io import SMBFileTransaction
    from smbprotocol.open import SMB2QueryInfoRequest, SMB2QueryInfoResponse
    from smbprotocol.security_descriptor import SMB2CreateSDBuffer

    cache: dict[str, Any] = {}
    try:
        smbclient.register_session(
            HOST, username=user, password=password, port=port, connection_cache=cache,
            auth_protocol="ntlm",
        )  # fmt: skip
        path = rf"\\{HOST}\{share}\{name}"
        opened = smbclient.open_file(
            path, mode="rb", buffering=0, desired_access=READ_CONTROL, port=port,
            connection_cache=cache,
        )  # fmt: skip
        with opened as raw:
            request = SMB2QueryInfoRequest()
            request["info_type"] = SECURITY_INFO
            request["file_info_class"] = 0
            request["output_buffer_length"] = 4096
            request["additional_information"] = OWNER_SECURITY_INFORMATION
            request["file_id"] = raw.fd.file_id

            def receive(sent: Any) -> str:
                response = SMB2QueryInfoResponse()
                response.unpack(raw.fd.connection.receive(sent)["data"].get_value())
                descriptor = SMB2CreateSDBuffer()
                descriptor.unpack(response["buffer"].get_value())
                return str(descriptor.get_owner())

            transaction = SMBFileTransaction(raw)
            transaction += (request, receive)
            transaction.commit()
            return str(transaction.results[0])
    finally:
        smbclient.reset_connection_cache(connection_cache=cache)


def uid_sids(uid: int) -> tuple[str, str]:
    """How Samba names a Unix uid: its "Unix User" SID, or a passdb user's algorithmic RID."""
    return f"S-1-22-1-{uid}", f"-{2 * uid + 1000}"


def assert_owned_by(vm: VM, uid: int, name: str = SMB_FILE) -> None:
    """The share's file `name` belongs to `uid` (as its SMB security descriptor says)."""
    sid = owner_sid(vm.smb_port, SMB_SHARE, name, SMB_USER, SMB_PASSWORD)
    unix_user, passdb_rid = uid_sids(uid)
    assert sid == unix_user or (sid.startswith("S-1-5-21-") and sid.endswith(passdb_rid)), (
        f"owner {sid}, not uid {uid}"
    )
