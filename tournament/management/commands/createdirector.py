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
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from tournament.management.base import SpreadCommand


class Command(SpreadCommand):
    help = "Give USER (created if need be) the permission to create tournaments at the desk."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", help="for a new account (asked for if not given)")
        parser.add_argument("--email", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        username = options["username"].strip()
        if not username:
            raise CommandError("A username is needed: createdirector USERNAME.")
        shown = username  # as typed: isolation marks would be stray characters in a terminal
        permission = Permission.objects.get(
            content_type__app_label="tournament", codename="add_tournament"
        )
        user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        password = options["password"]
        if user is None and password is None:
            if not sys.stdin.isatty():
                raise CommandError(
                    f"There is no account {shown} yet: give --password to create it."
                )
            password = getpass.getpass(f"Password for the new account {shown}: ")
        if user is None and not password:
            raise CommandError(f"The password is empty: the account {shown} is not created.")
        with transaction.atomic():
            created = user is None
            if user is None:
                user = User.objects.create_user(username, options["email"], password)
            already = not created and user.has_perm("tournament.add_tournament")
            user.user_permissions.add(permission)
        if created:
            message = f"Account {shown} created: it may now create tournaments at /desk/."
        elif already:
            message = f"{shown} could already create tournaments at /desk/: nothing changed."
        else:
            message = f"{shown} may now create tournaments at /desk/."
        self.stdout.write(message)
