"""Reading and writing games: the deal readers, the game spec, ISS records, strict JSON text.

Holds :mod:`.readers` (one entry point for every input kind) with one module
per input format (:mod:`.text`, :mod:`.json_object`, :mod:`.iss_record`,
:mod:`.files`, :mod:`.deal_input`), :mod:`.spec` (:class:`GameSpec`),
:mod:`.iss` (a facade over the ISS record model :mod:`.iss_model`, the
parser :mod:`.iss_parse` with :mod:`.iss_moves` and :mod:`.iss_deal`, and the
replay :mod:`.iss_replay`), :mod:`.iss_write` (a game's moves and result as an ISS record),
:mod:`.position_input` (a command's position
argument with ``--played`` / ``--after``) and :mod:`.json_text`.
May import :mod:`skatdd.core` only.
"""
