"""A personal link's token as the database keeps it: never as it is.

A link is looked up by `digest(token)`, an HMAC-SHA256 of the token under a key derived from
SECRET_KEY: a copy of the database gives away no link, and one cannot be worked back from its
digest. The desk reprints slips and lists each player's link, so the token is also kept sealed
(`seal`: Fernet, AES-128-CBC with an HMAC-SHA256, under another key derived from SECRET_KEY),
which only a server with the same secret key opens (`unseal`). Both keys are derived with
HKDF-SHA256 from SECRET_KEY, each for its own use; the keys of SECRET_KEY_FALLBACKS are tried
too, so a rotated key keeps every link working until the fallback is dropped.

A database restored on (or copied to) a server with another secret key can neither find a link
by its token nor open one: every link must then be issued again (the `playerlinks --new`
command, or the desk's "New link" beside each player on the claims page).
"""

from __future__ import annotations

import base64
import functools
import hmac
from hashlib import sha256

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

_LOOKUP = b"spread: a personal link's lookup digest"
_SEAL = b"spread: a personal link's sealed token"


@functools.lru_cache(maxsize=8)
def _key(secret: str, purpose: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(
        secret.encode("utf-8")
    )


def _secrets() -> list[str]:
    return [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]


def digest(token: str, secret: str | None = None) -> str:
    """The token's lookup digest under the secret key (or `secret`): 64 hex digits."""
    key = _key(secret or settings.SECRET_KEY, _LOOKUP)
    return hmac.new(key, token.encode("utf-8", "surrogatepass"), sha256).hexdigest()


def digests(token: str) -> list[str]:
    """The token's digests under the secret key and each fallback key, the current first."""
    return [digest(token, secret) for secret in _secrets()]


def matches(stored: str, token: str) -> bool:
    """Whether a stored digest is the token's, compared in constant time."""
    return any(hmac.compare_digest(stored, d) for d in digests(token))


def _fernet(secret: str) -> Fernet:
    return Fernet(base64.urlsafe_b64encode(_key(secret, _SEAL)))


def seal(token: str) -> str:
    """The token encrypted under the secret key, as text."""
    return _fernet(settings.SECRET_KEY).encrypt(token.encode("utf-8")).decode("ascii")


def unseal(sealed: str) -> str | None:
    """The token a `seal` made, under the secret key or a fallback; None if none opens it (a
    database from a server with another secret key)."""
    if not sealed:
        return None
    try:
        opened = MultiFernet([_fernet(s) for s in _secrets()]).decrypt(sealed.encode("ascii"))
    except (InvalidToken, ValueError):
        return None
    return opened.decode("utf-8")
