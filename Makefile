# FUBA League: the commands a newcomer and CI run. See README.md.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EMBEDDED := env -u DATABASE_URL -u REDIS_URL DEBUG=1

.PHONY: check-services run test test-js test-pure test-slow worker beat broker-check bench bench-deps lint format install engine web-engine node-deps browser-deps clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# npm packages (package.json, pinned by package-lock.json): Pyodide for the scorer's local engine;
# ESLint and TypeScript (the front end's lint and type check) as devDependencies
NODE_STAMP := node_modules/.package-lock.json

$(NODE_STAMP): package.json package-lock.json | node-deps
	npm ci --no-audit --no-fund --loglevel=error

## node-deps: Debian's npm when the machine has none (the npm registry is reached with it)
node-deps:
	@command -v npm >/dev/null 2>&1 || { \
	  echo "Installing Debian's npm for the front-end packages"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq npm >/dev/null; }

install: $(STAMP) $(NODE_STAMP)

## web-engine: package the rules engine for the scorer's Web Worker (build/web-engine, with its digest)
web-engine: install
	$(EMBEDDED) $(BIN)/python manage.py build_engine_bundle

## engine: compile the rules engine with mypyc into build/engine (minutes, one C file per module on every core, each shown as it starts; a no-op when current or cached)
engine: install
	$(BIN)/python scripts/build_engine.py

## run: embedded default (SQLite, in-process tasks), demo data, http://127.0.0.1:8000
run: install web-engine
	mkdir -p var
	$(EMBEDDED) $(BIN)/python manage.py migrate --noinput
	$(EMBEDDED) $(BIN)/python manage.py load_demo
	@echo "Mails (password resets, notifications) are written to var/mail/, one file each."
	# Django's "development server" warning is not news here: this target is the embedded default for
	# a first look, the production shape (gunicorn behind nginx) is docker-compose.yml.
	$(EMBEDDED) DJANGO_RUNSERVER_HIDE_WARNING=true $(BIN)/python manage.py runserver 127.0.0.1:8000

## browser-deps: Debian's chromium for the Playwright browser tests (Playwright's own download does not work here)
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

## check-services: PostgreSQL and Redis reachable, said before anything long runs
check-services: install
	source scripts/test-env.sh && $(BIN)/python scripts/check-services.py

## test: the whole suite against the real PostgreSQL and Redis on 127.0.0.1 and a real Celery worker
# The services are checked first (CI runs only `make test`). The C compile of the engine takes
# minutes (one C file per module, FUBA_ENGINE_JOBS at a time), so the lint and the engine tests on the pure-Python source (which must
# behave the same) run beside it, two jobs at a time. Then the whole suite runs on the compiled
# engine (FUBA_ENGINE=native refuses a missing or stale build) in two pytest-xdist workers (--dist
# load: each gets its tests in collection order, the transactional ones that empty the tables last;
# worksteal hands a worker done first the other's non-transactional tests after its transactional
# ones, see CONTRIBUTING.md; the light cup is built once per worker and copied), each with
# its own test database and Redis databases (tests/parallel_services.py). --output-sync=line, not
# =target: each part's lines show as they come instead of all at once when the part ends.
test: install check-services browser-deps
	$(MAKE) --no-print-directory -j2 --output-sync=line engine lint web-engine test-pure test-js
	source scripts/test-env.sh && $(BIN)/python manage.py collectstatic --noinput -v0
	source scripts/test-env.sh && FUBA_ENGINE=native $(BIN)/python -m pytest -p tests.parallel_services -n 2 --dist load

## test-js: the scorer's JavaScript unit tests (tests/js, Node's own test runner: no browser, a second)
test-js: install
	node --test tests/js/

## test-pure: the engine tests on the pure-Python source (no compiled build needed)
test-pure: install
	source scripts/test-env.sh && FUBA_ENGINE=pure $(BIN)/pytest -q tests/engine

test-slow: install engine web-engine browser-deps
	source scripts/test-env.sh && FUBA_ENGINE=native $(BIN)/pytest -m slow

## worker / beat: production-shape processes (need REDIS_URL and DATABASE_URL in the environment)
worker: broker-check install engine
	$(BIN)/celery -A fubaleague worker --loglevel=INFO --concurrency=2

beat: broker-check install
	$(BIN)/celery -A fubaleague beat --loglevel=INFO

# Without a broker Celery would start on an in-memory one that never receives a task (or, without
# DEBUG, stop with a traceback about SECRET_KEY): refuse first, in one line.
broker-check:
	@test -n "$$REDIS_URL$$CELERY_BROKER_URL" || { echo "$(MAKECMDGOALS) needs a broker: set REDIS_URL (redis://host:6379/0) or CELERY_BROKER_URL" >&2; exit 2; }

## bench-deps: Debian's wrk for the web load tests, nginx for the production shape's front (deploy/nginx)
bench-deps:
	@{ command -v wrk && command -v nginx; } >/dev/null 2>&1 || { \
	  echo "Installing Debian's wrk and nginx for the web benchmarks"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk nginx >/dev/null; \
	  $$SUDO service nginx stop >/dev/null 2>&1 || true; }

## bench: engine, simulator and web benchmarks, each printed as a table
# Each run has its own database, Redis database and key prefix (bench/isolation.py): it can run
# beside `make test`.
bench: install check-services engine web-engine bench-deps browser-deps
	mkdir -p var
	source scripts/test-env.sh && $(BIN)/python manage.py collectstatic --noinput -v0
	source scripts/test-env.sh && FUBA_ENGINE=native $(BIN)/python bench/run.py

## lint: style, types (Python and the front end's JSDoc), ESLint, the import contracts of .importlinter (every module in one, no unlisted package cycle), and no imports hidden in functions
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# files and flags in pyproject.toml: strict on the engine, the Django and DRF stubs on the apps
	$(EMBEDDED) $(BIN)/mypy
	$(BIN)/lint-imports
	# every module in a layers contract; no module over 600 lines, no function over 80 (check_sizes)
	$(BIN)/python scripts/check_contracts.py
	$(BIN)/python scripts/check_local_imports.py
	# the front end: ESLint (eslint.config.js: also no function over 80 lines, no module over 600)
	# and TypeScript's check of the JSDoc-typed scripts (the pages', then the engine's Web Worker)
	node_modules/.bin/eslint --max-warnings=0 .
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.strict.json
	node_modules/.bin/tsc -p tsconfig.worker.json

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) node_modules build var/*.sqlite3 staticfiles .pytest_cache .mypy_cache .ruff_cache
