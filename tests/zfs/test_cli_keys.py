"""The cli engine's key commands: keys go on stdin, never in argv; refusals are typed."""

from __future__ import annotations

import pytest

from storage.zfs.cli import CliZfsEngine
from storage.zfs.errors import (
    DatasetBusy,
    KeyAlreadyLoaded,
    KeyNotLoaded,
    NotAnEncryptionRoot,
    WrongKey,
)
from storage.zfs.runner import ScriptedRunner, fail

SECRET = "correct horse battery"
LISTED = "tank/v\tfilesystem\ton\tno\tavailable\ntank/v/c\tfilesystem\ton\tyes\tavailable\n"


def test_a_new_root_and_a_load_take_the_key_on_stdin_only() -> None:
    runner = ScriptedRunner(responses={("zfs", "list"): LISTED})
    engine = CliZfsEngine(runner)
    engine.create_dataset("tank/v", properties={"encryption": "on"}, key=SECRET)
    engine.load_key("tank/v", SECRET, recursive=True)
    assert all(SECRET not in " ".join(call) for call in runner.calls)
    assert runner.inputs[0] == SECRET + "\n"
    assert runner.calls[1] == ("zfs", "load-key", "-r", "tank/v")
    assert runner.inputs[1] == SECRET + "\n"
    # then what the key opened is mounted: the one not mounted yet
    assert runner.calls[-1] == ("zfs", "mount", "tank/v")


def test_commands_without_a_key_read_no_stdin() -> None:
    runner = ScriptedRunner()
    CliZfsEngine(runner).unload_key("tank/v", recursive=True)
    assert runner.calls == [("zfs", "unmount", "tank/v"), ("zfs", "unload-key", "-r", "tank/v")]
    assert runner.inputs == [None, None]


def test_change_key_names_the_new_format_and_location() -> None:
    runner = ScriptedRunner()
    CliZfsEngine(runner).change_key(
        "tank/v", key_format="hex", key_location="file:///data/keys/a.key"
    )
    assert runner.last == (
        "zfs", "change-key", "-o", "keyformat=hex", "-o", "keylocation=file:///data/keys/a.key",
        "tank/v",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("stderr", "error"),
    [
        ("Key load error: Incorrect key provided for 'tank/v'.", WrongKey),
        ("Key load error: Key already loaded for 'tank/v'.", KeyAlreadyLoaded),
        ("Key unload error: Key already unloaded for 'tank/v'.", KeyNotLoaded),
        (
            "Key unload error: Keys must be unloaded for encryption root of 'tank/v/c' (tank/v).",
            NotAnEncryptionRoot,
        ),
        ("cannot unmount '/tank/v': pool or dataset is busy", DatasetBusy),
    ],
)
def test_refusals_as_openzfs_words_them_are_typed(stderr: str, error: type[Exception]) -> None:
    runner = ScriptedRunner(responses={("zfs", "load-key"): fail(stderr)})
    with pytest.raises(error):
        CliZfsEngine(runner).load_key("tank/v", SECRET)
