"""Whether a generated template's text can name its error: what the raise says of its own.

The catalog's generated entries come from every raise in JAX's, XLA's and the libraries' sources.
Some of those raises reproduce a wording CPython itself prints (`'{type}' object has no attribute
'{name}'`, `unsupported operand type(s) for *: ...`): matched by message alone they would put a
library's explanation on Python's own error, raised anywhere. Others say too little to tell one
error from another (`{dep} not found.`, `Unsupported dtype: {dtype}`). Neither identifies an error
by its message; where the traceback shows the raising frame, the raise site still does
(`catalog/sites.py`). Curated entries are not judged here: a curator marked Python's wording
(`python_worded`) and wrote where the library raises it (`python_errors`).

The rule is applied where templates are built (`catalog/match.py`), so the message, cut, fuzzy
and older-release paths, and the site's search data built from the same templates, all agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

# A generated template needs this many literal words (two letters or more) to name an error by
# message alone, unless one of its fewer words is one the catalog's templates seldom use
# (`Leaked trace {t}`, `CustomCall failed: {e}`, `Invalid Filter: "{f}"` name their errors;
# `{dep} not found.`, `Unsupported dtype: {d}`, `Expected {a}, got {b}` do not). Measured on the
# catalog and the field pastes: docs/field.md ("Precision").
MIN_WORDS = 3
_WORD = re.compile(r"[A-Za-z]{2,}")
# The words (lowercased) 100 or more of the catalog's templates use (JAX's, XLA's and the
# libraries', current and older releases'): tests/catalog/test_specific.py checks the list still
# fits the catalog.
_COMMON = """
    all allowed already an and api are args argument arguments array arrays as async at
    attribute available axes axis backend batch batching be because been block both bounds
    broadcast buffer but by bytes call called can cannot check checkpoint client collective com
    complex computation config context convert core could count cpu custom data default
    deprecated device devices different dim dimension dimensions dims divisible do does dot
    dtype dtypes dynamic either element empty en equal error executable expected experimental
    failed false file first float for found from function gather general get github google got
    gpu has have host html https id if implemented in index indices input inputs instead
    instruction int integer interpreters invalid io is issue issues it its jax jaxpr jit jnp
    kernel key kind latest layout least length lhs local lowering map match memory mesh
    metadata method mismatch missing ml mode module more multiple must name names negative no
    non none not num number numpy object of on one only op open operand operands operation or
    out output outputs parameter parse partial pass passed path pjrt platform please process
    provided pytree range rank readthedocs ref reference removed requires result return rhs
    rule same scalar scan scatter see serialization set shape shapes shard sharding should
    single size sizes slice space spec specified specify start state static string support
    supported supports target than that the this tile tiling tmem to tpu transforms true tuple
    two type types unexpected unknown unsupported update use used using valid value values
    variable version via vs was when which while will with xla yet you your
"""
COMMON_WORDS = frozenset(_COMMON.split())

# What CPython 3.7-3.13 (the interpreter and its builtins) print, `{}` where it puts a value (a
# type or attribute name, a repr), `{n}` where it puts a count. Read by running code on each
# release, not typed from the documentation: tests/catalog/test_specific.py runs a program for
# every wording on each CPython it finds.
PYTHON_WORDINGS: tuple[str, ...] = (
    # AttributeError
    "'{}' object has no attribute '{}'",
    "'{}' object has no attribute '{}' and no __dict__ for setting new attributes",
    "module '{}' has no attribute '{}'",
    "type object '{}' has no attribute '{}'",
    "attribute '{}' of '{}' objects is not writable",
    "property '{}' of '{}' object has no setter",
    "can't set attribute '{}'",
    "can't set attribute",
    "readonly attribute",
    # calls
    "{}() takes {n} positional argument{} but {n} {} given",
    "{}() takes from {n} to {n} positional arguments but {n} {} given",
    "{}() takes {n} positional argument{} but {n} positional argument{} (and {n} keyword-only"
    " argument{}) were given",
    "{}() got an unexpected keyword argument '{}'",
    "{}() got multiple values for argument '{}'",
    "{}() got some positional-only arguments passed as keyword arguments: {}",
    "{}() missing {n} required positional argument{}: {}",
    "{}() missing {n} required keyword-only argument{}: {}",
    "{}() takes no arguments",
    "{}() takes no keyword arguments",
    "{}() takes exactly one argument ({n} given)",
    "object.__init__() takes exactly one argument (the instance to initialize)",
    "{} expected at most {n} argument{}, got {n}",
    "{}() argument after * must be an iterable, not {}",
    "{}() argument after ** must be a mapping, not {}",
    "__init__() should return None, not '{}'",
    "keywords must be strings",
    # operators and protocols
    "unsupported operand type(s) for {}: '{}' and '{}'",
    "unsupported operand type(s) for ** or pow(): '{}' and '{}'",
    "bad operand type for unary {}: '{}'",
    "'{}' not supported between instances of '{}' and '{}'",
    'can only concatenate {} (not "{}") to {}',
    "unhashable type: '{}'",
    "'{}' object is not callable",
    "'{}' object is not subscriptable",
    "'{}' object is not iterable",
    "'{}' object is not an iterator",
    "argument of type '{}' is not iterable",
    "'{}' object does not support item assignment",
    "'{}' object doesn't support item deletion",
    "cannot unpack non-iterable {} object",
    "object of type '{}' has no len()",
    "'{}' object cannot be interpreted as an integer",
    "{} indices must be integers or slices, not {}",
    "string indices must be integers, not '{}'",
    "string indices must be integers",
    "descriptor '{}' for '{}' objects doesn't apply to a '{}' object",
    "descriptor '{}' requires a '{}' object but received a '{}'",
    # conversions
    "invalid literal for int() with base {n}: {}",
    "could not convert string to float: {}",
    "int() argument must be a string, a bytes-like object or a real number, not '{}'",
    "int() argument must be a string, a bytes-like object or a number, not '{}'",
    "float() argument must be a string or a real number, not '{}'",
    "float() argument must be a string or a number, not '{}'",
    "cannot convert float NaN to integer",
    "cannot convert float infinity to integer",
    "int too large to convert to float",
    "cannot fit '{}' into an index-sized integer",
    # sequences and containers
    "not enough values to unpack (expected {n}, got {n})",
    "too many values to unpack (expected {n})",
    "list index out of range",
    "tuple index out of range",
    "string index out of range",
    "range object index out of range",
    "list assignment index out of range",
    "pop from empty list",
    "list.remove(x): x not in list",
    "tuple.index(x): x not in tuple",
    "{} is not in list",
    "{}() arg is an empty sequence",
    "{}() iterable argument is empty",
    "zip() argument {n} is shorter than argument{} {n}",
    "zip() argument {n} is longer than argument{} {n}",
    "dictionary changed size during iteration",
    "sequence item {n}: expected str instance, {} found",
    "reduce() of empty iterable with no initial value",
    "reduce() of empty sequence with no initial value",
    # arithmetic
    "division by zero",
    "float division by zero",
    "integer division or modulo by zero",
    "integer modulo by zero",
    "math domain error",
    # names, imports, classes
    "name '{}' is not defined",
    "cannot access local variable '{}' where it is not associated with a value",
    "local variable '{}' referenced before assignment",
    "No module named '{}'",
    "cannot import name '{}' from '{}' ({})",
    "cannot import name '{}' from '{}' (unknown location)",
    "Can't instantiate abstract class {} with abstract method{} {}",
    "Can't instantiate abstract class {} without an implementation for abstract method{} {}",
    "maximum recursion depth exceeded",
    "generator raised StopIteration",
    # formatting, builtins' arguments
    "not all arguments converted during string formatting",
    "not enough arguments for format string",
    "Unknown format code '{}' for object of type '{}'",
    "isinstance() arg 2 must be a type, a tuple of types, or a union",
    "isinstance() arg 2 must be a type or tuple of types",
    "attribute name must be string, not '{}'",
    "getattr(): attribute name must be string",
    # dataclasses (the standard library's)
    "cannot assign to field '{}'",
)

# A template's placeholder: any text. CPython's value: one name or repr (no space); a count.
_ANY = 0
_VALUE = 1
_COUNT = 2
_Pattern = tuple[str | int, ...]
_PYTHON_VALUE = re.compile(r"(\{n?\})")


def _tokens(parts: Sequence[str]) -> _Pattern:
    """Characters and placeholders: `parts` alternate literal text and placeholder kinds."""
    out: list[str | int] = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append({"": _ANY, "{}": _VALUE, "{n}": _COUNT}[part])
        else:
            out.extend(re.sub(r"\s+", " ", part))
    return tuple(out)


def _template(pieces: Sequence[str]) -> _Pattern:
    return _tokens([part for piece in pieces for part in ("", piece)][1:])


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _by_longest_word() -> dict[str, list[tuple[set[str], _Pattern]]]:
    """Each wording with its literal words, by its longest word: a template is walked beside the
    wordings whose longest word it holds (a cheap test first: thousands of templates are judged)."""
    index: dict[str, list[tuple[set[str], _Pattern]]] = {}
    for wording in PYTHON_WORDINGS:
        literal = _words(_PYTHON_VALUE.sub(" ", wording))
        index.setdefault(max(sorted(literal), key=len), []).append(
            (literal, _tokens(_PYTHON_VALUE.split(wording)))
        )
    return index


_PYTHON = _by_longest_word()


def _takes(kind: str | int | None, char: str | int | None) -> bool:
    """Whether one of CPython's values of this kind can hold the template's character."""
    if not isinstance(char, str):
        return False
    return char.isdigit() if kind == _COUNT else kind == _VALUE and char != " "


def _intersect(template: _Pattern, python: _Pattern) -> bool:
    """Whether some text is both the template (its placeholders any text) and the wording (its
    values names or counts): the two patterns walked side by side."""
    end = (len(template), len(python))
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        state = todo.pop()
        if state == end:
            return True
        if state in seen:
            continue
        seen.add(state)
        i, j = state
        left = template[i] if i < end[0] else None
        right = python[j] if j < end[1] else None
        if left == _ANY:
            todo.append((i + 1, j))  # the placeholder's value ends here
            if isinstance(right, str):
                todo.append((i, j + 1))  # ... or takes in the wording's character
        if right in (_VALUE, _COUNT):
            todo.append((i, j + 1))
            if _takes(right, left):
                todo.append((i + 1, j))  # a value takes in the template's character
        if isinstance(left, str) and left == right:
            todo.append((i + 1, j + 1))
    return False


def python_worded(pieces: Sequence[str]) -> bool:
    """Whether the template whose literal pieces these are (placeholders between them) matches
    text CPython itself prints: the wording it reproduces is Python's, not the raise's own."""
    return _python_worded(pieces, set(_WORD.findall(" ".join(pieces))))


def _python_worded(pieces: Sequence[str], words: set[str]) -> bool:
    variants = [tuple(pieces)]
    # The matcher reads a template's final full stop as optional (`catalog/match.py`).
    if pieces and pieces[-1].rstrip().endswith(".") and pieces[-1].strip() != ".":
        variants.append((*pieces[:-1], pieces[-1].rstrip()[:-1]))
    for key in words & _PYTHON.keys():
        for python_words, wording in _PYTHON[key]:
            # Most of the wording's words are the template's own text, not its placeholders'
            # values ("expected {a}, got {b}" is no "{} expected at most {n} argument{}, got {n}").
            if 2 * len(words & python_words) < len(python_words):
                continue
            if any(_intersect(_template(v), wording) for v in variants):
                return True
    return False


def too_few_words(pieces: Sequence[str]) -> bool:
    """Whether the template's literal text is fewer than `MIN_WORDS` words, all common ones."""
    return _too_few(_WORD.findall(" ".join(pieces)))


def _too_few(words: list[str]) -> bool:
    return len(words) < MIN_WORDS and all(word.lower() in COMMON_WORDS for word in words)


@cache
def _says_enough(pieces: tuple[str, ...]) -> bool:
    words = _WORD.findall(" ".join(pieces))
    return not _too_few(words) and not _python_worded(pieces, set(words))


def says_enough(pieces: Sequence[str]) -> bool:
    """Whether a generated template, by its literal pieces, names an error by its message alone:
    enough words of its own (`too_few_words`), and not a wording of Python's (`python_worded`)."""
    return _says_enough(tuple(pieces))
