"""The site as a user reads it: every entry a page with its sections, escaped, linked; a page per
API; the JSON of `catalog show --json`; an index that loads its search from local files."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Catalog, load_catalog
from jaxerr_ls.catalog.model import Entry, Site, Wording
from jaxerr_ls.render.facts import catalog_releases
from jaxerr_ls.site.build import SiteError, build_site
from jaxerr_ls.site.pages import api_page, entry_page
from jaxerr_ls.site.related import errors_of_api


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def test_every_entry_and_api_has_a_page_and_json(catalog: Catalog, site: Path) -> None:
    assert len(list((site / "errors").glob("*.html"))) == len(catalog.entries) + 1  # + index
    assert len(list((site / "apis").glob("*.html"))) == len(catalog.by_api) + 1
    entry = catalog.curated[0]
    shown = json.loads((site / "api" / "errors" / f"{entry.id}.json").read_text())
    assert shown == entry.full_json()


def test_curated_page_has_the_sections_of_an_error_page(catalog: Catalog, site: Path) -> None:
    entry = catalog.get("at-helper-item-assignment")
    assert entry is not None and entry.example is not None
    html = (site / "errors" / "at-helper-item-assignment.html").read_text()
    for heading in ("Message", "Meaning", "Solutions", "Example fix", "Triggers", "Situations"):
        assert f"<h2>{heading}</h2>" in html
    assert "&#x27;_IndexUpdateHelper&#x27; object does not support item assignment" in html
    assert "state = state.at[0].set(0.0)" in html
    assert 'href="../errors/immutable-array-item-assignment.html"' in html  # related
    assert 'href="../apis/jax.numpy.ndarray.at.html"' in html
    assert f'href="{entry.docs}"' in html


def test_generated_page_links_the_raise_pinned_to_the_release(catalog: Catalog, site: Path) -> None:
    entry = next(e for e in catalog.entries if not e.curated and e.raised_at and e.apis)
    html = (site / "errors" / f"{entry.id}.html").read_text()
    where = entry.raised_at[0]
    pinned = f"https://github.com/jax-ml/jax/blob/jax-v{where.jax}/{where.file}#L{where.line}"
    assert f'href="{pinned}"' in html
    assert f'href="../apis/{entry.apis[0]}.html"' in html
    assert f"in <code>{where.function}</code>" in html


def test_links_between_pages_resolve(site: Path) -> None:
    pages = (
        sorted((site / "errors").glob("*.html"))[:300]
        + sorted((site / "apis").glob("*.html"))[:300]
    )
    for page in [site / "index.html", *pages]:
        for target in re.findall(r'(?:href|src)="(?!https?:)([^"#?]+)', page.read_text()):
            assert (page.parent / target).exists(), (page, target)


def test_everything_from_the_catalog_is_escaped(catalog: Catalog) -> None:
    nasty = "<script>alert('x')</script> & \"quoted\" {shape}"
    entry = Entry(
        id="x-nasty",
        exception="ValueError",
        message=nasty,
        title=nasty,
        curated=True,
        meaning=nasty,
        solutions=(nasty,),
        apis=("jax.numpy.sum",),
        raised_at=(Site("jax/_src/x.py", 3, "<lambda>", "0.10.2", condition="a < b and c > d"),),
    )
    html = entry_page(entry, catalog, ())
    assert "<script>" not in html
    assert "raised when <code>a &lt; b and c &gt; d</code> in <code>&lt;lambda&gt;</code>" in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;quoted&quot;" in html


def test_when_and_which_releases_are_rendered_when_known(catalog: Catalog) -> None:
    base = next(e for e in catalog.entries if not e.curated and len(e.apis) >= 2)
    entry = replace(
        base,
        raised_at=(replace(base.raised_at[0], condition="initial.ndim != 0"),),
        versions=("0.4.26", "0.4.38", "0.10.2"),
        wordings=(Wording("old wording of {x}", ("0.4.26",)),),
        api_depths=(0, 2) + (3,) * (len(base.apis) - 2),
    )
    html = entry_page(entry, catalog, ())
    assert "raised when <code>initial.ndim != 0</code>" in html
    assert "JAX 0.4.26, 0.4.38, 0.10.2 (3 releases)" in html  # not consecutive releases
    known = catalog_releases(catalog)
    run = replace(entry, versions=known[:5])
    assert f"JAX {known[0]}–{known[4]} (5 releases)" in entry_page(run, catalog, ())
    assert "old wording of <var>{x}</var>" in html
    assert "raises it in its own body" in html and "two calls away" in html
    # An API page lists what the API raises itself before what it reaches through helpers.
    deep = replace(catalog.entries[0], id="deep", apis=(base.apis[0],), api_depths=(4,))
    ordered = errors_of_api(Catalog.of([deep, entry]), base.apis[0])
    assert [e.id for e in ordered] == [entry.id, "deep"]
    listing = api_page(base.apis[0], ordered)
    assert listing.index(f"{entry.id}.html") < listing.index("deep.html")
    assert "4 calls away" in listing


def test_index_loads_its_search_without_fetch(site: Path) -> None:
    html = (site / "index.html").read_text()
    for script in ("search-data.js", "match.js", "search.js"):
        assert f'<script src="{script}"></script>' in html
    assert "fetch(" not in (site / "search.js").read_text() + (site / "match.js").read_text()
    assert (site / "search-data.js").read_text().startswith("window.JAXERR_SEARCH=")


def test_unwritable_out_is_a_clear_error(catalog: Catalog, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(SiteError, match="cannot write"):
        build_site(Catalog.of(catalog.curated[:2]), blocker / "site")


def test_prose_markup_is_ours_and_code_stays_literal() -> None:
    from jaxerr_ls.site.text import inline

    html = inline(
        "index *arrays*: `x*y*z` and a * b, **not** <b>, see https://docs.jax.dev/a.html."
    )
    assert html == (
        "index <em>arrays</em>: <code>x*y*z</code> and a * b, <strong>not</strong> &lt;b&gt;, "
        'see <a href="https://docs.jax.dev/a.html">https://docs.jax.dev/a.html</a>.'
    )


def test_errors_nearby_share_apis_or_the_raising_function(catalog: Catalog) -> None:
    from jaxerr_ls.site.related import RelatedIndex

    related = RelatedIndex(catalog)
    # Generated entries without APIs still get neighbours: the errors of the same JAX function.
    lonely = [e for e in catalog.entries if not e.apis and e.raised_at]
    assert lonely
    for entry in lonely[:200]:
        for other in related.related(entry):
            files = {site.file for site in other.raised_at}
            assert files & {site.file for site in entry.raised_at} or set(other.apis) & set(
                entry.apis
            )
    with_apis = next(e for e in catalog.entries if not e.curated and len(e.apis) == 1)
    near = related.related(with_apis)
    assert near and all(o.id != with_apis.id and o.id not in with_apis.related for o in near)


def test_a_rebuild_removes_pages_the_catalog_no_longer_has(
    catalog: Catalog, tmp_path: Path
) -> None:
    """An index entry a curated wording now claims leaves no stale page (or JSON) behind; files
    that are not ours, and a folder that was no site, are left alone."""
    small = Catalog.of(catalog.curated[:3])
    out = tmp_path / "site"
    build_site(Catalog.of(catalog.curated[:4]), out)
    gone = catalog.curated[3].id
    (out / "errors" / "notes.txt").write_text("mine", encoding="utf-8")
    build_site(small, out)
    assert not (out / "errors" / f"{gone}.html").exists()
    assert not (out / "api" / "errors" / f"{gone}.json").exists()
    assert (out / "errors" / f"{catalog.curated[0].id}.html").exists()
    assert (out / "errors" / "notes.txt").read_text(encoding="utf-8") == "mine"
    # Not an earlier build (no search data): nothing is removed.
    other = tmp_path / "other"
    (other / "errors").mkdir(parents=True)
    (other / "errors" / "page.html").write_text("<p>mine</p>", encoding="utf-8")
    build_site(small, other)
    assert (other / "errors" / "page.html").exists()
