"""exports(5) lines and the nfs.conf drop-in rendered from NFS specs."""

from __future__ import annotations

import pytest

from sharing.nfs.engine.desired import NfsError, NfsExportSpec, NfsState
from sharing.nfs.engine.render import HEADER, export_line, quote_path, render, render_nfs_conf

BASE = "sync,no_subtree_check"


def test_it_renders_one_line_with_every_client_and_the_same_options() -> None:
    spec = NfsExportSpec("/tank/media", networks=("10.0.0.0/24",), hosts=("host1",))
    opts = f"rw,{BASE},root_squash,sec=sys"
    assert export_line(spec) == f"/tank/media host1({opts}) 10.0.0.0/24({opts})"


def test_a_read_only_export_says_ro() -> None:
    line = export_line(NfsExportSpec("/tank/m", hosts=("h",), read_only=True))
    assert line == f"/tank/m h(ro,{BASE},root_squash,sec=sys)"


def test_maproot_squashes_root_to_the_given_ids() -> None:
    spec = NfsExportSpec("/t", hosts=("h",), map_mode="root", anon_uid=1000, anon_gid=100)
    assert export_line(spec) == f"/t h(rw,{BASE},root_squash,anonuid=1000,anongid=100,sec=sys)"


def test_maproot_to_root_keeps_root() -> None:
    spec = NfsExportSpec("/t", hosts=("h",), map_mode="root", anon_uid=0, anon_gid=0)
    assert export_line(spec) == f"/t h(rw,{BASE},no_root_squash,sec=sys)"


def test_mapall_squashes_everyone() -> None:
    spec = NfsExportSpec("/t", hosts=("h",), map_mode="all", anon_uid=1001, anon_gid=1001)
    assert export_line(spec) == f"/t h(rw,{BASE},all_squash,anonuid=1001,anongid=1001,sec=sys)"


def test_crossmnt_and_insecure_only_when_asked() -> None:
    spec = NfsExportSpec("/t", hosts=("h",), crossmnt=True, secure=False)
    assert export_line(spec) == f"/t h(rw,{BASE},root_squash,crossmnt,insecure,sec=sys)"


@pytest.mark.parametrize(
    ("path", "written"),
    [
        ("/tank/my media", '"/tank/my media"'),
        ("/tank/a#b", '"/tank/a#b"'),
        ("/tank/x-1", "/tank/x-1"),
    ],
)
def test_paths_with_spaces_or_hashes_are_quoted(path: str, written: str) -> None:
    assert export_line(NfsExportSpec(path, hosts=("h",))).split(" h(")[0] == written


def test_quote_path_refuses_what_would_end_the_line() -> None:
    for path in ['/a"b', "/a\\b", "/a\nb"]:
        with pytest.raises(NfsError):
            quote_path(path)


def test_the_file_has_the_header_then_exports_in_path_order() -> None:
    state = NfsState(
        (NfsExportSpec("/tank/b", hosts=("h",)), NfsExportSpec("/tank/a", hosts=("h",)))
    )
    lines = render(state).splitlines()
    assert lines[0] == HEADER
    assert [line.split()[0] for line in lines[1:]] == ["/tank/a", "/tank/b"]


def test_an_empty_state_renders_only_the_header() -> None:
    assert render(NfsState()) == HEADER + "\n"


def test_nfs_conf_offers_v4_always_and_v3_only_when_asked() -> None:
    assert "vers3=n\nvers4=y" in render_nfs_conf(NfsState())
    assert "vers3=y\nvers4=y" in render_nfs_conf(NfsState(v3=True))
    assert "[nfsd]" in render_nfs_conf(NfsState())
