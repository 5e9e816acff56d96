"""Running many lines of work: the line runner, ordering, the local pool and the dask cluster, resume.

Holds :mod:`.outcome` (the leaf: a line's outcome, its kinds, the run's
summary), :mod:`.lines` (one JSON line in, one outcome out; exit statuses),
:mod:`.ordered`, :mod:`.cluster`, :mod:`.workers`, :mod:`.stopping`,
:mod:`.resume`, :mod:`.memory`, :mod:`.outputs` (output path checks) and
:mod:`.game_lines` (a line holding one game).  Generic: a line handler is
any function of a solver and a line, so the runner needs only the layers
below it, core, formats and engine; analysis and play, above it, hand their
many-line jobs to it.
"""
