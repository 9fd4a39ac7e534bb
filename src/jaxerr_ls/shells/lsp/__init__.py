"""The language server: `server.py` registers the handlers; the rest is glue between LSP and the
pure core (state, conversions at the edge, request assembly)."""
