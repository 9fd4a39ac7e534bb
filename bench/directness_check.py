"""Hover order against an outside truth: the errors JAX's own tests expect from an API call.

JAX's test suite wraps API calls in `self.assertRaisesRegex(Exc, regex)` / `pytest.raises(Exc,
match=regex)`. For each such block we take the public API its statement calls (resolved through
the test file's imports: `jnp.arange(...)` -> `jax.numpy.arange`) and the asserted error; when
the error is catalogued (an entry of the same class whose wording the regex finds), we look for it
in the API's hover list (`Catalog.for_api`, the order the hover shows) and report how often it is
among the first K.

    git -C <jax checkout> show jax-v0.10.2:tests/...   (or any checkout's tests/ folder)
    .venv/bin/python bench/directness_check.py --tests /path/to/jax/tests [--catalog DIR]

Nothing of JAX's tests is copied or stored: they are read, and only counts are printed.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from jaxerr_ls.analysis.call_shape import call_shape
from jaxerr_ls.catalog.load import load_catalog
from jaxerr_ls.catalog.model import Catalog, Entry
from jaxerr_ls.extract.walk import chain_of
from jaxerr_ls.render.hover_rank import rank_hover
from jaxerr_ls.resolve import public_name

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_META = re.compile(r"(?<!\\)[.^$*+?{}\[\]|()]")
MIN_LITERAL = 15


@dataclass(frozen=True)
class Pair:
    api: str
    exception: str
    regex: str
    where: str
    # Where the call starts (1-based line, 0-based column), for the call's shape (`--shape`).
    path: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


def imports_of(tree: ast.Module) -> dict[str, str]:
    """Local name -> dotted module/object path, for `jax` imports of a test module."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    head = alias.name.split(".", 1)[0]
                    names[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return {k: v for k, v in names.items() if v == "jax" or v.startswith("jax.")}


def called_api(statement: ast.stmt, names: dict[str, str]) -> str | None:
    """The API a statement calls: the outermost call, `jit(f)(x)` read as `jit`."""
    value = getattr(statement, "value", None)
    if not isinstance(value, ast.Call):
        return None
    func: ast.expr = value.func
    while isinstance(func, ast.Call):
        func = func.func
    parts = chain_of(func)
    if parts is None or parts[0] not in names:
        return None
    return ".".join([names[parts[0]], *parts[1:]])


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # f-strings: their literal text only
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant)) or None
    return None


def expectation(call: ast.Call) -> tuple[str, str] | None:
    """(exception, regex) of `assertRaisesRegex(Exc, regex)` / `pytest.raises(Exc, match=r)`."""
    parts = chain_of(call.func)
    if not parts or not call.args:
        return None
    exception = chain_of(call.args[0])
    if exception is None:
        return None
    if parts[-1] in ("assertRaisesRegex", "assertRaisesRegexp") and len(call.args) >= 2:
        regex = _literal(call.args[1])
    elif parts[-1] == "raises" and parts[0] == "pytest":
        regex = next((_literal(k.value) for k in call.keywords if k.arg == "match"), None)
    else:
        return None
    return (exception[-1], regex) if regex else None


def pairs_in(path: Path) -> Iterator[Pair]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return
    names = imports_of(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.With):
            continue
        for item in node.items:
            if not isinstance(item.context_expr, ast.Call):
                continue
            found = expectation(item.context_expr)
            if found is None:
                continue
            for statement in node.body:
                api = called_api(statement, names)
                if api is not None:
                    where = f"{path.name}:{statement.lineno}"
                    line, column = statement.lineno, getattr(statement, "col_offset", 0)
                    value = getattr(statement, "value", None)
                    if isinstance(value, ast.Call):
                        func = value.func
                        while isinstance(func, ast.Call):
                            func = func.func
                        # the last name of the callee: where a hover on the API sits
                        line, column = (
                            func.end_lineno or line,
                            max(0, (func.end_col_offset or 1) - 1),
                        )
                    yield Pair(api, found[0], found[1], where, str(path), line, column)


def asserted(entry: Entry, exception: str, regex: re.Pattern[str], literal: str) -> bool:
    if exception not in (entry.exception, "Exception"):
        return False
    for text in (entry.message, *(w.message for w in entry.wordings)):
        bare = _PLACEHOLDER.sub("", text)
        if regex.search(text) or regex.search(bare):
            return True
        if len(literal) >= MIN_LITERAL and literal in text:
            return True
    return False


def literal_head(regex: str) -> str:
    found = _META.search(regex)
    head = regex[: found.start()] if found else regex
    return head.replace("\\", "")


def hover_order(catalog: Catalog, api: str, pair: Pair, shape: bool) -> list[str]:
    """The hover's entries for the call: the catalog's order for the API, and with `shape` what
    the call's shape points at first (`analysis/call_shape.py`, as the server ranks them)."""
    own = catalog.for_api(api)
    if not shape or not pair.path:
        return [e.id for e in own]
    source = Path(pair.path).read_text(encoding="utf-8")
    found = call_shape(source, pair.line - 1, pair.column, api)
    shaped = [e for e in map(catalog.get, found.entry_ids) if e is not None]
    return [e.id for e in rank_hover(own, (), shaped).entries]


def measure(
    catalog: Catalog, pairs: list[Pair], tops: tuple[int, ...], shape: bool = False
) -> dict[str, object]:
    apis = list(catalog.by_api)
    known: dict[str, str | None] = {}
    counted = 0
    within = dict.fromkeys(tops, 0)
    listed = 0
    for pair in pairs:
        try:
            regex = re.compile(pair.regex, re.DOTALL)
        except re.error:
            continue
        literal = literal_head(pair.regex)
        matching = {e.id for e in catalog.entries if asserted(e, pair.exception, regex, literal)}
        if not matching:
            continue  # not a catalogued error: nothing to rank
        if pair.api not in known:
            known[pair.api] = public_name(pair.api, apis)
        api = known[pair.api]
        counted += 1
        ranked = hover_order(catalog, api, pair, shape) if api else []
        rank = next((i for i, entry_id in enumerate(ranked) if entry_id in matching), None)
        if rank is None:
            continue
        listed += 1
        for top in tops:
            if rank < top:
                within[top] += 1
    return {"pairs": counted, "listed": listed, **{f"top{k}": v for k, v in within.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--tests", type=Path, required=True, help="JAX's tests/ folder")
    parser.add_argument("--catalog", type=Path, default=None, help="catalog dir (default: ours)")
    parser.add_argument(
        "--shape", action="store_true", help="rank as the hover does with the call's shape"
    )
    args = parser.parse_args()
    files = sorted(args.tests.rglob("*.py"))
    pairs = sorted({p for f in files for p in pairs_in(f)}, key=lambda p: p.where)
    unique = list({(p.api, p.exception, p.regex): p for p in pairs}.values())
    catalog = load_catalog(args.catalog, cache_dir=None)
    found = measure(catalog, unique, (1, 3, 5, 10), args.shape)
    total = int(str(found["pairs"])) or 1
    print(f"{len(files)} test files, {len(unique)} (API call, asserted error) pairs")
    print(f"catalogued errors among them: {found['pairs']}")
    for key in ("top1", "top3", "top5", "top10", "listed"):
        value = int(str(found[key]))
        print(f"  {key:>6}: {value:5d}  {100 * value / total:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
