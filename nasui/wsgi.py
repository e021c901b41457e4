"""WSGI entry point for gunicorn."""

import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
application = get_wsgi_application()
# Import the URLconf (every view, DRF, the schema) now rather than at the first request: with
# gunicorn's --preload the master does it once and its forked workers share the result.
get_resolver().url_patterns  # noqa: B018
