"""Reading and writing games: the deal readers, the game spec, ISS records, strict JSON text.

Holds :mod:`.readers` (one entry point for every input kind) with one module
per input format (:mod:`.text`, :mod:`.json_object`, :mod:`.iss_record`,
:mod:`.files`, :mod:`.deal_input`), :mod:`.spec` (:class:`GameSpec`),
:mod:`.iss` (the ISS record model, parser and replay) and :mod:`.json_text`.
May import :mod:`skatdd.core` only.
"""
