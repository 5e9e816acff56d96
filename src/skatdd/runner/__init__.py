"""Running many lines of work: the line runner, ordering, the local pool and the dask cluster, resume.

Holds :mod:`.lines` (one JSON line in, one outcome out; exit statuses),
:mod:`.ordered`, :mod:`.cluster`, :mod:`.resume`, :mod:`.memory`,
:mod:`.outputs` (output path checks), :mod:`.game_lines` and
:mod:`.best_games`.  May import every layer below it: core, formats,
engine, analysis, play.
"""
