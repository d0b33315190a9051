# Environment for the test suite: the real PostgreSQL and Redis on 127.0.0.1.
# `make test` sources this file; source it yourself to run pytest directly:
#   . scripts/test-env.sh && .venv/bin/pytest tests/engine
export DEBUG=0
export SECRET_KEY="${TEST_SECRET_KEY:-test-only-secret-key-not-for-production-0123456789abcdef}"
export ALLOWED_HOSTS="testserver,localhost,127.0.0.1"
export SECURE_SSL_REDIRECT=0
export DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/fubaleague}"
export REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
# The broker gets its own Redis database so that tests clearing the cache never drop a task.
export CELERY_BROKER_URL="${TEST_CELERY_BROKER_URL:-redis://127.0.0.1:6379/14}"
# `make test` runs the suite in two pytest-xdist workers; the second has Redis databases of its own
# (tests/parallel_services.py). 13 is the benchmarks' (bench/isolation.py).
export REDIS_URL_GW1="${TEST_REDIS_URL_GW1:-redis://127.0.0.1:6379/12}"
export CELERY_BROKER_URL_GW1="${TEST_CELERY_BROKER_URL_GW1:-redis://127.0.0.1:6379/11}"
# Unit tests run tasks in-process; the worker tests start a real worker and switch this off there.
export CELERY_TASK_ALWAYS_EAGER=1
# A committed change renders the public pages' fragments in a task (fubaleague/web/refresh.py):
# eager, that would render every page after every save of every test; its own tests turn it on.
export PAGES_REFRESH=0
