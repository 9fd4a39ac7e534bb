"""Releases older than the multi-release index (0.1-0.4.25) -> `catalog/index/older.json.gz`.

The main index (`releases.json.gz`) loads at every server start; what only older releases print
goes to a second file that loads when a message matches nothing current (`catalog/older.py`).
An older wording joins the current entry whose error it is, by the same rules as the main index
(a raise site that lost one template and gained one between two releases), carried across the
boundary by the first indexed release (0.4.26 read again here), and also by the same template
printed under another class (`TypeError` before JAX gave the error a class of its own). What
joins no current entry becomes an entry of its own, with its raise sites in its newest release.

    python -m jaxerr_ls.extract.older --index catalog/index/releases.json.gz \
        --boundary jax-0.4.26.tar.gz --from jax-0.1.tar.gz ... jax-0.4.25.tar.gz
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.extract.index import GENERATOR, IndexedError, error_id, site_json
from jaxerr_ls.extract.releases import Key, Release, changes_and_links, joined

FORMAT = 1
OLDER_INDEX = "older.json.gz"


def _current_keys(index: dict[str, object]) -> tuple[dict[Key, str], dict[str, Key]]:
    """(exception, template) -> entry id for every wording of the main index, and entry id ->
    its class and current message."""
    by_key: dict[Key, str] = {}
    classes: dict[str, Key] = {}
    errors = index.get("errors", [])
    assert isinstance(errors, list)
    for entry in errors:
        classes[entry["id"]] = (entry["exception"], entry["message"])
        by_key[(entry["exception"], entry["message"])] = entry["id"]
        for wording in entry.get("wordings", []):
            by_key.setdefault((entry["exception"], wording["message"]), entry["id"])
    return by_key, classes


def build_older(
    older: Sequence[Release], boundary: Release, index: dict[str, object]
) -> tuple[dict[str, object], dict[str, int]]:
    """The older-releases document and its figures (joined, wordings, own entries)."""
    ordered = sorted(older, key=lambda r: version_key(r.version))
    _, union = changes_and_links([*ordered, boundary])
    by_key, classes = _current_keys(index)
    by_template: dict[str, set[str]] = {}
    for (_, message), entry_id in by_key.items():
        by_template.setdefault(message, set()).add(entry_id)
    bit = {r.version: 1 << i for i, r in enumerate(ordered)}
    masks: dict[Key, int] = {}
    latest: dict[Key, tuple[str, IndexedError]] = {}
    # Per template, the newest line of each file and function that raised it: JAX moved its
    # modules (`jax/_src/lib/xla_bridge.py` -> `jax/_src/xla_bridge.py`), and a frame of the
    # older place names the error by its site too.
    placed: dict[Key, dict[tuple[str, str], dict[str, object]]] = {}
    for release in ordered:
        for error in release.errors:
            key = (error.exception, error.message)
            masks[key] = masks.get(key, 0) | bit[release.version]
            latest[key] = (release.version, error)
            places = placed.setdefault(key, {})
            for site in error.raised_at:
                places[(site.file, site.function)] = {**site_json(site), "jax": release.version}
    # The current entry each union group reaches through 0.4.26's keys.
    group_id: dict[Key, str] = {}
    for error in boundary.errors:
        key = (error.exception, error.message)
        if key in by_key:
            group_id.setdefault(union.find(key), by_key[key])
    groups: dict[Key, list[Key]] = {}
    for key in masks:
        groups.setdefault(union.find(key), []).append(key)
    joins: dict[str, dict[str, object]] = {}
    own: list[dict[str, object]] = []
    figures = {"joined_by_site": 0, "joined_by_template": 0, "own_entries": 0}
    for root, members in groups.items():
        target = group_id.get(root) or _by_template(members, by_key, by_template)
        if target is None:
            own.append(_entry(members, masks, latest))
            figures["own_entries"] += 1
            continue
        figures["joined_by_site" if root in group_id else "joined_by_template"] += 1
        # The entry's current message names it for the loader (curated entries fold index ones).
        join = joins.setdefault(
            target, {"message": classes[target][1], "versions": 0, "wordings": []}
        )
        for key in sorted(members, key=lambda k: -masks[k].bit_length()):
            join["versions"] = int(join["versions"]) | masks[key]  # type: ignore[call-overload]
            wording: dict[str, object] = {"message": key[1], "versions": masks[key]}
            if key[0] != classes[target][0]:
                wording["exception"] = key[0]
            wordings = join["wordings"]
            assert isinstance(wordings, list)
            # One wording per (class, message): the same words raised under two classes
            # (`raise StoreException("Store occupied")`, an `assert` of 0.1.x) stay two.
            same = next(
                (
                    w
                    for w in wordings
                    if w["message"] == key[1] and w.get("exception") == wording.get("exception")
                ),
                None,
            )
            if same is None:
                wordings.append(wording)
            else:
                same["versions"] |= masks[key]
        # Where older releases raised it: a frame of theirs names the entry by its site when
        # the message says too little (`catalog.sites`), as an own entry's sites do.
        sites = join.setdefault("raised_at", [])
        assert isinstance(sites, list)
        for key in members:
            for where in placed[key].values():
                if not any(_same_place(where, known) for known in sites):
                    sites.append(where)
        sites.sort(
            key=lambda site: (str(site["file"]), str(site["function"]), f"{site['line']:>6}")
        )
    own.sort(key=lambda e: str(e["id"]))
    figures["joined_entries"] = len(joins)
    figures["templates"] = len(masks)
    document: dict[str, object] = {
        "format": FORMAT,
        "generator": GENERATOR,
        "releases": [r.version for r in ordered],
        "sources": [r.source for r in ordered],
        "joins": dict(sorted(joins.items())),
        "errors": own,
    }
    return document, figures


def _same_place(one: dict[str, object], other: dict[str, object]) -> bool:
    return all(one[k] == other[k] for k in ("file", "function", "line"))


def _by_template(
    members: list[Key], by_key: dict[Key, str], by_template: dict[str, set[str]]
) -> str | None:
    """The current entry printing one of the group's templates (same class first; another class
    only when exactly one entry prints it, so a generic template joins nothing)."""
    for key in members:
        if key in by_key:
            return by_key[key]
    for _, message in members:
        found = by_template.get(message, set())
        if len(found) == 1:
            return next(iter(found))
    return None


def _entry(
    members: list[Key], masks: dict[Key, int], latest: dict[Key, tuple[str, IndexedError]]
) -> dict[str, object]:
    primary, version, error, apis, api_depths, mask = joined(members, masks, latest)
    data: dict[str, object] = {
        "id": error_id(*primary),
        "exception": error.exception,
        "message": error.message,
        "title": error.title,
        "apis": list(apis),
        "api_depths": list(api_depths),
        "raised_at": [{**site_json(s), "jax": version} for s in error.raised_at],
        "versions": mask,
    }
    wordings = [
        {
            "message": k[1],
            "versions": masks[k],
            **({"exception": k[0]} if k[0] != primary[0] else {}),
        }
        for k in members[1:]
    ]
    if wordings:
        data["wordings"] = wordings
    return data


def render_older(document: dict[str, object]) -> bytes:
    """Gzip'd JSON, one join or error per line; byte-identical for the same input."""
    head = {k: v for k, v in document.items() if k not in ("joins", "errors")}
    joins = document["joins"]
    errors = document["errors"]
    assert isinstance(joins, dict) and isinstance(errors, list)

    def row(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    text = "{" + json.dumps(head, ensure_ascii=False)[1:-1] + ',\n "joins": {\n'
    text += ",\n".join(f"{row(k)}:{row(v)}" for k, v in joins.items()) + "\n },\n"
    text += ' "errors": [\n' + ",\n".join(row(e) for e in errors) + "\n ]\n}\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def reading_key() -> str:
    """What a kept reading depends on: the extractor's own sources (`extract/*.py`), so a
    reading made by another extractor is never reused."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def main(argv: Sequence[str] | None = None) -> int:
    from jaxerr_ls.extract import extract
    from jaxerr_ls.extract.source import SourceError

    parser = argparse.ArgumentParser(prog="python -m jaxerr_ls.extract.older")
    parser.add_argument("--index", type=Path, required=True, help="the main releases.json.gz")
    parser.add_argument("--boundary", type=Path, required=True, help="its first release's source")
    parser.add_argument("--from", dest="sources", type=Path, nargs="+", required=True)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--targets", type=Path, default=None, help="write public name targets")
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep each release's reading (keyed by the extractor's sources: `reading_key`)",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    started = time.perf_counter()
    index = json.loads(gzip.decompress(args.index.read_bytes()))
    releases: list[Release] = []
    targets: dict[str, dict[str, str]] = {}
    try:
        for path in [*args.sources, args.boundary]:
            kept = args.cache / f"{path.name}.{reading_key()}.pickle" if args.cache else None
            if kept is not None and kept.is_file():
                release, targets[release.version] = pickle.loads(kept.read_bytes())
                releases.append(release)
                continue
            found = extract(path, jobs=args.jobs, class_messages=True)
            releases.append(Release(found.version, found.source, found.errors))
            targets[found.version] = dict(found.targets)
            if kept is not None:
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(pickle.dumps((releases[-1], targets[found.version])))
    except (SourceError, OSError) as exc:
        print(f"extract older: {exc}", file=sys.stderr)
        return 2
    document, figures = build_older(releases[:-1], releases[-1], index)
    out = args.out or args.index.with_name(OLDER_INDEX)
    out.write_bytes(render_older(document))
    if args.targets is not None:  # for the rename builder (upgrades/aliases.py); not shipped
        args.targets.write_text(json.dumps(targets, sort_keys=True), encoding="utf-8")
    print(f"{len(releases) - 1} releases: {', '.join(document['releases'])}")  # type: ignore[arg-type]
    for name, value in figures.items():
        print(f"  {name}: {value}")
    print(
        f"  took {time.perf_counter() - started:.1f} s; wrote {out} ({out.stat().st_size:,} bytes)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
