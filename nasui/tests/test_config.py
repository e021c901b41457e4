"""NASUI_* environment parsing."""

from pathlib import Path

import pytest

from nasui.config import ConfigError, celery_url, load_config, resolve_zfs_engine


@pytest.fixture
def base_env(tmp_path: Path) -> dict[str, str]:
    return {"NASUI_DATA_DIR": str(tmp_path)}


def test_it_defaults_to_sqlite_in_the_data_dir(base_env, tmp_path):
    config = load_config(base_env)
    assert config.database_url == f"sqlite:///{tmp_path}/nasui.sqlite3"
    assert config.zfs_engine == "auto"
    assert config.debug is False


def test_it_generates_and_keeps_a_secret_key(base_env, tmp_path):
    first = load_config(base_env).secret_key
    second = load_config(base_env).secret_key
    assert len(first) > 40
    assert first == second
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_it_uses_a_given_secret_key(base_env):
    assert load_config({**base_env, "NASUI_SECRET_KEY": "s3cret"}).secret_key == "s3cret"


def test_it_reads_postgres_urls_and_hosts(base_env):
    config = load_config(
        {
            **base_env,
            "NASUI_DATABASE_URL": "postgres://u:p@db:5432/nasui",
            "NASUI_ALLOWED_HOSTS": "nas.local,10.0.0.5",
        }
    )
    assert config.database_url.startswith("postgres://")
    assert config.allowed_hosts == ["nas.local", "10.0.0.5"]


def test_https_follows_debug_unless_given(base_env):
    assert load_config(base_env).https is True
    assert load_config({**base_env, "NASUI_DEBUG": "1"}).https is False
    assert load_config({**base_env, "NASUI_HTTPS": "0"}).https is False


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("NASUI_ZFS_ENGINE", "libzfs", "NASUI_ZFS_ENGINE must be one of auto, cli, sandbox"),
        ("NASUI_ISCSI_ENGINE", "scst", "NASUI_ISCSI_ENGINE must be one of auto, lio, tgt"),
        ("NASUI_DATABASE_URL", "mysql://x", "NASUI_DATABASE_URL must be"),
        ("NASUI_REDIS_URL", "http://x", "NASUI_REDIS_URL must be"),
        ("NASUI_LOGIN_FAILURE_LIMIT", "0", "NASUI_LOGIN_FAILURE_LIMIT must be at least 1"),
        ("NASUI_LOGIN_FAILURE_LIMIT", "many", "must be a whole number"),
    ],
)
def test_it_rejects_bad_values_naming_the_variable(base_env, name, value, message):
    with pytest.raises(ConfigError, match=message):
        load_config({**base_env, name: value})


def test_it_rejects_a_relative_data_dir():
    with pytest.raises(ConfigError, match="NASUI_DATA_DIR must be an absolute path"):
        load_config({"NASUI_DATA_DIR": "relative/dir"})


def test_auto_engine_picks_cli_only_when_dev_zfs_exists(tmp_path):
    assert resolve_zfs_engine("auto", tmp_path / "zfs") == "sandbox"
    (tmp_path / "zfs").touch()
    assert resolve_zfs_engine("auto", tmp_path / "zfs") == "cli"
    assert resolve_zfs_engine("sandbox", tmp_path / "zfs") == "sandbox"


def test_celery_spells_unix_sockets_its_own_way():
    assert celery_url("unix:///run/redis.sock") == "redis+socket:///run/redis.sock"
    assert celery_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"


def _settings_under(env: dict[str, str]) -> dict[str, object]:
    """Import nasui.settings in a fresh interpreter with `env` and read a few values back."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, nasui.settings as s; print(json.dumps({k: getattr(s, k, None) for k in "
        "['SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_HSTS_SECONDS', "
        "'SECURE_SSL_REDIRECT', 'DEBUG', 'SESSION_COOKIE_HTTPONLY', 'X_FRAME_OPTIONS', "
        "'NASUI_MAINTAIN_SECONDS']}))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NASUI_")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return dict(json.loads(result.stdout))


def test_production_settings_turn_on_secure_cookies_and_headers(tmp_path):
    values = _settings_under({"NASUI_DATA_DIR": str(tmp_path)})
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31536000
    assert values["SESSION_COOKIE_HTTPONLY"] is True
    assert values["X_FRAME_OPTIONS"] == "DENY"


def test_plain_http_run_leaves_cookies_usable(tmp_path):
    values = _settings_under({"NASUI_DATA_DIR": str(tmp_path), "NASUI_HTTPS": "0"})
    assert values["SESSION_COOKIE_SECURE"] is False
    assert values["SECURE_SSL_REDIRECT"] is None


def test_every_beat_period_comes_from_its_setting(settings):
    from celery import Celery

    from nasui.celery import _install_beat_schedule

    settings.NASUI_HEARTBEAT_SECONDS = 11.0
    settings.NASUI_SAMPLE_SECONDS = 3.0
    settings.NASUI_MAINTAIN_SECONDS = 300.0
    app = Celery("probe", set_as_current=False)
    _install_beat_schedule(app)
    schedule = app.conf.beat_schedule
    assert schedule["worker-heartbeat"]["schedule"] == 11.0
    assert schedule["monitoring-sample"]["schedule"] == 3.0
    assert schedule["monitoring-maintain"]["schedule"] == 300.0


def test_the_maintenance_period_is_read_from_the_environment(tmp_path):
    values = _settings_under({"NASUI_DATA_DIR": str(tmp_path), "NASUI_MAINTAIN_SECONDS": "120"})
    assert values["NASUI_MAINTAIN_SECONDS"] == 120.0


def test_beat_entries_expire_before_their_next_run():
    from nasui.celery import build_beat_schedule

    schedule = build_beat_schedule(heartbeat_seconds=10, sandbox_rescan_seconds=30)
    assert schedule["worker-heartbeat"]["schedule"] == 10
    for entry in schedule.values():
        options = entry["options"]
        assert isinstance(options, dict)
        assert options["expires"] < entry["schedule"]
    assert "sandbox-rescan" not in build_beat_schedule(
        heartbeat_seconds=10, sandbox_rescan_seconds=None
    )


def test_shares_listen_on_this_machine_beside_a_desktop_and_everywhere_on_the_appliance(base_env):
    assert load_config(base_env).share_address == "127.0.0.1"
    appliance = load_config({**base_env, "NASUI_SMB_MODE": "system"})
    assert appliance.share_address == "0.0.0.0"  # noqa: S104
    given = load_config({**base_env, "NASUI_SHARE_ADDRESS": " 192.168.1.10 "})
    assert given.share_address == "192.168.1.10"


def test_a_share_address_that_is_not_an_address_is_refused(base_env):
    with pytest.raises(ConfigError, match="NASUI_SHARE_ADDRESS must be an IP address"):
        load_config({**base_env, "NASUI_SHARE_ADDRESS": "every"})
