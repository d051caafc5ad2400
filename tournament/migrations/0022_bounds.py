"""Personal links' tokens kept as a keyed digest (for lookup) and sealed (for reprinting), no
longer as they are; and each link's count of writes in its current minute.

The digest and the seal are made here as `tournament/core/tokens.py` makes them, written out so that
this migration keeps doing what it did whatever that module becomes. Going back opens each
sealed token again; a link whose seal this server's secret key cannot open (a database from
another server) gets a new random token, revoked.
"""

import base64
import hmac
import secrets
from hashlib import sha256

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def _key(purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(
        settings.SECRET_KEY.encode("utf-8")
    )


def _fernet() -> Fernet:
    return Fernet(base64.urlsafe_b64encode(_key(b"spread: a personal link's sealed token")))


def hash_and_seal(apps, schema_editor):
    PlayerLink = apps.get_model("tournament", "PlayerLink")
    lookup = _key(b"spread: a personal link's lookup digest")
    fernet = _fernet()
    for link in PlayerLink.objects.using(schema_editor.connection.alias).only("pk", "token"):
        token = link.token.encode("utf-8")
        link.token_hash = hmac.new(lookup, token, sha256).hexdigest()
        link.token_sealed = fernet.encrypt(token).decode("ascii")
        link.save(update_fields=["token_hash", "token_sealed"])


def unseal(apps, schema_editor):
    PlayerLink = apps.get_model("tournament", "PlayerLink")
    fernet = _fernet()
    for link in PlayerLink.objects.using(schema_editor.connection.alias):
        try:
            link.token = fernet.decrypt(link.token_sealed.encode("ascii")).decode("utf-8")
        except (InvalidToken, ValueError):
            link.token = secrets.token_urlsafe(24)
            link.revoked = link.revoked or timezone.now()
        link.save(update_fields=["token", "revoked"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0021_latin"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerlink",
            name="token_hash",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="playerlink",
            name="token_sealed",
            field=models.TextField(default=""),
        ),
        migrations.AddField(
            model_name="playerlink",
            name="writes_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="playerlink",
            name="writes",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="playerlink",
            name="token",
            field=models.CharField(max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(hash_and_seal, unseal),
        migrations.RemoveField(model_name="playerlink", name="token"),
        migrations.AlterField(
            model_name="playerlink",
            name="token_hash",
            field=models.CharField(max_length=64, unique=True),
        ),
    ]
