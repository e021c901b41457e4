"""SSH connections as objects: a key pair made here, the other side's host key pinned."""
