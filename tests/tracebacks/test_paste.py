"""What users paste short of a whole traceback, made from real outputs (tests/corpus/out, and
tests/tracebacks/captured for what this machine's Python cannot print): the same entry, and the
same user line when the text still names it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.catalog.loose import match_any_class
from jaxerr_ls.explain import Explanation, explain_text
from jaxerr_ls.tracebacks import parse_paste
from jaxerr_ls.tracebacks.locate import Workspace

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "corpus"
PROGRAMS = CORPUS / "programs"
CAPTURED = HERE / "captured"
RUN_DIR = "/tmp/jaxerr-corpus/proj/"  # where make_corpus.py ran the programs


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalog())


def explain(text: str, matcher: Matcher, programs: Path = PROGRAMS) -> list[Explanation]:
    return explain_text(text, matcher, workspace=Workspace(programs))


def output(name: str, release: str = "") -> str:
    folder = CORPUS / (f"out-{release}" if release else "out")
    return (folder / name).read_text(encoding="utf-8")


def where(explained: Explanation) -> tuple[str, int] | None:
    location = explained.location
    return None if location is None else (Path(location.path).name, location.line)


def entry(explained: Explanation) -> str | None:
    return explained.match.entry.id if explained.match else None


def test_exception_line_alone(matcher: Matcher) -> None:
    [found] = explain(output("tracer_bool.last_line.txt"), matcher)
    assert found.traceback.exception == "jax.errors.TracerBoolConversionError"
    assert entry(found) == "tracer-bool-conversion"
    assert found.traceback.frames == () and found.location is None
    assert found.to_json()["frames"] == [] and found.to_json()["location"] is None


def test_message_without_class_matches_across_classes(matcher: Matcher) -> None:
    [found] = explain(output("psum_unbound_axis.message.txt"), matcher)
    assert found.traceback.exception == ""
    assert entry(found) == "unbound-axis-name"


def test_message_of_two_classes_says_nothing(matcher: Matcher) -> None:
    # The generated index has this text under two classes: without the class, no answer.
    text = "Only 1D vectors are supported"
    classes = {e.exception for e in matcher.catalog.entries if e.message == text}
    assert len(classes) == 2
    assert match_any_class(matcher, text) is None
    assert explain(text, matcher) == []
    for cls in classes:
        [found] = explain(f"{cls}: {text}", matcher)
        assert found.match is not None and found.match.entry.exception == cls


def test_prose_is_not_an_error(matcher: Matcher) -> None:
    assert explain("the run finished\nloss went down nicely\n", matcher) == []
    assert explain("division by zero", matcher) == []  # Python's, not in the catalog


def test_logging_without_traceback_header_with_prefixes(matcher: Matcher) -> None:
    full = output("vmap_sizes.plain.txt")
    [expected] = explain(full, matcher)
    headless = [line for line in full.splitlines() if not line.startswith("Traceback (")]
    for prefix in ("(TrainWorker pid=4242) ", "2025-01-07T10:15:02.4812345Z ", ""):
        text = "ERROR:root:step 1200 failed\n" + "\n".join(prefix + line for line in headless)
        [found] = explain(text, matcher)
        assert (entry(found), where(found)) == (entry(expected), where(expected)) != (None, None)


def test_log_line_prefix_before_exception_line(matcher: Matcher) -> None:
    line = output("tracer_bool.last_line.txt").strip()
    for prefix in ("2025-01-07 10:15:02,481 ERROR trainer: ", "(pid=77) ", "E   "):
        [found] = explain(prefix + line, matcher)
        assert entry(found) == "tracer-bool-conversion"


def test_hard_wrapped_terminal_lines_rejoined(matcher: Matcher) -> None:
    # A terminal 80 columns wide cuts every longer line, mid-word, with no marker.
    line = output("while_loop_grad.last_line.txt").strip()
    wrapped = "\n".join(line[i : i + 80] for i in range(0, len(line), 80))
    assert wrapped.count("\n") >= 2
    [found] = explain(wrapped, matcher)
    assert entry(found) == "fori-loop-reverse-mode-dynamic-bounds"
    assert found.traceback.message == line.split(": ", 1)[1]


def test_json_log_with_windows_paths(matcher: Matcher) -> None:
    """A JSON log record whose paths are Windows paths (`\\\\` once escaped), and the message
    string alone copied out of it."""
    record = json.loads(output("tracer_bool.json_log.txt"))
    record["message"] = record["message"].replace(RUN_DIR, "C:\\Users\\me\\proj\\")
    assert "C:\\Users" in record["message"]
    escaped_record = json.dumps(record)
    assert "C:\\\\Users" in escaped_record
    for text in (escaped_record, json.dumps(record["message"])):
        found = explain(text, matcher)[-1]
        assert entry(found) == "tracer-bool-conversion"
        assert where(found) == ("tracer_bool.py", 9)
        assert found.location is not None and found.location.in_workspace


def test_vscode_notebook_copy(matcher: Matcher) -> None:
    copy = output("nonconcrete_bool_index.vscode_json.txt")
    assert set(json.loads(copy)) == {"name", "message", "stack"} and "\\u001b" in copy
    found = explain(copy, matcher)[-1]
    assert entry(found) == "non-concrete-boolean-index"
    assert where(found) == ("nonconcrete_bool_index.py", 9)
    # A copy whose stack was lost still has the class and the message.
    data = json.loads(copy)
    [bare] = explain(json.dumps({**data, "stack": ""}), matcher)
    assert bare.traceback.exception == data["name"] and entry(bare) == entry(found)


def test_ipython_output_from_the_last_frame(matcher: Matcher) -> None:
    """IPython output copied from a frame on (no header): 8+ `File path:line, in f`, and the
    classic `path in f(args)` with `->` arrows (hand-made sample of Colab's classic output)."""
    text = output("float_index.ipython.txt", "0.4.38")
    last_frame = text.rindex("\nFile ")
    [found] = explain(text[last_frame:], matcher)
    assert entry(found) == "float-index"
    assert found.traceback.frames[-1].path.endswith("jax/_src/numpy/lax_numpy.py")
    classic = (HERE / "samples" / "colab_classic.txt").read_text(encoding="utf-8")
    cut = classic[classic.index("[/usr/local/lib/python3.10/dist-packages/jax/_src/core.py") :]
    [found] = explain(cut, matcher)
    assert entry(found) == "tracer-bool-conversion"
    assert found.traceback.frames[-1].line == 1476


def test_pytest_long_form_after_simplified_traceback_chain(matcher: Matcher) -> None:
    """Python 3.10 + JAX 0.4.38 (captured): JAX chains `jax.errors.SimplifiedTraceback` before
    the error, and pytest prints it above its entries; a paste from that line on, or of the
    `E` lines alone."""
    report = (CAPTURED / "py310-jax0.4.38.pytest_long.txt").read_text(encoding="utf-8")
    from_chain = report[report.index("jax.errors.SimplifiedTraceback:") :]
    e_lines = "\n".join(line for line in report.splitlines() if line.startswith("E "))
    for text, line in ((report, 9), (from_chain, 9), (e_lines, 7)):
        found = explain(text, matcher, CAPTURED)[-1]
        assert found.traceback.exception == "jax.errors.TracerBoolConversionError"
        assert entry(found) == "tracer-bool-conversion"
        # The E lines name no frame; the message's "while tracing the function f at" does.
        assert where(found) == ("tracer_bool.py", line)


def test_parse_paste_never_raises_on_odd_text() -> None:
    for text in ('"\\', '{"name": 1}', "{", "E", "E   ", "\\n" * 1000, '"' + "\\u12" * 50 + '"'):
        parse_paste(text)


def test_simplified_traceback_chain_with_frames_elided_to_dots(matcher: Matcher) -> None:
    """A paste of JAX's `SimplifiedTraceback` chain whose frames the user elided to `.` lines is
    the error after it, not the SimplifiedTraceback (the captured Python 3.10 run, its frame
    lines replaced by dots as such pastes show them)."""
    real = (CAPTURED / "py310-jax0.4.38.plain.txt").read_text(encoding="utf-8")
    head, _, rest = real.partition("Traceback (most recent call last):\n")
    error = rest[rest.index("jax.errors.TracerBoolConversionError") :]
    for dots in (".\n.\n.\n", "  .\n  .\n", "...\n"):
        text = f"{head}Traceback (most recent call last):\n{dots}{error}"
        [found] = explain(text, matcher)
        assert found.traceback.exception == "jax.errors.TracerBoolConversionError"
        assert entry(found) == "tracer-bool-conversion"
    # The note alone (the exception it heads not copied) is no error of its own.
    assert all("SimplifiedTraceback" not in tb.exception for tb in parse_paste(head))


def test_vscode_copy_with_raw_line_ends_and_escaped_quotes(matcher: Matcher) -> None:
    """VS Code writes the copy's stack with raw line ends (not strict JSON) and its frames'
    quotes escaped; read as the stack it is (the captured copy, line ends written raw)."""
    copy = output("nonconcrete_bool_index.vscode_json.txt")
    data = json.loads(copy)
    raw = json.dumps(data, indent="\t").replace("\\n", "\n")
    assert '\\"' in raw and "\n" in json.loads(json.dumps(raw))
    found = explain(raw, matcher)[-1]
    assert entry(found) == "non-concrete-boolean-index"
    assert where(found) == ("nonconcrete_bool_index.py", 9)


def test_pytest_short_summary_lines_are_whole(matcher: Matcher) -> None:
    """pytest's short test summary (captured from `captured/summary_program.py` run by pytest
    at 100 columns): each `FAILED ... - Class: message...` line is cut by pytest at the width and
    the rule after it fills the width too; neither is a wrapped line, and the message is that
    line's alone (equinox#1171 pasted the same form)."""
    [found] = explain((CAPTURED / "pytest_summary.txt").read_text(encoding="utf-8"), matcher)
    assert found.traceback.exception == "jax.errors.TracerBoolConversionError"
    assert found.traceback.message == "Attempted boolean conv..."
    assert entry(found) == "tracer-bool-conversion"


def test_a_logged_error_is_read_from_its_log_line(matcher: Matcher) -> None:
    """A program that logs an error and goes on (`captured/logged_program.py`, Python's default
    logging format, output captured): the logged line's text is the message (its class not
    printed), read once the whole text as a message named nothing."""
    text = (CAPTURED / "logged_program.out.txt").read_text(encoding="utf-8")
    assert parse_paste(text)[0].message.startswith("Testing dtype")  # the whole text, first
    [found] = explain(text, matcher)
    assert found.traceback.exception == ""
    assert found.traceback.message.startswith("lax.select requires arguments to have the same")
    assert entry(found) == "lax-dtype-mismatch"


def test_a_wrapper_header_cut_before_its_text_gives_way_to_the_error_before_it() -> None:
    """jax#12846 pasted a notebook's `KeyError` and, after "During handling ...", the header of
    `JaxStackTraceBeforeTransformation` whose text the paste does not hold: the `KeyError` is
    the error read, not an empty wrapper."""
    from tests.field.measure_pastes import paste_text

    [found] = parse_paste(paste_text("487"))
    assert found.exception == "KeyError"
    assert found.message.startswith("('eigh', { lambda ; a:f32[1,214,4,4]. let")


def test_lines_of_a_notebook_files_json_are_their_text(matcher: Matcher) -> None:
    # netket#1302: an output line copied from the .ipynb file, quotes, `\n` and comma included.
    line = (
        '      "/home/romanar/.local/lib/python3.9/site-packages/optax/_src/update.py:42: '
        "FutureWarning: jax.tree_multimap is deprecated, and will be removed in a future "
        'release. Use jax.tree_map instead.\\n",'
    )
    [explanation] = explain_text(line, matcher)
    assert explanation.traceback.exception == "FutureWarning"
    assert explanation.traceback.message.endswith("Use jax.tree_map instead.")
    assert explanation.traceback.frames[0].path.startswith("/home/romanar/")
    # JAX 0.3 warned through a wrapper the API history does not read: its own words say it.
    assert explanation.match is not None and explanation.match.entry.id == "deprecated-api"
    # A quoted line of code that is not such a list stays as it is.
    [quoted] = parse_paste('"ValueError: x must be positive",')
    assert quoted.message.startswith("x must be positive")


def test_a_pytest_summary_of_several_failures_is_each_of_its_errors(matcher: Matcher) -> None:
    # chex#422 (tests/field/pastes): three failed tests, three distinct errors, each explained
    # (the first one read alone before: the others' lines were a message's rest).
    from tests.field.measure_pastes import paste_text

    found = explain_text(paste_text("2038"), matcher)
    assert [f.traceback.exception for f in found] == ["AssertionError"] * 3
    assert found[0].traceback.message == "AssertionError not raised"
    assert found[2].traceback.message.startswith("[Chex] Assertion assert_tree_is_sharded failed")
    # One failed test is one error, as before.
    [one] = explain_text("FAILED t.py::test_a - ValueError: bad shape\n", matcher)
    assert one.traceback.message == "bad shape"


def test_a_first_line_alone_when_the_lines_after_it_are_not_the_message(
    matcher: Matcher,
) -> None:
    """XLA's status line pasted without its class, then a line of another wording or of the
    program's output: the first line names its entry (read as the beginning of XLA's message),
    and the line after it alone names nothing."""
    [template] = [
        t for t in matcher.below_templates() if "No PTX compilation provider" in t.message
    ]
    first = template.message.split("\n", 1)[0].split(" As a fallback", 1)[0]
    assert first.startswith("UNAVAILABLE: No PTX compilation provider is available.")
    [found] = explain(first + "\nDriver compilation is enabled: 0", matcher)
    assert found.match is not None and found.match.entry.id == template.entry.id
    assert not explain("Driver compilation is enabled: 0", matcher)


def test_a_warning_followed_by_its_printed_stack(matcher: Matcher, tmp_path: Path) -> None:
    """A warning handler that prints `Warning: message` and then the stack (mctx#97's paste):
    the message ends where the stack begins, and the stack's frames locate the user's line. The
    text is what Python prints, run here."""
    import subprocess
    import sys

    hooks = tmp_path / "env" / "site-packages"
    hooks.mkdir(parents=True)
    (hooks / "warnhook.py").write_text(
        "import traceback\n"
        "def show(message, category, filename, lineno, file=None, line=None):\n"
        "    print(f'Warning: {message}')\n"
        "    traceback.print_stack()\n",
        encoding="utf-8",
    )
    program = tmp_path / "train.py"
    program.write_text(
        f"import sys, warnings\nsys.path.insert(0, {str(hooks)!r})\n"
        "import warnhook\n"
        "warnings.showwarning = warnhook.show\n"
        "def step():\n"
        "    warnings.warn('unhashable type: . Attempting to hash a tracer will lead to an "
        "error in a future JAX release.', FutureWarning)\n"
        "step()\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(program)], capture_output=True, text=True, check=True, timeout=60
    )
    [found] = explain(done.stdout + done.stderr, matcher, tmp_path)
    assert found.traceback.message.endswith("in a future JAX release.")
    assert found.match is not None and found.match.entry.exception == "FutureWarning"
    assert where(found) == ("train.py", 6)


def test_an_unindented_annotated_source_line_is_no_exception() -> None:
    """A frame's source pasted without its indent (jax-windows-builder#28): `out_array: Array =
    ...` is code; a message holding `=` after a class stays a message."""
    from jaxerr_ls.tracebacks.dialects.common import exception_line

    assert exception_line("out_array: Array = lax_internal._convert(out, dtype)") is None
    assert exception_line("x: dict[str, int] = {}") is None
    for line in ("ValueError: shape = (3,)", "error: subprocess-exited-with-error"):
        assert exception_line(line) is not None
