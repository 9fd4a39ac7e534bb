"""`jaxerr-ls catalog extract`: the raise sites of JAX (and of the libraries used with it, see
`libraries.py`), read from their sources (never imported)."""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from jaxerr_ls.extract.apis import (
    MAX_HOPS,
    Resolver,
    build_graph,
    public_roots,
    public_targets,
    reach,
)
from jaxerr_ls.extract.index import (
    IndexedError,
    group_errors,
    render_index,
    site_apis,
    skip_counts,
)
from jaxerr_ls.extract.libraries import LIBRARIES, adjust_sites, library_of, shortest_names
from jaxerr_ls.extract.messages import Hole, Lit, parse_template, render
from jaxerr_ls.extract.releases import Change, Release, merge_releases, render_releases
from jaxerr_ls.extract.sites import HelperCall, MessageHelper, RaiseSite, Skipped
from jaxerr_ls.extract.source import Source, SourceError, read_source
from jaxerr_ls.extract.walk import ModuleFacts, analyse

_Defined = TypeVar("_Defined")

__all__ = ["Extraction", "extract", "extract_source", "main"]

# Below this many files a process pool costs more than it saves.
_POOL_MIN_FILES = 64


@dataclass(frozen=True)
class Extraction:
    version: str
    source: str
    errors: tuple[IndexedError, ...]
    sites: tuple[RaiseSite, ...]
    skipped: tuple[Skipped, ...]
    public_apis: int  # public names found (functions, classes, methods)
    package: str = "jax"
    # Public name -> `module:name` of its definition (two names, one target: the same object).
    targets: Mapping[str, str] = field(default_factory=dict)

    @property
    def skip_counts(self) -> dict[str, int]:
        return skip_counts(self.skipped)

    def apis_with_errors(self) -> set[str]:
        return {api for error in self.errors for api in error.apis}

    def render(self) -> str:
        return render_index(self.version, self.source, self.errors, self.skip_counts)


@contextmanager
def _no_gc() -> Iterator[None]:
    """Thousands of live syntax trees make the cyclic collector dominate; nothing here cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _analyse_batch(
    items: list[tuple[str, str]], class_messages: bool = False
) -> list[ModuleFacts | str]:
    with _no_gc():
        return [analyse(relative, text, class_messages) for relative, text in items]


def _analyse_all(
    source: Source, jobs: int, class_messages: bool = False
) -> list[tuple[str, ModuleFacts | str]]:
    items = sorted(source.files.items())
    if jobs <= 1 or len(items) < _POOL_MIN_FILES:
        return list(zip([r for r, _ in items], _analyse_batch(items, class_messages), strict=True))
    # Interleaved batches balance big and small files across workers; order is restored below.
    batches = [items[i::jobs] for i in range(jobs)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(_analyse_batch, batches, [class_messages] * jobs))
    out = [
        (relative, fact)
        for batch, facts in zip(batches, results, strict=True)
        for (relative, _), fact in zip(batch, facts, strict=True)
    ]
    return sorted(out, key=lambda pair: pair[0])


def extract_source(
    source: Source, jobs: int = 2, max_hops: int = MAX_HOPS, class_messages: bool = False
) -> Extraction:
    """Every release's `raise factory(...)` is read as the class and message the factory builds
    (`exception_factories`). `class_messages`: also the messages exception classes build in
    `__init__` (used for the releases before the main index, whose tracer errors word their
    message there), those of message helpers (`message_helpers`) and those of `assert test,
    msg` statements (as `AssertionError`)."""
    library = library_of(source.package)
    # The libraries are read as the older releases are: their asserts and message helpers too
    # (Flax's `assert rng is not None, 'Need PRNG for "params"'`).
    class_messages = class_messages or library is not None
    analysed = _analyse_all(source, jobs, class_messages)
    modules: dict[str, ModuleFacts] = {}
    skipped: list[Skipped] = []
    for relative, facts in analysed:
        if isinstance(facts, str):
            skipped.append(Skipped(relative, 1, f"file not parsed ({facts.split(':', 1)[0]})"))
            continue
        modules[facts.module] = facts
        skipped.extend(facts.skipped)
    with _no_gc():
        resolver = Resolver(modules)
        graph = build_graph(modules, resolver)
        roots = public_roots(modules, resolver, source.package, plain_imports=library is not None)
        if library is not None:
            roots = shortest_names(roots)
        reached = reach(graph, roots, max_hops)
    # `raise factory(...)` prints the class and message the factory builds, in every release.
    modules, skipped = exception_factories(modules, skipped)
    if class_messages:
        modules, skipped = message_helpers(modules, skipped)
    # Warnings are pasted as often as errors (issue 18): JAX's and the libraries' alike
    # (Equinox's "A JAX array is being set as static!").
    found = [s for m in modules.values() for s in (*m.sites, *m.warned)]
    if library is not None:
        # A library's classes word their messages with their raises (`classes.py`): a
        # constructor's own `super().__init__(...)` is no error of its own.
        found = [s for s in found if not s.function.endswith(f"{s.exception}.__init__")]
        found, skipped = adjust_sites(library, found, skipped, modules, resolver)
    sites = tuple(sorted(found, key=_site_key))
    prefix = library.name if library is not None else "jax"
    errors = tuple(group_errors(site_apis(sites, reached, roots), prefix))
    return Extraction(
        version=source.version,
        source=source.label,
        errors=errors,
        sites=sites,
        skipped=tuple(sorted(skipped, key=lambda s: (s.file, s.line))),
        public_apis=len({api for apis in roots.values() for api in apis}),
        package=source.package,
        targets=public_targets(modules, resolver),
    )


# Skips whose `raise` calls nothing (a factory is called: `raise factory(...)`).
_NOT_CALLED = frozenset(
    {
        "bare raise (re-raises the current exception)",
        "raises an exception object or class without a message",
    }
)


def _defined_for(
    found: Mapping[str, _Defined] | None, module: str, wording: Callable[[_Defined], Hashable]
) -> _Defined | None:
    """The definition of a name a raise in `module` calls: the module's own, else the one
    wording every module defining the name agrees on (None when they differ)."""
    if not found:
        return None
    if module in found:
        return found[module]
    return next(iter(found.values())) if len({wording(d) for d in found.values()}) == 1 else None


def exception_factories(
    modules: Mapping[str, ModuleFacts], skipped: Sequence[Skipped]
) -> tuple[dict[str, ModuleFacts], list[Skipped]]:
    """`raise factory(...)` where `factory` is a module-level function of the release that
    returns `SomeError(<message>)`: the raise site prints the factory's class and message
    (jax2tf's `raise _xla_disabled_error("pad")` -> `NotImplementedError: Call to
    {primitive_name} can only be converted through TFXLA, but XLA is disabled`). Read as the
    call names it (`core.escaped_tracer_error` -> `escaped_tracer_error`); a name several
    modules define with different messages is taken from the raising module only."""
    by_name: dict[str, dict[str, RaiseSite]] = {}
    for module, facts in modules.items():
        for made in facts.factories:
            by_name.setdefault(made.function, {})[module] = made

    def factory(module: str, name: str) -> RaiseSite | None:
        return _defined_for(by_name.get(name), module, lambda m: (m.exception, m.template))

    def rebuilt(module: str, site: RaiseSite | Skipped) -> RaiseSite | None:
        made = factory(module, site.exception)
        if made is None:
            return None
        return RaiseSite(
            site.file, site.line, site.function, made.exception, made.template, site.condition
        )

    out: dict[str, ModuleFacts] = {}
    moved: set[tuple[str, int]] = set()
    for module, facts in modules.items():
        sites = list(facts.sites)
        changed = False
        for i, site in enumerate(sites):
            new = rebuilt(module, site)
            if new is not None:
                sites[i], changed = new, True
        for skip in facts.skipped:
            called = skip.exception and skip.reason not in _NOT_CALLED
            new = rebuilt(module, skip) if called else None
            if new is not None:
                sites.append(new)
                moved.add((skip.file, skip.line))
                changed = True
        out[module] = replace(facts, sites=tuple(sites)) if changed else facts
    return out, [s for s in skipped if (s.file, s.line) not in moved]


def message_helpers(
    modules: Mapping[str, ModuleFacts], skipped: Sequence[Skipped]
) -> tuple[dict[str, ModuleFacts], list[Skipped]]:
    """`raise E(helper(...))` where `helper` is a module-level function of the release whose
    every `return` gives one template (JAX 0.1's `concretization_err_msg(fun)`: "Abstract value
    passed to `{fname}`, which requires a concrete value. ..."): the raise site prints E and that
    template, a parameter the call leaves out worded as its literal default. Found by name as
    `exception_factories` finds factories."""
    by_name: dict[str, dict[str, MessageHelper]] = {}
    for module, facts in modules.items():
        for helper in facts.helpers:
            by_name.setdefault(helper.name, {})[module] = helper

    def helper_of(module: str, name: str) -> MessageHelper | None:
        return _defined_for(by_name.get(name), module, lambda h: (h.template, h.defaults))

    out: dict[str, ModuleFacts] = {}
    moved: set[tuple[str, int]] = set()
    for module, facts in modules.items():
        sites: list[RaiseSite] = []
        for skip in facts.skipped:
            call = skip.helper
            found = helper_of(module, call.name) if call and skip.exception else None
            if call is None or found is None:
                continue
            template = _worded(found, call)
            sites.append(
                RaiseSite(
                    skip.file, skip.line, skip.function, skip.exception, template, skip.condition
                )
            )
            moved.add((skip.file, skip.line))
        out[module] = replace(facts, sites=(*facts.sites, *sites)) if sites else facts
    return out, [s for s in skipped if (s.file, s.line) not in moved]


def _worded(helper: MessageHelper, call: HelperCall) -> str:
    """The helper's template for one call: the parameters it leaves out that have a literal
    default read as that text."""
    if call.unpacked:
        return helper.template
    passed = {*helper.parameters[: min(call.positional, helper.positional)], *call.keywords}
    left_out = {name: text for name, text in helper.defaults if name not in passed}
    if not left_out:
        return helper.template
    pieces = [
        Lit(left_out[p.name]) if isinstance(p, Hole) and p.name in left_out else p
        for p in parse_template(helper.template)
    ]
    return render(pieces)


def _site_key(site: RaiseSite) -> tuple[str, int]:
    return (site.file, site.line)


def extract(
    path: Path,
    jobs: int = 2,
    max_hops: int = MAX_HOPS,
    package: str = "jax",
    class_messages: bool = False,
) -> Extraction:
    return extract_source(read_source(path, package), jobs, max_hops, class_messages)


MULTI_INDEX = "releases.json.gz"


def default_out(version: str | None) -> Path:
    """`catalog/index/` of this repository when running from a checkout, else under the cwd;
    `jax-<version>.json` for one release, `releases.json.gz` (version None) for several."""
    repo = Path(__file__).resolve().parents[3]
    base = repo if (repo / "pyproject.toml").is_file() and (repo / "catalog").is_dir() else Path()
    return base / "catalog" / "index" / (f"jax-{version}.json" if version else MULTI_INDEX)


def changes_table(changes: Sequence[Change]) -> str:
    lines = ["  templates changed per release (vs the release before):"]
    for change in changes:
        lines.append(
            f"    {change.version:>9}  +{change.added:<4d} -{change.removed:<4d}"
            f" ({change.reworded} reworded at the same raise site)"
        )
    return "\n".join(lines)


def summary(result: Extraction, seconds: float, examples: int = 3) -> str:
    templates = len(result.errors)
    classes = len({e.exception for e in result.errors})
    lines = [
        f"{'JAX' if result.package == 'jax' else result.package} {result.version}"
        f" from {result.source}",
        f"  raise sites with a literal message: {len(result.sites)}"
        f" ({sum(1 for s in result.sites if s.exception.endswith('Warning'))} of them warnings)",
        f"  distinct templates: {templates}",
        f"  exception classes: {classes}",
        f"  public APIs reaching >= 1 error: {len(result.apis_with_errors())}"
        f" (of {result.public_apis} public names found)",
        f"  skipped: {len(result.skipped)} raise statements",
    ]
    for reason, count in sorted(result.skip_counts.items(), key=lambda kv: (-kv[1], kv[0])):
        seen = [f"{s.file}:{s.line}" for s in result.skipped if s.reason == reason][:examples]
        lines.append(f"    {count:5d}  {reason}  (e.g. {', '.join(seen)})")
    lines.append(f"  took {seconds:.1f} s")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="jaxerr-ls catalog extract",
        description="Index every raise with a literal message in a JAX source tree, "
        "installed jax package directory or jax wheel. Given several (e.g. every wheel of "
        "/work/wheels), write one multi-release index storing each template once with the "
        "releases that raise it. With --library, index a library used with JAX "
        f"({', '.join(LIBRARIES)}) into catalog/libraries/<name>.json.gz.",
    )
    parser.add_argument(
        "--from",
        dest="sources",
        default=[],
        type=Path,
        metavar="PATH",
        nargs="+",
        action="extend",
    )
    parser.add_argument(
        "--library",
        choices=[*LIBRARIES, "all"],
        default=None,
        help="index a library's wheels (--from) or, with --download, its pinned releases",
    )
    parser.add_argument(
        "--download",
        type=Path,
        default=None,
        metavar="DIR",
        help="with --library: fetch the pinned releases' wheels into DIR (pip download "
        "--no-deps; wheels already there are reused)",
    )
    parser.add_argument("--out", type=Path, default=None, metavar="FILE")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--max-hops",
        type=int,
        default=MAX_HOPS,
        help=f"calls followed from a public API to a raise (default {MAX_HOPS})",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.library is not None:
        from jaxerr_ls.extract.library_cli import run_libraries

        return run_libraries(args)
    if not args.sources:
        parser.error("--from is required (or --library)")
    started = time.perf_counter()
    results: list[Extraction] = []
    try:
        for source in args.sources:
            results.append(extract(source, jobs=args.jobs, max_hops=args.max_hops))
    except (SourceError, OSError) as exc:
        print(f"jaxerr-ls catalog extract: {exc}", file=sys.stderr)
        return 2
    if len(results) == 1:
        result = results[0]
        out: Path = args.out or default_out(result.version)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(result.render(), encoding="utf-8")
        print(summary(result, time.perf_counter() - started))
        print(f"  wrote {out}")
        return 0
    document, changes = merge_releases(Release(r.version, r.source, r.errors) for r in results)
    out = args.out or default_out(None)
    write_multi(document, changes, out, started)
    return 0


def write_multi(
    document: dict[str, object], changes: Sequence[Change], out: Path, started: float
) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(render_releases(document))
    errors = document["errors"]
    assert isinstance(errors, list)
    wordings = sum(1 + len(e.get("wordings", [])) for e in errors)
    print(f"{len(changes) + 1} releases: {', '.join(str(v) for v in document['releases'])}")  # type: ignore[attr-defined]
    print(changes_table(changes))
    print(f"  entries: {len(errors)}; wordings (templates stored): {wordings}")
    print(
        f"  took {time.perf_counter() - started:.1f} s; wrote {out} ({out.stat().st_size:,} bytes)"
    )
