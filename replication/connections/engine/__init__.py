"""Plain Python for SSH: key pairs, host keys pinned and checked, commands run on the other side."""
