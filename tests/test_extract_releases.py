"""Conditions and API depths per raise site, and the merge of several releases into one index."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from jaxerr_ls.catalog.load import load_index
from jaxerr_ls.extract import main

from .test_extract import make_tree, run

GUARDED = {
    "_src/r.py": """
        def _reduction(a, initial):
            if initial is None:
                pass
            elif initial.ndim != 0:
                raise ValueError("initial must be a scalar")
            else:
                if a.ndim > 3 or a.size == 0:
                    raise TypeError("too many dims in a")
            for x in a:
                if not x:
                    raise ValueError("empty item")
                else:
                    raise KeyError("nonempty item")
            raise RuntimeError("always")

        def reduce(a):
            return _reduction(a, None)
    """,
    "numpy/__init__.py": "from jax._src.r import reduce as reduce\n",
}


def test_conditions_state_the_enclosing_tests(tmp_path: Path) -> None:
    result = run(tmp_path, GUARDED)
    found = {e.message: e.raised_at[0].condition for e in result.errors}
    assert found["initial must be a scalar"] == "initial.ndim != 0"
    assert found["too many dims in a"] == (
        "not (initial.ndim != 0) and (a.ndim > 3 or a.size == 0)"
    )
    assert found["empty item"] == "not x"
    assert found["nonempty item"] == "x"
    assert found["always"] == ""


def test_api_depths_count_calls(tmp_path: Path) -> None:
    result = run(tmp_path, GUARDED)
    (error,) = [e for e in result.errors if e.message == "always"]
    assert dict(zip(error.apis, error.api_depths, strict=True)) == {"jax.numpy.reduce": 1}


def test_releases_merge_into_one_index(tmp_path: Path) -> None:
    old = make_tree(
        tmp_path / "a",
        {"_src/m.py": "def f(n):\n    raise NameError(f'unbound axis name: {n}')\n"},
        version="0.4.38",
    )
    new = make_tree(
        tmp_path / "b",
        {"_src/m.py": "\n\ndef f(n):\n    raise NameError(f'Found an unbound axis name: {n}.')\n"},
        version="0.10.2",
    )
    out = tmp_path / "releases.json.gz"
    assert main(["--from", str(new), str(old), "--out", str(out)]) == 0
    data = json.loads(gzip.decompress(out.read_bytes()))
    assert data["releases"] == ["0.4.38", "0.10.2"]
    (error,) = data["errors"]
    assert error["message"] == "Found an unbound axis name: {n}."
    assert error["raised_at"][0]["line"] == 4
    assert error["wordings"] == [{"message": "unbound axis name: {n}", "versions": 1}]
    loaded, version = load_index(out)
    (entry,) = loaded.entries
    assert version == "0.10.2" and entry.versions == ("0.4.38", "0.10.2")
    assert entry.wordings[0].versions == ("0.4.38",)


def test_older_wordings_reach_their_entry() -> None:
    """Issue 10's examples, as JAX 0.4.x printed them, reach the entry of today's wording.
    (`unbound axis name: x` is no longer one of them: 0.10.2 still prints it, for a collective
    run eagerly, and it has its own curated entry, `unbound-axis-name`.)"""
    from jaxerr_ls.catalog import Matcher, load_catalog

    catalog = load_catalog()
    # As JAX 0.4.38 printed it (tests/catalog/releases/ holds the real traceback).
    text = "Dict key mismatch; expected keys: ['w']; dict: {'w': 1.0, 'b': 2.0}."
    for release in (None, "0.4.38"):
        found = Matcher(catalog, release).match("ValueError", text)
        assert found is not None and found.entry.id == "tree-map-structure-mismatch"
    eager = Matcher(catalog).match("NameError", "unbound axis name: x")
    assert eager is not None and eager.entry.id == "unbound-axis-name"


def test_older_wordings_of_one_text_under_two_classes_stay_two() -> None:
    # JAX 0.1.x asserted "Store occupied" where later releases raise StoreException("Store
    # occupied"): the join keeps both wordings, each with its own class and releases.
    from jaxerr_ls.extract.index import IndexedError, error_id
    from jaxerr_ls.extract.older import build_older
    from jaxerr_ls.extract.releases import Release
    from jaxerr_ls.extract.sites import RaiseSite

    def error(exception: str, line: int) -> IndexedError:
        site = RaiseSite("jax/linear_util.py", line, "Store.store", exception, "Store occupied")
        key = error_id(exception, "Store occupied")
        return IndexedError(key, exception, "Store occupied", "Store occupied", (), (site,))

    older = [
        Release("0.1.1", "a", (error("AssertionError", 10),)),
        Release("0.1.2", "b", (error("AssertionError", 10), error("StoreException", 20))),
        Release("0.1.3", "c", (error("StoreException", 20),)),
    ]
    boundary = Release("0.4.26", "d", (error("StoreException", 20),))
    index = {
        "errors": [{"id": "store", "exception": "StoreException", "message": "Store occupied"}]
    }
    document, _ = build_older(older, boundary, index)
    wordings = document["joins"]["store"]["wordings"]  # type: ignore[index]
    assert sorted((w.get("exception", ""), w["versions"]) for w in wordings) == [
        ("", 0b110),
        ("AssertionError", 0b011),
    ]


def test_a_join_keeps_where_older_releases_raised() -> None:
    """A current entry's older raise sites, one per file and function at its newest line (JAX
    moved `jax/_src/lib/xla_bridge.py` to `jax/_src/xla_bridge.py`): a frame of an older
    release names the entry by its site when its message is cut."""
    from jaxerr_ls.extract.index import IndexedError, error_id
    from jaxerr_ls.extract.older import build_older
    from jaxerr_ls.extract.releases import Release
    from jaxerr_ls.extract.sites import RaiseSite

    message = "Unable to initialize backend '{platform}': {err}"

    def error(file: str, line: int) -> IndexedError:
        site = RaiseSite(file, line, "backends", "RuntimeError", message)
        key = error_id("RuntimeError", message)
        return IndexedError(key, "RuntimeError", message, message, (), (site,))

    older = [
        Release("0.3.20", "a", (error("jax/_src/lib/xla_bridge.py", 340),)),
        Release("0.3.21", "b", (error("jax/_src/lib/xla_bridge.py", 353),)),
        Release("0.4.25", "c", (error("jax/_src/xla_bridge.py", 710),)),
    ]
    boundary = Release("0.4.26", "d", (error("jax/_src/xla_bridge.py", 712),))
    index = {"errors": [{"id": "init", "exception": "RuntimeError", "message": message}]}
    document, _ = build_older(older, boundary, index)
    sites = document["joins"]["init"]["raised_at"]  # type: ignore[index]
    assert [(s["file"], s["line"], s["jax"]) for s in sites] == [
        ("jax/_src/lib/xla_bridge.py", 353, "0.3.21"),
        ("jax/_src/xla_bridge.py", 710, "0.4.25"),
    ]
