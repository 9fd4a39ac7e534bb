"""The libraries used with JAX whose raise sites the catalog holds, and what is particular to each.

Each is read like JAX (its wheels' sources, never imported) into `catalog/libraries/<name>.json.gz`
(the multi-release format of `releases.py`, ids `<name>-<hash>`, versions the library's own
releases). Two things differ from JAX and are applied here, statically:

- exception classes that word their own message (Flax's `flax.errors`, see `classes.py`);
- Chex's assertions print `[Chex] Assertion <name> failed: <message>` (its `chex_assertion`
  wrapper re-raises what the decorated `assert_*` function raised with that prefix); a message
  that opens with Chex's own prefix constant is raised outside the wrapper and prints only that.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from jaxerr_ls.extract.apis import Node, Resolver
from jaxerr_ls.extract.classes import Chain, apply_classes, resolve_classes
from jaxerr_ls.extract.sites import RaiseSite, Skipped
from jaxerr_ls.extract.walk import ModuleFacts


@dataclass(frozen=True)
class Prefix:
    """What an assertion wrapper prepends to the messages of one file's `assert_*` functions."""

    file: str
    exception: str
    wrapper: str  # printed prefix, `{function}` = the top-level `assert_*` function
    # A message opening with the library's own prefix constant (matched at the template's start)
    # is raised outside the wrapper and prints only the constant's value.
    own: re.Pattern[str] | None = None
    own_value: str = ""


@dataclass(frozen=True)
class Library:
    name: str  # the catalog's `library` tag and id prefix
    package: str  # dotted import name
    dist: str  # name on the package index
    # Releases committed: the newest and older ones whose wording differs (kept few: wheel size).
    releases: tuple[str, ...]
    docs: str  # documentation home, for entries without a page of their own
    prefixes: tuple[Prefix, ...] = ()
    # (release, name on the index) for releases published under an earlier name
    earlier: tuple[tuple[str, str], ...] = ()

    def dist_of(self, version: str) -> str:
        return dict(self.earlier).get(version, self.dist)


LIBRARIES: Mapping[str, Library] = {
    lib.name: lib
    for lib in (
        Library(
            "flax",
            "flax",
            "flax",
            (
                *("0.1.0", "0.2.0", "0.2.1", "0.2.2", "0.3.0", "0.3.1", "0.3.2", "0.3.3", "0.3.4"),
                *("0.3.5", "0.3.6", "0.4.0", "0.4.1", "0.4.2", "0.5.0", "0.5.1", "0.5.2", "0.5.3"),
                *("0.6.0", "0.6.1", "0.6.2", "0.6.3", "0.6.4", "0.6.6", "0.6.7", "0.6.8", "0.6.9"),
                *("0.6.10", "0.6.11", "0.7.0", "0.7.2", "0.7.4", "0.7.5", "0.8.0", "0.8.1"),
                *("0.8.2", "0.8.3", "0.8.4", "0.8.5", "0.9.0", "0.10.0", "0.10.1", "0.10.2"),
                *("0.10.3", "0.10.4", "0.10.5", "0.10.6", "0.10.7", "0.11.0", "0.11.1", "0.11.2"),
                *("0.12.0", "0.12.1", "0.12.2", "0.12.3", "0.12.4", "0.12.5", "0.12.6", "0.12.7"),
                *("0.12.8",),
            ),
            "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html",
        ),
        Library(
            "equinox",
            "equinox",
            "equinox",
            (
                *("0.0.1", "0.0.2", "0.0.3", "0.1.0", "0.1.1", "0.1.2", "0.1.3", "0.1.4", "0.1.5"),
                *("0.1.6", "0.2.0", "0.2.1", "0.2.2", "0.3.0", "0.3.1", "0.3.2", "0.4.0", "0.5.0"),
                *("0.5.1", "0.5.2", "0.5.3", "0.5.4", "0.5.5", "0.5.6", "0.6.0", "0.7.0", "0.7.1"),
                *("0.8.0", "0.9.0", "0.9.1", "0.9.2", "0.10.0", "0.10.1", "0.10.2", "0.10.3"),
                *("0.10.4", "0.10.5", "0.10.6", "0.10.10", "0.10.11", "0.11.0", "0.11.1"),
                *("0.11.2", "0.11.3", "0.11.4", "0.11.5", "0.11.6", "0.11.7", "0.11.8", "0.11.9"),
                *("0.11.10", "0.11.11", "0.11.12", "0.12.0", "0.12.1", "0.12.2", "0.13.0"),
                *("0.13.1", "0.13.2", "0.13.3", "0.13.4", "0.13.5", "0.13.6", "0.13.7", "0.13.8"),
            ),
            "https://docs.kidger.site/equinox/",
        ),
        Library(
            "optax",
            "optax",
            "optax",
            (
                *("0.0.1", "0.0.2", "0.0.3", "0.0.5", "0.0.6", "0.0.8", "0.0.9", "0.0.91"),
                *("0.1.0", "0.1.1", "0.1.2", "0.1.3", "0.1.4", "0.1.5", "0.1.7", "0.1.8", "0.1.9"),
                *("0.2.0", "0.2.1", "0.2.2", "0.2.3", "0.2.4", "0.2.5", "0.2.6", "0.2.7", "0.2.8"),
            ),
            "https://optax.readthedocs.io/",
        ),
        Library(
            "orbax",
            "orbax.checkpoint",
            "orbax-checkpoint",
            (
                *("0.0.23", "0.1.0", "0.1.4", "0.1.6", "0.1.7", "0.1.8"),
                *("0.2.0", "0.2.1", "0.2.2", "0.2.3", "0.2.4", "0.2.5", "0.2.6", "0.2.7", "0.3.0"),
                *("0.3.1", "0.3.2", "0.3.3", "0.3.4", "0.3.5", "0.4.0", "0.4.1", "0.4.2", "0.4.3"),
                *("0.4.4", "0.4.5", "0.4.6", "0.4.7", "0.4.8", "0.5.0", "0.5.1", "0.5.2", "0.5.3"),
                *("0.5.4", "0.5.5", "0.5.6", "0.5.7", "0.5.8", "0.5.9", "0.5.10", "0.5.11"),
                *("0.5.12", "0.5.13", "0.5.14", "0.5.15", "0.5.16", "0.5.17", "0.5.18", "0.5.19"),
                *("0.5.20", "0.5.21", "0.5.22", "0.5.23", "0.6.0", "0.6.1", "0.6.2", "0.6.3"),
                *("0.6.4", "0.7.0", "0.8.0", "0.9.0", "0.9.1", "0.10.0", "0.10.1", "0.10.2"),
                *("0.10.3", "0.11.0", "0.11.1", "0.11.2", "0.11.3", "0.11.4", "0.11.5", "0.11.6"),
                *("0.11.7", "0.11.8", "0.11.9", "0.11.10", "0.11.11", "0.11.12", "0.11.13"),
                *("0.11.14", "0.11.15", "0.11.16", "0.11.17", "0.11.18", "0.11.19", "0.11.20"),
                *("0.11.21", "0.11.22", "0.11.23", "0.11.24", "0.11.25", "0.11.26", "0.11.27"),
                *("0.11.28", "0.11.30", "0.11.31", "0.11.32", "0.11.33", "0.11.34", "0.11.35"),
                *("0.11.36", "0.11.37", "0.11.38", "0.11.39", "0.11.40", "0.12.0", "0.12.1"),
                *("0.12.2", "0.12.3", "0.12.4", "0.12.5", "0.12.6", "0.12.7", "0.12.8"),
            ),
            "https://orbax.readthedocs.io/en/latest/",
            # `orbax` held `orbax/checkpoint/` until `orbax-checkpoint` 0.1.1 (2023) took it over;
            # that release and 0.0.0 hold no module (left out)
            earlier=(("0.0.23", "orbax"), ("0.1.0", "orbax")),
        ),
        Library(
            "chex",
            "chex",
            "chex",
            (
                *("0.0.1", "0.0.2", "0.0.3", "0.0.4", "0.0.5", "0.0.6", "0.0.7", "0.0.8", "0.0.9"),
                *("0.1.0", "0.1.1", "0.1.2", "0.1.3", "0.1.4", "0.1.5", "0.1.6", "0.1.7"),
                *("0.1.81", "0.1.82", "0.1.83", "0.1.84", "0.1.85", "0.1.86", "0.1.87", "0.1.88"),
                *("0.1.89", "0.1.90", "0.1.91", "0.1.92"),
            ),
            "https://chex.readthedocs.io/",
            (
                Prefix(
                    "chex/_src/asserts.py",
                    "AssertionError",
                    "[Chex] Assertion {function} failed: ",
                    # `{_ai.ERR_PREFIX}Function 'f' is traced > 1 times!` is raised by the
                    # function `assert_max_traces` decorates, at call time (chex#210).
                    re.compile(r"\A\{(?:_ai\.|_)?ERR_PREFIX\}"),
                    "[Chex] ",
                ),
            ),
        ),
    )
}


def library_of(package: str) -> Library | None:
    """The library whose import name is `package`; None for JAX itself."""
    return next((lib for lib in LIBRARIES.values() if lib.package == package), None)


def adjust_sites(
    library: Library,
    sites: Iterable[RaiseSite],
    skipped: Iterable[Skipped],
    modules: Mapping[str, ModuleFacts],
    resolver: Resolver,
) -> tuple[list[RaiseSite], list[Skipped]]:
    """The library's sites as their messages print: class-worded messages, Chex's prefix."""

    def base(module: str, chain: Chain) -> tuple[str, str] | None:
        target = resolver.resolve_chain(module, chain)
        return (target.module, target.name) if target and target.kind == "class" else None

    resolved = resolve_classes({m: f.classes for m, f in modules.items()}, base)
    out_sites, out_skipped = apply_classes(sites, skipped, resolved)
    for prefix in library.prefixes:
        out_sites = [_prefixed(s, prefix) for s in out_sites]
    return out_sites, out_skipped


def shortest_names(roots: Mapping[Node, set[str]]) -> dict[Node, set[str]]:
    """A library's modules are public by name (`flax.linen.module`), so one function is reached
    as `flax.linen.Module.apply` and `flax.linen.module.Module.apply`: keep the shortest names
    (what users import), not every module path to the same code."""
    out: dict[Node, set[str]] = {}
    for node, names in roots.items():
        fewest = min(name.count(".") for name in names)
        out[node] = {name for name in names if name.count(".") == fewest}
    return out


def _prefixed(site: RaiseSite, prefix: Prefix) -> RaiseSite:
    top = site.function.split(".", 1)[0]
    if site.file != prefix.file or site.exception != prefix.exception:
        return site
    if not top.startswith("assert_"):
        return site
    own = prefix.own.match(site.template) if prefix.own else None
    if own is not None:
        return replace(site, template=prefix.own_value + site.template[own.end() :])
    return replace(site, template=prefix.wrapper.replace("{function}", top) + site.template)


def out_path(name: str) -> Path:
    """`catalog/libraries/<name>.json.gz` of this checkout, else under the cwd."""
    repo = Path(__file__).resolve().parents[3]
    base = repo if (repo / "pyproject.toml").is_file() and (repo / "catalog").is_dir() else Path()
    return base / "catalog" / "libraries" / f"{name}.json.gz"


def download(library: Library, into: Path, releases: Sequence[str] = ()) -> list[Path]:
    """The library's wheels (`pip download --no-deps`, reusing what `into` already holds)."""
    into.mkdir(parents=True, exist_ok=True)
    wheels: list[Path] = []
    for version in releases or library.releases:
        dist = library.dist_of(version)
        stem = dist.replace("-", "_")
        found = sorted(into.glob(f"{stem}-{version}-*.whl"))
        if not found:
            command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
            command += ["--only-binary=:all:", "--dest", str(into), f"{dist}=={version}"]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            found = sorted(into.glob(f"{stem}-{version}-*.whl"))
            if not found:
                raise OSError(f"pip download {dist}=={version} failed: {done.stderr[-400:]}")
        wheels.append(found[0])
    return wheels
