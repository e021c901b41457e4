"""Plain Python for channels: what each kind needs, the request it makes, and sending it."""
