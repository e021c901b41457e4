"""SMB fixtures: the test accounts, and a private wrapped smbd that is always stopped."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from nasui.lib.net import free_loopback_port
from sharing.accounts.engine.desired import Accounts, GroupSpec, UserSpec
from sharing.smb.engine.desired import SmbGlobals, SmbShareSpec, SmbState
from sharing.smb.engine.passdb import make_nt_hash
from sharing.smb.engine.server import SmbApplyReport, SmbEngine
from tests.folders import traversable
from tests.smb.live_tools import require_live
from tests.smb.smb_clients import SmbClient

# alice: in "users"; bob: also in "staff"; carol: disabled; dave: no password at all.
PASSWORDS = {"alice": "alice-pw-1", "bob": "bob pw 2 ü", "carol": "carol-pw-3"}


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker even where pyproject does not (it is harmless twice)."""
    config.addinivalue_line("markers", "smb: runs a real smbd with real SMB clients")


@pytest.fixture(autouse=True)
def _live_tools(request: pytest.FixtureRequest) -> None:
    """Tests marked `smb` run smbd and real clients: skip without them (fail in CI)."""
    if request.node.get_closest_marker("smb") is not None:
        require_live()


@pytest.fixture(scope="session")
def nt_hashes() -> dict[str, str]:
    """Each test user's NT hash, made by Samba's pdbedit once per run."""
    require_live()
    return {user: make_nt_hash(user, password) for user, password in PASSWORDS.items()}


def make_accounts(hashes: dict[str, str], *, disabled: tuple[str, ...] = ("carol",)) -> Accounts:
    """The test accounts; `disabled` names the users whose account is off."""

    def user(name: str, uid: int, group: str) -> UserSpec:
        return UserSpec(name, uid, group, disabled=name in disabled, nt_hash=hashes.get(name))

    return Accounts(
        users=(
            user("alice", 1001, "users"),
            user("bob", 1002, "users"),
            user("carol", 1003, "users"),
            user("dave", 1004, "users"),
        ),
        groups=(GroupSpec("users", 1000), GroupSpec("staff", 1100, members=("bob",))),
    )


@dataclass
class Served:
    """A running engine, the directory its shares live in, and an smbclient aimed at it."""

    engine: SmbEngine
    port: int
    root: Path
    hashes: dict[str, str]

    @property
    def client(self) -> SmbClient:
        """smbclient on this server's port."""
        return SmbClient(self.port, self.root)

    def share_dir(self) -> Path:
        """A fresh directory every fake user may write to (Samba checks the fake uids)."""
        path = self.root / f"share-{uuid.uuid4().hex[:8]}"
        path.mkdir()
        path.chmod(0o777)
        return path

    def state(self, *shares: SmbShareSpec, accounts: Accounts | None = None) -> SmbState:
        """A desired state with these shares on this server's port."""
        return SmbState(
            globals=SmbGlobals(port=self.port),
            shares=shares,
            accounts=accounts or make_accounts(self.hashes),
        )

    def apply(self, *shares: SmbShareSpec, accounts: Accounts | None = None) -> SmbApplyReport:
        """Apply a state with these shares."""
        return self.engine.apply(self.state(*shares, accounts=accounts))


def _served(root: Path, hashes: dict[str, str]) -> Iterator[Served]:
    """Start an engine in `root` on a free loopback port; stop it whatever happens."""
    traversable(root)
    served = Served(SmbEngine(root / "run"), free_loopback_port(), root, hashes)
    try:
        served.apply()
        served.engine.start()
        yield served
    finally:
        served.engine.stop()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, nt_hashes: dict[str, str]) -> Iterator[Served]:
    """One smbd for a test module (each test applies the shares it needs)."""
    yield from _served(tmp_path_factory.mktemp("smb"), nt_hashes)


@pytest.fixture
def fresh(tmp_path: Path, nt_hashes: dict[str, str]) -> Iterator[Served]:
    """An smbd of the test's own, for tests that restart or stop it."""
    yield from _served(tmp_path, nt_hashes)


@pytest.fixture
def make_engine(tmp_path: Path) -> Iterator[Callable[..., SmbEngine]]:
    """Build engines under the test's directory; each is stopped (and its sockets gone) after."""
    made: list[SmbEngine] = []

    def make(**options: Any) -> SmbEngine:
        engine = SmbEngine(tmp_path / f"run{len(made)}", **options)
        made.append(engine)
        return engine

    yield make
    for engine in made:
        engine.stop()
