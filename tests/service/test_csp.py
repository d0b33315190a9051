"""A strict Content-Security-Policy: the header, and templates that need nothing
inline. (In a real browser: tests/browser/test_csp_in_browser.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from kernel.csp import STRICT, THIRD_PARTY

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
    (re.compile(r"(src|href)=\"(https?:)?//", re.I), "a resource from another origin"),
]


def _templates() -> list[Path]:
    return [
        p
        for p in ROOT.rglob("*.html")
        if "templates" in p.parts and not {".venv", "staticfiles", "var", "node_modules"} & set(p.parts)
    ]


def test_the_templates_need_nothing_inline() -> None:
    templates = _templates()
    assert len(templates) > 10
    found = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {what}"
        for path in templates
        for text in [path.read_text()]
        for pattern, what in INLINE
        for m in pattern.finditer(text)
    ]
    assert not found, found


def test_the_static_scripts_evaluate_no_strings() -> None:
    for path in (ROOT / "static").rglob("*.js"):
        text = path.read_text()
        assert "eval(" not in text and "new Function" not in text, path


def test_every_page_has_the_strict_policy(client: Client) -> None:
    for path in ("/", "/login/", "/api/v1/ping", "/no-such-page/"):
        assert client.get(path)["Content-Security-Policy"] == STRICT, path
    assert "script-src 'self';" in STRICT and "'unsafe-inline'" not in STRICT
    assert "frame-ancestors 'none'" in STRICT and "object-src 'none'" in STRICT
    # Django's admin and the API docs set inline styles; scripts stay files.
    assert client.get("/admin/login/")["Content-Security-Policy"] == THIRD_PARTY
    assert "script-src 'self';" in THIRD_PARTY


def test_the_api_docs_have_no_inline_script(client: Client) -> None:
    html = client.get("/api/v1/docs").content.decode()
    assert "<script" in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), html
