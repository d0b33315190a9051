"""Read a rendered page as a tree and pick its elements with a small CSS subset.

Page tests assert the structure a visitor sees (which rows, which cells, which links) rather than
substrings that could come from anywhere in the page. Selectors: a tag, `#id`, `.class` (any
number), `[attr]` and `[attr=value]`, combined with spaces for descendants, e.g.
`table.standings[data-group=A] tbody tr`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
PART = re.compile(r"^(?P<tag>[a-z0-9]+)?(?P<rest>(?:[#.][\w-]+|\[[\w-]+(?:=[^\]]*)?\])*)$")
QUALIFIER = re.compile(r"([#.])([\w-]+)|\[([\w-]+)(?:=([^\]]*))?\]")


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The element's text, whitespace collapsed, as a reader sees it."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                parts.append(child) if isinstance(child, str) else walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def elements(self) -> Iterator[Node]:
        """Every element below this one, in document order."""
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.elements()

    def select(self, selector: str) -> list[Node]:
        found = [self]
        for part in selector.split():
            picked: dict[int, Node] = {}  # by identity: nested bases reach the same element twice
            for base in found:
                for node in base.elements():
                    if _matches(node, part):
                        picked.setdefault(id(node), node)
            found = list(picked.values())
        return found

    def one(self, selector: str) -> Node:
        found = self.select(selector)
        assert len(found) == 1, f"{selector!r}: {len(found)} elements"
        return found[0]

    def links(self) -> list[str]:
        return [a.attrs["href"] for a in self.select("a[href]")]


def _matches(node: Node, part: str) -> bool:
    m = PART.match(part)
    assert m, f"unsupported selector {part!r}"
    if m["tag"] and node.tag != m["tag"]:
        return False
    for mark, name, attr, value in QUALIFIER.findall(m["rest"]):
        if mark == "#" and node.attrs.get("id") != name:
            return False
        if mark == "." and name not in node.classes:
            return False
        if attr and (attr not in node.attrs or (value and node.attrs[attr] != value.strip("\"'"))):
            return False
    return True


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        # Close up to the matching element (an element left open by the page is closed with it).
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root
