"""Boot appliance images in qemu (TCG) in turn and print their times to a working panel.

Usage: .venv/bin/python bench/appliance_boot.py [--rounds N] IMAGE[=LABEL] [IMAGE[=LABEL] ...]

Each round boots every image once on a fresh stick with three blank disks: a first boot to
/health/ (through nginx, on the host's clock, firmware and GRUB included), a clean power-off,
and a second boot. The emulator's speed moves by a third between boots on these machines, so
images are interleaved within a round and compared by their medians in the same run; the ratio
column is each image's median over the first image's. The step columns come from the console's
NASUI_BOOT line (seconds since the kernel started): when nasui-setup ran, and when the web was
ready. No pool exists, so the second boot imports none.

Build an older image with its own checkout: `git worktree add /tmp/old REV && cd /tmp/old &&
NASUI_APPLIANCE_OUT=/tmp/old-out bash appliance/build.sh` (the build caches are shared).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.testlib.vm import VM  # after the repository is on the path

KINDS = ("first", "second")


@dataclass
class Boot:
    """One boot: seconds to /health/ and the NASUI_BOOT line's steps."""

    seconds: float
    setup: str
    web_ready: str


@dataclass
class Image:
    """An image under test and its boots."""

    path: Path
    label: str
    boots: dict[str, list[Boot]] = field(default_factory=lambda: {k: [] for k in KINDS})


def parse_image(spec: str) -> Image:
    """IMAGE or IMAGE=LABEL."""
    path, _, label = spec.partition("=")
    image = Path(path)
    if not image.is_file():
        raise SystemExit(f"{image}: no such image (build it with appliance/build.sh)")
    return Image(image, label or image.parent.name)


def steps(line: str) -> tuple[str, str]:
    """nasui-setup's span and the web's ready time from a boot's NASUI_BOOT line."""
    setup = re.search(r"nasui-setup=([\d.]+)\.\.([\d.]+)", line)
    web = re.search(r"nasui-web=[\d.]+\.\.([\d.]+)", line)
    span = f"{float(setup[2]) - float(setup[1]):.1f}" if setup else "-"
    return span, web[1] if web else "-"


def boot(vm: VM) -> Boot:
    """Start the VM and wait for /health/ (and the console's timeline)."""
    vm.start()
    return Boot(vm.boot_seconds, *steps(vm.boot_line))


def one_round(image: Image, report_wait: float) -> None:
    """A first boot, a power-off and a second boot of `image` on a fresh stick."""
    workdir = Path(tempfile.mkdtemp(prefix="nasui-bootbench-"))
    vm = VM(workdir, image=image.path, report_wait=report_wait)
    try:
        for kind in KINDS:  # the second boot is the same stick after a clean power-off
            image.boots[kind].append(boot(vm))
            vm.shutdown()
    finally:
        vm.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    for kind in KINDS:
        last = image.boots[kind][-1]
        print(
            f"{image.label:>12} {kind:>6} boot: {last.seconds:6.1f} s to /health/"
            f" (nasui-setup {last.setup} s, web ready at {last.web_ready} s)",
            flush=True,
        )


def median(boots: list[Boot]) -> float:
    """The median seconds to /health/."""
    return statistics.median(b.seconds for b in boots)


def summary(images: list[Image]) -> None:
    """Medians per image and kind of boot, and their ratio to the first image's."""
    print(f"\n{'image':>12} {'kind':>6} {'boots (s)':>28} {'median':>8} {'ratio':>6}")
    for kind in KINDS:
        base = median(images[0].boots[kind])
        for image in images:
            boots = image.boots[kind]
            listed = " ".join(f"{b.seconds:.1f}" for b in boots)
            ratio = median(boots) / base
            print(f"{image.label:>12} {kind:>6} {listed:>28} {median(boots):8.1f} {ratio:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("images", nargs="+", help="IMAGE or IMAGE=LABEL (the first is the base)")
    parser.add_argument("--rounds", type=int, default=2, help="boots of each image (default 2)")
    parser.add_argument(
        "--report-wait",
        type=float,
        default=60,
        help="seconds after /health/ to wait for the NASUI_BOOT line (older images print none)",
    )
    args = parser.parse_args()
    images = [parse_image(spec) for spec in args.images]
    for number in range(args.rounds):
        print(f"round {number + 1} of {args.rounds}", flush=True)
        for image in images:
            one_round(image, args.report_wait)
    summary(images)


if __name__ == "__main__":
    main()
