"""Alerts that reach the owner: persistent alerts raised from sources, and their e-mail delivery.

Modules: `registry` (where conditions come from), `sources` (the built-in ones), `lifecycle`
(raise, refresh, clear, dismiss), `mail` (plain smtplib), `outbox` (rate-limited delivery),
`mail_settings` (the SMTP settings and the test mail), `selectors`, and the pages and API.
"""
