"""Input rules: names, sizes, layouts, and the messages that name the field."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from storage import validation as v


def _message(exc: pytest.ExceptionInfo[ValidationError], field: str) -> str:
    return exc.value.message_dict[field][0]


@pytest.mark.parametrize("name", ["tank", "Data_1", "p.o:o-l"])
def test_valid_pool_names_pass(name):
    assert v.validate_pool_name(name) == name


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("", "Give the pool a name"),
        ("1tank", "Start with a letter"),
        ("tank/x", "Start with a letter; use only"),
        ("mirror", "reserved by ZFS"),
        ("raidz2pool", "reserved by ZFS"),
        ("c0d1", "reserved by ZFS for disk names"),
        ("ta nk", "use only letters"),
        ("t;rm -rf", "use only letters"),
    ],
)
def test_bad_pool_names_are_refused_with_the_rule(name, fragment):
    with pytest.raises(ValidationError) as exc:
        v.validate_pool_name(name)
    assert fragment in _message(exc, "name")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512", 512),
        ("4K", 4096),
        ("4k", 4096),
        ("1.5G", 1536 * 1024**2),
        ("20 GiB", 20 * 1024**3),
        ("1T", 1024**4),
        ("100MB", 100 * 1024**2),
        (8192, 8192),
    ],
)
def test_sizes_with_units_parse(text, expected):
    assert v.parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "ten", "10X", "-5G", "1.2.3G", "0"])
def test_bad_sizes_name_the_field(text):
    with pytest.raises(ValidationError) as exc:
        v.parse_size(text, "quota")
    assert "quota" in exc.value.message_dict


def test_dataset_names_check_every_component():
    assert v.validate_dataset_name("tank/a/b") == "tank/a/b"
    with pytest.raises(ValidationError, match="use only letters"):
        v.validate_dataset_name("tank/a b")
    with pytest.raises(ValidationError, match="inside a pool"):
        v.validate_dataset_name("tank")


@pytest.mark.parametrize(
    ("layout", "disks", "width", "expected"),
    [
        ("stripe", 1, None, ("stripe", 1)),
        ("mirror", 2, None, ("mirror", 2)),
        ("raid10", 4, None, ("mirror", 2)),
        ("raid10", 6, 3, ("mirror", 3)),
        ("raidz1", 3, None, ("raidz1", 3)),
        ("raidz2", 8, 4, ("raidz2", 4)),
        ("raidz3", 5, None, ("raidz3", 5)),
    ],
)
def test_layouts_follow_truenas_minimums(layout, disks, width, expected):
    assert v.validate_layout(layout, disks, width) == expected


@pytest.mark.parametrize(
    ("layout", "disks", "width", "fragment"),
    [
        ("mirror", 1, None, "at least 2 disks"),
        ("raidz1", 2, None, "at least 3 disks"),
        ("raidz2", 3, None, "at least 4 disks"),
        ("raidz3", 4, None, "at least 5 disks"),
        ("raid10", 3, None, "at least two mirrors"),
        ("raidz1", 7, 3, "same width"),
        ("raid5", 3, None, "Pick one of"),
    ],
)
def test_bad_layouts_are_refused(layout, disks, width, fragment):
    with pytest.raises(ValidationError) as exc:
        v.validate_layout(layout, disks, width)
    assert fragment in str(exc.value)


def test_block_sizes_must_be_powers_of_two_in_range():
    assert v.validate_block_size(4096, v.VOLBLOCKSIZES, "volblocksize") == 4096
    with pytest.raises(ValidationError, match="from 512 to 128K"):
        v.validate_block_size(3000, v.VOLBLOCKSIZES, "volblocksize")
    with pytest.raises(ValidationError, match="from 512 to 1M"):
        v.validate_block_size(2 * 1024**2, v.RECORDSIZES, "recordsize")


@pytest.mark.parametrize("text", ["9" * 400, 2**70, "99999999P"])
def test_a_size_beyond_64_bits_is_refused(text):
    with pytest.raises(ValidationError, match="At most 8 EiB"):
        v.parse_size(text)


@pytest.mark.parametrize("text", ["1.5", "0.0001K", "1.3K"])
def test_a_size_that_is_not_whole_bytes_is_refused_not_rounded(text):
    with pytest.raises(ValidationError, match="not a whole number of bytes"):
        v.parse_size(text)


def test_a_fractional_size_with_a_unit_that_comes_to_whole_bytes_is_fine():
    assert v.parse_size("1.5K") == 1536


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("/tank/x", "a dataset name starts with its pool, not /"),
        ("tank/ y", "spaces around a name part are not allowed"),
        ("tank/y /z", "spaces around a name part are not allowed"),
        ("tank//x", "A part of the name is empty"),
        ("tank/x/", "A part of the name is empty"),
    ],
)
def test_a_dataset_name_is_refused_as_typed_never_rewritten(name, words):
    with pytest.raises(ValidationError) as exc:
        v.validate_dataset_name(name)
    assert words.lower() in _message(exc, "name").lower()


def test_a_name_part_with_spaces_around_it_is_refused_not_trimmed():
    with pytest.raises(ValidationError, match="spaces around a name part"):
        v.validate_component(" y")
    assert v.split_dataset_name("tank/a/b") == ("tank/a", "b")


def test_layout_messages_say_the_name_the_form_choice_shows():
    labels = dict(v.LAYOUT_CHOICES)
    with pytest.raises(ValidationError) as exc:
        v.validate_layout("raidz2", 3, None)
    message = _message(exc, "disks")
    assert message == "RAID-Z2 needs at least 4 disks per vdev."
    assert labels["raidz2"].startswith("RAID-Z2 ")
    assert labels["raidz1"] == "RAID-Z1 (survives one disk failure)"
