"""The catalog site in a real browser (Debian's chromium driven by Playwright), from file://:
paste a real JAX traceback into the index's search, get its entry first, open it, follow its
API and related links. No server and no network: every request the pages make is a local file.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jaxerr_ls.catalog import Catalog, Matcher, load_catalog
from jaxerr_ls.explain import explain_text

pytestmark = pytest.mark.editor

CORPUS = Path(__file__).parents[1] / "corpus" / "out"
CHROMIUM = next((c for c in ("/usr/bin/chromium", shutil.which("chromium")) if c), None)
if CHROMIUM is None or not Path(CHROMIUM).exists():
    pytest.skip(
        "chromium not installed (run: bash scripts/setup-editors.sh .venv)", allow_module_level=True
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Python playwright not installed (run scripts/setup-editors.sh)"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
]
WAIT = 60_000  # ms: generous, the machine is shared


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def page(site: Path) -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        tab = browser.new_page()
        tab.requests = []
        tab.on("request", lambda request: tab.requests.append(request.url))
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.script_errors = errors
        yield tab
        browser.close()


def expected_entry(text: str, catalog: Catalog) -> str:
    explained = explain_text(text, Matcher(catalog))
    assert explained and explained[-1].match is not None
    return explained[-1].match.entry.id


def search(page: Any, site: Path, text: str) -> Any:
    page.goto((site / "index.html").as_uri())
    page.fill("#query", text)
    first = page.locator("#results li").first.locator("a")
    first.wait_for(timeout=WAIT)
    return first


def test_paste_a_traceback_open_its_entry_follow_its_links(
    page: Any, site: Path, catalog: Catalog
) -> None:
    traceback = (CORPUS / "float_index.plain.txt").read_text(encoding="utf-8")
    entry_id = expected_entry(traceback, catalog)
    entry = catalog.get(entry_id)
    assert entry is not None and entry.apis and entry.related

    first = search(page, site, traceback)
    assert first.get_attribute("href") == f"errors/{entry_id}.html"
    assert "match 100" in page.locator("#results li").first.inner_text()
    first.click()
    page.wait_for_url(f"**/errors/{entry_id}.html", timeout=WAIT)
    assert page.locator("h1").inner_text() == entry.title.replace("`", "")
    assert page.locator("section.example pre").count() == 2  # before / after

    # An API that raises it: its page lists this entry.
    page.locator("section.apis a").first.click()
    page.wait_for_url(f"**/apis/{entry.apis[0]}.html", timeout=WAIT)
    assert page.locator(f'a[href="../errors/{entry_id}.html"]').count() == 1
    page.go_back()

    # A related entry opens as its own page.
    related = catalog.get(entry.related[0])
    assert related is not None
    page.locator("section.related a").first.click()
    page.wait_for_url(f"**/errors/{related.id}.html", timeout=WAIT)
    assert page.locator("h1").inner_text() == related.title.replace("`", "")

    assert all(url.startswith("file://") for url in page.requests), page.requests
    assert page.script_errors == []


def test_paste_the_exception_line_alone(page: Any, site: Path, catalog: Catalog) -> None:
    traceback = (CORPUS / "reshape_size.plain.txt").read_text(encoding="utf-8")
    entry_id = expected_entry(traceback, catalog)
    line = next(x for x in traceback.splitlines() if x.startswith("TypeError: cannot reshape"))
    first = search(page, site, line)
    assert first.get_attribute("href") == f"errors/{entry_id}.html"


HEADER_BOX = "header textarea[name=q]"


def header_search(page: Any, start: Path, text: str) -> Any:
    """Paste `text` into the header's search box of the page `start` and press Enter: the
    index page's first result."""
    page.goto(start.as_uri())
    page.click(HEADER_BOX)
    page.keyboard.insert_text(text)  # as a paste delivers it: one input event, lines kept
    page.press(HEADER_BOX, "Enter")
    page.wait_for_url("**/index.html#q=*", timeout=WAIT)
    first = page.locator("#results li").first.locator("a")
    first.wait_for(timeout=WAIT)
    return first


def test_header_search_box_from_an_entry_page(page: Any, site: Path) -> None:
    first = header_search(
        page,
        site / "errors" / "tracer-bool-conversion.html",
        "Attempted boolean conversion of traced array with shape bool[].",
    )
    assert first.get_attribute("href") == "errors/tracer-bool-conversion.html"


@pytest.mark.parametrize("name", ["float_index.plain.txt", "reshape_size.ipython.txt"])
def test_a_traceback_pasted_into_any_pages_header_reaches_its_entry(
    page: Any, site: Path, catalog: Catalog, name: str
) -> None:
    """The whole traceback, pasted into the header box of an API page, an entry page and the
    index itself, reaches the entry the index page's own box finds (and the CLI)."""
    traceback = (CORPUS / name).read_text(encoding="utf-8")
    assert traceback.count("\n") > 3
    entry_id = expected_entry(traceback, catalog)
    assert search(page, site, traceback).get_attribute("href") == f"errors/{entry_id}.html"
    for start in (
        site / "apis" / "jax.numpy.arange.html",
        site / "errors" / "tracer-bool-conversion.html",
        site / "index.html",
    ):
        first = header_search(page, start, traceback)
        assert first.get_attribute("href") == f"errors/{entry_id}.html", start
        assert page.input_value("#query") == traceback.replace("\r\n", "\n")
    assert page.script_errors == []


def test_an_api_name_finds_its_page(page: Any, site: Path, catalog: Catalog) -> None:
    assert catalog.for_api("jax.numpy.arange")
    first = search(page, site, "arange")
    assert first.get_attribute("href") == "apis/jax.numpy.arange.html"
    first.click()
    page.wait_for_url("**/apis/jax.numpy.arange.html", timeout=WAIT)
    assert page.locator("h1").inner_text() == "jax.numpy.arange"
    assert page.locator("ol.errors li").count() == len(catalog.for_api("jax.numpy.arange"))
