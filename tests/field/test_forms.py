"""The forms the field corpus shows, read from the command line (`jaxerr-ls explain --json` and
its human output) exactly as users pasted them; and how an entry was found, said in JSON and in
words. Every text here is a paste from `pastes/` (see `index.json` for its thread)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jaxerr_ls.shells.cli.main import main

PASTES = Path(__file__).parent / "pastes"
HOLDOUT = Path(__file__).parent / "holdout"


def explain(
    capsys: pytest.CaptureFixture[str], name: str, directory: Path = PASTES
) -> list[dict[str, Any]]:
    [path] = directory.glob(f"{name}-*.txt")
    assert main(["explain", str(path), "--json"]) == 0
    found: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["tracebacks"]
    return found


def human(capsys: pytest.CaptureFixture[str], name: str) -> str:
    [path] = PASTES.glob(f"{name}-*.txt")
    assert main(["explain", str(path)]) == 0
    return capsys.readouterr().out


def test_vscode_error_copy_cut_short(capsys: pytest.CaptureFixture[str]) -> None:
    """VS Code's notebook error copy: raw line ends and tabs in its JSON strings, quotes escaped
    in its frames, and this one cut short before its closing brace (it said "No traceback
    found")."""
    [found] = explain(capsys, "193")
    assert (found["exception"], found["message"]) == ("ValueError", "std::bad_cast")
    frames = [(f["path"], f["line"], f["function"]) for f in found["frames"]]
    assert frames[0] == ("Cell In[5]", 1, "")
    assert frames[1][0].endswith("jax/_src/random.py") and frames[1][1:] == (233, "PRNGKey")


def test_vscode_error_copy_from_its_first_key(capsys: pytest.CaptureFixture[str]) -> None:
    """The same copy taken from its `"name":` key on, without the opening brace
    (tensorflow#62828's paste, in the holdout): the class and message it names."""
    [path] = (Path(__file__).parent / "holdout").glob("033-*.txt")
    assert path.read_text(encoding="utf-8").startswith('"name": "ValueError",')
    assert main(["explain", str(path), "--json"]) == 0
    [found] = json.loads(capsys.readouterr().out)["tracebacks"]
    assert found["exception"] == "ValueError"
    assert found["message"].startswith("Reverse-mode differentiation does not work for")
    assert found["entry"]["id"] == "fori-loop-reverse-mode-dynamic-bounds"


def test_simplified_traceback_note_alone_is_not_the_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`jax.errors.SimplifiedTraceback: For simplicity, ...` whose exception was cut off: JAX's
    note is not explained as the error; the log lines before it are what the paste says."""
    found = explain(capsys, "204")
    assert all("SimplifiedTraceback" not in f["exception"] for f in found)
    assert not found or "Could not create cudnn handle" in found[0]["message"]


def test_notebook_chain_cut_in_its_frames_keeps_the_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Colab printed JAX's filtered copy, then the same TypeError's frames, cut before its last
    line: the class is the header's, the message the filtered copy's."""
    [found] = explain(capsys, "075")
    assert found["exception"] == "TypeError"
    assert found["message"].startswith("Gradient only defined for scalar-output functions.")
    assert found["entry"]["id"] == "grad-tuple-output-without-has-aux"


def test_notebook_header_names_the_class_of_a_cut_paste(capsys: pytest.CaptureFixture[str]) -> None:
    """VS Code notebook output with markdown links in its frames, cut before its last line."""
    [found] = explain(capsys, "205")
    assert (found["exception"], found["message"]) == ("XlaRuntimeError", "")
    assert found["frames"][0]["path"] == "Cell In[5]" and found["frames"][0]["line"] == 4


def test_paste_cut_before_its_message_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A notebook output cut in its frames, only the header's `TypeError` read: no entry, and the
    words say what is missing (not "no entry matches this message"), in the terminal and in the
    editor's diagnostic."""
    from jaxerr_ls.catalog import Matcher, load_catalog
    from jaxerr_ls.explain import explain_text
    from jaxerr_ls.explain.diagnostics import _message

    said = " ".join(human(capsys, "223").split())
    assert "stops before the error's message" in said and "(TypeError: ...)" in said
    assert "no entry matches this message" not in said
    text = next(PASTES.glob("223-*.txt")).read_text("utf-8")
    [found] = explain_text(text, Matcher(load_catalog()))
    assert "stops before the error's message" in " ".join(_message(found).split())
    # A message that matches nothing is still said to match nothing.
    [other] = explain_text(
        next(PASTES.glob("276-*.txt")).read_text("utf-8"), Matcher(load_catalog())
    )
    assert other.match is None and "stops before" not in _message(other)


@pytest.mark.parametrize(
    ("name", "exception", "message"),
    [
        ("147", "AssertionError", ""),  # UnfilteredStackTrace around a bare assert
        (
            "067",
            "ValueError",
            "Non-hashable static arguments are not supported.",
        ),  # quotes a TypeError
        ("007", "Exception", "The numpy.ndarray conversion method __array__()"),  # bare Exception
        ("043", "flax.errors.ScopeParamShapeError", "Inconsistent shapes"),  # markdown bold
        ("027", "Exception", "Leaked trace MainTrace(1,DynamicJaxprTrace)."),  # pytest summary
        ("073", "ValueError", "Incompatible shapes for broadcasting"),  # a prompt before it
        ("026", "TracerArrayConversionError", "The numpy.ndarray conversion method"),  # in a repr
    ],
)
def test_short_forms_read_as_pasted(
    capsys: pytest.CaptureFixture[str], name: str, exception: str, message: str
) -> None:
    found = explain(capsys, name)
    assert found, "No traceback found"
    assert found[-1]["exception"] == exception
    assert found[-1]["message"].startswith(message)


def test_pytest_summary_lines_are_not_rejoined(capsys: pytest.CaptureFixture[str]) -> None:
    """pytest's short summary cuts each FAILED line at the terminal's width itself: equally long
    lines, yet no hard wrap to rejoin."""
    [found] = explain(capsys, "027")
    assert found["message"] == "Leaked trace MainTrace(1,DynamicJaxprTrace). Leaked tracer(s):"


def test_pycharm_suffix_is_not_part_of_the_message() -> None:
    from jaxerr_ls.tracebacks.parse import paste_readings

    [path] = PASTES.glob("047-*.txt")
    [reading] = paste_readings(path.read_text(encoding="utf-8"))
    assert reading.message.endswith("flax.errors.ScopeParamShapeError)")


def test_jax_class_identifies_its_entry_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """An UnexpectedTracerError as a 2022 release worded it ("... A function transformed by JAX
    had a side effect, allowing for a reference to an intermediate value ... to escape."), which
    no catalogued wording matches: the class, JAX's own, names the error; the JSON and the text
    say it was found by class alone."""
    found = explain(capsys, "156")
    assert {f["entry"]["id"] for f in found} == {"unexpected-tracer-leak"}
    assert {f["entry"]["identified_by"] for f in found} == {"class"}
    assert all(f["entry"]["score"] < 100 for f in found)
    assert "Identified by its class alone (UnexpectedTracerError)" in human(capsys, "156")


def test_cut_message_identified_by_its_beginning(capsys: pytest.CaptureFixture[str]) -> None:
    """pytest's short summary cut the UnexpectedTracerError's message ("A funct..."): what is
    left begins the catalogued wording far enough to name it, and the text says it was cut."""
    found = explain(capsys, "158")
    assert {f["entry"]["id"] for f in found} == {"unexpected-tracer-leak"}
    assert {f["entry"]["identified_by"] for f in found} == {"message"}
    assert all(f["entry"]["score"] < 100 for f in found)
    assert "Identified by the beginning of its message" in human(capsys, "158")


@pytest.mark.parametrize("name", ["089", "137"])
def test_generic_class_identifies_nothing(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """TypeError / ValueError carrying Python's own message inside a JAX-stack traceback: no
    entry, rather than a guess from the class."""
    found = explain(capsys, name)
    assert found[-1]["exception"] in ("TypeError", "ValueError")
    assert found[-1]["entry"] is None


def test_diagnostic_text_says_how_the_entry_was_found() -> None:
    """The LSP diagnostic's message (its first lines) says when the class alone named the entry,
    and says nothing extra when the message did."""
    from jaxerr_ls.catalog import Matcher, load_catalog
    from jaxerr_ls.explain import explain_text
    from jaxerr_ls.explain.diagnostics import _message

    matcher = Matcher(load_catalog())
    texts = {name: next(PASTES.glob(f"{name}-*.txt")).read_text("utf-8") for name in ("156", "075")}
    by_class = explain_text(texts["156"], matcher)[0]
    assert "Identified by its class alone (UnexpectedTracerError)" in _message(by_class)
    [by_message] = explain_text(texts["075"], matcher)
    assert "Identified by" not in _message(by_message)


def test_vscode_debugger_popup(capsys: pytest.CaptureFixture[str]) -> None:
    """VS Code's "Exception has occurred" popup copied with its bold marks: the class, the
    message without the `**`, the frames below it, the user's innermost line located."""
    [found] = explain(capsys, "211")
    assert found["exception"] == "TypeError"
    assert found["message"].startswith("mul got incompatible shapes for broadcasting: (800, 800")
    assert "**" not in found["message"]
    assert (found["location"]["path"], found["location"]["line"]) == ("/plenoxels/plenoxel.py", 490)
    assert found["entry"]["id"] == "broadcast-op-incompatible-shapes"


def test_message_cut_in_a_comment_still_names_its_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A comment quoting the error without its last sentence ("... Const(const=[2]).", JAX goes
    on "The error was: ..."): the beginning names the error, its values are read, and the
    words say the message was cut."""
    [found] = explain(capsys, "209")
    assert found["entry"]["id"] == "static-arg-unhashable-object"
    assert found["entry"]["identified_by"] == "message" and found["entry"]["score"] < 100
    assert found["fields"]["type"] == "<class 'genjax._src.core.pytree.Const'>"
    assert "Identified by the beginning of its message" in human(capsys, "209")


def test_cut_output_read_whole_from_the_unfiltered_copy(capsys: pytest.CaptureFixture[str]) -> None:
    """Colab cut the re-raised TypeError mid-word ("... 0x7f02455d0650>' w"); JAX's
    UnfilteredStackTrace above it carries the same error whole: that text is explained."""
    found = explain(capsys, "254")
    assert found[-1]["exception"] == "TypeError"
    assert "with dtype object is not a valid JAX array type" in found[-1]["message"]
    assert found[-1]["entry"]["id"] == "jnp-string-array"


def test_generic_class_at_a_library_statement_identifies_its_entry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """065: Python's "missing 1 required positional argument: 'x'" raised by Equinox's own
    statement in `_ad.py`'s `__call__` (filter_grad's wrapper called by keyword only): the place
    names the error, said as a raise site, not as the class."""
    found = explain(capsys, "065")
    assert found[-1]["exception"] == "TypeError"
    assert found[-1]["entry"]["id"] == "equinox-filter-grad-first-argument"
    assert found[-1]["entry"]["identified_by"] == "raise_site"


@pytest.mark.parametrize(
    ("name", "entry", "end"),
    [
        ("1030", "vmap-out-axes-none-mapped-output", "out_axes is None"),
        ("1106", "resource-exhausted-out-of-memory", "294970604000 bytes."),
        ("295", "flax-9624bcb5", "mapping strings to `jax.PRNGKey`."),
    ],
)
def test_an_error_line_in_markdown_bold(
    capsys: pytest.CaptureFixture[str], name: str, entry: str, end: str
) -> None:
    """An issue's text showing the error line in bold or in italics, outside a code block
    (jax#7972, alphafold#185, xmcgan#8's `_flax.errors.InvalidRngError: ..._`): the class and
    the message are the error's, not the closing `**` or `_`, so a template ending in literal
    text still matches it."""
    [found] = explain(capsys, name)
    assert found["message"].endswith(end)
    assert found["entry"]["id"] == entry


def test_a_message_wrapped_across_lines_is_read_as_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """maxtext#3746: the scan carry message broken after "The input" by the page it was copied
    from, with the line's trailing spaces and the next line's indentation."""
    [found] = explain(capsys, "769", HOLDOUT)
    assert found["entry"]["id"] == "scan-carry-type-mismatch"


def test_the_body_of_a_leak_report_without_its_first_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """numpyro#2062: the chain of referrers of a leaked tracer, copied without `Leaked trace`."""
    [found] = explain(capsys, "792")
    assert found["entry"]["id"] == "leaked-tracer-check"


@pytest.mark.parametrize("name", ["1605", "1606"])
def test_jax_s_note_behind_a_logger_s_header_without_the_error(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """alphafold#298 relays JAX's note through absl on every line; tpu-inference#2453 prints it
    behind Ray's and vLLM's headers (`ERROR 04-30 01:11:39 [core.py:1136] `). Either note,
    copied without the error after it, is explained as such."""
    [found] = explain(capsys, name)
    assert found["entry"]["id"] == "jax-traceback-note-without-error"


def test_a_bare_mlir_verification_error(capsys: pytest.CaptureFixture[str]) -> None:
    """jax#27602: `MLIRError: Verification failed` alone, its diagnostics not copied."""
    [found] = explain(capsys, "636", HOLDOUT)
    assert (found["exception"], found["entry"]["id"]) == ("MLIRError", "mlir-verifier-constraint")


def test_a_hard_wrapped_message_reaches_its_entry(capsys: pytest.CaptureFixture[str]) -> None:
    """jax#2508: the concretization message as a pull request's description wrapped it
    (`... encountered where a` / `concrete value is expected.`); it reached nothing before."""
    [found] = explain(capsys, "005")
    assert found["exception"] == "TypeError"
    assert found["entry"]["id"] == "concretization-traced-value"


@pytest.mark.parametrize(("name", "directory"), [("1369", PASTES), ("1029", HOLDOUT)])
def test_the_header_of_the_stack_before_transformation_alone(
    capsys: pytest.CaptureFixture[str], name: str, directory: Path
) -> None:
    """BrainPy#702 and jax#12051: IPython's `JaxStackTraceBeforeTransformation  Traceback (most
    recent call last)` and the frames where the operation was written, the error after them not
    copied: explained as JAX's note without its error, not left unexplained."""
    [found] = explain(capsys, name, directory)
    assert found["exception"] == "JaxStackTraceBeforeTransformation"
    assert found["entry"]["id"] == "jax-traceback-note-without-error"


def test_a_message_cut_in_its_first_word_named_by_its_raise(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """jax#14861: `TypeError: Sh`, the paste cut two letters into the message, raised by
    `canonicalize_shape`, whose one TypeError opens with those letters: named by where it was
    raised, and said so."""
    [found] = explain(capsys, "145", HOLDOUT)
    assert found["entry"]["id"] == "traced-shape-not-concrete"
    assert found["entry"]["identified_by"] == "raise_site"


def test_a_string_s_type_missing_from_jax_0_1_s_table(capsys: pytest.CaptureFixture[str]) -> None:
    """jax#1883: JAX 0.1 looked a string's type up in `abstractify`'s table (`KeyError: <class
    'str'>`), the error it led to cut off: strings given to JAX, named by that statement."""
    [found] = explain(capsys, "414", HOLDOUT)
    assert (found["exception"], found["entry"]["id"]) == ("KeyError", "jnp-string-array")
    assert found["entry"]["identified_by"] == "raise_site"
