"""manage.py createapikey <owner> [--name NAME]: print a new bearer key once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.keys import apikey_create, webhook_secret_of


class Command(BaseCommand):
    help = "Create an API key for an owner (created if new); the key is printed once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("owner")
        parser.add_argument("--name", default="")
        parser.add_argument(
            "--callback-url", default=None, help="default webhook URL of its orders"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        key, plain = apikey_create(
            owner_name=options["owner"],
            name=options["name"],
            callback_url=options["callback_url"],
        )
        self.stdout.write(plain)
        # On stderr: scripts read the key alone from stdout.
        self.stderr.write(
            f"webhooks of {key.owner} are signed with {webhook_secret_of(key.owner_id)}"
        )
