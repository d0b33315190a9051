# Build stage: compile the rules engine with mypyc (needs gcc and mypy, not shipped in the image).
FROM python:3.11-slim AS engine
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt requirements-dev.txt ./
RUN pip install --no-cache-dir -r requirements-dev.txt
COPY rules_engine rules_engine
COPY scripts/build_engine.py scripts/mypyc-engine.ini scripts/
RUN python scripts/build_engine.py

# Build stage: the npm packages the app serves (Pyodide runs the engine in the phone's Web Worker),
# pinned by package-lock.json; the lint tools (devDependencies) stay out.
FROM node:22-slim AS npm
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 FUBA_ENGINE=native
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
COPY --from=engine /app/build/engine build/engine
COPY --from=npm /app/node_modules node_modules
# The phone's engine bundle (build/web-engine): without it every phone scores server-driven.
# Built from the sources copied above; DEBUG only so settings load without production secrets.
# Node, lent by the npm stage for this step only, precompiles the phone's standard library
# (scripts/pyodide-stdlib.mjs); without it (or if it cannot run here) the phones load Pyodide's
# own standard library: a start without a snapshot then takes about twice as long.
RUN --mount=type=bind,from=npm,source=/usr/local/bin/node,target=/usr/local/bin/node env -u DATABASE_URL -u REDIS_URL DEBUG=1 python manage.py build_engine_bundle
# The static files (Pyodide's among them), hashed and gzipped once per image, not at every
# container start (fubaleague/static_storage.py). DEBUG off picks the production storage; its
# settings ask for a key and hosts, given for this step only.
RUN env -u DATABASE_URL -u REDIS_URL DEBUG=0 SECRET_KEY=image-build-collectstatic-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput -v0
EXPOSE 8000
CMD ["gunicorn", "fubaleague.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
