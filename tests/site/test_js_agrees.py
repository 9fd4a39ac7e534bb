"""The site's in-browser matcher (JavaScript, run under Node) finds the same entries as the CLI.

Inputs are real: the tracebacks JAX printed in tests/corpus/out (and out-<release> for older
releases) and tests/tracebacks/samples, and
the exception lines of those tracebacks as a user would paste them alone.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.sites import SITE_SCORE
from jaxerr_ls.explain import explain_text
from jaxerr_ls.site.search_data import js_regex, search_script

HERE = Path(__file__).parent
ASSETS = HERE.parents[1] / "src" / "jaxerr_ls" / "site" / "assets"
# The browser's parser reads tracebacks and exception lines; the CLI's other short forms (JSON
# log records, VS Code's notebook copy, a message without its class) are not ported to it yet.
_NOT_IN_BROWSER = (".json_log.txt", ".vscode_json.txt", ".message.txt")
# A runtime error whose status text holds the callback's own traceback: the browser's parser takes
# its last line (`ValueError: ...`) for the exception; reading the status across lines is not
# ported to it yet (the message test below checks the same entry from the parsed message).
_MULTILINE_STATUS = frozenset({"host-callback-python-error"})
# Older releases' outputs (their wordings, the classes they raised) in a few forms each.
_OLDER_FORMS = (".plain.txt", ".ipython.txt", ".pytest_long.txt", ".last_line.txt")
TEXTS = (
    [
        path
        for path in sorted((HERE.parent / "corpus" / "out").glob("*.txt"))
        if not path.name.endswith(_NOT_IN_BROWSER)
    ]
    + sorted((HERE.parent / "tracebacks" / "samples").glob("*.txt"))
    + [
        path
        for folder in sorted((HERE.parent / "corpus").glob("out-*"))
        for path in sorted(folder.glob("*.txt"))
        if path.name.endswith(_OLDER_FORMS)
    ]
)

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())


def run_node(matcher: Matcher, inputs: list[list[str]], tmp_path: Path) -> list[list[object]]:
    data = tmp_path / "search-data.js"
    data.write_text(search_script(matcher), encoding="utf-8")
    done = subprocess.run(
        ["node", str(HERE / "node_match.js"), str(data), str(ASSETS / "match.js")],
        input=json.dumps(inputs),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result: list[list[object]] = json.loads(done.stdout)
    return result


def test_tracebacks_match_the_same_entries(matcher: Matcher, tmp_path: Path) -> None:
    texts: list[str] = []
    expected: list[str | None] = []
    paths: list[Path] = []
    for path in TEXTS:
        text = path.read_text(encoding="utf-8", errors="replace")
        explained = explain_text(text, matcher)
        last = explained[-1] if explained else None
        if last is not None and (
            not last.traceback.message.strip() or (last.match and last.match.score == SITE_SCORE)
        ):
            # A bare exception (an empty assert, a KeyError): the CLI names it by JAX's raise
            # site, which the page cannot see.
            continue
        if last is not None and last.match and last.match.entry.id in _MULTILINE_STATUS:
            continue
        texts.append(text)
        paths.append(path)
        expected.append(last.match.entry.id if last and last.match else None)
    found = run_node(matcher, [["text", text] for text in texts], tmp_path)
    agree = sum(1 for want, got in zip(expected, found, strict=True) if want == got[0])
    matched = sum(1 for want in expected if want)
    print(f"JS/Python agreement: {agree}/{len(texts)} tracebacks ({matched} with an entry)")
    differ = [
        (path.name, want, got[0])
        for path, want, got in zip(paths, expected, found, strict=True)
        if want != got[0]
    ]
    assert matched > len(texts) // 2  # the corpus is JAX's errors: most have entries
    assert differ == []


def test_messages_match_the_same_entries_and_scores(matcher: Matcher, tmp_path: Path) -> None:
    pairs: list[tuple[str, str]] = []
    for path in TEXTS:
        for explained in explain_text(path.read_text(encoding="utf-8", errors="replace"), matcher):
            pairs.append((explained.traceback.exception, explained.traceback.message))
            # The message alone, its class unknown; and under another class (a re-raise).
            pairs.append(("", explained.traceback.message))
            pairs.append(("RuntimeError", explained.traceback.message))
    # Every curated example message as its template reads, and a misspelt one (fuzzy fallback).
    for entry in matcher.catalog.curated:
        pairs.append((entry.exception, entry.message))
        pairs.append((entry.exception, entry.message.replace("e", "a", 1)))
    expected = []
    kept: list[tuple[str, str]] = []
    # The wordings of releases before 0.4.26 (catalog/older.py) are matched by the command line
    # and the server; the site does not carry them (docs/catalog.md says so).
    current_only = Matcher(matcher.catalog)
    current_only._older = False
    for exception, message in pairs:
        match = matcher.match(exception, message)
        if match != current_only.match(exception, message):
            continue
        kept.append((exception, message))
        expected.append([match.entry.id, match.score] if match else [None, 0])
    pairs = kept
    found = run_node(matcher, [["message", e, m] for e, m in pairs], tmp_path)
    agree = sum(1 for want, got in zip(expected, found, strict=True) if want == got)
    print(f"JS/Python agreement: {agree}/{len(pairs)} messages")
    assert [p for p, w, g in zip(pairs, expected, found, strict=True) if w != g] == []


def test_every_regex_compiles_in_javascript(matcher: Matcher, tmp_path: Path) -> None:
    # search_data translates them; Node must accept all of them (match.js compiles lazily).
    sources = [t.regex_source for t in matcher.templates] + [p.pattern for _, p in matcher.patterns]
    script = tmp_path / "compile.js"
    script.write_text(
        "const s = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "let bad = [];"
        "for (const x of s) { try { new RegExp(x, 'sm'); } catch (e) { bad.push(x); } }"
        "process.stdout.write(JSON.stringify(bad));",
        encoding="utf-8",
    )
    done = subprocess.run(
        ["node", str(script)],
        input=json.dumps([js_regex(s) for s in sources]),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(done.stdout) == []


def test_python_only_regex_syntax_is_translated() -> None:
    assert js_regex(r"\A(?P<op>\w+) and (?P=op)\Z") == r"(?<![\s\S])(?<op>\w+) and \k<op>(?![\s\S])"
    assert js_regex(r"\\A literal backslash") == r"\\A literal backslash"


FIELD = HERE.parent / "field" / "pastes"


def test_missing_names_explained_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """Pasted errors about a name JAX removed (`jax.tree_multimap`, `DeviceArray`,
    `jax.ops.index_update`, `jax.linear_util`), from the field corpus: the search box names the
    entry the command line names from the API history; a name no release had gets none of them."""
    texts = [
        next(FIELD.glob(f"{n}-*.txt")).read_text("utf-8") for n in ("121", "132", "057", "171")
    ]
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    assert [m.entry.id if m else None for m in expected] == [
        "removed-api",
        "removed-api",
        "removed-api",
        # `import jax.linear_util` needs the module (removed in 0.4.24), though jax.linear_util
        # was also an attribute of jax
        "removed-module",
    ]
    invented = "AttributeError: module 'jax' has no attribute 'no_such_name_anywhere'"
    found = run_node(matcher, [["text", t] for t in [*texts, invented]], tmp_path)
    assert [f[0] for f in found[:-1]] == [m.entry.id for m in expected if m]
    assert found[-1][0] not in ("removed-api", "removed-module", "api-not-yet-added")


def test_modules_explained_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """Real runs of JAX 0.10.2 (tests/upgrades/tracebacks): `from jax.config import config`
    (the module is gone, the config object is not) and `jax.experimental.sparse` after `import
    jax` alone (a module to import, not one added later): the page says what the CLI says."""
    saved = HERE.parent / "upgrades" / "tracebacks"
    texts = [
        (saved / name).read_text("utf-8")
        for name in ("old_config_module@0.10.2.txt", "unimported_sparse@0.10.2.txt")
    ]
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    assert [m.entry.id if m else None for m in expected] == [
        "removed-module",
        "jax-submodule-not-imported",
    ]
    found = run_node(matcher, [["text", t] for t in texts], tmp_path)
    assert [f[0] for f in found] == ["removed-module", "jax-submodule-not-imported"]


def test_a_class_names_its_entry_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """Field pastes no wording matches, named by their class (and status) alone: an
    `XlaRuntimeError` cut before its message (jax-windows-builder#34), jaxlib 0.1's
    `RuntimeError: Invalid argument: ...` (jax#4131; jax#5228's `Unknown NumPy type U size 8`
    named its family here until the XLA of 2021 joined the catalog: its words find it now, see
    test_an_old_status_is_found_by_its_words), Equinox 0.11's renamed `EqxRuntimeError`
    (equinox#696). The search box names what the command line names; a generic class with an
    unknown text, or a status under a class that never carries one, names nothing."""
    pastes = [next(FIELD.glob(f"{n}-*.txt")).read_text("utf-8") for n in ("478", "461", "066")]
    explained = [explain_text(text, matcher)[-1] for text in pastes]
    expected = [e.match for e in explained]
    assert [(m.entry.id, m.by) if m else None for m in expected] == [
        ("xla-runtime-error", "class"),
        ("xla-status-invalid-argument", "class"),
        ("equinox-runtime-error", "class"),
    ]
    # The exception line as the CLI read it (the browser's parser does not read every notebook
    # form yet: see _NOT_IN_BROWSER), pasted alone.
    lines = [
        f"{e.traceback.exception}: {(e.traceback.message.splitlines() or [''])[0]}"
        for e in explained
    ]
    assert [explain_text(line, matcher)[-1].match for line in lines] == expected
    generic = [
        "RuntimeError: something no release printed",
        "ValueError: INTERNAL: something no release printed",
    ]
    found = run_node(matcher, [["text", t] for t in [*lines, *generic]], tmp_path)
    assert [f[0] for f in found] == [m.entry.id for m in expected if m] + [None, None]


def test_an_old_status_is_found_by_its_words(matcher: Matcher, tmp_path: Path) -> None:
    """jax#5228: jaxlib 0.1 raised `RuntimeError: Invalid argument: Unknown NumPy type U size 8`,
    a wording XLA dropped later (the XLA of 2021, catalog/xla, builds it); the curated entry for
    non-numeric data given to JAX reads it, on the page as on the command line."""
    line = "RuntimeError: Invalid argument: Unknown NumPy type U size 8"
    [explained] = explain_text(line, matcher)
    assert explained.match is not None and explained.match.by == "message"
    assert explained.match.entry.id == "jnp-string-array"
    [found] = run_node(matcher, [["text", line]], tmp_path)
    assert found[0] == explained.match.entry.id


def test_a_private_jax_name_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """optax#453, optax#456 and bridge_data_v2#28: code reaching into JAX's private names
    (`jax._src`, `serialization._DEFAULT_DRIVER`) the installed release lacks; a public name no
    release had stays unexplained by it."""
    texts = [next(FIELD.glob(f"{n}-*.txt")).read_text("utf-8") for n in ("178", "180", "091")]
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    assert [m.entry.id if m else None for m in expected] == ["jax-private-name-missing"] * 3
    public = "AttributeError: module 'jax' has no attribute 'no_such_name_anywhere'"
    found = run_node(matcher, [["text", t] for t in [*texts, public]], tmp_path)
    assert [f[0] for f in found] == ["jax-private-name-missing"] * 3 + [None]


def test_mosaic_diagnostics_found_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """Pallas errors worded by Mosaic's MLIR diagnostics (tests/catalog/mlir_pastes.toml, real
    pastes; `'vector.transpose' op ...` after an `MLIRError`, inside Mosaic's wrapper, re-raised as
    `MosaicError` or vLLM's `ValueError`) and a generated diagnostic after the op MLIR names: the
    search box names the entries the command line names."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib

    toml = HERE.parent / "catalog" / "mlir_pastes.toml"
    pastes = [p["text"] for p in tomllib.loads(toml.read_text("utf-8"))["paste"]]
    pastes.append(
        "error: loc(\"/swap\"): 'tpu.memref_slice' op Indices and slice shapes must match."
    )
    expected = [explain_text(text, matcher)[-1].to_json() for text in pastes]
    messages = [["message", e["exception"], e["message"]] for e in expected]
    found = run_node(matcher, messages, tmp_path)
    assert [f[0] for f in found] == [e["entry"]["id"] for e in expected]
    assert expected[-1]["entry"]["id"].startswith("mlir-")


def test_a_status_under_valueerror_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """jax#9237, jax#12514 and jax#9675: older jaxlib raised XLA's `INVALID_ARGUMENT` statuses as
    Python's `ValueError`; the words name their entry as surely as under `XlaRuntimeError` (the
    donation entry's own patterns for those, XLA's generated text for another). Tensorstore's
    `ValueError: NOT_FOUND: ...` (orbax#924) keeps Orbax's entry, and a status under `ValueError`
    that no wording matches names no family."""
    texts = [next(FIELD.glob(f"{n}-*.txt")).read_text("utf-8") for n in ("531", "532", "092")]
    texts.append(
        "ValueError: INVALID_ARGUMENT: Executable expected parameter 0 of size 4 but got buffer "
        "with incompatible size 8"
    )
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    assert [m.entry.id if m else None for m in expected][:2] == ["donated-array-deleted"] * 2
    assert [m.entry.library if m else None for m in expected][2:] == ["orbax", "xla"]
    assert all(m is not None and m.score == 100 for m in expected)
    unknown = "ValueError: INTERNAL: something no release printed"
    assert explain_text(unknown, matcher)[-1].match is None
    found = run_node(matcher, [["text", t] for t in [*texts, unknown]], tmp_path)
    assert found == [[m.entry.id, 100] for m in expected if m] + [[None, 0]]


# C++ log lines users pasted (tests/field/pastes 588, 594, 580, 241), as the browser sees them.
LOG_LINES = (
    "F external/org_tensorflow/tensorflow/core/tpu/tpu_executor_init_fns.inc:110] "
    "TpuTransferManager_ReadDynamicShapes not available in this library.",
    "2022-01-17 20:08:33.794365: F external/org_tensorflow/tensorflow/core/tpu/"
    "tpu_library_init_fns.inc:34] TpuEmbeddingEngineState_Create not available in this library.",
    "common_pjrt_client.cc:1617] ExecutePrepareWithOomRetries failed: INVALID_ARGUMENT: Buffer",
)


def test_log_lines_as_the_cli_reads_them(matcher: Matcher, tmp_path: Path) -> None:
    """A log line, read without a class, reaches the same entry in the browser as in Python:
    pasted whole in the search box (a line with its severity and file), or as the message of no
    class (how `loose` reads it). The gap: the browser's parser does not read a paste that starts
    mid-line (`common_pjrt_client.cc:1617] ...`, no severity) as a message; given as one, it
    matches."""
    expected = [matcher.match("", line) for line in LOG_LINES]
    assert all(m is not None for m in expected)
    ids = [m.entry.id for m in expected if m]
    found = run_node(matcher, [["message", "", line] for line in LOG_LINES], tmp_path)
    assert [f[0] for f in found] == ids
    pasted = run_node(matcher, [["text", line] for line in LOG_LINES[:2]], tmp_path)
    assert [f[0] for f in pasted] == ids[:2]


def test_a_message_cut_at_its_start_is_a_gap_of_the_site(matcher: Matcher, tmp_path: Path) -> None:
    """A gap, stated: the command line reads a message whose beginning the user left out and
    marked `...` (chex#464's before, field paste 607) by the end of a template
    (`partial.follow_end`); the page does not, since its literal words would have to pass the
    matcher's says-enough rules (`catalog/specific.py`: the common words and Python's own
    wordings), which the site's data does not carry. The same message whole, and the pull
    request's after wording (a pattern), agree."""
    cut = (FIELD / "607-chex-464-before-ellipsis.txt").read_text("utf-8").strip()
    after = (FIELD / "608-chex-464-after-ellipsis.txt").read_text("utf-8").strip()
    whole = cut.replace(
        "... ", "[Chex] Assertion assert_shape failed: Error in shape compatibility check: "
    )
    texts = [cut, after, whole]
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    entry = "chex-assert-shape-bare-ellipsis"
    assert [m.entry.id if m else None for m in expected] == [entry] * 3
    assert expected[0] is not None and expected[0].cut_start
    found = run_node(matcher, [["text", t] for t in texts], tmp_path)
    assert found[0][0] != entry  # the gap
    assert [f[0] for f in found[1:]] == [entry, entry]


def test_other_classes_as_the_cli_does(matcher: Matcher, tmp_path: Path) -> None:
    """NumPy's import-time check prints its texts as RuntimeError and AttributeError before the
    ImportError (jax#2606, jax#21937): `numpy-abi-mismatch` names those classes
    (`other_classes`), so the page finds it at the same score as the command line; under a class
    NumPy never prints them with, both are less sure."""
    inputs = [
        [
            "message",
            "RuntimeError",
            "module compiled against API version 0xc but this version of numpy is 0xb",
        ],
        ["message", "AttributeError", "_ARRAY_API not found"],
        ["message", "KeyError", "_ARRAY_API not found"],
    ]
    expected = [matcher.match(i[1], i[2]) for i in inputs]
    assert [(m.entry.id, m.score) if m else None for m in expected[:2]] == [
        ("numpy-abi-mismatch", 100)
    ] * 2
    found = run_node(matcher, inputs, tmp_path)
    assert [(f[0], f[1]) for f in found] == [
        (m.entry.id, m.score) if m else (None, 0) for m in expected
    ]


def _page_reads_as_the_cli(matcher: Matcher, texts: list[str], tmp_path: Path) -> None:
    """Each text gets an entry from the command line, and the page names the same one."""
    expected = []
    for text in texts:
        [explained] = explain_text(text, matcher)
        assert explained.match is not None
        expected.append(explained.match.entry.id)
    found = run_node(matcher, [["text", text] for text in texts], tmp_path)
    assert [got[0] for got in found] == expected


def test_field_forms_as_the_cli_reads_them(matcher: Matcher, tmp_path: Path) -> None:
    """Forms of the field corpus the page reads as the command line does: pytest's short
    summary line (equinox#1171, and a cut one, awkward#1447's paste), a program's or logger's
    `ERROR: text` line (diffusers#2155, jax#15788)."""
    from tests.field.measure_pastes import paste_text

    texts = [paste_text(name) for name in ("635", "158", "666", "562")]
    _page_reads_as_the_cli(matcher, texts, tmp_path)


def test_seventh_batch_forms_as_the_cli_reads_them(matcher: Matcher, tmp_path: Path) -> None:
    """The seventh batch's forms the page reads as the command line does: a reply quoting a
    traceback on every line (jax#5319's after-paste), an exception's repr (efppo#8), a class
    defined in a function (`...<locals>.MLIRError`, jax#23884); and a reply quoting a reply."""
    from tests.field.measure_pastes import paste_text

    texts = [paste_text(name) for name in ("776", "786", "829")]
    texts.append("\n".join(f"> > {line}" for line in paste_text("829").split("\n")))
    _page_reads_as_the_cli(matcher, texts, tmp_path)


def test_eighth_batch_forms_as_the_cli_reads_them(matcher: Matcher, tmp_path: Path) -> None:
    """The eighth batch's forms the page reads as the command line does: dask's log of a task's
    exception as a quoted repr (tn4ml#4), VS Code's line links to an unsaved file (jax#25687),
    a paste that stops after JAX's note (aaf#2) or a wrapper's header (vision_transformer#127),
    a paste starting inside a custom_jvp rule's list of disagreements (diffrax#513)."""
    from tests.field.measure_pastes import paste_text

    texts = [paste_text(name) for name in ("831", "901", "438", "674", "843")]
    _page_reads_as_the_cli(matcher, texts, tmp_path)


def test_ninth_batch_forms_as_the_cli_reads_them(matcher: Matcher, tmp_path: Path) -> None:
    """The ninth batch's forms the page reads as the command line does: an error written as the
    text's opening comment (jax#10044), a diff's added log lines (jax#39095), a log's error line
    under a program's output and warnings (mpx#11), an error before JAX's note whose copy stops
    after it (jax#20236), and the installation failures' entries (jax#6071, jax#854, jax#6671,
    xla#16431)."""
    from tests.field.measure_pastes import paste_text

    texts = [
        paste_text(name)
        for name in ("1006", "1070", "1071", "1034", "1087", "1094", "1079", "1045")
    ]
    _page_reads_as_the_cli(matcher, texts, tmp_path)


def test_a_printed_line_alone_names_its_entry(matcher: Matcher, tmp_path: Path) -> None:
    """A program's output around the message it printed (as jax#2663's, with today's wording):
    the line that is, alone, an entry's message; JAX's note between pytest's summary lines is
    not one (numpyro#2067)."""
    from tests.field.measure_pastes import paste_text

    text = (
        "aval=2\nnp.tanh(aval)=0.9640276\n"
        "grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
        "np.inexact), but got int32. If you want to use Boolean- or integer-valued inputs, use "
        "vjp or set allow_int to True.\nsadness - grad(np.tanh)(aval) failed"
    )
    _page_reads_as_the_cli(matcher, [text, paste_text("605")], tmp_path)


def test_twelfth_batch_forms_as_the_cli_reads_them(matcher: Matcher, tmp_path: Path) -> None:
    """The twelfth batch's entries and forms the page reads as the command line does: the
    exception line a text opens with, output after it (jax#13409); jaxlib's missing submodule as
    ModuleNotFoundError (ColabFold#643); a jaxlib object's missing method (jax#14304); ptxas's
    PTX ISA feature line (xla#11164); a tracer formatted with a spec (jax#23475); Orbax's log
    line (demonstration-information#1); `Illegal instruction` under QEMU (jax-feedstock#144)."""
    from tests.field.measure_pastes import paste_text

    texts = [paste_text(name) for name in ("1211", "1243", "1203", "1193", "1155", "1143", "1186")]
    _page_reads_as_the_cli(matcher, texts, tmp_path)


def test_a_wrapper_and_a_leading_value_are_read_alike(matcher: Matcher, tmp_path: Path) -> None:
    """The page reads as the command line does a generated wrapper around an XLA status
    (jax#24829) and a message after a log's `ERROR:root:`: no leading value takes the header,
    and the message is read past it, as `loose` reads a message without its class."""
    from jaxerr_ls.catalog.loose import match_any_class

    pairs = [
        (
            "RuntimeError",
            "Unable to initialize backend 'cpu': ALREADY_EXISTS: Config key "
            "cpu:local_topology/cpu/3 already exists.",
        ),
        (
            "",
            "ERROR:root:lax.select requires arguments to have the same dtypes, got float32, "
            "bfloat16. (Tip: jnp.where is a similar function that does automatic type "
            "promotion on inputs).",
        ),
    ]
    expected = []
    for exception, message in pairs:
        match = matcher.match(exception, message) if exception else None
        match = match or match_any_class(matcher, message)
        expected.append([match.entry.id, match.score] if match else [None, 0])
    assert "already-exists" in str(expected[0][0])
    assert expected[1] == ["lax-dtype-mismatch", 100]
    found = run_node(matcher, [["message", e, m] for e, m in pairs], tmp_path)
    assert found == expected


def test_a_line_in_markdown_bold_is_read_alike(matcher: Matcher, tmp_path: Path) -> None:
    """An error line set in bold or italics outside a code block (jax#7972, alphafold#185,
    xmcgan#8) loses its `**` or `_` on the page as in the command line."""
    from tests.field.measure_pastes import paste_text

    texts = [paste_text("1030"), paste_text("1106"), paste_text("295")]
    expected = []
    for text in texts:
        [explained] = explain_text(text, matcher)
        assert explained.match is not None and not explained.traceback.message.endswith("*")
        expected.append([explained.match.entry.id, explained.match.score])
    assert run_node(matcher, [["text", text] for text in texts], tmp_path) == expected


def test_a_python_log_line_is_read_past_its_header_alike(matcher: Matcher, tmp_path: Path) -> None:
    """A message without its class behind a Python logger's header (JAX's note behind Ray's and
    vLLM's headers, tpu-inference#2453; relayed by absl on every line, alphafold#298) reaches the
    same entry on the page as in the command line; the page read neither before."""
    from tests.field.measure_pastes import paste_text

    texts = [paste_text("1606"), paste_text("1605")]
    expected = []
    for text in texts:
        [explained] = explain_text(text, matcher)
        assert explained.match is not None and not explained.traceback.exception
        expected.append([explained.match.entry.id, explained.match.score])
    assert {entry for entry, _ in expected} == {"jax-traceback-note-without-error"}
    assert run_node(matcher, [["text", text] for text in texts], tmp_path) == expected


def test_jax_words_and_a_quoted_key_are_read_alike(matcher: Matcher, tmp_path: Path) -> None:
    """jax-finufft#135: JAX's own words for a name it removed, which do not spell the name
    (`register_custom_call_target has been removed in JAX v0.6.0; ...`); numpyro#2055: a
    KeyError printed with its quotes (`KeyError: "No RngStream named 'dropout' found in Rngs."`).
    Both reach their entry on the page as on the command line; an AttributeError in other words,
    and a KeyError of a bare key, reach none."""
    holdout = HERE.parent / "field" / "holdout"
    texts = [next(holdout.glob(f"{n}-*.txt")).read_text("utf-8") for n in ("951", "1027")]
    texts += [
        "AttributeError: my_helper has been removed from this module",
        "KeyError: 'params'",
    ]
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    ids = [m.entry.id if m else None for m in expected]
    assert ids[0] == "removed-api" and ids[1] is not None and ids[1].startswith("flax-")
    assert ids[2:] == [None, None]
    found = run_node(matcher, [["text", t] for t in texts], tmp_path)
    assert [f[0] for f in found] == ids


def test_xla_s_class_built_into_another_module_names_its_family(
    matcher: Matcher, tmp_path: Path
) -> None:
    """jax#15398: `google3.third_party.tensorflow.compiler.xla.python.xla_extension
    .XlaRuntimeError`, XLA's class from Google's own build, its message cut in its first words.
    The status names its family on the page as on the command line, and so does the class alone;
    the same class under a module that is neither JAX's stack nor XLA's extension names nothing."""
    holdout = HERE.parent / "field" / "holdout"
    paste = next(holdout.glob("668-*.txt")).read_text("utf-8")
    google3 = "google3.third_party.tensorflow.compiler.xla.python.xla_extension.XlaRuntimeError"
    texts = [paste, f"{google3}: Number of tile assignmen", "myframework.XlaRuntimeError: boom"]
    expected = [explain_text(text, matcher)[-1].match for text in texts]
    assert [(m.entry.id, m.by) if m else None for m in expected] == [
        ("xla-status-unknown", "class"),
        ("xla-runtime-error", "class"),
        None,
    ]
    lines = [f"{google3}: UNKNOWN: <unknown>:0: error: Number of tile assignmen", *texts[1:]]
    found = run_node(matcher, [["text", t] for t in lines], tmp_path)
    assert [f[0] for f in found] == ["xla-status-unknown", "xla-runtime-error", None]


def test_a_cut_separator_ends_the_message_alike(matcher: Matcher, tmp_path: Path) -> None:
    """subsai#41, quoted in markdown: `No module named 'jaxlib'`, then Python's `The above
    exception was the direct cause` with the paste stopping mid-sentence. The separator ends the
    message on the page as on the command line, so the message is the module's alone."""
    holdout = HERE.parent / "field" / "holdout"
    paste = next(holdout.glob("1307-*.txt")).read_text("utf-8")
    found = explain_text(paste, matcher)[-1]
    assert found.traceback.message == "No module named 'jaxlib'"
    assert found.match is not None and found.match.entry.id == "jaxlib-not-installed"
    unquoted = "\n".join(line.removeprefix("> ").removeprefix(">") for line in paste.splitlines())
    assert [f[0] for f in run_node(matcher, [["text", unquoted]], tmp_path)] == [
        "jaxlib-not-installed"
    ]


def test_an_arguments_tuple_cut_inside_its_message_alike(matcher: Matcher, tmp_path: Path) -> None:
    """jax#26931: `AttributeError: (Traced<...>, "The 'sharding' attribute is not available on
    ... This concret`, the tracer's arguments tuple with the paste stopping inside the message.
    The page reads the message inside as the command line does."""
    holdout = HERE.parent / "field" / "holdout"
    paste = next(holdout.glob("1211-*.txt")).read_text("utf-8")
    line = next(x for x in paste.splitlines() if x.startswith("AttributeError: ("))
    found = explain_text(line, matcher)[-1].match
    assert found is not None and "'sharding' attribute" in found.entry.message
    assert [f[0] for f in run_node(matcher, [["text", line]], tmp_path)] == [found.entry.id]


def test_a_frames_annotated_source_is_no_exception_alike(matcher: Matcher, tmp_path: Path) -> None:
    """jax-windows-builder#28: cuDNN's log line, then a traceback pasted unindented and cut
    inside its frames, the last source line `out_array: Array = ...`. That line is code, not
    `Class: message`, on the page as on the command line: the log line is what is explained."""
    holdout = HERE.parent / "field" / "holdout"
    paste = next(holdout.glob("1469-*.txt")).read_text("utf-8")
    found = explain_text(paste, matcher)[-1]
    assert found.traceback.exception != "out_array" and found.match is not None
    assert "symbol not found" in found.match.entry.message
    assert [f[0] for f in run_node(matcher, [["text", paste]], tmp_path)] == [found.match.entry.id]


def test_one_line_in_inline_code_alike(matcher: Matcher, tmp_path: Path) -> None:
    """jax-md#295: `` `AttributeError: ''Config' object has no attribute 'FLAGS'` ``, the paste's
    one line in backticks (and its opening quote doubled): read without them on the page too."""
    holdout = HERE.parent / "field" / "holdout"
    paste = next(holdout.glob("1274-*.txt")).read_text("utf-8")
    found = explain_text(paste, matcher)[-1]
    assert not found.traceback.message.endswith("`")
    assert found.match is not None and found.match.entry.id == "config-option-unrecognized"
    assert [f[0] for f in run_node(matcher, [["text", paste]], tmp_path)] == [found.match.entry.id]


def test_an_absl_header_before_log_initialisation_alike(matcher: Matcher, tmp_path: Path) -> None:
    """xla#47365: `F0000 00:00:1786847891.537009 3800435 hlo_instruction.cc:3763] Invalid opcode
    ...`, absl's header whose seconds are the epoch's (logging not initialised), after lines of
    the tool's own output: the log record is read on the page as on the command line."""
    holdout = HERE.parent / "field" / "holdout"
    paste = next(holdout.glob("444-*.txt")).read_text("utf-8")
    found = explain_text(paste, matcher)[-1]
    assert found.match is not None and "Invalid opcode" in found.match.entry.message
    assert [f[0] for f in run_node(matcher, [["text", paste]], tmp_path)] == [found.match.entry.id]
