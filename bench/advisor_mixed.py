#!/usr/bin/env python3
"""The advisor on mixed data at its default settings, against every block of the same data.

    .venv/bin/python bench/advisor_mixed.py [--mib 48] [--seeds 3] [--budget 60]

Writes the issue's mix (an archive, random data, binaries and logs, --mib each, from
tests/vm/datakinds.py) and a duplicated set, runs the estimate as the panel does (256 MiB sample,
the --budget in seconds) once per seed of the sampling order, then sizes EVERY block with the
same rules (OpenZFS's own lz4 parse included: slow) for the answer. Prints per algorithm the
blocks each run measured, the estimate, its 95% interval and its error, and the same at a tenth
of the budget. What ZFS itself stores is the VM lane's check (tests/vm/test_advisor.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.estimates.engine.accounting import Stored, block_stored, stored_size
from advisor.estimates.engine.run import DEFAULT_ALGORITHMS
from advisor.estimates.engine.sources import Input, layout, read_block
from advisor.estimates.engine.zfslz4 import lz4_size
from tests.vm.advise_host import RECORD, SECTOR, advise, write_tree


def truth(tree: Path) -> dict[str, float]:
    """Σ lsize / Σ psize of every block, per algorithm: the answer the sample estimates."""
    found = layout(Input("dataset", "mix", tree, RECORD, SECTOR))
    sums = {algo: [0, 0] for algo in DEFAULT_ALGORITHMS}
    for ordinal in range(found.blocks):
        data = read_block(*found.locate(ordinal))
        for algo in DEFAULT_ALGORITHMS:
            cost = _stored(data, algo)
            sums[algo][0] += cost.lsize
            sums[algo][1] += cost.psize
    return {algo: lsize / psize for algo, (lsize, psize) in sums.items()}


def _stored(data: bytes, algo: str) -> Stored:
    """How ZFS stores one block (lz4 by OpenZFS's own parse)."""
    if algo == "lz4" and any(data):
        return stored_size(len(data), lz4_size(data), SECTOR)
    return block_stored(data, algo, SECTOR, zero_is_hole=True)


def report(title: str, results: list[dict[str, Any]], answer: dict[str, float]) -> None:
    """A table per budget: blocks, estimate, interval and error per algorithm and seed."""
    print(f"\n{title}")
    print(f"{'algorithm':<9}{'answer':>8}  runs: blocks estimate [95% interval] error")
    for algo in DEFAULT_ALGORITHMS:
        cells = []
        for result in results:
            row = next(r for r in result["compression"] if r["algorithm"] == algo)
            error = row["ratio"] / answer[algo] - 1
            inside = "in" if row["ratio_low"] <= answer[algo] <= row["ratio_high"] else "OUT"
            cells.append(f"{row['blocks']:>5} {row['ratio']:.3f} [{row['ratio_low']:.3f}-"
                         f"{row['ratio_high']:.3f}] {error:+.1%} {inside}")  # fmt: skip
        print(f"{algo:<9}{answer[algo]:>8.3f}  " + " | ".join(cells))
    for result in results:
        print(f"  advice: {result['advice']['reason']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mib", type=int, default=48, help="MiB of each kind")
    parser.add_argument("--seeds", type=int, default=3, help="runs, one sampling order each")
    parser.add_argument("--budget", type=float, default=60.0, help="the time budget (s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch)
        files = write_tree(tree, args.mib << 20, 7)
        print(f"mix: {', '.join(f'{n} {s >> 20} MiB' for n, s in files.items())}")
        for budget in (args.budget, args.budget / 10):
            results = [advise(tree, budget, seed) for seed in range(args.seeds)]
            if budget == args.budget:
                answer = truth(tree)
            report(f"budget {budget:g} s", results, answer)


if __name__ == "__main__":
    main()
