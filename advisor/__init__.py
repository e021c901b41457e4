"""The advisor: what compression and dedup would do to the user's own data, before and after."""
