"""Dataset and zvol commands of the `cli` engine (a mixin of CliZfsEngine)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence

from storage.zfs import parse
from storage.zfs.argv import PROPERTY_NAME, property_args
from storage.zfs.base import (
    Dataset,
    PropertyValue,
)
from storage.zfs.cli.keys import key_input
from storage.zfs.errors import (
    DatasetBusy,
    DatasetNotFound,
    InvalidProperty,
    VolumeShrink,
    ZfsError,
)
from storage.zfs.names import check_dataset_name
from storage.zfs.runner import CommandResult, Runner

# A zvol its last writer just closed is opened again for a moment by udev's probe (blkid), and
# `zfs destroy` then says "dataset is busy" (seen in the VM right after fio): settle udev and
# try again for this long before the refusal stands.
BUSY_RETRY_SECONDS = 10.0
BUSY_RETRY_PAUSE = 0.5


class DatasetCommands:
    """List, read, create, change, grow and destroy file systems and zvols, through `zfs`."""

    _runner: Runner
    _clock: Callable[[], float]
    _sleep: Callable[[float], None]

    def run(
        self, argv: Sequence[str], *, timeout: float | None = None, stdin: str | None = None
    ) -> CommandResult:
        raise NotImplementedError  # provided by the engine

    def _out(self, *argv: str, timeout: float | None = None) -> str:
        raise NotImplementedError  # provided by the engine

    def _list(self, *targets: str, recursive: bool) -> list[Dataset]:
        columns = ",".join(parse.DATASET_COLUMNS)
        argv = ["zfs", "list", "-H", "-p", "-o", columns, "-t", "filesystem,volume"]
        text = self._out(*argv, *(["-r"] if recursive else []), *targets)
        return parse.parse_zfs_list(text, read_at=self._clock())

    def list_datasets(self, root: str) -> list[Dataset]:
        """Every file system and zvol under `root` (a pool or dataset), in one `zfs list`."""
        check_dataset_name(root)
        return self._list(root, recursive=True)

    def list_all_datasets(self) -> list[Dataset]:
        """Every file system and zvol of every imported pool, in one `zfs list`."""
        return self._list(recursive=False)

    def get_dataset(self, name: str) -> Dataset:
        """One dataset or zvol."""
        check_dataset_name(name)
        found = self._list(name, recursive=False)
        if not found:
            raise DatasetNotFound(f"dataset does not exist: {name}")
        return found[0]

    def get_properties(self, name: str, properties: Sequence[str] = ()) -> dict[str, PropertyValue]:
        """`zfs get -H -p` of one dataset with sources."""
        check_dataset_name(name)
        for prop in properties:
            if not PROPERTY_NAME.fullmatch(prop):
                raise InvalidProperty(f"invalid property name {prop!r}")
        props = ",".join(properties) or "all"
        argv = ["zfs", "get", "-H", "-p", "-o", "name,property,value,source", props, name]
        return parse.parse_zfs_get(self._out(*argv)).get(name, {})

    def create_dataset(
        self, name: str, *, properties: Mapping[str, str] | None = None, key: str | None = None
    ) -> None:
        """`zfs create [-o k=v]... NAME`; `key` (encryption with keylocation=prompt) on stdin."""
        check_dataset_name(name)
        argv = ["zfs", "create", *property_args("-o", properties or {}), name]
        self.run(argv, stdin=key_input(key))

    def zvol_argv(
        self,
        name: str,
        *,
        size: int,
        volblocksize: int | None = None,
        sparse: bool = False,
        properties: Mapping[str, str] | None = None,
    ) -> list[str]:
        """The `zfs create -V` command line; size must be a multiple of volblocksize."""
        check_dataset_name(name)
        if size <= 0:
            raise InvalidProperty(f"zvol size must be positive, got {size}")
        props = dict(properties or {})
        if volblocksize:
            if volblocksize & (volblocksize - 1) or not 512 <= volblocksize <= 131072:
                raise InvalidProperty(
                    f"volblocksize must be a power of 2, 512..128K: {volblocksize}"
                )
            if size % volblocksize:
                raise InvalidProperty(f"size {size} is not a multiple of {volblocksize}")
            props["volblocksize"] = str(volblocksize)
        argv = ["zfs", "create"] + (["-s"] if sparse else []) + ["-V", str(size)]
        return argv + property_args("-o", props) + [name]

    def create_zvol(
        self,
        name: str,
        *,
        size: int,
        volblocksize: int | None = None,
        sparse: bool = False,
        properties: Mapping[str, str] | None = None,
        key: str | None = None,
    ) -> None:
        """Create a zvol: thick (with refreservation) unless sparse; `key` as create_dataset's."""
        argv = self.zvol_argv(
            name, size=size, volblocksize=volblocksize, sparse=sparse, properties=properties
        )
        self.run(argv, stdin=key_input(key))

    def set_properties(self, name: str, properties: Mapping[str, str]) -> None:
        """`zfs set k=v ... NAME` (one command, so all or nothing)."""
        check_dataset_name(name)
        if not properties:
            return
        pairs = property_args("-o", properties)[1::2]
        self.run(["zfs", "set", *pairs, name])

    def inherit_property(self, name: str, prop: str, *, recursive: bool = False) -> None:
        """`zfs inherit [-r] PROP NAME`."""
        check_dataset_name(name)
        if not PROPERTY_NAME.fullmatch(prop):
            raise InvalidProperty(f"invalid property name {prop!r}")
        self.run(["zfs", "inherit", *(["-r"] if recursive else []), prop, name])

    def grow_zvol(self, name: str, new_size: int) -> None:
        """Raise a zvol's volsize; refuses to shrink (that would cut off data)."""
        current = self.get_dataset(name)
        if not current.is_volume or current.volsize is None:
            raise InvalidProperty(f"{name} is not a zvol")
        if new_size < current.volsize:
            raise VolumeShrink(
                f"refusing to shrink {name} from {current.volsize} to {new_size} bytes"
            )
        if new_size == current.volsize:
            return
        block = current.volblocksize or 1
        if new_size % block:
            raise InvalidProperty(f"size {new_size} is not a multiple of volblocksize {block}")
        self.run(["zfs", "set", f"volsize={new_size}", name])

    def destroy_dataset(self, name: str, *, recursive: bool = False, force: bool = False) -> None:
        """`zfs destroy [-r] [-f] NAME`; a pool's root dataset goes with destroy_pool."""
        check_dataset_name(name)
        if "/" not in name:
            raise ZfsError(f"{name} is a pool's root dataset: destroy the pool instead")
        flags = (["-r"] if recursive else []) + (["-f"] if force else [])
        deadline = self._clock() + BUSY_RETRY_SECONDS
        while True:
            try:
                self.run(["zfs", "destroy", *flags, name])
                return
            except DatasetBusy:
                if self._clock() >= deadline:
                    raise
                self._settle_udev()

    def _settle_udev(self) -> None:
        """Wait for udev's queued events (its probes of a closed zvol), then a short pause."""
        # No udevadm, or it timed out: the pause below still gives udev time.
        with contextlib.suppress(ZfsError):
            self._runner(["udevadm", "settle", "--timeout=5"], timeout=10)
        self._sleep(BUSY_RETRY_PAUSE)
