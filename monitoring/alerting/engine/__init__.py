"""Plain Python the alerts rely on: sending one mail with smtplib (no Django)."""
