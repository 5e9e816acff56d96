"""Showing results to people: text reports, tables, the HTML pages (templates as package data).

Holds :mod:`.report`, :mod:`.table` and :mod:`.html`.  May import every
layer below it: core, formats, engine, analysis, play, runner.
"""
