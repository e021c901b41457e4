"""Alerts that reach the owner: persistent alerts raised from sources, and their e-mail delivery.

`selectors` (the alert lists; `registry`, where conditions come from; `sources`, the built-in
ones), `services` (`lifecycle`: raise, refresh, clear, dismiss; `mail`: the SMTP settings and
the test mail; `outbox`: rate-limited delivery), `engine.mail` (plain smtplib), and the pages
and API.
"""
