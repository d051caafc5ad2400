"""Spread's settings, read from the environment.

Every default suits a laptop at the venue: one command, SQLite, DEBUG on.
Production sets SECRET_KEY, DEBUG=False, ALLOWED_HOSTS and DATABASE_URL (the README's
production section lists the rest: HTTPS behind a proxy, HSTS, REDIS_URL).
"""

import os
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.getenv(name, default).strip().lower()
    if value in ("true", "yes", "on", "1"):
        return True
    if value in ("false", "no", "off", "0", ""):
        return False
    raise ValueError(f"{name} must be a boolean, got {value!r}")


def envint(name: str, default: str) -> int:
    return int(os.getenv(name, default))


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


# SQLite (`make hall`): every worker writes to the one file. A transaction takes the write lock
# as it begins, waiting up to 20 s for it, instead of at its first write, where SQLite refuses at
# once ("database is locked", a 500) when another worker's transaction holds it.
SQLITE_OPTIONS = {"transaction_mode": "IMMEDIATE", "timeout": 20}


def database_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """The default database: DATABASE_URL when set, else a SQLite file beside manage.py."""
    database: dict[str, Any]
    if env.get("DATABASE_URL"):
        # Connections kept open between requests (CONN_MAX_AGE seconds, checked before reuse):
        # opening one to PostgreSQL costs more than serving a cached page.
        database = dict(
            dj_database_url.parse(
                env["DATABASE_URL"],
                conn_max_age=int(env.get("CONN_MAX_AGE", "600")),
                conn_health_checks=True,
            )
        )
    else:
        database = {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database["OPTIONS"] = {**SQLITE_OPTIONS, **database.get("OPTIONS", {})}
    return database


def secret_key_from_env(env: Mapping[str, str], debug: bool) -> str:
    """SECRET_KEY; without DEBUG it must be set, and not to the public development key."""
    key = env.get("SECRET_KEY", "")
    if debug:
        return key or DEVELOPMENT_KEY
    if not key or key == DEVELOPMENT_KEY:
        raise ImproperlyConfigured(
            "DEBUG is off and SECRET_KEY is not set (or is the public development key): "
            "refusing to start. Set SECRET_KEY to a long random string, e.g. from "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    return key


def caches_from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """With REDIS_URL, one Redis shared by every worker and server; else each process's memory.

    Either is exact: every cached page or table is keyed by a stamp read from the database.
    Redis is reached through `tournament.core.cache_backend.TolerantCache`: while it cannot be
    reached each worker answers from its own memory (no request fails), and a call waits at
    most a second for it (a hung server, not only a dead one).
    """
    if env.get("REDIS_URL"):
        return {
            "default": {
                "BACKEND": "tournament.core.cache_backend.TolerantCache",
                "LOCATION": env["REDIS_URL"],
                "KEY_PREFIX": env.get("CACHE_KEY_PREFIX", "spread"),
                "OPTIONS": {
                    "BACKEND": "django.core.cache.backends.redis.RedisCache",
                    "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
                },
            }
        }
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 5000},  # a page per player of a big event
        }
    }


DEVELOPMENT_KEY = "django-insecure-spread-development-key-do-not-deploy"
DEBUG = envbool("DEBUG", "True")
SECRET_KEY = secret_key_from_env(os.environ, DEBUG)
# Keys SECRET_KEY replaced, still accepted (signed cookies, the personal links' digests and seals)
# until every link has been issued again under the new one.
SECRET_KEY_FALLBACKS = envlist("SECRET_KEY_FALLBACKS", "")
# Snapshots (tournament/exchange/snapshots.py): the folder (empty: beside the SQLite database) and
# how many of a tournament's are kept.
SNAPSHOT_DIR = os.environ.get("SNAPSHOT_DIR", "")
SNAPSHOT_KEEP = int(os.environ.get("SNAPSHOT_KEEP", "10") or 10)
# A snapshot is written by a thread of its own after the commit, so that no save waits for it.
SNAPSHOT_BACKGROUND = envbool("SNAPSHOT_BACKGROUND", "True")
# A division of this many players or more has its desk reports built by a thread of their own
# and kept in the database, the request answering at once (tournament/reports/prepared.py): the
# scorecards of 500 × 31 take 8.5 s of CPU and of 2,000 × 31 33 s (bench/RESULTS.md), past a
# worker's timeout on a loaded machine.
REPORTS_BUILT_APART_FROM = envint("REPORTS_BUILT_APART_FROM", "250")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

# HTTPS, as the README's production environment sets it. Behind a proxy that ends TLS, the
# proxy's X-Forwarded-Proto header says whether the request came in over HTTPS.
if envbool("SECURE_PROXY_SSL_HEADER", "False"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "False")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer asks over plain HTTP
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", "False")
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", "False")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0")
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "False")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "False")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A NUL byte in the path is a 404 before anything reads it (PostgreSQL refuses it in text).
    "config.middleware.RefuseNulInPath",
    # Static files straight from the worker, before any session or database work.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A personal link's oversized urlencoded form, refused before anything reads it.
    "tournament.core.bounds.PhoneFormLimit",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the visitor's choice (the language cookie), else the browser's
    # Accept-Language; a public page of a tournament with a default language then applies it
    # where the visitor chose none (tournament/core/language.py).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Every script and style comes from the site itself: no inline code, no other origin.
_CSP = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        # The player's phone page: its service worker and web app manifest, from the site alone.
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Enforced everywhere: no template carries inline script or style (a test checks them all).
# CSP_ENFORCE=False makes it report-only, for trying out a template change.
if envbool("CSP_ENFORCE", "True"):
    CONTENT_SECURITY_POLICY = _CSP
else:
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {"default": database_from_env(os.environ)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes: after AXES_FAILURE_LIMIT failed logins for one username from one address, further
# attempts for that username from that address are refused for AXES_COOLOFF_TIME and the lockout
# page says so. The username and the address together: a stranger guessing a director's password
# locks out no one but themselves, and the director still signs in from anywhere else.
AUTHENTICATION_BACKENDS = [
    "config.auth.LoginThrottle",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "5")
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", "15"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Overall limits besides (config.auth.overall_lockout), within the same cool-off: an account's
# failures from any addresses (guesses spread over many), and an address's for any usernames
# (one address trying many accounts). Neither refuses an address the account signed in from.
AXES_USERNAME_FAILURE_LIMIT = envint("AXES_USERNAME_FAILURE_LIMIT", "30")
AXES_ADDRESS_FAILURE_LIMIT = envint("AXES_ADDRESS_FAILURE_LIMIT", "20")
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
# The address a login comes from (config.auth.client_address): with PROXY_COUNT proxies in front
# of the server, each adding the address it was reached from to X-Forwarded-For, the client is
# the PROXY_COUNT-th address from the end of that header; 0 (no proxy trusted) reads the
# connection's own address and never the header, which anyone can send.
PROXY_COUNT = envint("PROXY_COUNT", "0")
if PROXY_COUNT < 0:
    raise ValueError(f"PROXY_COUNT must be 0 or more, got {PROXY_COUNT}")
AXES_CLIENT_IP_CALLABLE = "config.auth.client_address"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "desk"  # a director signs in to work at the desk
LOGOUT_REDIRECT_URL = "home"

# English is the default; the others are the languages of the rules Spread implements.
# Catalogs: locale/<code>/LC_MESSAGES/django.po (and the compiled .mo, committed), `make messages`.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("id", "Bahasa Indonesia"),
    ("ko", "한국어"),
    ("fi", "Suomi"),
    ("fa", "فارسی"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # the switcher's choice is remembered for a year
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `make serve` collects them (STATIC_ROOT, default staticfiles/ beside manage.py).
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Without DEBUG, static files are collected at start (`make serve`) into hashed, compressed
    # files that whitenoise serves with far-future cache headers.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# With DEBUG (`make run`, the tests) whitenoise finds files where they are, uncollected.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

CACHES = caches_from_env(os.environ)

# Errors go to stderr with their traceback, whatever DEBUG says: the operator's log is the
# process's output (gunicorn, systemd, a container).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        }
    },
    "loggers": {
        "django": {"handlers": ["stderr"], "level": os.getenv("LOG_LEVEL", "ERROR")},
        "tournament": {"handlers": ["stderr"], "level": os.getenv("LOG_LEVEL", "ERROR")},
        # The shared cache's outage, once when it starts (an error) and once when it ends.
        "tournament.cache": {
            "handlers": ["stderr"],
            "level": os.getenv("LOG_LEVEL", "WARNING"),
            "propagate": False,
        },
        "axes": {"handlers": ["stderr"], "level": "WARNING"},
    },
}
