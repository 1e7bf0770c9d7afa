"""``manage.py vapid_key``: a new VAPID key pair for Web Push. Set the private key as
``NOTIFICATIONS_VAPID_PRIVATE_KEY``; browsers subscribe with the public one (the server gives it
at ``GET /api/push/vapid-key/``). Without it the key is derived from ``SECRET_KEY``."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand

from notifications.channels.web_push import b64url


class Command(BaseCommand):
    help = "Print a new VAPID key pair (base64url): the private key, then the public key."

    def handle(self, *args: Any, **options: Any) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"NOTIFICATIONS_VAPID_PRIVATE_KEY={b64url(private)}")
        self.stdout.write(f"# public key: {b64url(public)}")
