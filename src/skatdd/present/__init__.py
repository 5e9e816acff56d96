"""Showing results to people: the commands' text reports, tables, the HTML pages (templates as package data).

One module per command family renders its results as the command prints
them (:mod:`.advise`, :mod:`.analyse`, :mod:`.best`, :mod:`.bid`,
:mod:`.odds`, :mod:`.null_ouvert`, :mod:`.match`, :mod:`.score`, :mod:`.solve`), each registering its
renderers with :func:`skatdd.core.printable.renders`, so ``str(result)`` is
the command's text; :mod:`.texts` imports them all.  Beside them
:mod:`.report` (shared pieces), :mod:`.table` and :mod:`.html`.  May import
every layer below it: core, formats, engine, runner, analysis, play.
"""
