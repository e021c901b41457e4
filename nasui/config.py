"""Panel configuration read from NASUI_* environment variables (pure: no Django imports)."""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import environ

ENGINE_CHOICES = ("auto", "cli", "sandbox")
ISCSI_ENGINE_CHOICES = ("auto", "lio", "tgt")
# wrapped: a private smbd with private accounts (nss/uid_wrapper), never the host's; system:
# the appliance's own smbd and accounts.
SMB_MODE_CHOICES = ("wrapped", "system")
# none: exports are kept but not served (build machines have no kernel NFS server, and the
# host's /etc/exports.d is not the panel's); kernel: nfs-kernel-server (appliance, VM lane).
NFS_CHOICES = ("none", "kernel")
# none: the panel is served as it is (`make run`: plain HTTP); nginx: the appliance's TLS proxy,
# reloaded when the web certificate changes.
WEB_SERVER_CHOICES = ("none", "nginx")
# none: the time zone and NTP servers are kept, not applied (`make run` leaves the host's clock
# alone); systemd: timedatectl sets the zone, systemd-timesyncd follows the servers (appliance).
CLOCK_CHOICES = ("none", "systemd")
# none: the network settings are kept, not applied (`make run` leaves the host's network alone);
# networkd: systemd-networkd files and hostnamectl (appliance).
NETWORK_CHOICES = ("none", "networkd")
# none: the panel does not update the machine it runs on (`make run`); ab: the appliance's two
# root slots, GRUB's environment block on the ESP (System -> Updates).
UPDATES_CHOICES = ("none", "ab")
# What the UPS shutdown does last: record (write $NASUI_DATA_DIR/ups/poweroff and log it: `make
# run` and the tests never power the host off) or systemd (`systemctl poweroff`: the appliance).
UPS_POWEROFF_CHOICES = ("record", "systemd")
DEFAULT_DATA_DIR = Path(__file__).resolve().parent.parent / "var"


class ConfigError(ValueError):
    """A NASUI_* variable holds a value the panel cannot use."""


@dataclass(frozen=True)
class Config:
    """Everything the panel reads from its environment, already validated."""

    debug: bool
    https: bool
    data_dir: Path
    secret_key: str
    allowed_hosts: list[str]
    csrf_trusted_origins: list[str]
    database_url: str
    redis_url: str
    zfs_engine: str
    iscsi_engine: str
    smb_mode: str
    smb_port: int
    nfs: str
    web_server: str
    clock: str
    network: str
    updates: str
    sandbox_dir: Path
    sandbox_disks: int
    sandbox_disk_gib: int
    login_failure_limit: int
    login_cooloff_minutes: int
    heartbeat_seconds: float
    sandbox_rescan_seconds: float
    sample_seconds: float
    maintain_seconds: float
    ddt_alert_share: float
    snapshot_check_seconds: float = 30.0  # how often periodic snapshot tasks are checked
    alert_check_seconds: float = 60.0  # how often alerts are raised, cleared and mailed
    # event streams (/api/events/) one web process holds open: each holds a thread
    event_streams: int = 6
    smart_refresh_seconds: float = 300.0  # how often every disk's SMART is read
    # Where a new share listens unless told otherwise: the appliance (system accounts) on every
    # address, a panel run by `make run` (wrapped accounts) on this machine only, as its smbd.
    share_address: str = "127.0.0.1"
    # What pairing with another nasui touches here: the SSH login it offers (the panel's own
    # user, root on the appliance), that user's authorized_keys and the SSH server's host keys.
    ssh_port: int = 22
    authorized_keys: Path = Path("~/.ssh/authorized_keys")
    ssh_host_keys: str = "/etc/ssh/ssh_host_*_key.pub"
    # The release: the appliance's /opt/nasui/VERSION (beside the app), else the project's.
    version: str = "0.1.0"
    # The panel's upsd (NUT) listens on this port; the UPS shutdown's last step.
    ups_port: int = 3493
    ups_poweroff: str = "record"


def _env(values: Mapping[str, str]) -> environ.Env:
    """An environ.Env reading from the given mapping instead of os.environ."""
    env = environ.Env()
    env.ENVIRON = dict(values)
    return env


def _choice(env: environ.Env, name: str, choices: tuple[str, ...]) -> str:
    """Read a variable that must be one of a few words."""
    value = str(env.str(name, default=choices[0])).strip().lower()
    if value not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return value


def _default_share_address(smb_mode: str) -> str:
    """Every IPv4 address on the appliance; loopback where the panel runs beside a desktop."""
    return "0.0.0.0" if smb_mode == "system" else "127.0.0.1"  # noqa: S104 - the appliance's


def _address(env: environ.Env, name: str, default: str) -> str:
    """Read a variable that must be one IP address."""
    value = str(env.str(name, default=default)).strip()
    try:
        return str(ipaddress.ip_address(value))
    except ValueError as exc:
        raise ConfigError(f"{name} must be an IP address; got {value!r}") from exc


def _number(env: environ.Env, name: str, default: float, cast: type[float], what: str) -> float:
    """Read a variable through `cast` (int or float); `what` names the number it must be."""
    try:
        return cast(env.get_value(name, cast=cast, default=default))
    except ValueError as exc:
        raise ConfigError(f"{name} must be {what}; got {env.str(name)!r}") from exc


def _positive_int(env: environ.Env, name: str, default: int) -> int:
    """Read a variable that must be a whole number above zero."""
    value = int(_number(env, name, default, int, "a whole number"))
    if value < 1:
        raise ConfigError(f"{name} must be at least 1; got {value}")
    return value


def _positive_float(env: environ.Env, name: str, default: float) -> float:
    """Read a variable that must be a number of seconds above zero (fractions allowed)."""
    value = _number(env, name, default, float, "a number")
    if not value > 0:
        raise ConfigError(f"{name} must be above 0; got {value}")
    return value


def _share(env: environ.Env, name: str, default: float) -> float:
    """Read a variable that must be a fraction above 0 and at most 1."""
    value = _positive_float(env, name, default)
    if value > 1:
        raise ConfigError(f"{name} must be a fraction between 0 and 1; got {value}")
    return value


def load_secret_key(data_dir: Path, given: str) -> str:
    """Use the given key, else the one kept in the data directory, else make and keep one."""
    if given:
        return given
    path = data_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # Written with owner-only permissions: the key signs sessions.
    tmp = path.with_suffix(".tmp")
    tmp.touch(mode=0o600)
    tmp.write_text(key)
    tmp.replace(path)
    return key


def load_config(values: Mapping[str, str]) -> Config:
    """Parse and validate the NASUI_* variables in `values`."""
    env = _env(values)
    debug = env.bool("NASUI_DEBUG", default=False)
    data_dir = Path(env.str("NASUI_DATA_DIR", default=str(DEFAULT_DATA_DIR))).expanduser()
    if not data_dir.is_absolute():
        raise ConfigError(f"NASUI_DATA_DIR must be an absolute path; got {str(data_dir)!r}")
    database_url = env.str("NASUI_DATABASE_URL", default=f"sqlite:///{data_dir / 'nasui.sqlite3'}")
    if not database_url.startswith(("sqlite://", "postgres://", "postgresql://")):
        raise ConfigError("NASUI_DATABASE_URL must be a sqlite:// or postgres:// URL")
    redis_url = env.str("NASUI_REDIS_URL", default="redis://127.0.0.1:6379/0")
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError("NASUI_REDIS_URL must be a redis://, rediss:// or unix:// URL")
    smb_mode = _choice(env, "NASUI_SMB_MODE", SMB_MODE_CHOICES)
    return Config(
        debug=debug,
        https=env.bool("NASUI_HTTPS", default=not debug),
        data_dir=data_dir,
        secret_key=load_secret_key(data_dir, env.str("NASUI_SECRET_KEY", default="")),
        allowed_hosts=env.list("NASUI_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"]),
        csrf_trusted_origins=env.list("NASUI_CSRF_TRUSTED_ORIGINS", default=[]),
        database_url=database_url,
        redis_url=redis_url,
        zfs_engine=_choice(env, "NASUI_ZFS_ENGINE", ENGINE_CHOICES),
        iscsi_engine=_choice(env, "NASUI_ISCSI_ENGINE", ISCSI_ENGINE_CHOICES),
        smb_mode=smb_mode,
        smb_port=_positive_int(env, "NASUI_SMB_PORT", 445 if smb_mode == "system" else 4450),
        share_address=_address(env, "NASUI_SHARE_ADDRESS", _default_share_address(smb_mode)),
        nfs=_choice(env, "NASUI_NFS", NFS_CHOICES),
        web_server=_choice(env, "NASUI_WEB_SERVER", WEB_SERVER_CHOICES),
        clock=_choice(env, "NASUI_CLOCK", CLOCK_CHOICES),
        network=_choice(env, "NASUI_NETWORK", NETWORK_CHOICES),
        updates=_choice(env, "NASUI_UPDATES", UPDATES_CHOICES),
        sandbox_dir=Path(env.str("NASUI_SANDBOX_DIR", default=str(data_dir / "sandbox"))),
        sandbox_disks=_positive_int(env, "NASUI_SANDBOX_DISKS", 6),
        sandbox_disk_gib=_positive_int(env, "NASUI_SANDBOX_DISK_GIB", 8),
        login_failure_limit=_positive_int(env, "NASUI_LOGIN_FAILURE_LIMIT", 5),
        login_cooloff_minutes=_positive_int(env, "NASUI_LOGIN_COOLOFF_MINUTES", 15),
        heartbeat_seconds=float(_positive_int(env, "NASUI_HEARTBEAT_SECONDS", 10)),
        sandbox_rescan_seconds=float(_positive_int(env, "NASUI_SANDBOX_RESCAN_SECONDS", 30)),
        sample_seconds=_positive_float(env, "NASUI_SAMPLE_SECONDS", 2.0),
        maintain_seconds=_positive_float(env, "NASUI_MAINTAIN_SECONDS", 60.0),
        snapshot_check_seconds=_positive_float(env, "NASUI_SNAPSHOT_CHECK_SECONDS", 30.0),
        alert_check_seconds=_positive_float(env, "NASUI_ALERT_CHECK_SECONDS", 60.0),
        event_streams=_positive_int(env, "NASUI_EVENT_STREAMS", 6),
        smart_refresh_seconds=_positive_float(env, "NASUI_SMART_REFRESH_SECONDS", 300.0),
        ddt_alert_share=_share(env, "NASUI_DDT_ALERT_SHARE", 0.25),
        ssh_port=_positive_int(env, "NASUI_SSH_PORT", 22),
        authorized_keys=Path(
            env.str("NASUI_AUTHORIZED_KEYS", default="~/.ssh/authorized_keys")
        ).expanduser(),
        ssh_host_keys=str(env.str("NASUI_SSH_HOST_KEYS", default="/etc/ssh/ssh_host_*_key.pub")),
        version=str(env.str("NASUI_VERSION", default=_release())),
        ups_port=_positive_int(env, "NASUI_UPS_PORT", 3493),
        ups_poweroff=_choice(env, "NASUI_UPS_POWEROFF", UPS_POWEROFF_CHOICES),
    )


VERSION_FILE = Path(__file__).resolve().parents[2] / "VERSION"  # the appliance's /opt/nasui


def _release() -> str:
    """The release the appliance's build wrote beside the app, or the project's version."""
    try:
        return VERSION_FILE.read_text().strip() or "0.1.0"
    except OSError:
        return "0.1.0"


def resolve_zfs_engine(choice: str, dev_zfs: Path = Path("/dev/zfs")) -> str:
    """Turn auto into cli when the OpenZFS module is loaded, else sandbox."""
    if choice != "auto":
        return choice
    return "cli" if dev_zfs.exists() else "sandbox"


def celery_url(redis_url: str) -> str:
    """Kombu spells a Redis unix socket redis+socket://; everything else passes through."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url
