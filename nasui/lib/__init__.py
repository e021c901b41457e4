"""Plain-Python helpers shared by the engines and the apps: no Django, DRF or Celery here."""
