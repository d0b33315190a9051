"""The kernel under every app: the domain error, environment parsing, the fail-open cache, the
sign-in limits, throttling, the request-size limit, the Content-Security-Policy and the API's
error mapping, JSON parser and token authentication.

It imports Django, DRF and Redis but no module of the league or of the project package
(`fubaleague`: settings, URLs, WSGI/ASGI, Celery and the web pages); the `kernel-at-the-bottom`
contract of `.importlinter` checks that.
"""
