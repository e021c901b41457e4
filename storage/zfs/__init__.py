"""ZFS engines: plain Python, no Django. The active one comes from `storage.engine.get_engine`."""
