"""The catalog as a static site: a page per error and per API, JSON per entry, and an index whose
search matches pasted messages in the browser with the CLI's own rules (`jaxerr-ls catalog site`).
"""

from jaxerr_ls.site.build import Built, SiteError, build_site

__all__ = ["Built", "SiteError", "build_site"]
