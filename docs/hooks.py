"""MkDocs hooks: the README and the changelog as pages of the site (mkdocs.yml, ``hooks:``).

``docs/index.md`` and ``docs/changelog.md`` are placeholders; their text is
the repository's ``README.md`` and ``CHANGELOG.md``, so there is one copy of
each.  The Markdown files link as they must on GitHub and PyPI: the README
to ``docs/x.md`` and ``CHANGELOG.md``, the docs to ``../README.md`` and
``../CHANGELOG.md``.  On the site every page sits side by side, so those
links are rewritten to ``x.md``, ``index.md`` and ``changelog.md`` before
the page is converted; ``mkdocs build --strict`` then checks every link and
anchor as for any other page.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Site page -> the repository file whose text it shows.
INCLUDED = {"index.md": "README.md", "changelog.md": "CHANGELOG.md"}


def site_links(text: str, *, top: bool) -> str:
    """*text* with its links written for the site; *top*: the text is a file at the repository's root."""
    if top:
        text = re.sub(r"\]\(docs/", "](", text)
        text = re.sub(r"\]\(CHANGELOG\.md", "](changelog.md", text)
        return re.sub(r"\]\(README\.md", "](index.md", text)
    text = re.sub(r"\]\(\.\./README\.md", "](index.md", text)
    return re.sub(r"\]\(\.\./CHANGELOG\.md", "](changelog.md", text)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """The text of a page: the included file's for the placeholders, else the page's own; links for the site."""
    source = INCLUDED.get(page.file.src_uri)
    if source is None:
        return site_links(markdown, top=False)
    return site_links((ROOT / source).read_text(encoding="utf-8"), top=True)


#: A Sphinx role as the docstrings write it, after Markdown: ``:class:<code>~a.b.C</code>``.
_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj|const):<code>(~?)([\w.]+)</code>")


def _role(match: re.Match[str]) -> str:
    """One role as plain code: ``~a.b.C`` shows ``C``, as Sphinx shows it."""
    name = match.group(2).rpartition(".")[2] if match.group(1) else match.group(2)
    return f"<code>{name}</code>"


def on_page_content(html: str, **_: Any) -> str:
    """The page's HTML with the docstrings' Sphinx roles (``:class:`X```) shown as code, without the role."""
    return _ROLE.sub(_role, html)
