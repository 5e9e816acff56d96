"""Reading and writing games: the deal readers, the game spec, ISS records, strict JSON text.

Holds :mod:`.readers` (one entry point for every input kind) with one module
per input format (:mod:`.text`, :mod:`.json_object`, :mod:`.iss.record`,
:mod:`.files`, :mod:`.deal_input`), :mod:`.spec` (:class:`GameSpec`),
the subpackage :mod:`.iss` (the ISS record model :mod:`.iss.model`, the
parser :mod:`.iss.parse` with :mod:`.iss.moves` and :mod:`.iss.deal`, the
replay :mod:`.iss.replay`, and :mod:`.iss.write`, a game's moves and result as an ISS record),
:mod:`.position_input` (a command's position
argument with ``--played`` / ``--after``) and :mod:`.json_text`.
May import :mod:`skatdd.core` only.
"""
