"""WSGI entry point for gunicorn."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
application = get_wsgi_application()
# Import the URLconf (every view, DRF, the schema) now rather than at the first request: with
# gunicorn's --preload the master does it once and its forked workers share the result.
get_resolver().url_patterns  # noqa: B018
# What was imported lives as long as the process: kept out of the cyclic collector's sight, its
# pages stay shared between gunicorn's master and the workers it forks (copy-on-write).
gc.freeze()
