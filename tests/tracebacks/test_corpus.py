"""Every traceback captured from real JAX programs (scripts/make_corpus.py) parses to the right
exception and message, points at the user's line, and reaches the catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import Explanation, explain_text
from jaxerr_ls.tracebacks.locate import Workspace

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
OUTPUTS = sorted((CORPUS / "out").glob("*.txt"))
# The curated entry each program's error must match, checked by hand (kept apart from the
# manifest so the expectations can grow without re-capturing the corpus).
ENTRIES: dict[str, str] = json.loads((CORPUS / "entries.json").read_text(encoding="utf-8"))
# Errors whose message JAX builds at runtime (tracer errors, checkify, wrapped re-raises) or that
# are plain Python: no literal raise site in the generated index and no curated entry.
UNCATALOGUED = frozenset(
    {
        "chained_reraise",
        "checkify_failed",
        "checkify_unfunctionalized",
        "einsum_operands",
        "exception_group",
        "pure_callback_raises",
        "recursion",
        "shard_map_wrong_axis",
        "syntax_error",
        "zero_division",
        "at_set_type",
    }
)
# Python's own wording (`unsupported operand type(s) for +: 'jaxlib._jax.ArrayImpl' and 'str'`:
# JAX returned NotImplemented and Python raised): no generated entry may claim it by its text
# (catalog/specific.py), whatever its frames show.
PYTHON_OWN = frozenset({"at_set_type"})
# A bare `AssertionError` is identified by where JAX raised it: only where the text shows the
# JAX frame that raised (unfiltered, the unfiltered cause of remove_frames, IPython, which hides
# JAX's other frames but not that one); not from the filtered traceback nor pytest's report.
SITE_FORMS = {"unfiltered", "remove_frames", "ipython", "ipython_color", "ipython_cells"}
IDENTIFIED_BY_SITE = {
    "shard_map_wrong_axis": ("unbound-axis-name", SITE_FORMS | {"vscode_json"}),
}
# The text users copy short of a traceback, made from the real outputs by make_corpus.py.
MESSAGE_ONLY = "message"  # the message without its class
LAST_LINE = "last_line"  # the exception line alone
# Where the exception line alone says less than the whole message: the general entry it reaches.
NO_MESSAGE = "(none)"  # the program's exception has an empty message (see make_corpus.py)
LESS_SAID = {("concretization_arange", LAST_LINE): "concretization-traced-value"}


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())


def test_corpus_is_large_enough() -> None:
    assert len(MANIFEST["programs"]) >= 40
    forms = {path.name.split(".")[1] for path in OUTPUTS}
    assert set(MANIFEST["forms"]) <= forms


@pytest.mark.parametrize("path", OUTPUTS, ids=[p.name for p in OUTPUTS])
def test_captured_output(path: Path, matcher: Matcher) -> None:
    program, form = path.name.split(".")[:2]
    expect = MANIFEST["programs"][program]
    explained = explain_text(
        path.read_text(encoding="utf-8"),
        matcher,
        workspace=Workspace(CORPUS / "programs"),
    )
    if form == MESSAGE_ONLY:
        _check_message_only(program, explained)
        return
    assert explained, "no traceback found"
    # The failure is the last report of the expected class: a traceback that JAX logs for a failed
    # callback comes before it, or after it in pytest's "Captured log call" section.
    wanted = expect["exception"].rsplit(".", 1)[-1]
    reports = [e for e in explained if e.traceback.exception.rsplit(".", 1)[-1] == wanted]
    assert reports, [e.traceback.exception for e in explained]
    last = reports[-1]
    tb = last.traceback
    if expect["message"] == NO_MESSAGE:
        assert tb.message.strip() == ""
    else:
        assert expect["message"] in tb.message
    assert "\x1b" not in tb.message
    assert not any(line.startswith(("E   ", "    | ")) for line in tb.message.split("\n"))
    assert "For simplicity, JAX has removed" not in tb.message
    if form == LAST_LINE:
        assert tb.frames == () and last.location is None
    elif MANIFEST["forms"][form]["located"]:
        assert last.location is not None
        assert (Path(last.location.path).name, last.location.line) == (
            expect["file"],
            expect["line"],
        )
        assert last.location.in_workspace
    else:
        assert last.location is None
    _check_entry(program, form, last)


def _check_entry(program: str, form: str, last: Explanation) -> None:
    if program in PYTHON_OWN:
        match = last.match
        assert match is None or match.entry.curated or match.by != "message"
    if program in IDENTIFIED_BY_SITE:
        entry, forms = IDENTIFIED_BY_SITE[program]
        assert (last.match.entry.id if last.match else None) == (entry if form in forms else None)
    elif (program, form) in LESS_SAID:
        assert last.match is not None and last.match.entry.id == LESS_SAID[program, form]
    elif program in ENTRIES:
        assert last.match is not None and last.match.entry.id == ENTRIES[program]
    elif program not in UNCATALOGUED:
        assert last.match is not None, "the generated index has this message"


def _check_message_only(program: str, explained: list[Explanation]) -> None:
    """A message without its class: reported only when it reaches one entry."""
    unclassed = [e for e in explained if not e.traceback.exception]
    assert all(e.match is not None for e in unclassed)
    if program in ENTRIES or program not in UNCATALOGUED:
        assert unclassed, "the message alone reaches no entry"
        _check_entry(program, MESSAGE_ONLY, unclassed[-1])
