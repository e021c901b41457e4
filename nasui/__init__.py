"""nasui: a ZFS and iSCSI appliance control panel."""

from nasui.celery import app as celery_app

__all__ = ["celery_app"]
