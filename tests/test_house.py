"""The house keeps its shape: apps of few top-level modules, no prefix families, small modules
and short functions (docs/architecture.md). These measure the code; they time nothing."""

from __future__ import annotations

import ast
import statistics
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("nasui", "storage", "sharing", "monitoring", "advisor", "replication")
NOT_PRODUCT = {"tests", "migrations", "__pycache__"}
# Django's own folder names, which hold one kind of thing each.
DJANGO_FOLDERS = {"management", "templatetags"}
TOP_LEVEL_BUDGET = {"storage": 16, "sharing": 8}
MODULE_LINES_MAX = 400
FUNCTION_LINES_P90_MAX = 20


def product_modules() -> list[Path]:
    """Every module of the panel's apps, tests and migrations left out."""
    return [
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if not NOT_PRODUCT & set(path.relative_to(ROOT).parts)
    ]


def packages() -> list[Path]:
    """Every package folder of the apps (the apps themselves included)."""
    return sorted({path.parent for path in product_modules()})


def prefix_families(folder: Path) -> dict[str, list[str]]:
    """Modules and packages of one folder sharing the word before their first underscore."""
    names = [p.stem for p in folder.glob("*.py") if p.stem != "__init__"]
    names += [p.name for p in folder.iterdir() if (p / "__init__.py").is_file()]
    families: dict[str, list[str]] = defaultdict(list)
    for name in names:
        families[name.split("_")[0]].append(name)
    return {word: sorted(members) for word, members in families.items() if len(members) > 1}


@pytest.mark.parametrize(("app", "budget"), TOP_LEVEL_BUDGET.items())
def test_an_app_keeps_few_top_level_modules(app, budget):
    modules = sorted(p.name for p in (ROOT / app).glob("*.py"))
    assert len(modules) <= budget, modules


def test_no_folder_holds_a_prefix_family():
    found = {
        str(folder.relative_to(ROOT)): families
        for folder in packages()
        if folder.name not in DJANGO_FOLDERS and (families := prefix_families(folder))
    }
    assert found == {}


def test_the_family_check_sees_a_family(tmp_path):
    for name in ("snapshot_services.py", "snapshot_forms.py", "pools.py", "__init__.py"):
        (tmp_path / name).write_text("")
    assert prefix_families(tmp_path) == {"snapshot": ["snapshot_forms", "snapshot_services"]}


def test_no_module_is_over_the_line_budget():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in product_modules()}
    assert {path: n for path, n in sizes.items() if n > MODULE_LINES_MAX} == {}


def test_functions_stay_short():
    lengths = [
        node.end_lineno - node.lineno + 1
        for path in product_modules()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
    ]
    assert len(lengths) > 1000  # the walk found the product's functions
    assert statistics.quantiles(lengths, n=10)[8] <= FUNCTION_LINES_P90_MAX
