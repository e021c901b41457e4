"""Django settings for nasui, driven by NASUI_* environment variables (see nasui/config.py)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import environ
from redis.backoff import NoBackoff
from redis.retry import Retry

from nasui.config import celery_url, load_config, resolve_zfs_engine

BASE_DIR = Path(__file__).resolve().parent.parent
CONFIG = load_config(os.environ)

DEBUG = CONFIG.debug
SECRET_KEY = CONFIG.secret_key
ALLOWED_HOSTS = CONFIG.allowed_hosts
CSRF_TRUSTED_ORIGINS = CONFIG.csrf_trusted_origins
DATA_DIR = CONFIG.data_dir
NASUI_ZFS_ENGINE = resolve_zfs_engine(CONFIG.zfs_engine)
NASUI_ISCSI_ENGINE = CONFIG.iscsi_engine
NASUI_SMB_MODE = CONFIG.smb_mode
NASUI_SMB_PORT = CONFIG.smb_port
NASUI_SHARE_ADDRESS = CONFIG.share_address
NASUI_NFS = CONFIG.nfs
NASUI_WEB_SERVER = CONFIG.web_server
NASUI_CLOCK = CONFIG.clock
NASUI_NETWORK = CONFIG.network
NASUI_UPDATES = CONFIG.updates
# Where the appliance keeps what its updates need (NASUI_UPDATES=ab): GRUB's environment block
# on the ESP, the root slots' partitions, the keys updates are signed with.
NASUI_UPDATE_BOOT_ENV = Path("/boot/efi/grub/grubenv")
NASUI_UPDATE_SLOTS = Path("/dev/disk/by-partlabel")
NASUI_UPDATE_KEYS = Path("/opt/nasui/update-keys")
NASUI_SANDBOX_DIR = CONFIG.sandbox_dir
NASUI_SANDBOX_DISKS = CONFIG.sandbox_disks
NASUI_SANDBOX_DISK_GIB = CONFIG.sandbox_disk_gib
NASUI_SSH_PORT = CONFIG.ssh_port
NASUI_AUTHORIZED_KEYS = CONFIG.authorized_keys
NASUI_SSH_HOST_KEYS = CONFIG.ssh_host_keys
NASUI_VERSION = CONFIG.version
NASUI_HEARTBEAT_SECONDS = CONFIG.heartbeat_seconds
NASUI_SANDBOX_RESCAN_SECONDS = CONFIG.sandbox_rescan_seconds
NASUI_SAMPLE_SECONDS = CONFIG.sample_seconds
NASUI_MAINTAIN_SECONDS = CONFIG.maintain_seconds
NASUI_SNAPSHOT_CHECK_SECONDS = CONFIG.snapshot_check_seconds
NASUI_ALERT_CHECK_SECONDS = CONFIG.alert_check_seconds
NASUI_EVENT_STREAMS = CONFIG.event_streams
NASUI_SMART_REFRESH_SECONDS = CONFIG.smart_refresh_seconds
NASUI_DDT_ALERT_SHARE = CONFIG.ddt_alert_share
NASUI_UPS_PORT = CONFIG.ups_port
NASUI_UPS_POWEROFF = CONFIG.ups_poweroff

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "template_partials",
    "django_htmx",
    "django_filters",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "nasui",
    "storage",
    "sharing",
    "monitoring",
    "advisor",
    "replication",
    "system",
    "access",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "nasui.headers.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every page needs a login unless its view is marked login_not_required.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # ...and a panel user, for what their role allows (the others are refused).
    # Every change asked (pages and API), recorded once answered, refusals included.
    "access.audit.middleware.AuditMiddleware",
    # When each signed-in session was last used (Settings lists them; they can be ended).
    "access.sessions.middleware.SessionSeenMiddleware",
    "nasui.access.RolesMiddleware",
    # ...who has chosen their own password (the console's first password opens nothing else).
    "nasui.access.PasswordChangeDueMiddleware",
    # ...and has set up two-factor sign-in where an administrator requires it.
    "nasui.access.TwoFactorSetupDueMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Times shown in the box's zone (System -> Time), which may change while the panel runs.
    "nasui.timezones.BoxZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "nasui.htmx.VaryOnHtmxMiddleware",
    "storage.middleware.ZfsErrorPageMiddleware",
    # Last, so that it sees failed logins after authentication ran.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "nasui.urls"
WSGI_APPLICATION = "nasui.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "nasui.context_processors.panel",
            ],
        },
    },
]

DATABASES = {"default": environ.Env.db_url_config(CONFIG.database_url)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the web, the worker and beat read while one of them writes.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # A file, not memory, so that a Celery worker started by the tests sees the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}
# Each thread keeps its connection: opening one (and SQLite's PRAGMAs) cost ~2-4 ms of CPU per
# API request, about half of what a small list request costs (bench/api_load.py).
DATABASES["default"]["CONN_MAX_AGE"] = 600
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis answers in well under a millisecond; one that does not answer within this is down or
# hung, and a page (or /health/) says so at once instead of waiting: redis-py would otherwise
# retry three times with back-off, 26 s for a hung Redis at a 2 s timeout.
REDIS_TIMEOUT_SECONDS = 0.8
CACHES = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": CONFIG.redis_url,
        "OPTIONS": {
            "SOCKET_CONNECT_TIMEOUT": REDIS_TIMEOUT_SECONDS,
            "SOCKET_TIMEOUT": REDIS_TIMEOUT_SECONDS,
            "CONNECTION_POOL_KWARGS": {"retry": Retry(NoBackoff(), 0)},
        },
        "KEY_PREFIX": "nasui",
    }
}

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# Login throttling (django-axes): lock a user name from one address after repeated failures.
AXES_FAILURE_LIMIT = CONFIG.login_failure_limit
AXES_COOLOFF_TIME = timedelta(minutes=CONFIG.login_cooloff_minutes)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_LOCKOUT_CALLABLE = "nasui.lockout.lockout_response"  # JSON for scripts on /api/
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TZ", "UTC")
# One way of writing dates and times on every page: 2026-11-26 14:05 (nasui/formats/).
FORMAT_MODULE_PATH = "nasui.formats"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Security headers and cookies. Cookies are marked Secure only when served over HTTPS
# (the appliance's TLS proxy); `make run` on http://127.0.0.1 sets NASUI_HTTPS=0.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = CONFIG.https
CSRF_COOKIE_SECURE = CONFIG.https
if CONFIG.https:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31536000
    SECURE_SSL_REDIRECT = True
    # The health check is polled by local supervisors over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/$"]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "nasui.auth.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Panel users, for what their role (or their token) allows: as the pages.
    "DEFAULT_PERMISSION_CLASSES": ["nasui.api.permissions.RoleAllows"],
    "DEFAULT_PARSER_CLASSES": [
        "nasui.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "nasui.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "nasui.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "nasui API",
    "DESCRIPTION": "Pools, datasets, zvols, iSCSI sharing, monitoring and jobs of a nasui NAS.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for a choice set several fields share (the same units, a refusal's choices).
    "ENUM_NAME_OVERRIDES": {
        "LifetimeUnitEnum": "storage.models.SnapshotTask.LifetimeUnit",
        "ReplicationChoiceEnum": "replication.models.ReplicationTask.Choice",
    },
    "SERVE_PERMISSIONS": ["nasui.api.permissions.RoleAllows"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "nasui.api.schema.add_error_responses",
        "nasui.api.links.add_links",
    ],
}

CELERY_BROKER_URL = celery_url(CONFIG.redis_url)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "INFO" if not DEBUG else "DEBUG"},
    "loggers": {"axes": {"level": "WARNING"}},
}
