"""The `jaxerr-ls` command: serve (default), explain, run, catalog."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jaxerr_ls.version import __version__

if TYPE_CHECKING:
    from jaxerr_ls.catalog import Catalog
    from jaxerr_ls.render.terminal import Style

# The catalog, matcher and renderers are imported inside the commands that use them, so that
# `serve` starts without paying for them (the server loads the catalog its own way).


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jaxerr-ls",
        description="JAX's error knowledge in the editor: a language server and its command line.",
    )
    parser.add_argument("--version", action="version", version=f"jaxerr-ls {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = commands.add_parser("serve", help="run the language server (default; stdio)")
    _server_options(serve)

    explain = commands.add_parser("explain", help="explain the tracebacks in a text")
    explain.add_argument(
        "file", nargs="?", default="-", help="a file, a .ipynb notebook, or - for stdin (default)"
    )
    explain.add_argument("--json", action="store_true", help="print JSON (see design.md)")
    explain.add_argument("--root", type=Path, help="workspace root to locate files in")

    run = commands.add_parser("run", help="run a command; explain the traceback if it fails")
    run.add_argument("--root", type=Path, default=None, help="where .jaxerr/ goes (default: .)")
    run.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD [ARGS...]")

    fix = commands.add_parser("fix", help="run a command; apply fixes until it runs")
    fix.add_argument(
        "--root", type=Path, default=None, help="only edit files under DIR (default: .)"
    )
    fix.add_argument("--unsafe", action="store_true", help="also apply fixes that change behaviour")
    fix.add_argument("--dry-run", action="store_true", help="print the first diff; change nothing")
    fix.add_argument("--max", type=int, default=5, metavar="N", help="at most N rounds (default 5)")
    fix.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD [ARGS...]")

    check = commands.add_parser(
        "check", help="warn where JAX will raise, before running (exit 1 on findings)"
    )
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or directories (default: .)")
    check.add_argument("--json", action="store_true", help="print a JSON list (see design.md)")
    check.add_argument(
        "--jax",
        metavar="VERSION",
        help="check JAX names against this release (default: the installed jax, else the newest)",
    )
    check.add_argument(
        "--fix", action="store_true", help="rename removed JAX names where a drop-in exists"
    )

    catalog = commands.add_parser("catalog", help="browse, check and regenerate the catalog")
    actions = catalog.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="list entries")
    listing.add_argument("--curated", action="store_true", help="curated entries only")
    listing.add_argument("--json", action="store_true")
    show = actions.add_parser("show", help="show one entry")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    actions.add_parser("validate", help="check every catalog file; exit 1 on problems")
    site = actions.add_parser("site", help="write the catalog as a static site (works offline)")
    site.add_argument("out", type=Path, help="the folder to write (created)")
    actions.add_parser("extract", help="regenerate the index from JAX's source", add_help=False)
    actions.add_parser("extract-api", help="rebuild the API history from wheels", add_help=False)
    actions.add_parser(
        "extract-xla", help="regenerate XLA's and jaxlib's C++ messages", add_help=False
    )
    actions.add_parser(
        "extract-mlir", help="regenerate Mosaic's and Triton's MLIR diagnostics", add_help=False
    )
    return parser


def _server_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="use stdio (the default; ignored)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`| head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (
        args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")
    ):
        args_list = ["serve", *args_list]
    if args_list[:2] == ["catalog", "extract"]:
        from jaxerr_ls.extract import main as extract_main

        return extract_main(args_list[2:])
    if args_list[:2] == ["catalog", "extract-xla"]:
        from jaxerr_ls.extract.xla import main as extract_xla_main

        return extract_xla_main(args_list[2:])
    if args_list[:2] == ["catalog", "extract-mlir"]:
        from jaxerr_ls.extract.mlir_cli import main as extract_mlir_main

        return extract_mlir_main(args_list[2:])
    if args_list[:2] == ["catalog", "extract-api"]:
        from jaxerr_ls.upgrades.extract_cli import main as extract_api_main

        return extract_api_main(args_list[2:])
    args = _parser().parse_args(args_list)
    if args.command == "serve":
        from jaxerr_ls.shells.lsp.server import start

        return start(tcp=args.tcp, verbose=args.verbose)
    if args.command == "explain":
        return _explain(args.file, args.json, args.root)
    if args.command == "check":
        from jaxerr_ls.shells.cli.check import run_check

        return run_check(args.paths, args.json, jax_version=args.jax, fix=args.fix)
    if args.command == "run":
        from jaxerr_ls.shells.cli.run import run_command

        command = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
        if not command:
            print(
                "jaxerr-ls run: nothing to run; usage: jaxerr-ls run -- CMD [ARGS...]",
                file=sys.stderr,
            )
            return 2
        return run_command(command, args.root or Path.cwd())
    if args.command == "fix":
        return _fix(args)
    return _catalog(args)


def _fix(args: argparse.Namespace) -> int:
    from jaxerr_ls.shells.cli.fix import fix_command

    command = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not command:
        print(
            "jaxerr-ls fix: nothing to run; usage: jaxerr-ls fix -- CMD [ARGS...]", file=sys.stderr
        )
        return 2
    root = args.root or Path.cwd()
    if not root.is_dir():
        print(f"jaxerr-ls fix: --root {root} is not a directory", file=sys.stderr)
        return 2
    if args.max < 1:
        print("jaxerr-ls fix: --max must be at least 1", file=sys.stderr)
        return 2
    return fix_command(command, root, unsafe=args.unsafe, dry_run=args.dry_run, max_rounds=args.max)


def _read(source: str) -> str | None:
    try:
        if source == "-":
            return sys.stdin.buffer.read().decode("utf-8", errors="replace")
        return Path(source).read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        print(f"jaxerr-ls explain: cannot read {source}: {reason}", file=sys.stderr)
        return None


def _style() -> Style:
    from jaxerr_ls.render.terminal import Style

    return Style(color=sys.stdout.isatty() and "NO_COLOR" not in os.environ)


def _explain(source: str, as_json: bool, root: Path | None) -> int:
    text = _read(source)
    if text is None:
        return 2
    if root is not None and not root.is_dir():
        print(f"jaxerr-ls explain: --root {root} is not a directory", file=sys.stderr)
        return 2
    from jaxerr_ls.catalog import Matcher, load_catalog
    from jaxerr_ls.explain import explain_notebook, explain_text
    from jaxerr_ls.render.terminal import render_explanations
    from jaxerr_ls.tracebacks.ipynb import parse_notebook

    matcher = Matcher(load_catalog())
    notebook = (
        parse_notebook(text, str(Path(source).resolve())) if source.endswith(".ipynb") else None
    )
    if source.endswith(".ipynb") and notebook is None:
        print(f"jaxerr-ls explain: {source} is not a notebook (nbformat 4 JSON)", file=sys.stderr)
        return 2
    if notebook is not None:
        explanations = explain_notebook(notebook, matcher, root)
    else:
        explanations = explain_text(text, matcher, root=root or Path.cwd())
    if as_json:
        print(json.dumps({"tracebacks": [e.to_json() for e in explanations]}, indent=2))
    else:
        sys.stdout.write(render_explanations(explanations, _style()))
    return 0


def _catalog(args: argparse.Namespace) -> int:
    from jaxerr_ls.catalog import load_catalog
    from jaxerr_ls.catalog.validate import validate_catalog
    from jaxerr_ls.render.facts import catalog_releases
    from jaxerr_ls.render.terminal import render_entry_page

    catalog = load_catalog()
    if args.action == "site":
        return _site(catalog, args.out)
    if args.action == "list":
        return _list(catalog, args.curated, args.json)
    if args.action == "show":
        from jaxerr_ls.catalog.older import load_older

        # With the releases before the main index that raised it (or an entry only they raise).
        older = load_older(catalog)
        entry = catalog.get(args.id)
        if entry is None and older is not None:
            entry = next((e for e in older.entries if e.id == args.id), None)
        if entry is None:
            print(f"jaxerr-ls catalog show: no entry '{args.id}'", file=sys.stderr)
            return 1
        known = catalog_releases(catalog)
        if older is not None:
            entry, known = older.extend(entry), (*older.releases, *known)
        if args.json:
            print(json.dumps(entry.full_json(), indent=2))
        else:
            print("\n".join(render_entry_page(entry, known, _style())))
        return 0
    from jaxerr_ls.fixes import FIXES

    problems = validate_catalog(catalog, frozenset(FIXES))
    for problem in problems:
        print(problem)
    curated = len(catalog.curated)
    print(
        f"{len(catalog.entries)} entries ({curated} curated, JAX {catalog.jax_version or '?'}); "
        f"{len(problems)} problem(s)"
    )
    return 1 if problems else 0


def _site(catalog: Catalog, out: Path) -> int:
    import time

    from jaxerr_ls.site.build import SiteError, build_site

    started = time.perf_counter()
    try:
        built = build_site(catalog, out)
    except SiteError as exc:
        print(f"jaxerr-ls catalog site: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    print(
        f"wrote {built.files} files ({built.bytes / 1e6:.1f} MB) to {out} in {seconds:.1f} s: "
        f"{built.entries} error pages, {built.apis} API pages; open {out / 'index.html'}"
    )
    return 0


def _list(catalog: Catalog, curated_only: bool, as_json: bool) -> int:
    entries = catalog.curated if curated_only else catalog.entries
    if as_json:
        print(json.dumps([entry.summary_json() for entry in entries], indent=1))
        return 0
    for entry in entries:
        mark = "*" if entry.curated else " "
        print(f"{mark} {entry.id:44} {entry.exception}: {entry.title}")
    print(f"{len(entries)} entries ({len(catalog.curated)} curated; * = curated)")
    return 0
