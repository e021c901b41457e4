"""Settings for the test suite: plain HTTP, a separate data directory, fast password hashing."""

import os
from pathlib import Path

_DATA = Path(__file__).resolve().parent.parent / "var" / "test"
os.environ.setdefault("NASUI_DATA_DIR", str(_DATA))
os.environ.setdefault("NASUI_HTTPS", "0")
os.environ.setdefault("NASUI_ZFS_ENGINE", "sandbox")

from nasui.settings import *  # noqa: E402,F403
from nasui.settings import STATIC_ROOT  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests read static files from the source folders, without collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
