"""The panel's exports file (exports(5)) and nfs.conf drop-in from the desired state: pure text.

One line per exported path, every client on it with the same options, e.g.

    /tank/media host1(rw,sync,no_subtree_check,root_squash,sec=sys) 10.0.0.0/24(rw,...)

Choices, each spelt out on every line so the file says what the server does:
- `sync`: a write is on disk before the client hears it is (the kernel's default since
  nfs-utils 1.0; TrueNAS does not offer async either).
- `no_subtree_check`: the export is a whole dataset, so the subtree check buys nothing and
  breaks renames of open files (exports(5) recommends it off).
- root squash: "none" squashes root to nobody (anonuid/anongid left at the kernel's 65534),
  which is what TrueNAS does when maproot is empty: a client's root never owns the share.
- No `fsid=`: ZFS gives every dataset a stable fsid of its own (statfs f_fsid); OpenZFS's
  own sharenfs writes none either.
- `crossmnt` only when the spec asks: a child dataset is a file system of its own and is
  otherwise reached only through its own export, so nothing is exported by surprise.
"""

from __future__ import annotations

import re

from sharing.nfs.engine.desired import NfsError, NfsExportSpec, NfsState

HEADER = "# Written by nasui from its database; edits here are replaced at the next apply."
# Paths made only of these need no quotes; anything else (a space, '#') is quoted.
_BARE_PATH = re.compile(r"^[A-Za-z0-9._+/@:%=~-]+$")


def render(state: NfsState) -> str:
    """The whole exports file: the header, then one line per export in path order."""
    lines = [HEADER, *(export_line(export) for export in state.exports)]
    return "\n".join(lines) + "\n"


def export_line(export: NfsExportSpec) -> str:
    """`path client(options) client(options)...` for one export."""
    opts = ",".join(options(export))
    return " ".join([quote_path(export.path), *(f"{client}({opts})" for client in export.clients)])


def quote_path(path: str) -> str:
    """The path as exports(5) reads it: bare when plain, else in double quotes."""
    if not path.isprintable() or '"' in path or "\\" in path:
        # The spec refuses these already; a path that slipped through must not end the line.
        raise NfsError(f"exports: unsafe path {path!r}")
    return path if _BARE_PATH.match(path) else f'"{path}"'


def options(export: NfsExportSpec) -> list[str]:
    """The option list of an export's clients, in a fixed order."""
    opts = ["ro" if export.read_only else "rw", "sync", "no_subtree_check"]
    opts += squash_options(export)
    if export.crossmnt:
        opts.append("crossmnt")
    if not export.secure:
        opts.append("insecure")
    opts.append(f"sec={export.security}")
    return opts


def squash_options(export: NfsExportSpec) -> list[str]:
    """Who the server takes a client's users for (TrueNAS maproot / mapall)."""
    ids = [f"anonuid={export.anon_uid}", f"anongid={export.anon_gid}"]
    if export.map_mode == "all":
        return ["all_squash", *ids]
    if export.map_mode == "root" and export.anon_uid == 0 and export.anon_gid == 0:
        return ["no_root_squash"]
    if export.map_mode == "root":
        return ["root_squash", *ids]
    return ["root_squash"]


def render_nfs_conf(state: NfsState) -> str:
    """The nfs.conf drop-in: which protocol versions rpc.nfsd and rpc.mountd offer."""
    lines = [
        HEADER,
        "[nfsd]",
        # NFSv4 needs only TCP port 2049; NFSv3 adds rpcbind (111), mountd and lockd ports.
        f"vers3={'y' if state.v3 else 'n'}",
        "vers4=y",
    ]
    return "\n".join(lines) + "\n"
