#!/usr/bin/env python3
"""Host side of the advisor's mixed-data check: write the mix, run the advisor on it natively.

Run by tests/vm/host_checks.py with the repository's virtualenv as
`advise_host.py TREE SIZE SEED RESULT`: writes the four data kinds of datakinds.py (SIZE bytes each)
and a duplicated set into TREE, runs the advisor there at its default settings (the form's
sample and time budget) and at a tenth of the budget, and writes both results into RESULT as JSON.

The advisor runs here, not in the guest, because the guest is emulated (TCG, ~10x slower than
any real box): its default budget there would measure a machine nobody has. The bytes are the
same (the generators are seeded), so ZFS in the guest stores exactly what the advisor read.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from advisor.estimates.engine.run import estimate
from advisor.estimates.engine.sampling import DEFAULT_SEED
from advisor.estimates.engine.sources import Input
from tests.vm.datakinds import KINDS, generate

RECORD = 128 * 1024
SECTOR = 4096
# The estimate form's defaults (advisor/forms.py): 256 MiB sample, 60 s budget.
DEFAULT_SAMPLE = 256 << 20
DEFAULT_SECONDS = 60.0
DISTINCT = 24  # distinct blocks of the duplicated set, the i-th written i % 4 + 1 times


def write_tree(tree: Path, size: int, seed: int) -> dict[str, int]:
    """The four kinds as KIND.bin and a duplicated set as dup.bin; their sizes."""
    tree.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        (tree / f"{kind}.bin").write_bytes(generate(kind, size, seed))
    rng = random.Random(seed)
    distinct = [rng.randbytes(RECORD) for _ in range(DISTINCT)]
    blocks = [block for i, block in enumerate(distinct) for _ in range(i % 4 + 1)]
    rng.shuffle(blocks)
    (tree / "dup.bin").write_bytes(b"".join(blocks))
    return {path.name: path.stat().st_size for path in sorted(tree.iterdir())}


def advise(tree: Path, seconds: float, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """The advisor on the tree as the panel runs it on a dataset with lz4 (the default)."""
    return estimate(
        Input("dataset", "advmix", tree, RECORD, SECTOR),
        sample_bytes=DEFAULT_SAMPLE,
        time_budget=seconds,
        dedup_compression="lz4",
        ram_total=3 << 30,
        arc_max=None,
        core_bytes_per_entry=None,
        seed=seed,
    )


def main() -> None:
    tree, size, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    files = write_tree(tree, size, seed)
    results = {
        "files": files,
        "default": advise(tree, DEFAULT_SECONDS),
        "tenth": advise(tree, DEFAULT_SECONDS / 10),
    }
    Path(sys.argv[4]).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
