"""`jaxerr-ls catalog extract-api WHEEL... [--earlier WHEEL...] [-o FILE]`: write the history."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from jaxerr_ls.upgrades.build import build_from_wheels, wheel_version
from jaxerr_ls.upgrades.libraries import (
    PIP_NAMES,
    build_library_history,
    wheel_release,
    write_histories,
)


def render(history: dict[str, object]) -> str:
    # One module per line: small, and diffs between regenerations stay readable.
    modules = history.get("modules", {})
    deprecations = history.get("deprecations", {})
    assert isinstance(modules, dict) and isinstance(deprecations, dict)

    def compact(value: object) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)

    lines = ["{", f'"format":{history["format"]},', f'"releases":{compact(history["releases"])},']
    lines.append('"modules":{')
    lines += [f"{compact(k)}:{compact(v)}," for k, v in sorted(modules.items())]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["},", '"deprecations":{']
    lines += [f"{compact(k)}:{compact(v)}," for k, v in sorted(deprecations.items())]
    lines[-1] = lines[-1].rstrip(",")
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="jaxerr-ls catalog extract-api",
        description="Build the API history from JAX wheels (read, never imported).",
    )
    parser.add_argument("wheels", nargs="+", type=Path, help="jax-<version>-py3-none-any.whl files")
    parser.add_argument(
        "--earlier",
        nargs="*",
        type=Path,
        default=[],
        help="older wheels: only their deprecation tables, for names gone before the first wheel",
    )
    parser.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    parser.add_argument(
        "--library",
        choices=sorted(PIP_NAMES),
        help="the wheels are this library's: merge its history into OUTPUT "
        "(catalog/library-api-history.json.gz)",
    )
    args = parser.parse_args(list(argv))
    if args.library:
        return _library(args.library, args.wheels, args.output)
    for path in [*args.wheels, *args.earlier]:
        if not path.is_file() or wheel_version(path) is None:
            print(f"jaxerr-ls catalog extract-api: not a JAX wheel: {path}", file=sys.stderr)
            return 2
    history = build_from_wheels(args.wheels, args.earlier)
    text = render(history)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        modules, releases = history["modules"], history["releases"]
        deprecations = history["deprecations"]
        assert isinstance(modules, dict) and isinstance(releases, list)
        assert isinstance(deprecations, dict)
        names = sum(len(m.get("names", {})) for m in modules.values())
        print(
            f"{args.output}: {len(releases)} releases, {len(modules)} modules, "
            f"{names} names, {len(deprecations)} deprecation messages, "
            f"{len(text.encode())} bytes",
            file=sys.stderr,
        )
    return 0


def _library(library: str, wheels: Sequence[Path], output: Path | None) -> int:
    prog = "jaxerr-ls catalog extract-api --library"
    if output is None:
        print(f"{prog}: -o FILE is required (the merged history file)", file=sys.stderr)
        return 2
    bad = [p for p in wheels if not p.is_file() or wheel_release(p, library) is None]
    if bad:
        print(f"{prog}: not a {library} wheel: {bad[0]}", file=sys.stderr)
        return 2
    history = build_library_history(library, wheels)
    size = write_histories(output, {library: history})
    modules = history["modules"]
    assert isinstance(modules, dict)
    print(
        f"{output}: {library} {', '.join(map(str, history['releases']))} "  # type: ignore[call-overload]
        f"({len(modules)} modules); file {size} bytes",
        file=sys.stderr,
    )
    return 0
