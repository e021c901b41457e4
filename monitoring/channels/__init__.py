"""Notification channels: alert events sent to phones, chats and webhooks besides e-mail."""
