"""The import contracts of `make lint` catch what they promise: each kind of break fails them.

A small tree with the apps' shape is checked with the project's own contracts (read from
pyproject.toml): it passes as built, and adding one forbidden import breaks the contract that
forbids it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
# One module per layer and sub-domain the contracts speak of; each imports the one below it.
TREE = {
    "nasui/lib/files.py": "",
    "nasui/services.py": "",
    "storage/zfs/cli.py": "",
    "storage/pools/selectors.py": "from storage.zfs import cli\n",
    "storage/pools/services.py": "from storage.pools import selectors\n",
    # the pool page shows its datasets: pools over datasets
    "storage/pools/views.py": "from storage.pools import services\nimport storage.datasets.views\n",
    "storage/datasets/selectors.py": "",
    "storage/datasets/views.py": "from storage.datasets import selectors\n",
    "sharing/accounts/services.py": "",
    "sharing/iscsi/engine/plan.py": "",
    "sharing/iscsi/runtime.py": "from sharing.iscsi.engine import plan\n",
    "sharing/iscsi/services.py": "from sharing.iscsi import runtime\n",
    "sharing/smb/services.py": "from sharing.accounts import services\n",
    "sharing/nfs/services.py": "",
    "sharing/files/services.py": "from sharing.smb import services\n",
    "sharing/control/views.py": "from sharing.files import services\n",
    "monitoring/metrics/engine/cpu.py": "",
    "advisor/estimates/engine/run.py": "",
    "replication/connections/engine/ssh.py": "",
    "system/backups/engine/archive.py": "",
    "system/backups/services.py": "from system.backups.engine import archive\n",
    "access/users/engine/roles.py": "",
    "access/users/selectors.py": "from access.users.engine import roles\n",
}


def contracts_config() -> str:
    """The project's import-linter section, as an .importlinter-style TOML file."""
    section = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    lines = ["[tool.importlinter]"]
    lines += [f"{key} = {_toml(value)}" for key, value in section.items() if key != "contracts"]
    for contract in section["contracts"]:
        lines.append("\n[[tool.importlinter.contracts]]")
        lines += [f"{key} = {_toml(value)}" for key, value in contract.items()]
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return '"' + str(value).replace('"', '\\"') + '"'


@pytest.fixture
def house(tmp_path: Path) -> Path:
    """The small tree with the project's contracts beside it."""
    for name, text in TREE.items():
        path = tmp_path / name
        for folder in [path.parent, *path.parent.parents]:
            if folder == tmp_path:
                break
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "__init__.py").touch()
        path.write_text(text)
    (tmp_path / "pyproject.toml").write_text(contracts_config())
    return tmp_path


def lint(house: Path) -> subprocess.CompletedProcess[str]:
    """lint-imports on the small tree (no cache: each test's tree is new)."""
    assert LINT_IMPORTS, "import-linter is a dev requirement"
    env = {"PYTHONPATH": str(house), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache"], cwd=house, env=env, capture_output=True, text=True
    )


def add_import(house: Path, module: str, line: str) -> None:
    """Append one import to a module of the tree."""
    path = house / module
    path.write_text(path.read_text() + line + "\n")


def test_the_tree_keeps_every_contract(house):
    result = lint(house)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        # a read that writes: a layer below imports one above it
        ("storage/pools/selectors.py", "from storage.pools import services", "Inside every app"),
        # a runtime that starts services (sharing's protocols have a runtime layer)
        ("sharing/iscsi/runtime.py", "from sharing.iscsi import services", "Inside every app"),
        # an engine that needs Django
        ("sharing/iscsi/engine/plan.py", "import django.conf", "Engines are plain Python"),
        ("storage/zfs/cli.py", "import celery", "Engines are plain Python"),
        # two sub-domains that import each other (datasets back to pools)
        (
            "storage/datasets/selectors.py",
            "from storage.pools import selectors",
            "No import cycles",
        ),
        # two modules of one sub-domain that import each other
        ("storage/pools/selectors.py", "import storage.pools.views", "No import cycles"),
        # one protocol importing another, and accounts importing a protocol
        (
            "sharing/smb/services.py",
            "from sharing.nfs import services as n",
            "Sharing: the Services",
        ),
        ("sharing/accounts/services.py", "from sharing.smb import services as s", "Sharing: the"),
        # storage learning who shares its objects
        ("storage/pools/services.py", "import sharing.iscsi.services", "Storage knows"),
        ("storage/pools/services.py", "import replication.connections.engine.ssh", "Storage knows"),
        # an engine stays plain Python
        ("replication/connections/engine/ssh.py", "import django.db", "Engines are plain"),
        # the roles' rule needing Django's request
        ("access/users/engine/roles.py", "import django.http", "Engines are plain"),
        ("system/backups/engine/archive.py", "import django.conf", "Engines are plain"),
        # the system app sits above the others: nothing below it reaches up
        ("storage/pools/services.py", "import system.backups.services", "Nothing below"),
    ],
)
def test_a_forbidden_import_breaks_its_contract(house, module, line, contract):
    add_import(house, module, line)
    result = lint(house)
    assert result.returncode != 0
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken, result.stdout
