"""The sandbox ZFS engine: pools, datasets and zvols on plain files, for machines without ZFS.

Layout under the root directory: `disks/sdX.img` (sparse disk images), `pools/NAME/` (an
imported pool: `data/` holds the root file system's files, `ds/CHILD/` each child dataset,
`ds/VOL/VOL.zvol` a zvol's sparse backing file), `exported/GUID/` (an exported pool),
`state.json` (pools, datasets, local properties and the last scan's figures, under
`state.lock`) and `blocks.sqlite3` (per-file block summaries that make rescans incremental).

Space figures come from `rescan()`, which measures the bytes actually written the way OpenZFS
2.1 allocates them (records or volume blocks, holes, compression kept only when it saves 1/8,
4 KiB sectors, raidz parity and padding, dedup by block checksum); every read returns the last
scan's figures. Known simplifications: no metadata, metaslab rounding or snapshots; lzjb is
estimated with lz4; a file is measured with the settings its dataset has when the scan first
sees it (OpenZFS too keeps old blocks as written, but compresses each write as it comes);
quotas and readonly are reported, not enforced on the files.
"""

from __future__ import annotations

from storage.zfs.sandbox.disks import DISK_MODEL, SandboxDisk
from storage.zfs.sandbox.engine import SandboxZfsEngine
from storage.zfs.sandbox.rescan import RescanResult

__all__ = ["DISK_MODEL", "RescanResult", "SandboxDisk", "SandboxZfsEngine"]
