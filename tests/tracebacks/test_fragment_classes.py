"""A paste that is one line, `Class: message`, is read as an exception for every class the
catalog knows (issue 18): the JAX stack defines classes whose names end in no word of an
exception (`ScopeCollectionNotFound` of Flax, `InconclusiveDimensionOperation` of JAX), and
users quote their line alone (ninjax#13)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.tracebacks import parse_paste

# Not exception classes a paste prints as `Class: message`: JAX's note heading a traceback, the
# catalog's own names for a log line or a signal, unittest's skip.
_NOT_PRINTED = {"SimplifiedTraceback", "FatalSignal", "LogMessage", "SIGABRT", "SIGILL", "SkipTest"}


def _classes() -> list[str]:
    names = {entry.exception.rsplit(".", 1)[-1] for entry in load_catalog(cache_dir=None).entries}
    return sorted(n for n in names if n[:1].isupper() and n not in _NOT_PRINTED)


@pytest.mark.parametrize("name", _classes())
def test_a_catalogued_class_alone_on_its_line_is_read(name: str) -> None:
    found = parse_paste(f"{name}: Tried to access the thing it names.")
    assert found, f"{name}: no exception read"
    assert found[0].exception.rsplit(".", 1)[-1] == name
    assert found[0].message == "Tried to access the thing it names."


def test_ninjax_scope_collection_line_reaches_flax_entry() -> None:
    """https://github.com/danijar/ninjax/issues/13, as pasted."""
    from jaxerr_ls.catalog import Matcher
    from jaxerr_ls.explain import explain_text

    text = (
        'ScopeCollectionNotFound: Tried to access "kernel" from collection "params" in "/Conv_0" '
        "but the collection is empty. (https://flax.readthedocs.io/en/latest/api_reference/"
        "flax.errors.html#flax.errors.ScopeCollectionNotFound)"
    )
    found = explain_text(text, Matcher(load_catalog()))
    assert found and found[0].match is not None
    assert found[0].match.entry.library == "flax"
    assert found[0].match.entry.exception.endswith("ScopeCollectionNotFound")
