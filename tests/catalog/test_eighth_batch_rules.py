"""Rules the eighth field batch asked for once it joined the tuned corpus, each on the public
paste that showed the need (`tests/field/pastes/`, verbatim, URLs in its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.catalog.classes import identified_words
from jaxerr_ls.catalog.sites import jax_file, site_file
from jaxerr_ls.explain import explain_text
from jaxerr_ls.tracebacks import parse_paste
from tests.field.measure_pastes import paste_text


def test_an_exception_logged_as_the_repr_of_another(matcher: Matcher) -> None:
    """tn4ml#4: dask's worker logs `Exception: 'TracerArrayConversionError("The numpy.ndarray
    ...\\\\n  primal = ...` (the repr of the task's exception, quoted and escaped once more)."""
    [found] = explain_text(paste_text("831"), matcher)
    assert found.traceback.exception == "TracerArrayConversionError"
    assert found.traceback.message.startswith("The numpy.ndarray conversion method __array__()")
    assert "\n  primal = DeviceArray(" in found.traceback.message  # the escapes undone twice
    assert found.match is not None and found.match.entry.id == "tracer-array-conversion"


def test_a_generic_exception_whose_message_is_plain_text_is_kept() -> None:
    [traceback] = parse_paste("Traceback (most recent call last):\nException: 'cannot do it'\n")
    assert (traceback.exception, traceback.message) == ("Exception", "'cannot do it'")


def test_vs_code_line_links_to_an_unsaved_file() -> None:
    """jax#25687: VS Code's interactive window on `Untitled-1` writes its context lines as
    `[5](untitled-1:5)`, which GitHub shows as links without a scheme."""
    [traceback] = parse_paste(paste_text("901"))
    assert traceback.exception == "XlaRuntimeError"
    assert traceback.frames[-1].path == "Untitled-1"
    assert traceback.frames[-1].line == 5
    assert traceback.frames[-1].source == "jnp.linalg.eig(x)"


def test_a_paste_starting_inside_the_wrapper_note_gives_its_text_to_the_error(
    matcher: Matcher,
) -> None:
    """diffrax#513: the paste starts at the list of a custom_jvp rule's disagreements (its first
    line not copied), then JAX's "The preceding stack trace ..." note, then the `TypeError`
    header cut before its message."""
    [found] = explain_text(paste_text("843"), matcher)
    assert found.traceback.exception == "TypeError"
    assert "primal int32[] with tangent int32[], expecting tangent" in found.traceback.message
    assert found.match is not None
    assert found.match.entry.id == "custom-jvp-tangent-type-mismatch"


@pytest.mark.parametrize(
    ("number", "library"),
    [("887", "optax"), ("888", "optax"), ("890", "optax"), ("626", "jax_md"), ("877", "alphafold")],
)
def test_an_import_of_a_jax_library_failing_before_its_message(
    number: str, library: str, matcher: Matcher
) -> None:
    """`import optax` (chex#197, jax#15466, mesh-transformer-jax#230), `import jax_md`
    (jax-md#305), AlphaFold's modules (ColabFold#602): an `AttributeError` whose message the
    excerpt does not show, raised in the library's module-level imports."""
    [found] = explain_text(paste_text(number), matcher)
    assert found.traceback.exception == "AttributeError" and not found.traceback.message
    match = found.match
    assert match is not None and match.entry.id == "library-jax-version-skew"
    assert match.by == "raise_site" and match.fields == {"library": library}
    words = identified_words(match, "AttributeError", message="")
    assert f"`import {library}`" in words and "stops before the message" in words
    assert f"pip install -U jax {library}" in " ".join(found.match.entry.solutions)


def test_an_attribute_error_in_a_library_function_is_not_an_import_failure(
    matcher: Matcher,
) -> None:
    """The same class cut before its message, raised inside optax's code at run time: nothing
    says a release mismatch, so no entry."""
    text = (
        "AttributeError                            Traceback (most recent call last)\n"
        "Cell In[3], line 2\n"
        "----> 2 opt_state = tx.init(params)\n\n"
        "File ~/venv/lib/python3.11/site-packages/optax/_src/base.py:120, in init(params)\n"
        "--> 120   return jax.tree.map(f, params)\n"
    )
    [found] = explain_text(text, matcher)
    assert found.traceback.exception == "AttributeError"
    assert found.match is None


def test_an_import_failing_with_a_message_is_read_by_its_message(matcher: Matcher) -> None:
    """With the message copied (`module 'jax' has no attribute 'linear_util'`) the API history
    names the removed name; the frames only speak when the message is missing."""
    text = paste_text("887") + (
        "\nFile ~/anaconda3/envs/jax/lib/python3.10/site-packages/chex/_src/pytypes.py:37\n"
        "---> 37 PyTreeDef = type(jax.tree_structure(None))\n\n"
        "AttributeError: module 'jax' has no attribute 'linear_util'\n"
    )
    [found] = explain_text(text, matcher)
    assert found.match is not None and found.match.entry.id == "removed-api"


def test_an_environment_named_jax_is_not_jax() -> None:
    """chex#197's conda environment is called `jax`: its site-packages' optax is optax's file."""
    path = "~/anaconda3/envs/jax/lib/python3.10/site-packages/optax/__init__.py"
    assert jax_file(path) is None
    assert site_file(path) == "optax/__init__.py"
    assert jax_file("/envs/jax/lib/python3.10/site-packages/jax/_src/core.py") == "jax/_src/core.py"
    assert jax_file("/home/me/src/jax/jax/_src/core.py") == "jax/_src/core.py"  # a checkout


def test_a_local_jax_file_imported_as_a_package(matcher: Matcher) -> None:
    """ComfyUI_SparkTTS#5: `No module named 'jax.numpy'; 'jax' is not a package`: a `jax.py` of
    the user's found before the library."""
    [found] = explain_text(paste_text("862"), matcher)
    assert found.match is not None and found.match.entry.id == "module-shadowed-by-local-file"
    assert found.match.fields.get("module") == "jax"


@pytest.mark.parametrize("number", ["619", "883"])
def test_gpu_autotuning_with_no_working_algorithm(number: str, matcher: Matcher) -> None:
    """jax#20075 (`Results do not match the reference`), jax#8506 (`Original error: INTERNAL:
    All algorithms tried for %cudnn-conv ...` pasted without its class)."""
    [found] = explain_text(paste_text(number), matcher)
    assert found.match is not None
    assert found.match.entry.id == "gpu-autotune-all-algorithms-failed"
    assert any("xla_gpu_autotune_level=0" in step for step in found.match.entry.solutions)
