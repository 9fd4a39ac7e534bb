"""`jaxerr-ls catalog extract --library NAME|all [--from WHEEL ... | --download DIR]`."""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

from jaxerr_ls.extract import extract, summary, write_multi
from jaxerr_ls.extract.libraries import LIBRARIES, download, out_path
from jaxerr_ls.extract.releases import Release, merge_releases
from jaxerr_ls.extract.source import SourceError


def run_libraries(args: argparse.Namespace) -> int:
    names = list(LIBRARIES) if args.library == "all" else [args.library]
    if args.library == "all" and (args.sources or args.out):
        print("jaxerr-ls catalog extract: --library all takes --download only", file=sys.stderr)
        return 2
    if not args.sources and args.download is None:
        print("jaxerr-ls catalog extract: --library needs --from or --download", file=sys.stderr)
        return 2
    for name in names:
        library = LIBRARIES[name]
        started = time.perf_counter()
        try:
            wheels = args.sources or download(library, args.download)
            results = [
                extract(w, jobs=args.jobs, max_hops=args.max_hops, package=library.package)
                for w in wheels
            ]
        except (SourceError, OSError) as exc:
            print(f"jaxerr-ls catalog extract: {exc}", file=sys.stderr)
            return 2
        for result in results:
            print(summary(result, time.perf_counter() - started, examples=1))
        out = args.out or out_path(name)
        document, changes = merge_releases(
            (Release(r.version, r.source, r.errors) for r in results),
            prefix=library.name,
            keep=published_ids(out),
        )
        # The library's newest release, not JAX's: the loader tags its entries with `library`.
        document = {
            "format": document["format"],
            "library": library.name,
            "package": library.dist,
            "version": document.pop("jax_version"),
            **{k: v for k, v in document.items() if k != "format"},
        }
        write_multi(document, changes, out, started)
    return 0


def published_ids(path: Path) -> frozenset[str]:
    """The ids of the index being replaced: curated `related`, tests and evidence cite them, so a
    release read later joins wordings under them rather than retiring one."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError):
        return frozenset()
    return frozenset(str(e["id"]) for e in document.get("errors", ()) if "id" in e)
