"""Code written for a newer Python than the one running it, found by where it fails.

`def f(cls: type[Any])` or `x: int | None` at a module's top level is evaluated while the module
is imported: before Python 3.9 a built-in type cannot be subscripted (`'type' object is not
subscriptable`), before 3.10 two types cannot be joined with `|`. Python's wording names no
package, so the words alone identify nothing; a module-level frame in an installed package (or
in the user's own file) that raises it does. The interpreter's version is often in the path
(`lib/python3.8/site-packages`).
"""

from __future__ import annotations

import re

from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import PYTHON_TOO_OLD_ENTRY
from jaxerr_ls.catalog.sites import SITE_SCORE, installed_package
from jaxerr_ls.catalog.templates import Match, short_class
from jaxerr_ls.tracebacks.model import Frame

# Python's words for syntax of 3.9 (subscripted built-in generics) and 3.10 (`X | Y` unions).
_TOO_NEW = re.compile(
    r"\A(?:'(?:type|ABCMeta)' object is not subscriptable"
    r"|unsupported operand type\(s\) for \|: '(?:type|NoneType|_GenericAlias|GenericAlias)'"
    r" and '(?:type|NoneType|_GenericAlias|GenericAlias)')"
)
_NEEDS = {"subscriptable": "3.9", "|": "3.10"}
_INTERPRETER = re.compile(r"python(?P<version>3\.\d+)")


def match_python_too_old(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """The entry for syntax a newer Python allows, raised by a module's top level."""
    text = message.strip()
    found = _TOO_NEW.match(text) if short_class(exception) == "TypeError" else None
    entry = matcher.catalog.get(PYTHON_TOO_OLD_ENTRY)
    if found is None or entry is None or not frames or frames[-1].function != "<module>":
        return None
    last = frames[-1]
    needs = _NEEDS["subscriptable"] if "subscriptable" in text else _NEEDS["|"]
    running = _INTERPRETER.search(last.path)
    package = installed_package(last.path)
    fields = {
        "needs": needs,
        "python": running["version"] if running else "",
        "package": package or "",
        "file": last.path,
        "line": str(last.line),
    }
    where = f"at the top level of `{last.path}` (line {last.line}) while it was imported"
    return Match(
        entry, {k: v for k, v in fields.items() if v}, SITE_SCORE, by="raise_site", where=where
    )
