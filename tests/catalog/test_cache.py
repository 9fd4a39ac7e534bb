"""The catalog cache: same catalog as the files, never stale, never a failure."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from jaxerr_ls.catalog import catalog_dir, load_catalog


def copy_catalog(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    shutil.copytree(catalog_dir(), root)
    return root


def test_cached_catalog_equals_the_files(tmp_path: Path) -> None:
    root, cache = copy_catalog(tmp_path), tmp_path / "cache"
    fresh = load_catalog(root, cache_dir=None)
    stored = load_catalog(root, cache_dir=cache)
    again = load_catalog(root, cache_dir=cache)
    assert len(list(cache.glob("catalog-*.pickle"))) == 1
    for loaded in (stored, again):
        assert loaded.entries == fresh.entries
        assert loaded.jax_version == fresh.jax_version and loaded.source == fresh.source
        assert loaded.for_api("jax.jit") == fresh.for_api("jax.jit")
        assert loaded.get("eager-shard-map-ref") == fresh.get("eager-shard-map-ref")
    # Read from the cache, equal strings are one object (the server's memory, issue 20), and an
    # API's entries are the catalog's own.
    exceptions = [entry.exception for entry in again.entries]
    assert len({id(name) for name in exceptions}) == len(set(exceptions))
    first = again.for_api("jax.jit")[0]
    assert again.get(first.id) is first


def test_an_edited_entry_is_never_served_stale(tmp_path: Path) -> None:
    root, cache = copy_catalog(tmp_path), tmp_path / "cache"
    load_catalog(root, cache_dir=cache)
    entry = root / "curated" / "eager-shard-map-ref.toml"
    text = entry.read_text(encoding="utf-8")
    entry.write_text(text.replace('title = "', 'title = "Edited: ', 1), encoding="utf-8")
    stat = entry.stat()
    os.utime(entry, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    edited = load_catalog(root, cache_dir=cache).get("eager-shard-map-ref")
    assert edited is not None and edited.title.startswith("Edited: ")
    assert len(list(cache.glob("catalog-*.pickle"))) == 1  # the old copy is gone


def test_a_corrupt_or_unwritable_cache_only_costs_time(tmp_path: Path) -> None:
    root, cache = copy_catalog(tmp_path), tmp_path / "cache"
    load_catalog(root, cache_dir=cache)
    (stored,) = cache.glob("catalog-*.pickle")
    stored.write_bytes(b"not a pickle")
    assert load_catalog(root, cache_dir=cache).get("eager-shard-map-ref") is not None
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x")
    assert load_catalog(root, cache_dir=blocked).get("eager-shard-map-ref") is not None
