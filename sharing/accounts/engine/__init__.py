"""Local users and groups as the file servers see them (plain Python, no Django)."""
