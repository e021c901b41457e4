"""Byte counts as text: rounded for reading, exact for ZFS property values."""

from __future__ import annotations

import pytest

from nasui.lib import units
from nasui.lib.units import format_bytes, format_size
from storage.validation import parse_size


@pytest.mark.parametrize(
    ("value", "text"),
    [(None, "—"), (0, "0 B"), (512, "512 B"), (1536, "1.5 KiB"), (8 * 1024**3, "8.0 GiB"),
     (-2048, "-2.0 KiB"), (3 * 1024**6, "3072.0 PiB")],
)  # fmt: skip
def test_format_bytes_rounds_to_one_decimal(value, text):
    assert format_bytes(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(512, "512"), (4096, "4K"), (131072, "128K"), (1536, "1536"), (500 * 1024**3, "500G"),
     (1024**5, "1P")],
)  # fmt: skip
def test_format_size_is_exact(value, text):
    assert format_size(value) == text


@pytest.mark.parametrize("value", [1, 1000, 4096, 10**9, 3 * 1024**4 + 1024, 7 * 1024**5])
def test_format_size_reads_back_unchanged(value):
    # Edit forms show quota, reservation and size this way: saving unchanged must not move them.
    assert parse_size(format_size(value)) == value


@pytest.mark.parametrize(
    ("text", "expected"),
    [("4096", 4096), ("128K", 131072), ("1.5 TiB", 3 * 2**39), ("648B", 648), ("2e", 2**61)],
)
def test_the_one_size_parser_reads_typed_and_printed_sizes(text, expected):
    assert units.parse_size(text) == expected


def test_zfs_rounded_figures_round_and_typed_fractions_are_refused():
    assert units.parse_size("13.6M", exact=False) == 14260634
    with pytest.raises(units.NotWholeBytes):
        units.parse_size("13.6M")


@pytest.mark.parametrize("text", ["", "ten", "10X", "-5G", "1.2.3G"])
def test_what_is_not_a_size_says_so(text):
    with pytest.raises(units.NotASize):
        units.parse_size(text)
