"""HTML reports: self-contained pages for ``analyse --html`` and ``best --html``.

:mod:`skatdd.present.html.render` builds the pages from the commands' JSON (Jinja2
templates in ``templates/``, CSS and script inline); :mod:`skatdd.present.html.archive`
writes them to disk, one page or a folder with an index.
"""
from .archive import ArchivePages, write_game_page, write_text
from .render import GameFacts, best_page, game_page, index_page

__all__ = ["ArchivePages", "GameFacts", "best_page", "game_page", "index_page", "write_game_page", "write_text"]
