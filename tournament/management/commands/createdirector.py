"""python manage.py createdirector USER: let USER create tournaments at the desk.

Creates the account if there is none (asking for its password, or taking --password), and
gives it the permission to create events; the creator of a tournament is its director.
"""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction


class Command(BaseCommand):
    help = "Give USER (created if need be) the permission to create tournaments at the desk."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", help="for a new account (asked for if not given)")
        parser.add_argument("--email", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"].strip()
        if not username:
            raise CommandError("A username is needed.")
        permission = Permission.objects.get(
            content_type__app_label="tournament", codename="add_tournament"
        )
        user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        password = options["password"]
        if user is None and password is None:
            if not sys.stdin.isatty():
                raise CommandError(f"{username} has no account yet: give --password.")
            password = getpass.getpass(f"Password for {username}: ")
            if not password:
                raise CommandError("An empty password is not a password.")
        with transaction.atomic():
            created = user is None
            if user is None:
                user = User.objects.create_user(username, options["email"], password)
            user.user_permissions.add(permission)
        self.stdout.write(
            f"{'Created ' if created else ''}{username} may now create tournaments at /desk/."
        )
