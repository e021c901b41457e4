"""nasui: a ZFS and iSCSI appliance control panel.

Nothing is imported here: the engines import `nasui.lib` without Django or Celery. The Celery
app is bound when Django loads this app (`NasuiConfig.ready`) and found by `celery -A nasui`.
"""
