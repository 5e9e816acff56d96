"""One module per ``skatdd`` command; each exposes ``command`` (a Click command)."""
