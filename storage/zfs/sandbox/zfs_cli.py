"""A `zfs` command over the sandbox: the part of OpenZFS's CLI that replication runs.

    python -m storage.zfs.sandbox.zfs_cli --root SANDBOX_ROOT [--disks N] [--disk-gib G] ARGS

ARGS are `zfs` arguments: list (snapshots; file systems and volumes by name), get (written,
receive_resume_token), hold, release, destroy, send (-i/-I/-t/-n -P) and receive (-s -u -F -o,
-A). Replication's sides run it in place of `zfs` (here or over ssh), so the fast lane proves
the flows of send | receive without OpenZFS: the output formats, exit statuses and refusals are
OpenZFS's. The disk count and size come from the options or NASUI_SANDBOX_DISKS /
NASUI_SANDBOX_DISK_GIB (the panel's defaults); opening a sandbox never makes or changes its
disks or pools.
"""

from __future__ import annotations

import getopt
import os
import sys
from collections.abc import Callable, Sequence

from storage.zfs.errors import ZfsError
from storage.zfs.sandbox.engine import GIB, SandboxZfsEngine
from storage.zfs.sandbox.landing import Options

DEFAULT_DISKS = 6  # nasui.config: NASUI_SANDBOX_DISKS
DEFAULT_DISK_GIB = 8  # nasui.config: NASUI_SANDBOX_DISK_GIB
LIST_FIELDS = ("name", "guid", "createtxg", "creation", "userrefs")
GET_FIELDS = ("name", "property", "value", "source")
DATASET_KINDS = {"filesystem", "volume"}


class UsageError(Exception):
    """The command line is not one this command takes (exit status 2, as zfs)."""


Command = Callable[[SandboxZfsEngine, list[str]], None]


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; 0, 1 with OpenZFS's words on stderr, or 2 for a bad command line."""
    try:
        engine, args = _open(list(sys.argv[1:] if argv is None else argv))
        if not args or args[0] not in COMMANDS:
            raise UsageError(f"unrecognized command '{args[0]}'" if args else "missing command")
        COMMANDS[args[0]](engine, args[1:])
    except UsageError as error:
        sys.stderr.write(f"{error}\nusage: zfs_cli --root DIR zfs-arguments...\n")
        return 2
    except ZfsError as error:
        text = error.stderr or error.message
        sys.stderr.write(text if text.endswith("\n") else text + "\n")
        return 1
    return 0


def _open(args: list[str]) -> tuple[SandboxZfsEngine, list[str]]:
    """The sandbox the leading --root/--disks/--disk-gib options (or the environment) name."""
    settings = {
        "--root": os.environ.get("NASUI_SANDBOX_DIR", ""),
        "--disks": os.environ.get("NASUI_SANDBOX_DISKS", str(DEFAULT_DISKS)),
        "--disk-gib": os.environ.get("NASUI_SANDBOX_DISK_GIB", str(DEFAULT_DISK_GIB)),
    }
    while args and args[0] in settings:
        if len(args) < 2:
            raise UsageError(f"{args[0]} needs a value")
        settings[args[0]], args = args[1], args[2:]
    if not settings["--root"]:
        raise UsageError("--root (or NASUI_SANDBOX_DIR) names the sandbox")
    try:
        count, gib = int(settings["--disks"]), int(settings["--disk-gib"])
    except ValueError:
        raise UsageError("--disks and --disk-gib take whole numbers") from None
    engine = SandboxZfsEngine(settings["--root"], disk_count=count, disk_size=gib * GIB)
    return engine, args


def _options(args: list[str], spec: str) -> tuple[list[tuple[str, str]], list[str]]:
    """getopt as zfs uses it (options may follow operands)."""
    try:
        return getopt.gnu_getopt(args, spec)
    except getopt.GetoptError as error:
        raise UsageError(f"invalid option '{error.opt}'") from None


def _table(rows: list[list[str]], fields: Sequence[str], scripted: bool) -> None:
    """Tab-separated rows with -H; else a header and columns padded like zfs pads them."""
    if scripted:
        sys.stdout.writelines("\t".join(row) + "\n" for row in rows)
        return
    table = [[f.upper() for f in fields], *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(fields))]
    for row in table:
        sys.stdout.write("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        sys.stdout.write("\n")


# -- reads -------------------------------------------------------------------------------
def do_list(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs list -t snapshot [-H] [-p] [-r|-d N] [-s|-S field] [-o fields] DATASET...`, or
    `zfs list [-H] [-r] -t filesystem,volume -o name DATASET...`."""
    opts, datasets = _options(args, "Hprt:d:s:S:o:")
    given = dict(opts)
    if given.get("-t") != "snapshot":
        _list_datasets(engine, given, datasets)
        return
    fields = given.get("-o", "name,guid,createtxg").split(",")
    for field in fields:
        if field not in LIST_FIELDS:
            raise ZfsError(f"invalid field '{field}'")
    depth = given.get("-d", "1")
    if not depth.isdigit():
        raise UsageError(f"invalid depth '{depth}'")
    recursive = "-r" in given or int(depth) > 1
    stamps = [s for name in datasets for s in engine.snapshot_stamps(name, recursive=recursive)]
    for flag, backwards in (("-s", False), ("-S", True)):
        if flag in given:
            key = given[flag]
            if key not in LIST_FIELDS:
                raise ZfsError(f"invalid sort field '{key}'")
            stamps.sort(key=lambda s: getattr(s, key), reverse=backwards)
    rows = [[str(getattr(s, f)) for f in fields] for s in stamps]
    _table(rows, fields, "-H" in given)


def _list_datasets(engine: SandboxZfsEngine, given: dict[str, str], roots: list[str]) -> None:
    """The file systems and zvols named (and, with -r, those under them), by name."""
    kinds = set(given.get("-t", "filesystem,volume").split(","))
    if not kinds <= DATASET_KINDS:
        raise UsageError("the sandbox's zfs lists snapshots, file systems and volumes")
    if given.get("-o", "name") != "name":
        raise UsageError("the sandbox's zfs lists file systems and volumes by name only: -o name")
    rows = []
    for root in roots:
        found = engine.list_datasets(root) if "-r" in given else [engine.get_dataset(root)]
        rows += [[dataset.name] for dataset in found if dataset.type in kinds]
    _table(rows, ["name"], "-H" in given)


def do_get(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs get [-H] [-p] [-o fields] written,receive_resume_token DATASET...`."""
    opts, operands = _options(args, "Hpo:")
    given = dict(opts)
    if len(operands) < 2:
        raise UsageError("missing property or dataset argument")
    fields = given.get("-o", ",".join(GET_FIELDS)).split(",")
    for field in fields:
        if field not in GET_FIELDS:
            raise ZfsError(f"invalid field '{field}'")
    wanted = operands[0].split(",")
    rows = []
    for name in operands[1:]:
        values = engine.replication_properties(name, wanted)
        for prop in wanted:
            cells = {"name": name, "property": prop, "value": values[prop], "source": "-"}
            rows.append([cells[f] for f in fields])
    _table(rows, fields, "-H" in given)


# -- holds and destroys ------------------------------------------------------------------
def do_hold(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs hold TAG SNAPSHOT...`."""
    _, operands = _options(args, "")
    if len(operands) < 2:
        raise UsageError("missing tag or snapshot argument")
    for snapshot in operands[1:]:
        engine.hold(snapshot, operands[0])


def do_release(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs release TAG SNAPSHOT...`."""
    _, operands = _options(args, "")
    if len(operands) < 2:
        raise UsageError("missing tag or snapshot argument")
    for snapshot in operands[1:]:
        engine.release(snapshot, operands[0])


def do_destroy(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs destroy [-r] pool/ds@a,b,c` (snapshots by short name) or `zfs destroy [-r] DATASET`."""
    opts, operands = _options(args, "r")
    recursive = ("-r", "") in opts
    if len(operands) != 1:
        raise UsageError("one dataset or snapshot list to destroy")
    dataset, at, names = operands[0].partition("@")
    if at:
        engine.destroy_snapshots(dataset, names.split(","), recursive=recursive)
    else:
        engine.destroy_dataset(dataset, recursive=recursive)


# -- streams -----------------------------------------------------------------------------
def do_send(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs send [-L -e -c -w] [-i|-I @BASE] SNAPSHOT`, `zfs send -t TOKEN`, with -n -P sizes."""
    opts, operands = _options(args, "LecwnPvi:I:t:")
    given = dict(opts)
    token = given.get("-t")
    if (token is None) != (len(operands) == 1):
        raise UsageError("one snapshot to send, or -t TOKEN alone")
    if "-i" in given and "-I" in given:
        raise UsageError("-i and -I are exclusive")
    base = given.get("-I", given.get("-i"))
    if "-n" in given:
        _print_sizes(engine, token, operands, base, "-I" in given, "-w" in given)
        return
    if os.isatty(sys.stdout.fileno()):
        raise ZfsError("Error: Stream can not be written to a terminal.")
    out = sys.stdout.buffer
    try:
        if token is not None:
            engine.resume_send(token, out)
        else:
            raw = "-w" in given
            engine.send(operands[0], out, base=base, intermediates="-I" in given, raw=raw)
        out.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        raise ZfsError(f"warning: cannot send '{token or operands[0]}': Broken pipe") from None


def _print_sizes(
    engine: SandboxZfsEngine,
    token: str | None,
    operands: list[str],
    base: str | None,
    every: bool,
    raw: bool,
) -> None:
    """`-n -P`: a line per snapshot, then `size` (the exact bytes the send would write)."""
    if token is not None:
        header, total = engine.resume_size(token)
        sections = [(header, total)]
    else:
        sections, total = engine.send_sizes(operands[0], base=base, intermediates=every, raw=raw)
    for header, size in sections:
        if header.from_name is None:
            sys.stdout.write(f"full\t{header.full_name}\t{size}\n")
        else:
            sys.stdout.write(f"incremental\t{header.from_name}\t{header.full_name}\t{size}\n")
    sys.stdout.write(f"size\t{total}\n")


def do_receive(engine: SandboxZfsEngine, args: list[str]) -> None:
    """`zfs receive [-s] [-u] [-F] [-v] [-o name=value]... TARGET`, or `zfs receive -A TARGET`."""
    opts, operands = _options(args, "suFvAo:")
    flags = {flag for flag, _ in opts}
    if len(operands) != 1:
        raise UsageError("one target dataset to receive into")
    if "-A" in flags:
        engine.abort_receive(operands[0])
        return
    properties = []
    for flag, value in opts:
        name, equals, setting = value.partition("=")
        if flag == "-o" and not (equals and name):
            raise UsageError(f"invalid property=value '{value}'")
        if flag == "-o":
            properties.append((name, setting))
    if os.isatty(sys.stdin.fileno()):
        raise ZfsError(
            "Error: Backup stream can not be read from a terminal.\n"
            "You must redirect standard input."
        )
    options = Options(force="-F" in flags, resumable="-s" in flags, properties=tuple(properties))
    engine.receive(operands[0], sys.stdin.buffer, options)


COMMANDS: dict[str, Command] = {
    "list": do_list,
    "get": do_get,
    "hold": do_hold,
    "release": do_release,
    "destroy": do_destroy,
    "send": do_send,
    "receive": do_receive,
    "recv": do_receive,
}


if __name__ == "__main__":
    sys.exit(main())
