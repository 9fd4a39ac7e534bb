"""The catalog as a static site: a page per error and per API, JSON per entry, and an index whose
search matches pasted messages in the browser with the CLI's own rules (`jaxerr-ls catalog site`).

`build` writes it; `links` is what the editor needs (kept free of the builder's imports).
"""
