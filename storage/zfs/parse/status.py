"""Parsers for `zpool status` and `zpool import` (the human layout; there is no -H form)."""

from __future__ import annotations

import re

from storage.zfs.base import ImportablePool, PoolStatus, ScrubStatus, Vdev
from storage.zfs.parse.units import parse_count, parse_size

# Keys of the "key: value" header lines. Vdev lines always start with a tab, headers never do.
_KEYS = (
    "pool|id|state|status|action|see|scan|config|errors|remove|checkpoint|dedup|comment|"
    "scrub|resilver|expand|prune"
)
_KEY_LINE = re.compile(rf"^ *({_KEYS}): ?(.*)$")
_AUX_SECTIONS = {"logs", "cache", "spares", "special", "dedup"}


def split_sections(text: str) -> list[list[tuple[str, str]]]:
    """Split status-like text into per-pool lists of (key, text) with continuation lines."""
    pools: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] | None = None
    for line in text.splitlines():
        match = _KEY_LINE.match(line) if not line.startswith("\t") else None
        if match:
            key, rest = match.groups()
            if key == "pool" or current is None:
                current = []
                pools.append(current)
            current.append((key, rest))
        elif current:
            key, body = current[-1]
            current[-1] = (key, f"{body}\n{line}")
    return [p for p in pools if any(k == "pool" for k, _ in p)]


def parse_zpool_status(text: str) -> list[PoolStatus]:
    """`zpool status [-p] [-D] [POOL]` -> one PoolStatus per pool."""
    return [_pool_status(dict(sections)) for sections in split_sections(text)]


def _pool_status(fields: dict[str, str]) -> PoolStatus:
    name = fields["pool"].strip()
    groups = parse_config(fields.get("config", ""), with_errors=True)
    root = groups.get("", ())
    return PoolStatus(
        name=name,
        state=fields.get("state", "").strip(),
        vdevs=root[0].children if root else (),
        logs=groups.get("logs", ()),
        cache=groups.get("cache", ()),
        spares=groups.get("spares", ()),
        special=groups.get("special", ()),
        dedup=groups.get("dedup", ()),
        scan=parse_scan(fields.get("scan", "")),
        status=_squash(fields.get("status", "")),
        action=_squash(fields.get("action", "")),
        errors=_squash(fields.get("errors", "")),
        root=root[0] if root else None,
    )


def parse_zpool_import(text: str) -> list[ImportablePool]:
    """`zpool import` (no arguments: list what could be imported) -> pools."""
    pools = []
    for sections in split_sections(text):
        fields = dict(sections)
        groups = parse_config(fields.get("config", ""), with_errors=False)
        root = groups.get("", ())
        pools.append(
            ImportablePool(
                name=fields["pool"].strip(),
                guid=fields.get("id", "").strip(),
                state=fields.get("state", "").strip(),
                status=_squash(fields.get("status", "")),
                action=_squash(fields.get("action", "")),
                vdevs=root[0].children if root else (),
            )
        )
    return pools


def _squash(text: str) -> str:
    """Join a wrapped multi-line field into one line."""
    return " ".join(text.split())


def parse_config(text: str, *, with_errors: bool) -> dict[str, tuple[Vdev, ...]]:
    """The config block -> {"": (root,), "logs": (...), "cache": (...), "spares": (...)}."""
    groups: dict[str, list[tuple[int, list[str]]]] = {"": []}
    section = ""
    for line in text.splitlines():
        if not line.startswith("\t") or not line.strip():
            continue
        body = line[1:]
        depth = (len(body) - len(body.lstrip(" "))) // 2
        words = body.split()
        if words[0] == "NAME" and "STATE" in words:
            continue  # the column header
        if depth == 0 and len(words) == 1 and words[0] in _AUX_SECTIONS:
            section = words[0]
            groups[section] = []
            continue
        groups[section].append((depth, words))
    return {key: _build_tree(rows, with_errors) for key, rows in groups.items()}


def _build_tree(rows: list[tuple[int, list[str]]], with_errors: bool) -> tuple[Vdev, ...]:
    """Indentation-ordered rows -> nested Vdev tuples."""
    base = min((depth for depth, _ in rows), default=0)

    def build(index: int, depth: int) -> tuple[list[Vdev], int]:
        nodes: list[Vdev] = []
        while index < len(rows) and rows[index][0] - base >= depth:
            row_depth, words = rows[index]
            if row_depth - base > depth:  # deeper than expected: attach to the last node
                index += 1
                continue
            children, index = build(index + 1, depth + 1)
            nodes.append(_vdev(words, children, with_errors, is_root=depth == 0 and not base))
        return nodes, index

    top, _ = build(0, 0)
    return tuple(top)


def _vdev(words: list[str], children: list[Vdev], with_errors: bool, is_root: bool) -> Vdev:
    name = words[0]
    state = words[1] if len(words) > 1 else ""
    counts = [0, 0, 0]
    rest = words[2:]
    if with_errors and len(rest) >= 3 and all(_is_count(w) for w in rest[:3]):
        counts = [parse_count(w) for w in rest[:3]]
        rest = rest[3:]
    vdev_type = "root" if is_root and children else vdev_type_of(name)
    return Vdev(
        name=name,
        type=vdev_type,
        state=state,
        read_errors=counts[0],
        write_errors=counts[1],
        cksum_errors=counts[2],
        children=tuple(children),
        note=" ".join(rest),
    )


def _is_count(word: str) -> bool:
    return bool(re.fullmatch(r"\d+(\.\d+)?[KMGTPE]?", word))


def vdev_type_of(name: str) -> str:
    """'raidz2-0' -> raidz2, 'mirror-1' -> mirror, '/tmp/f' -> file, 'vda' -> disk."""
    match = re.fullmatch(r"(mirror|raidz[123]?|draid\d?[^-]*|spare|replacing|root)-\d+", name)
    if match:
        kind = match.group(1)
        if kind == "raidz":
            return "raidz1"
        return "draid" if kind.startswith("draid") else kind
    if name.startswith("/") and not name.startswith("/dev/"):
        return "file"
    return "disk"


_PERCENT = re.compile(r"([\d.]+)% done")
_ERRORS = re.compile(r"with (\d+) errors")
_REPAIRED = re.compile(r"(?:repaired|resilvered) (\S+)")
_SCANNED = re.compile(r"(\S+) scanned")
_ISSUED = re.compile(r"(\S+) issued")
_TOTAL = re.compile(r"(\S+) total")


def parse_scan(text: str) -> ScrubStatus:
    """The "scan:" field of `zpool status` -> ScrubStatus."""
    flat = _squash(text)
    if not flat or flat.startswith("none requested"):
        return ScrubStatus(state="none", text=flat)
    function = "resilver" if flat.startswith("resilver") else "scrub"
    if "in progress" in flat:
        state = "scanning"
    elif "canceled" in flat:
        state = "canceled"
    elif "paused" in flat:
        state = "paused"
    else:
        state = "finished"
    percent = _PERCENT.search(flat)
    done = float(percent.group(1)) if percent else None
    return ScrubStatus(
        state=state,
        function=function,
        percent_done=100.0 if state == "finished" else done,
        errors=_match_int(_ERRORS, flat),
        repaired=_match_size(_REPAIRED, flat),
        scanned=_match_size(_SCANNED, flat),
        issued=_match_size(_ISSUED, flat),
        total=_match_size(_TOTAL, flat),
        text=flat,
    )


def _match_int(pattern: re.Pattern[str], text: str) -> int:
    match = pattern.search(text)
    return int(match.group(1)) if match else 0


def _match_size(pattern: re.Pattern[str], text: str) -> int:
    match = pattern.search(text)
    if not match:
        return 0
    try:
        return parse_size(match.group(1).rstrip(","))
    except ValueError:
        return 0
