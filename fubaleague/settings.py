"""Django settings for FUBA League.

Everything that differs between a laptop, CI and production comes from the
environment (see README "Configuration"). With nothing set, the service runs on
an embedded default: a SQLite file under var/, a local-memory cache and Celery
tasks executed eagerly in-process, so `make run` needs no external service.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from fubaleague.static_cache import immutable_file
from kernel.env import env_bool, env_float, env_int, env_list, env_rate, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Environment variable SECRET_KEY is required when DEBUG is off "
            "(set DEBUG=1 for local development)."
        )
    # Only reachable with DEBUG on: a fixed development key is harmless there.
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105

# Outside debug the hosts must be named explicitly; a wildcard would accept any Host header.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Environment variable ALLOWED_HOSTS is required when DEBUG is off.")
if not DEBUG and "*" in ALLOWED_HOSTS:
    raise ImproperlyConfigured("Environment variable ALLOWED_HOSTS must not contain '*' when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "tournaments",
    "matches",
    "league",
    "ratings",
    "chances",
    "scoring",
    "notifications",
    "fubaleague.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # 413 for a body over REQUEST_MAX_BYTES before anything reads it (kernel/request_size.py).
    "kernel.request_size.RequestSizeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Sign-in limits per address and per username (kernel/login_limits.py).
    "kernel.login_limits.LoginLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The pages' mapping of the domain error to 404/403/409/... (kernel/page_errors.py).
    "kernel.page_errors.ApplicationErrorMiddleware",
    # A strict Content-Security-Policy on every page (kernel/csp.py).
    "kernel.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "fubaleague.urls"
WSGI_APPLICATION = "fubaleague.wsgi.application"
ASGI_APPLICATION = "fubaleague.asgi.application"

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
                "fubaleague.console.context.console",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------
DATABASE_URL = env_url("DATABASE_URL", schemes=("postgres", "postgresql", "sqlite"))
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0))
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "fubaleague.sqlite3"),
        }
    }
    # SQLite cannot create Suspension's suspension_unique (NULLs not distinct). The embedded
    # default is one process in which the discipline service is the only writer of suspensions;
    # PostgreSQL, the production database, enforces the constraint.
    SILENCED_SYSTEM_CHECKS = ["models.W047"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -----------------------------------------------------------
REDIS_URL = env_url("REDIS_URL", schemes=("redis", "rediss"))
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis backend, failing open when Redis is away (kernel/cache.py).
            "BACKEND": "kernel.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "fubaleague"),
            # A Redis that hangs must not hang the requests: they go on without it (fail open).
            # A healthy Redis answers in well under a millisecond; a request that meets a hung one
            # waits this once for the cache (then its breaker opens) and as long for the broker.
            "OPTIONS": {
                "socket_connect_timeout": env_float("REDIS_SOCKET_TIMEOUT", 0.25),
                "socket_timeout": env_float("REDIS_SOCKET_TIMEOUT", 0.25),
            },
        }
    }
    # Signed-in requests (the scorer posts one per tap) read their session from Redis; every
    # change is still written to the database, so a Redis restart signs nobody out.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The broker defaults to the same Redis as the cache; CELERY_BROKER_URL can split them.
CELERY_BROKER_URL = (
    env_url("CELERY_BROKER_URL", schemes=("redis", "rediss", "amqp", "pyamqp"))
    or REDIS_URL
    or "memory://localhost/"
)
# Without a broker the embedded default runs tasks in-process, so a first run needs no worker.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# A committed change renders the public pages' fragments it made stale in a task, so readers find
# them kept (fubaleague/web/refresh.py). Off by default without a broker: run in-process, the
# rendering (seconds for a rated result) would fall on the organiser's own request.
PAGES_REFRESH = env_bool("PAGES_REFRESH", default=not CELERY_TASK_ALWAYS_EAGER)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# acks_late + reject_on_worker_lost: a task whose worker dies mid-run is redelivered;
# the tasks themselves are idempotent (they claim work with a conditional UPDATE).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 60, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 90, minimum=1)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis redelivers the unacknowledged task of a dead worker after this many seconds. A live
    # task running longer would be redelivered too, which the tasks' claims make harmless.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1),
    # How often a worker looks for such tasks (seconds, and every Nth look scans Redis).
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10, minimum=1),
    "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10, minimum=1),
    # A worker killed while holding the restore lock blocks redelivery until the lock expires.
    "unacked_mutex_expire": env_int("CELERY_UNACKED_MUTEX_EXPIRE", 300, minimum=1),
    # Before every broker key (queues, bindings, unacked tasks): a benchmark run names its own
    # keys so it can delete them at the end (bench/isolation.py). None by default.
    "global_keyprefix": env_str("CELERY_KEY_PREFIX", ""),
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost the broker keeps trying to reconnect, however long the outage (Celery's
# default gives up after 100 attempts and the worker exits).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A forfeit claim older than this is taken over: longer than the hard limit, so its holder is gone.
FORFEIT_CLAIM_TIMEOUT = env_int("FORFEIT_CLAIM_TIMEOUT", CELERY_TASK_TIME_LIMIT + 30, minimum=1)
# The same for the claim of a turn-log validation; and a submission still waiting for its
# validation this long after its last change is queued again by the beat sweep (docs/reliability.md).
VALIDATION_CLAIM_TIMEOUT = env_int("VALIDATION_CLAIM_TIMEOUT", CELERY_TASK_TIME_LIMIT + 30, minimum=1)
VALIDATION_REQUEUE_AFTER = env_int("VALIDATION_REQUEUE_AFTER", 120, minimum=1)
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = "UTC"

# --- Request and storage limits (docs/reliability.md) -------------------------------
# Any request body; Django's own limit on reading it is the same number.
REQUEST_MAX_BYTES = env_int("REQUEST_MAX_BYTES", 1024 * 1024, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
# One turn log, as compact JSON: the longest real match with extra time is well under 200 KB.
TURN_LOG_MAX_BYTES = env_int("TURN_LOG_MAX_BYTES", 256 * 1024, minimum=1024)
# Turn logs one club may send per 24 hours (replaced ones included): 40 logs of the maximum size.
CLUB_LOG_QUOTA_BYTES = env_int("CLUB_LOG_QUOTA_BYTES", 10 * 1024 * 1024, minimum=1024)
# The live scorer's storage per club: sessions started in 24 hours and events posted per UTC day
# (a match is about 550 events; undone ones stay on record).
SCORER_SESSIONS_PER_DAY = env_int("SCORER_SESSIONS_PER_DAY", 24, minimum=1)
SCORER_EVENTS_PER_DAY = env_int("SCORER_EVENTS_PER_DAY", 30_000, minimum=100)
# Side branches one session keeps (taps another phone's stretch left unused, scoring.branches):
# a real table makes a handful; a phone stuck in a loop would store without bound.
SCORER_SIDE_BRANCHES_PER_SESSION = env_int("SCORER_SIDE_BRANCHES_PER_SESSION", 20, minimum=1)

# --- Auth, i18n, static -----------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Club members sign in on the public login page; the admin's own login refuses non-staff.
LOGIN_URL = "/login/"
# A club member lands on the club's own page after signing in (not Django's /accounts/profile/).
LOGIN_REDIRECT_URL = "tournaments:dashboard"

# E-mail (password reset, notifications): SMTP when EMAIL_HOST is set, else one file per mail in
# EMAIL_FILE_PATH (var/mail/, the embedded default; `make run` says so), so a reset link or a
# notification's unsubscribe link can be followed without a mail server.
EMAIL_HOST = env_str("EMAIL_HOST", "") or ""
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.filebased.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "FUBA League <noreply@localhost>")
# Django's file backend writes each mail to a file in this folder (EMAIL_BACKEND=...filebased...).
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(VAR_DIR / "mail"))

# --- Notifications (docs/notifications.md) -------------------------------------------
# The address the links in mails, pushes and webhooks start with.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
# A failed delivery is tried again after 30 s, 1, 2, 4... minutes (at most an hour apart), at most
# NOTIFY_MAX_ATTEMPTS times; a webhook or phone failing NOTIFY_PAUSE_AFTER tries in a row is paused.
NOTIFY_RETRY_BASE = env_float("NOTIFY_RETRY_BASE", 30.0)
NOTIFY_RETRY_MAX = env_float("NOTIFY_RETRY_MAX", 3600.0)
NOTIFY_MAX_ATTEMPTS = env_int("NOTIFY_MAX_ATTEMPTS", 10, minimum=1)
NOTIFY_PAUSE_AFTER = env_int("NOTIFY_PAUSE_AFTER", 20, minimum=1)
NOTIFY_CLAIM_TIMEOUT = env_int("NOTIFY_CLAIM_TIMEOUT", CELERY_TASK_TIME_LIMIT + 30, minimum=1)
NOTIFY_SEND_TIMEOUT = env_float("NOTIFY_SEND_TIMEOUT", 10.0)
# A phone paused this many days (the push service said it is gone, or it kept failing) and not
# allowed again since is deleted by the notifications sweep.
NOTIFY_PUSH_PAUSED_DAYS = env_int("NOTIFY_PUSH_PAUSED_DAYS", 30, minimum=1)
# A webhook or push address on a private, loopback or reserved network is refused unless this is
# on (the embedded default: a receiver on the same machine); notifications/netguard.py.
WEBHOOK_ALLOW_PRIVATE = env_bool("WEBHOOK_ALLOW_PRIVATE", default=not DATABASE_URL)
# Web push (VAPID): the private key (PEM or base64url), read and checked at start; without one
# push is off (the embedded default makes one in var/vapid_private.pem).
WEBPUSH_VAPID_PRIVATE_KEY = env_str("WEBPUSH_VAPID_PRIVATE_KEY", "") or ""
WEBPUSH_VAPID_SUBJECT = env_str("WEBPUSH_VAPID_SUBJECT", "mailto:noreply@localhost") or ""
# Django's ModelBackend refusing every password check while an address or username is locked,
# whatever path asks (kernel/login_limits.py).
AUTHENTICATION_BACKENDS = ["kernel.login_limits.LoginLimitBackend"]
# Failed sign-ins allowed per client address and per username before the logins answer 429.
LOGIN_LIMIT_ADDRESS = env_rate("LOGIN_LIMIT_ADDRESS", "30/hour")
LOGIN_LIMIT_USERNAME = env_rate("LOGIN_LIMIT_USERNAME", "10/hour")
# New accounts made per client address on the join and sign-up pages (tries counted).
ACCOUNT_LIMIT_ADDRESS = env_rate("ACCOUNT_LIMIT_ADDRESS", "20/hour")
# How many reverse proxies in front of the service append to X-Forwarded-For; 0 (default)
# ignores that header, which any client can write (kernel/login_limits.py).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Pyodide (npm, pinned in package.json/package-lock.json, installed by `make install`) runs the
# rules engine in the scorer's Web Worker; served by the app under a versioned path so that its
# 11 MB are cached for a year (WHITENOISE_IMMUTABLE_FILE_TEST) and a new version gets new URLs.
PYODIDE_VERSION = "0.29.5"
# Clubs' phones score on their own engine when a bundle is built (docs/scorer-internals.md); off: every
# phone works in the server-driven mode.
SCORER_LOCAL_ENGINE = env_bool("SCORER_LOCAL_ENGINE", default=True)
# Who may create a competition (and so become its organiser): "anyone" signed in, or only "staff"
# with the competition permissions.
COMPETITION_CREATORS = env_str("COMPETITION_CREATORS", "anyone")
if COMPETITION_CREATORS not in ("anyone", "staff"):
    raise ImproperlyConfigured('COMPETITION_CREATORS is "anyone" or "staff".')
PYODIDE_STATIC_PREFIX = f"pyodide/{PYODIDE_VERSION}"
STATICFILES_DIRS = [BASE_DIR / "static", (PYODIDE_STATIC_PREFIX, BASE_DIR / "node_modules" / "pyodide")]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "fubaleague.static_storage.StaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# The function itself: whitenoise takes a string here for a regular expression over the URL.
WHITENOISE_IMMUTABLE_FILE_TEST = immutable_file

# --- Security (production shape) ---------------------------------------------------
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# /healthz is probed over plain HTTP by load balancers and the test suite.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- REST framework ---------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "fubaleague.api_autoschema.AutoSchema",
    # DRF's JSON parser, answering a body nested too deeply with a 400 (kernel/api_json.py).
    "DEFAULT_PARSER_CLASSES": [
        "kernel.api_json.JSONParser",
        "kernel.api_json.FormParser",
        "kernel.api_json.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "kernel.api_errors.exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # One fixed-window counter per client (kernel/throttling.py says why not DRF's own).
    "DEFAULT_THROTTLE_CLASSES": ["kernel.throttling.ClientRateThrottle"],
    # DRF's own reading of X-Forwarded-For follows the same setting (None would trust the header).
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_rate("API_THROTTLE_ANON", "600/minute"),
        "user": env_rate("API_THROTTLE_USER", "2000/minute"),
        # Validating a turn log replays a whole match: a tighter limit per account.
        "turn_log_validation": env_rate("API_THROTTLE_TURN_LOG", "30/minute"),
        # Exchanging a username and password for a token, per address (password guessing).
        "login": env_rate("API_THROTTLE_LOGIN", "20/minute"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "FUBA League API",
    "DESCRIPTION": "Competitions, fixtures, results and match logs for the FUBA board game.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a "status"/"source" field with different choices; name each enum.
    "ENUM_NAME_OVERRIDES": {
        "CompetitionStatusEnum": "fubaleague.api_schema.COMPETITION_STATUS",
        "StageStatusEnum": "fubaleague.api_schema.STAGE_STATUS",
        "FixtureStatusEnum": "fubaleague.api_schema.FIXTURE_STATUS",
        "SubmissionStatusEnum": "fubaleague.api_schema.SUBMISSION_STATUS",
        "ResultSourceEnum": "fubaleague.api_schema.RESULT_SOURCE",
        "TeamSkillSourceEnum": "fubaleague.api_schema.TEAM_SKILL_SOURCE",
        "StageKindEnum": "fubaleague.api_schema.STAGE_KIND",
        "CardKindEnum": "fubaleague.api_schema.CARD_KIND",
    },
}

LOG_LEVEL = (env_str("LOG_LEVEL", "INFO") or "INFO").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    # logging.config would reject it only at the first log call, with a traceback naming no variable.
    raise ImproperlyConfigured("LOG_LEVEL is one of DEBUG, INFO, WARNING, ERROR, CRITICAL.")

# Read lazily where used (chances/conf.py, fubaleague/worker.py, kernel/broker.py, with the same
# bounds); read once here too so a wrong value stops the process at start, naming the variable.
for _name, _minimum in (
    ("CHANCES_RUNS", 1),
    ("CHANCES_CHUNK_RUNS", 1),
    ("CHANCES_ENGINE_SIMS", 1),
    ("CHANCES_JOB_STALE", 1),
    ("CHANCES_DEBOUNCE", 0),
    ("WORKER_HEARTBEAT_SECONDS", 1),
):
    env_int(_name, 1, minimum=_minimum)
env_float("BROKER_PUBLISH_TIMEOUT", 0.25, minimum=0.01)
env_bool("CHANCES_AUTO_RECOMPUTE", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # runserver's "Watching for file changes" reaches the console twice (Django's own handler and
    # the root's) and tells the user nothing they asked for.
    "loggers": {"django.utils.autoreload": {"level": "WARNING"}},
}
