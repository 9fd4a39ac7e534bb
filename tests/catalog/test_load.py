"""Loading curated entries: every field validated, a bad file reported and skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Catalog, Entry, Matcher, load_catalog
from jaxerr_ls.catalog.load import load_curated, load_index, merge

GOOD = """
id = "demo-error"
exception = "ValueError"
message = "bad value {value} for {name}"
title = "A demo"
meaning = "It means something."
apis = ["jax.demo"]
fixes = ["wrap-jit"]

[[raised_at]]
file = "jax/_src/demo.py"
line = 3
function = "demo"
jax = "0.10.2"

[example]
before = "raise ValueError('x')"
after = "pass"
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_good_entry_loads_with_every_field(tmp_path: Path) -> None:
    loaded = load_curated(write(tmp_path, "demo-error", GOOD))
    assert loaded.problems == ()
    (entry,) = loaded.entries
    assert entry.id == "demo-error"
    assert entry.curated
    assert entry.apis == ("jax.demo",)
    assert entry.raised_at[0].line == 3
    assert entry.example is not None and entry.example.after == "pass"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('message = "bad value {value} for {name}"', ""), "field 'message': is required"),
        (
            ('message = "bad value {value} for {name}"', "message = 3"),
            "field 'message': must be a string",
        ),
        (
            ('message = "bad value {value} for {name}"', 'message = "oops {"'),
            "field 'message': unbalanced brace",
        ),
        (('apis = ["jax.demo"]', 'apis = "jax.demo"'), "field 'apis': must be a list of strings"),
        (("line = 3", "line = 0"), "field 'raised_at': 'line' must be a positive integer"),
        (('after = "pass"', ""), "field 'example': 'after' must be a non-empty program"),
        (
            ('title = "A demo"', 'title = "A demo"\ncolour = "red"'),
            "field 'colour': is not a catalog field",
        ),
        (('id = "demo-error"', 'id = "Demo Error"'), "field 'id': must be lowercase"),
    ],
)
def test_bad_field_is_reported_by_file_and_field(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    old, new = change
    assert old in GOOD
    loaded = load_curated(write(tmp_path, "demo-error", GOOD.replace(old, new)))
    assert loaded.entries == ()
    (problem,) = loaded.problems
    assert problem.startswith("catalog/curated/demo-error.toml: ")
    assert expected in problem


def test_broken_toml_is_skipped_and_others_load(tmp_path: Path) -> None:
    write(tmp_path, "demo-error", GOOD)
    write(tmp_path, "broken", "id = [unclosed")
    loaded = load_curated(tmp_path)
    assert [e.id for e in loaded.entries] == ["demo-error"]
    assert loaded.problems[0].startswith("catalog/curated/broken.toml: not readable TOML")


def test_file_name_must_match_id(tmp_path: Path) -> None:
    loaded = load_curated(write(tmp_path, "other-name", GOOD))
    assert loaded.entries == ()
    assert "does not match the file name" in loaded.problems[0]


def test_index_entries_fold_into_curated_ones(tmp_path: Path) -> None:
    curated = load_curated(write(tmp_path, "demo-error", GOOD)).entries
    index = tmp_path / "jax-0.10.2.json"
    index.write_text(
        '{"jax_version": "0.10.2", "errors": ['
        '{"id": "jax-00000001", "exception": "ValueError", "message": "bad value {value} for {name}",'
        ' "apis": ["jax.other"], "raised_at": [{"file": "jax/_src/demo.py", "line": 3, "function": "demo"}]},'
        '{"id": "jax-00000002", "exception": "TypeError", "message": "something else entirely",'
        ' "apis": [], "raised_at": [{"file": "jax/_src/demo.py", "line": 9, "function": "g"}]},'
        '{"id": "BAD ID", "exception": "TypeError", "message": "x"}'
        "]}",
        encoding="utf-8",
    )
    loaded, version = load_index(index)
    assert version == "0.10.2"
    assert len(loaded.entries) == 2 and len(loaded.problems) == 1
    assert loaded.entries[1].raised_at[0].jax == "0.10.2"
    merged = merge(curated, loaded.entries)
    assert [e.id for e in merged] == ["demo-error", "jax-00000002"]
    assert merged[0].apis == ("jax.demo", "jax.other")


OLD_WORDING = GOOD.replace(
    'title = "A demo"',
    'wordings = [{ message = "value {v} is bad", versions = ["0.4.26"], exception = "TypeError" }]\n'
    'title = "A demo"',
)


def _index(tmp_path: Path, errors: str) -> list[Entry]:
    index = tmp_path / "jax-0.10.2.json"
    index.write_text('{"jax_version": "0.10.2", "errors": [' + errors + "]}", encoding="utf-8")
    return list(load_index(index)[0].entries)


def test_a_curated_wording_claims_the_index_entry_of_that_text(tmp_path: Path) -> None:
    """An older release raised the error elsewhere, in other words and another class: the
    curator's wording folds that raise site's entry in, with its releases and where it was."""
    curated = load_curated(write(tmp_path, "demo-error", OLD_WORDING)).entries
    [wording] = curated[0].wordings
    assert (wording.exception, wording.curated) == ("TypeError", True)
    generated = _index(
        tmp_path,
        '{"id": "jax-00000003", "exception": "TypeError", "message": "value {v} is bad",'
        ' "apis": ["jax.old"], "raised_at": [{"file": "jax/_src/old.py", "line": 7,'
        ' "function": "check", "jax": "0.4.31"}]}',
    )
    [entry] = merge(curated, generated)
    assert entry.id == "demo-error" and "jax.old" in entry.apis
    assert [(s.file, s.jax) for s in entry.raised_at] == [
        ("jax/_src/demo.py", "0.10.2"),
        ("jax/_src/old.py", "0.4.31"),
    ]
    # Same class as the release printed it: a TypeError with the old text reaches the entry.
    matcher = Matcher(Catalog.of([entry], "0.10.2"))
    found = matcher.match("TypeError", "value 3 is bad")
    assert found is not None and found.entry.id == "demo-error" and found.score == 100
    assert found.fields == {"v": "3"}


def test_a_site_only_one_curated_entry_claims_lends_its_older_wordings(tmp_path: Path) -> None:
    generated = (
        '{"id": "jax-00000004", "exception": "ValueError", "message": "bad value {v}",'
        ' "wordings": [{"message": "old words for {v}"}],'
        ' "raised_at": [{"file": "jax/_src/demo.py", "line": 3, "function": "demo"}]}'
    )
    curated = load_curated(write(tmp_path, "demo-error", GOOD)).entries
    [alone] = merge(curated, _index(tmp_path, generated))
    assert "old words for {v}" in [w.message for w in alone.wordings]
    # Two curated sub-cases of one raise site: its older wordings belong to neither.
    other = GOOD.replace('id = "demo-error"', 'id = "demo-other"').replace("bad value", "bad val")
    write(tmp_path, "demo-other", other)
    both = load_curated(tmp_path).entries
    merged = merge(both, _index(tmp_path, generated))
    assert all("old words for {v}" not in [w.message for w in e.wordings] for e in merged)


def test_shipped_catalog_loads_without_problems() -> None:
    catalog = load_catalog()
    assert catalog.problems == ()
    assert catalog.get("eager-shard-map-ref") is not None
    assert catalog.get("pallas-mosaic-gpu-ref-not-reference") is not None


def test_curated_patterns_start_where_a_search_stays_linear() -> None:
    """A pattern that may start anywhere with a repeated class (`\\w+ branches`) makes
    `re.search` quadratic on long messages; each must start with an anchor or a literal."""
    unanchored = [
        (entry.id, pattern)
        for entry in load_catalog().curated
        for pattern in entry.patterns
        if not (pattern.startswith(("\\A", "^")) or pattern[:1].isalnum() or pattern[:1] == " ")
    ]
    assert unanchored == []


def test_python_errors_and_python_worded() -> None:
    from jaxerr_ls.catalog.load import EntryError, entry_from_dict

    base = {
        "id": "x-y",
        "exception": "TypeError",
        "message": "{f}() got an unexpected keyword argument 'key'",
        "title": "t",
        "meaning": "m",
        "library": "equinox",
    }
    site = {
        "exception": "TypeError",
        "pattern": "unexpected keyword argument 'key'",
        "file": "equinox/nn/_sequential.py",
        "function": "Sequential.__call__",
    }
    entry = entry_from_dict({**base, "python_worded": True, "python_errors": [site]}, curated=True)
    assert entry.python_worded and entry.python_errors[0].file == "equinox/nn/_sequential.py"
    with pytest.raises(EntryError, match="python_worded"):  # Python's text alone names nothing
        entry_from_dict({**base, "python_worded": True}, curated=True)
    with pytest.raises(EntryError, match="library's"):  # only JAX's or a library's file
        entry_from_dict({**base, "python_errors": [{**site, "file": "train.py"}]}, curated=True)
    jax_site = {**site, "file": "jax/_src/api.py", "function": "_get_axis_size"}
    assert entry_from_dict({**base, "python_errors": [jax_site]}, curated=True).python_errors
    # A library's wording names its releases: checked, not kept as JAX's
    worded = entry_from_dict(
        {**base, "wordings": [{"message": "old {x}", "versions": ["0.3.2"]}]}, curated=True
    )
    assert worded.wordings[0].versions == ()
