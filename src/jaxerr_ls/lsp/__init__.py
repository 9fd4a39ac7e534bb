"""LSP glue between the pure core and the server: conversions and request assembly."""
