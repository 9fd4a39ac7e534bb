"""Identifying an error by where JAX raised it, when its message says too little.

A traceback that shows JAX's own frames (`JAX_TRACEBACK_FILTERING=off`, the unfiltered cause of
`remove_frames`, frames JAX did not hide) ends in the frame that raised. Its file, function and
line, compared with the entries' `raised_at` sites, name the entry even for a bare
`AssertionError` or a message JAX builds at run time. Line numbers drift between releases, so a
site within `LINE_WINDOW` lines of the frame counts, in the same file and function.
"""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass, replace

from jaxerr_ls.catalog.match import Matcher
from jaxerr_ls.catalog.model import Entry, PythonSite
from jaxerr_ls.catalog.older import extend_entry, load_older
from jaxerr_ls.catalog.templates import (
    MIN_LITERAL,
    Match,
    TemplateError,
    compile_template,
    short_class,
)
from jaxerr_ls.tracebacks.model import Frame

LINE_WINDOW = 6
# Below an exact message match (100) and a same-class template match.
SITE_SCORE = 70
# Exceptions whose text is no description (a bare `assert`, a missing key): a site alone names
# them, whatever the class the entry is catalogued under (JAX tripping over the same mistake).
_BARE = frozenset({"AssertionError", "KeyError"})
# The statement a raising frame stops on.
_RAISING = ("raise", "assert")


@dataclass(frozen=True)
class _Site:
    line: int
    entry: Entry
    condition: str = ""
    # An older release's line of a current entry (`Join.sites`): it names its own class only,
    # a bare assert's nearby line is another check.
    joined: bool = False


_INDEXES: weakref.WeakKeyDictionary[Matcher, dict[tuple[str, str], list[_Site]]] = (
    weakref.WeakKeyDictionary()
)
_OLDER_INDEXES: weakref.WeakKeyDictionary[Matcher, dict[tuple[str, str], list[_Site]]] = (
    weakref.WeakKeyDictionary()
)


def _unified(path: str) -> str:
    """A frame's path with `/` separators (Windows paths, and their JSON-escaped form)."""
    return path.replace("\\\\", "/").replace("\\", "/")


def jax_file(path: str) -> str | None:
    """`/venv/lib/python3.11/site-packages/jax/_src/core.py` -> `jax/_src/core.py`; None when
    the frame is not in JAX."""
    unified = _unified(path)
    installed = unified.rfind("-packages/")
    if installed >= 0:
        # Installed: the package right after `site-packages/` (an environment named `jax`,
        # `~/envs/jax/lib/.../site-packages/optax/...`, is not JAX).
        inside = unified[installed + len("-packages/") :]
        return inside if inside.startswith("jax/") else None
    position = unified.rfind("/jax/")
    if position < 0:
        return "jax/" + unified[4:] if unified.startswith("jax/") else None
    return unified[position + 1 :]


_INSTALLED = re.compile(r"-packages/(?P<package>[A-Za-z_]\w*)/")


def installed_package(path: str) -> str | None:
    """The top package an installed file belongs to (`.../site-packages/haiku/_src/x.py` ->
    `haiku`), or None outside `site-packages`/`dist-packages`."""
    found = _INSTALLED.search(_unified(path))
    return found["package"] if found is not None else None


# The top packages of the libraries the catalog covers (their sites are `flax/core/scope.py`).
_LIBRARY_PACKAGES = ("flax", "equinox", "optax", "orbax", "chex")


def site_file(path: str) -> str | None:
    """A frame's file as the catalog's sites name it: JAX's (`jax/_src/core.py`) or an installed
    library's (`flax/core/scope.py`, only under `site-packages`/`dist-packages`: a user's own
    folder named `flax` is not the library); None otherwise."""
    found = jax_file(path)
    if found is not None:
        return found
    unified = _unified(path)
    for package in _LIBRARY_PACKAGES:
        position = unified.rfind(f"-packages/{package}/")
        if position >= 0:
            return unified[position + len("-packages/") :]
    return None


def _older_index(matcher: Matcher) -> dict[tuple[str, str], list[_Site]]:
    """Where older releases raised: the errors only they raise, and the current entries they
    raised too (at their own lines, often in another file: `jax/_src/lib/xla_bridge.py`)."""
    index = _OLDER_INDEXES.get(matcher)
    if index is None:
        older = matcher.older_matcher()
        index = {k: list(v) for k, v in _index(older).items()} if older is not None else {}
        joins = load_older(matcher.catalog)
        for entry in matcher.catalog.entries:
            join = joins.join_for(entry) if joins is not None else None
            for site in join.sites if join is not None else ():
                key = (site.file, site.function.rsplit(".", 1)[-1])
                index.setdefault(key, []).append(_Site(site.line, entry, site.condition, True))
        _OLDER_INDEXES[matcher] = index
    return index


def _index(matcher: Matcher) -> dict[tuple[str, str], list[_Site]]:
    index = _INDEXES.get(matcher)
    if index is None:
        index = {}
        for entry in matcher.catalog.entries:
            for site in entry.raised_at:
                key = (site.file, site.function.rsplit(".", 1)[-1])
                index.setdefault(key, []).append(_Site(site.line, entry, site.condition))
        _INDEXES[matcher] = index
    return index


def match_raise_site(matcher: Matcher, exception: str, frames: tuple[Frame, ...]) -> Match | None:
    """The entry raised where the last frame in JAX (or a library the catalog covers) is, or
    None."""
    last = next((f for f in reversed(frames) if site_file(f.path) is not None), None)
    if last is None or last.line <= 0:
        return None
    cls = short_class(exception)
    if last.source and not last.source.startswith(_RAISING) and cls not in _BARE:
        # The frame called something that failed (an executable, a callback): the error was
        # raised below what the text shows, and a call site is shared by many errors. (A bare
        # assert or a missing key is raised by the statement itself.)
        return None
    file = site_file(last.path)
    assert file is not None
    key = (file, last.function.rsplit(".", 1)[-1])
    sites = _index(matcher).get(key, [])
    near = _near(sites, last.line, cls)
    if not near and last.source.startswith(_RAISING):
        # A frame of an older release: its lines are where that release raised (the older
        # index keeps them), not where today's does; only a raising line counts there.
        near = [
            found
            for found in _near(
                [s for s in _older_index(matcher).get(key, []) if not (s.joined and cls in _BARE)],
                last.line,
                cls,
            )
            if _worded_as_raised(matcher, found[3], last.source)
        ]
        if near:
            entry = extend_entry(matcher.catalog, min(near, key=lambda found: found[:3])[3])
            return Match(entry, {}, SITE_SCORE, by="raise_site")
    # Another release's line numbers: a nearby raise of today's is another error when the
    # frame's own raise shows words that are none of its wordings (jax#22990: deprecations.py's
    # `module ... has no attribute ...` at the line where 0.10.2 raises a removed name's message).
    near = [found for found in near if _shows_wording(matcher, found[3], last.source)]
    if not near:
        return _assert_turned_raise(sites, last.source) if cls == "AssertionError" else None
    near.sort(key=lambda found: found[:3])
    return Match(near[0][3], {}, SITE_SCORE, by="raise_site")


# Literal words a raise must show before they can tell one wording from another.
_MIN_SHOWN = 12
# What separates a raise's literal words: placeholders (`{x!r}`, `%s`), escapes, doubled braces.
_NOT_WORDS = re.compile(r"\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[sdirfgexXo]|\\.|\{\{|\}\}")


def _shows_wording(matcher: Matcher, entry: Entry, source: str) -> bool:
    """The frame's raise line holds a literal message whose words, in order, are one of the
    entry's wordings; True when the line shows too few words to tell (`raise ValueError(msg)`)."""
    found = _LITERAL.search(source)
    if found is None:
        return True
    pieces = [piece for piece in _NOT_WORDS.split(found["text"]) if piece.strip()]
    if sum(len(piece.strip()) for piece in pieces) < _MIN_SHOWN:
        return True
    extended = extend_entry(matcher.catalog, entry)
    return any(
        _in_order(pieces, text)
        for text in (extended.message, *(w.message for w in extended.wordings))
    )


def _in_order(pieces: list[str], text: str) -> bool:
    start = 0
    for piece in pieces:
        start = text.find(piece, start)
        if start < 0:
            return False
        start += len(piece)
    return True


def _worded_as_raised(matcher: Matcher, entry: Entry, source: str) -> bool:
    """An older release's line names only the entry one of whose wordings holds the literal
    opening it raises with (`raise RuntimeError(f"Unknown backend {platform}")`): that
    release's lines of a neighbouring raise are not kept, only those of its newest release."""
    found = _LITERAL.search(source)
    opening = _FIELD.split(found["text"], 1)[0].strip() if found is not None else ""
    if len(opening) < 8:
        return True
    extended = extend_entry(matcher.catalog, entry)
    texts = (extended.message, *(w.message for w in extended.wordings))
    return any(opening in text for text in texts)


def _near(sites: list[_Site], line: int, cls: str) -> list[tuple[int, bool, str, Entry]]:
    """The sites within `LINE_WINDOW` of the frame's line that raise its class (any, for a bare
    assert or a missing key), sortable by distance, curated first, then id."""
    return [
        (abs(site.line - line), not site.entry.curated, site.entry.id, site.entry)
        for site in sites
        if abs(site.line - line) <= LINE_WINDOW
        and (cls in _BARE or not cls or short_class(site.entry.exception) == cls)
    ]


def match_worded_at_site(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """A message too short to name its error by its words alone (`Unknown backend iree`: the
    catalog does not match a template with so little literal text anywhere) whose raising frame
    is in a JAX (or library) function that raises the printed class with that wording: the
    place confirms the words, or the words it was cut after. Any line of the function counts (the
    message says which raise), but one entry only."""
    last = next((f for f in reversed(frames) if site_file(f.path) is not None), None)
    if last is None or not last.source.startswith("raise") or not message.strip():
        return None
    file = site_file(last.path)
    assert file is not None
    text = " ".join(message.split())
    found = [
        entry
        for entry, wordings in _raised_in(matcher, file, last.function, exception)
        if any(_whole(wording, text) or _opening(wording, text) for wording in wordings)
    ]
    if len(found) != 1:
        return None
    return Match(found[0], {}, SITE_SCORE, by="raise_site")


def _raised_in(
    matcher: Matcher, file: str, function: str, exception: str
) -> list[tuple[Entry, tuple[str, ...]]]:
    """The entries a JAX (or library) function raises with the printed class, each with its
    wordings, those of the releases before the main index too (the frame's may be one)."""
    cls = short_class(exception)
    found: dict[str, tuple[Entry, tuple[str, ...]]] = {}
    for site in _index(matcher).get((file, function.rsplit(".", 1)[-1]), []):
        if short_class(site.entry.exception) != cls or site.entry.id in found:
            continue
        entry = extend_entry(matcher.catalog, site.entry)
        found[entry.id] = (entry, (entry.message, *(w.message for w in entry.wordings)))
    return list(found.values())


def _opening(wording: str, text: str) -> bool:
    """The text is the start of the wording's opening words, the paste cut inside them (jax#14861:
    `TypeError: Sh`, raised by `canonicalize_shape`'s one TypeError)."""
    opening = " ".join(wording.split()).split("{", 1)[0]
    return len(text) < len(opening) and opening.startswith(text)


def _whole(wording: str, text: str) -> bool:
    """The text is the wording, values in its placeholders; a wording of placeholders alone
    (`{msg}`) says nothing."""
    try:
        source, _, literals = compile_template(" ".join(wording.split()))
    except TemplateError:
        return False
    if sum(len(piece.strip()) for piece in literals) < MIN_LITERAL:
        return False
    return re.fullmatch(source + r"\.?", text, re.DOTALL) is not None


# `a == b` asserted is `a != b` as a raise's condition, and so on.
_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
}


def _negations(source: str) -> set[str]:
    """The ways a raise's recorded condition (`ast.unparse`'d) states that the assert on this
    source line failed; empty when the line is not a whole `assert` statement."""
    try:
        statement = ast.parse(source.strip()).body
    except SyntaxError:
        return set()
    if len(statement) != 1 or not isinstance(statement[0], ast.Assert):
        return set()
    test = statement[0].test
    forms = {ast.unparse(ast.UnaryOp(ast.Not(), test))}
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _FLIPPED:
        flipped = _FLIPPED[type(test.ops[0])]()
        forms.add(ast.unparse(ast.Compare(test.left, [flipped], test.comparators)))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        forms.add(ast.unparse(test.operand))
    return forms


def _conjuncts(condition: str) -> set[str]:
    try:
        expr = ast.parse(condition, mode="eval").body
    except SyntaxError:
        return set()
    parts = expr.values if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And) else [expr]
    return {ast.unparse(part) for part in parts}


def _assert_turned_raise(sites: list[_Site], source: str) -> Match | None:
    """A bare `assert` a later release turned into an error with a message, in the same
    function: the assert's test, negated, is that raise's recorded condition (`assert
    devices.ndim == len(axis_names)` in `Mesh.__new__`, later `if devices.ndim !=
    len(axis_names): raise ValueError(...)`). Line numbers do not count: the function moved."""
    forms = _negations(source)
    if not forms:
        return None
    found = sorted(
        {site.entry.id: site.entry for site in sites if forms & _conjuncts(site.condition)}.items()
    )
    if len(found) != 1:
        return None
    return Match(found[0][1], {}, SITE_SCORE, by="raise_site")


# The first string literal of a `raise Cls('...')` line (closed on that line).
_LITERAL = re.compile(
    r"""\braise\s+(?P<cls>[\w.]+)\(\s*[rbuf]{0,2}(?P<q>['"])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)"""
)
# A cut message shorter than this says too little to be completed from the source.
MIN_CUT = 12


def message_at_raise(frames: tuple[Frame, ...], message: str) -> str | None:
    """The whole message when the printed one was cut short and the raising frame's source line
    states it: `raise ValueError('parent must be None, Module or Scope')` under a paste that ends
    in `ValueError: parent must be None,`. None when the line shows no literal the printed
    message begins."""
    cut = " ".join(message.split())
    last = next((f for f in reversed(frames) if site_file(f.path) is not None), None)
    if last is None or len(cut) < MIN_CUT or not last.source.startswith("raise"):
        return None
    found = _LITERAL.search(last.source)
    if found is None:
        return None
    whole = found.group("text")
    if len(whole) <= len(cut) or not " ".join(whole.split()).startswith(cut):
        return None
    return whole


def message_stated_at_raise(
    exception: str, frames: tuple[Frame, ...], message: str = ""
) -> str | None:
    """The message of a paste that stops before it, when its last frame's line raises the
    printed class with a literal (`--> 305 raise ValueError("No arrays to thread error on
    to.")`). The frame may be any file's (a notebook's elided frames put the library's line
    under a cell): the literal must be an entry's whole message to count. A message cut inside
    the literal's first field (`Argument '{ lambda a:f64[15,15]; b:f64[15]. let`, a jaxpr
    printed in it) is the line's when it begins with the literal's text before that field."""
    found = _LITERAL.search(frames[-1].source) if frames else None
    if found is None or not frames[-1].source.startswith("raise"):
        return None
    if message.strip() and not _printed_by(found["text"], message):
        return None
    return found["text"] if short_class(found["cls"]) == short_class(exception) else None


def _printed_by(literal: str, message: str) -> bool:
    """Whether a message cut short begins as the f-string literal does up to its first field,
    and stops before the literal's text after that field."""
    field = _FIELD.search(literal)
    if field is None or len(literal[: field.start()].strip()) < 2:
        return False
    before = " ".join(literal[: field.start()].split())
    after = " ".join(_FIELD.split(literal[field.end() :], 1)[0].split())
    text = " ".join(message.split())
    return text.startswith(before) and (not after or after not in text)


_FIELD = re.compile(r"\{[^{}]*\}")


def match_literal_at_site(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """A paste that stops before its message, whose raising frame in JAX (or a library) shows
    how the message begins (`raise TypeError(f"{name} requires real- or complex-valued inputs
    (input dtype "`, a release whose lines the index does not keep): the one entry raised in
    that function one of whose wordings begins so, fields aside."""
    last = frames[-1] if frames else None
    file = site_file(last.path) if last is not None else None
    if message.strip() or last is None or file is None:
        return None
    found = _LITERAL.search(last.source)
    if found is None or short_class(found["cls"]) != short_class(exception):
        return None
    opening = " ".join(_FIELD.sub("{}", found["text"]).split())
    if len(_FIELD.sub("", opening).strip()) < MIN_CUT:
        return None
    named = [
        entry
        for entry, wordings in _raised_in(matcher, file, last.function, exception)
        if any(" ".join(_FIELD.sub("{}", w).split()).startswith(opening) for w in wordings)
    ]
    if len(named) != 1:
        return None
    return Match(named[0], {}, SITE_SCORE, by="raise_site")


def match_cut_message(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """A message cut short, or not copied at all, matched as the raising line states it
    (`message_at_raise`, `message_stated_at_raise`)."""
    if message.strip():
        whole = message_at_raise(frames, message) or message_stated_at_raise(
            exception, frames, message
        )
    else:
        whole = message_stated_at_raise(exception, frames)
    if whole is None:
        return None
    found = matcher.match(exception, whole)
    if found is None or found.score < 100:
        return None
    return replace(found, by="raise_site")


_PYTHON_INDEXES: weakref.WeakKeyDictionary[
    Matcher, dict[tuple[str, str], list[tuple[PythonSite, Entry]]]
] = weakref.WeakKeyDictionary()


def _python_index(matcher: Matcher) -> dict[tuple[str, str], list[tuple[PythonSite, Entry]]]:
    index = _PYTHON_INDEXES.get(matcher)
    if index is None:
        index = {}
        for entry in matcher.catalog.entries:
            for site in entry.python_errors:
                key = (site.file.rsplit("/", 1)[-1], site.function.rsplit(".", 1)[-1])
                index.setdefault(key, []).append((site, entry))
        _PYTHON_INDEXES[matcher] = index
    return index


def match_python_site(
    matcher: Matcher, exception: str, message: str, frames: tuple[Frame, ...]
) -> Match | None:
    """An error Python worded (a call's bad arguments, a comparison its objects lack) that a
    library's statement raised: the innermost frame is in a library's file and function that an
    entry's `python_errors` name, with that class and wording. The class and text alone name no
    library; the place where they were raised does. A source checkout counts as the library
    (`.../src/flax/flax/core/lift.py`): the file, function, class and wording must all agree."""
    if not frames or not exception:
        return None
    last = frames[-1]
    path = _unified(last.path)
    function = last.function.rsplit(".", 1)[-1]
    cls = short_class(exception)
    found = {
        entry.id: entry
        for site, entry in _python_index(matcher).get((path.rsplit("/", 1)[-1], function), [])
        if ("/" + path).endswith("/" + site.file)
        and short_class(site.exception) == cls
        and re.search(site.pattern, message)
    }
    if len(found) != 1:
        return None
    return Match(next(iter(found.values())), {}, SITE_SCORE, by="raise_site")
