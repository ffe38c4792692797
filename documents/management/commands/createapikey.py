"""manage.py createapikey <owner> [--name NAME]: print a new bearer key once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from documents.keys import apikey_create


class Command(BaseCommand):
    help = "Create an API key for an owner (created if new); the key is printed once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("owner")
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        _, plain = apikey_create(owner_name=options["owner"], name=options["name"])
        self.stdout.write(plain)
