"""Local users and groups: the accounts file shares admit (the panel's own login is separate)."""
