#!/usr/bin/env python3
"""Django's command-line utility for nasui."""

import os
import sys


def main() -> None:
    """Run an administrative task."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nasui.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
