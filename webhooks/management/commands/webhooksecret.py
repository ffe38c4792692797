"""manage.py webhooksecret [owner]: the secret webhooks are signed with."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from webhooks.signing import secret_for


class Command(BaseCommand):
    help = (
        "Print the whsec_ secret that signs the webhooks of an owner's orders, or "
        "without an owner the instance's (authentication off)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("owner", nargs="?")

    def handle(self, *args: Any, **options: Any) -> None:
        owner_id = None
        if options["owner"]:
            owner = get_user_model().objects.filter(username=options["owner"]).first()
            if owner is None:
                raise CommandError(f"no owner {options['owner']!r}")
            owner_id = owner.pk
        self.stdout.write(secret_for(owner_id))
