"""The hover index: what a hover reads before the catalog is loaded. Same entries, same order and
same releases as the loaded catalog for every API, whatever sources the catalog merged; stored
beside the cached catalog and renewed with it; a bad index only costs time."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

from jaxerr_ls.catalog import Catalog, load_catalog
from jaxerr_ls.catalog.hover_index import FromCatalog, HoverIndex, write_index
from jaxerr_ls.catalog.load import locate

from .test_cache import copy_catalog


def test_every_api_reads_what_the_catalog_has(tmp_path: Path) -> None:
    root, cache = copy_catalog(tmp_path), tmp_path / "cache"
    catalog = load_catalog(root, cache_dir=cache, with_hover_index=True)
    [stored] = cache.glob("hover-*.idx")
    assert stored == locate(root, cache_dir=cache).hover
    index = HoverIndex.open(stored)
    assert index is not None
    assert set(index.apis) == set(catalog.by_api)
    assert index.releases == FromCatalog(catalog).releases and index.releases
    for api in catalog.by_api:
        assert index.for_api(api) == catalog.for_api(api), api
    assert index.for_api("jax.not_an_api") == ()
    # Each entry is stored once, however many APIs raise it: smaller than a pickle per API.
    assert stored.stat().st_size < 4 * sum(1 for _ in catalog.entries) * 1024


def test_built_from_whatever_the_catalog_holds(tmp_path: Path) -> None:
    """A library's entries (another source merged by the loader) are indexed like JAX's."""
    base = load_catalog(cache_dir=None)
    entry = dataclasses.replace(
        base.entries[0],
        id="examplelib-example",
        apis=("examplelib.adam", "jax.jit"),
        versions=("0.0.1",),
    )
    catalog = Catalog.of([*base.entries, entry])
    path = tmp_path / "hover.idx"
    write_index(path, catalog)
    index = HoverIndex.open(path)
    assert index is not None
    assert index.for_api("examplelib.adam") == (entry,)
    assert index.for_api("jax.jit") == catalog.for_api("jax.jit")
    assert index.releases[0] == "0.0.1"


def test_renewed_with_the_catalog_and_a_bad_index_is_not_read(tmp_path: Path) -> None:
    root, cache = copy_catalog(tmp_path), tmp_path / "cache"
    load_catalog(root, cache_dir=cache, with_hover_index=True)
    [first] = cache.glob("hover-*.idx")
    entry = root / "curated" / "eager-shard-map-ref.toml"
    entry.write_text(entry.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    stat = entry.stat()
    os.utime(entry, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    load_catalog(root, cache_dir=cache, with_hover_index=True)
    [second] = cache.glob("hover-*.idx")
    assert second != first  # one index at a time, the new catalog's
    second.write_bytes(b"not an index")
    assert HoverIndex.open(second) is None
    assert HoverIndex.open(tmp_path / "missing.idx") is None


SERVER_START = """
import asyncio, sys
from jaxerr_ls.shells.lsp import preload
from jaxerr_ls.catalog.hover_index import HoverIndex

async def main():
    source = await asyncio.wrap_future(preload.hover_source())
    entries = source.for_api("jax.jit")
    print(type(source).__name__, len(entries) > 0, file=sys.stdout)
    catalog = await asyncio.wrap_future(preload.start())
    assert entries == catalog.for_api("jax.jit")

asyncio.run(main())
"""


def test_the_server_hovers_from_the_index_it_prepared(tmp_path: Path) -> None:
    """First start: a child process parses the catalog and writes the index; that start's first
    hover and the next's read the index, not the catalog."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("JAXERR_LS_NO_CACHE", None)
    runs = [
        subprocess.run(
            [sys.executable, "-c", SERVER_START],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert [r.stdout.strip() for r in runs] == ["HoverIndex True", "HoverIndex True"]
    assert len(list((tmp_path / "jaxerr-ls").glob("hover-*.idx"))) == 1


def test_an_open_index_reads_on_when_another_server_replaces_its_file(tmp_path: Path) -> None:
    """Servers of two environments share the cache and keep one catalog at a time: one may
    remove the index another has open, which must still answer its hovers."""
    catalog = load_catalog(cache_dir=None)
    path = tmp_path / "hover-a.idx"
    write_index(path, catalog)
    index = HoverIndex.open(path)
    assert index is not None
    path.unlink()
    assert [e.id for e in index.for_api("jax.jit")] == [e.id for e in catalog.for_api("jax.jit")]
    assert index.for_api("jax.jit")
