"""An update file: a new release's root file system, signed.

A tar of three members, in this order: `manifest.json` (the release, the size and SHA-256 of
the root file system), `manifest.sig` (an Ed25519 signature of the manifest's bytes) and
`root.ext4.zst` (the file system, zstd-compressed). The manifest is checked against the keys
the running image trusts before a byte is written; the root is checked against the manifest
while it is written (its hash is known only at the end, so the slot it went to is booted only
if it matched).

Plain Python (`cryptography`, `zstandard`).
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import tarfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

import zstandard
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

FORMAT = 1
MANIFEST, SIGNATURE, ROOT = "manifest.json", "manifest.sig", "root.ext4.zst"
CHUNK = 1 << 20
MAX_MANIFEST = 64 << 10


class UpdateError(Exception):
    """An update file nasui will not write: what is wrong with it, in words."""


@dataclass(frozen=True)
class Manifest:
    """What an update file says it holds."""

    release: str
    sha256: str  # of the uncompressed root file system
    size: int  # its bytes


def read_manifest(path: Path, trusted: Iterable[Ed25519PublicKey]) -> Manifest:
    """The manifest of the update file at `path` once its signature is one of `trusted`'s;
    UpdateError if it is not an update file, damaged, or signed by nobody trusted."""
    with _open(path) as bundle:
        manifest = _member(bundle, MANIFEST, MAX_MANIFEST)
        signature = _member(bundle, SIGNATURE, 1024)
    if not any(_verifies(key, signature, manifest) for key in trusted):
        raise UpdateError("The update file is not signed by a key this box trusts.")
    return _parse(manifest)


def write_root(
    path: Path, manifest: Manifest, target: BinaryIO, progress: Callable[[int], None] | None = None
) -> None:
    """Write the update's root file system into `target` (the idle slot), hashing it on the
    way; UpdateError if it is not the one the manifest names (size or SHA-256)."""
    digest, written = hashlib.sha256(), 0
    with _open(path) as bundle:
        member = bundle.extractfile(_info(bundle, ROOT))
        assert member is not None  # _info checked it is a file
        for chunk in _decompressed(member):
            written += len(chunk)
            if written > manifest.size:
                raise UpdateError("The update's root file system is bigger than its manifest says.")
            digest.update(chunk)
            target.write(chunk)
            if progress:
                progress(written)
    if written != manifest.size or digest.hexdigest() != manifest.sha256:
        raise UpdateError("The update's root file system does not match its manifest (damaged?).")


def make(root: Path, release: str, key: Ed25519PrivateKey, out: Path) -> Manifest:
    """Write the update file `out` for the root file system image `root` (the build's)."""
    digest, size = hashlib.sha256(), 0
    compressed = out.with_name(out.name + ".root.tmp")
    with root.open("rb") as source, compressed.open("wb") as sink:
        writer = zstandard.ZstdCompressor(level=3, threads=-1).stream_writer(sink, closefd=False)
        while chunk := source.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            writer.write(chunk)
        writer.close()  # type: ignore[no-untyped-call]
    manifest = Manifest(release=release, sha256=digest.hexdigest(), size=size)
    text = json.dumps({"format": FORMAT, **manifest.__dict__}, sort_keys=True).encode()
    try:
        with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as bundle:
            _add(bundle, MANIFEST, text)
            _add(bundle, SIGNATURE, key.sign(text))
            bundle.add(compressed, arcname=ROOT)
    finally:
        compressed.unlink(missing_ok=True)
    return manifest


def public_key(pem: bytes) -> Ed25519PublicKey:
    """A trusted key from its PEM file; UpdateError if it is not an Ed25519 public key."""
    try:
        key = serialization.load_pem_public_key(pem)
    except ValueError as exc:
        raise UpdateError(f"Not a public key: {exc}") from exc
    if not isinstance(key, Ed25519PublicKey):
        raise UpdateError("An update key is an Ed25519 key.")
    return key


def _open(path: Path) -> tarfile.TarFile:
    """The update file, its whole table read (a cut-short file fails here, before any write)."""
    try:
        bundle = tarfile.open(path, "r:")  # noqa: SIM115 - the caller's `with` closes it
    except (OSError, tarfile.TarError) as exc:
        raise UpdateError(f"Not an update file: {exc}") from exc
    try:
        bundle.getmembers()
    except (OSError, tarfile.TarError) as exc:
        bundle.close()
        raise UpdateError(f"The update file is cut short or damaged: {exc}") from exc
    return bundle


def _info(bundle: tarfile.TarFile, name: str) -> tarfile.TarInfo:
    try:
        info = bundle.getmember(name)
    except KeyError as exc:
        raise UpdateError(f"Not an update file: it has no {name}.") from exc
    if not info.isfile():
        raise UpdateError(f"Not an update file: its {name} is not a file.")
    return info


def _member(bundle: tarfile.TarFile, name: str, limit: int) -> bytes:
    info = _info(bundle, name)
    if info.size > limit:
        raise UpdateError(f"Not an update file: its {name} is too big.")
    member = bundle.extractfile(info)
    assert member is not None
    return member.read()


def _verifies(key: Ed25519PublicKey, signature: bytes, data: bytes) -> bool:
    try:
        key.verify(signature, data)
    except InvalidSignature:
        return False
    return True


def _parse(text: bytes) -> Manifest:
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise UpdateError(
                f"This box reads update files of format {FORMAT}, not {data.get('format')!r}."
            )
        manifest = Manifest(str(data["release"]), str(data["sha256"]), int(data["size"]))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UpdateError(f"The update's manifest cannot be read: {exc}") from exc
    if len(manifest.sha256) != 64 or manifest.size <= 0:
        raise UpdateError("The update's manifest cannot be read: a bad size or hash.")
    return manifest


def _decompressed(member: IO[bytes]) -> Iterator[bytes]:
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(member)
        while chunk := reader.read(CHUNK):
            yield chunk
    except zstandard.ZstdError as exc:
        raise UpdateError(f"The update's root file system is damaged: {exc}") from exc


def _add(bundle: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    bundle.addfile(info, io.BytesIO(data))


def main(argv: list[str]) -> int:
    """The build's tool: `key PRIVATE.pem PUBLIC.pem` makes the signing key once (kept) and
    writes its public half; `make PRIVATE.pem RELEASE ROOT.ext4 OUT` writes an update file."""
    if len(argv) == 3 and argv[0] == "key":
        private, public = Path(argv[1]), Path(argv[2])
        if not private.exists():
            pem = Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            private.write_bytes(pem)
            private.chmod(0o600)
        key = serialization.load_pem_private_key(private.read_bytes(), None)
        assert isinstance(key, Ed25519PrivateKey)
        public.write_bytes(
            key.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )
        return 0
    if len(argv) == 5 and argv[0] == "make":
        key = serialization.load_pem_private_key(Path(argv[1]).read_bytes(), None)
        assert isinstance(key, Ed25519PrivateKey)
        manifest = make(Path(argv[3]), argv[2], key, Path(argv[4]))
        print(f"{argv[4]}: release {manifest.release}, {manifest.size} bytes, {manifest.sha256}")
        return 0
    print(
        "usage: python -m system.updates.engine.bundle key PRIVATE.pem PUBLIC.pem\n"
        "       python -m system.updates.engine.bundle make PRIVATE.pem RELEASE ROOT.ext4 OUT",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
