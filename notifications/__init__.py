"""Calling a player back: the notification inbox (an outbox written with the change that causes
it), preferences, deadline reminders and the delivery channels (docs/notifications.md)."""
