"""Rules the twelfth field batch asked for once it joined the tuned corpus (measured unseen
first: 56 of 81), each on the public paste that showed the need (`tests/field/pastes/`,
verbatim, URLs in its index.json)."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.catalog.batch_rules import entry_found, named_for_sure
from tests.field.measure_pastes import paste_text


@pytest.mark.parametrize(
    ("number", "entry", "by"),
    [
        ("989", "metal-plugin-newer-than-macos", "message"),  # jax#18006: unrecognized selector
        ("1179", "metal-plugin-newer-than-macos", "message"),  # jax#18598: the same, an M2
        ("1177", "metal-plugin-newer-than-macos", "message"),  # jax#20338: MPS dialect 1.1.0
        ("1243", "jaxlib-cannot-import-name", "message"),  # ColabFold#643: jaxlib.pocketfft
        ("1246", "jaxlib-cannot-import-name", "message"),  # ColabFold#185: mlir.dialects.std
        ("1203", "jaxlib-missing-attribute", "message"),  # jax#14304: a TpuClient's method
        ("1211", "jaxlib-missing-attribute", "message"),  # jax#13409: the error, then output
        ("1143", "orbax-saved-sharding-other-devices", "message"),  # Orbax's log line
        ("1193", "ptxas-compilation-failed", "message"),  # xla#11164: a PTX ISA feature
        ("1186", "native-illegal-instruction", "message"),  # jax-feedstock#144: under QEMU
        ("1155", "tracer-format-spec", "message"),  # jax#23475: `f"{x:.3f}"` in jit
        ("1169", "batching-rule-not-implemented", "raise_site"),  # jax#1024: `KeyError: fft`
    ],
)
def test_twelfth_batch_pastes_reach_their_entry(
    number: str, entry: str, by: str, matcher: Matcher
) -> None:
    assert entry_found(number, matcher) == (entry, by)


def test_the_opening_exception_gives_its_class(matcher: Matcher) -> None:
    """jax#13409: `AttributeError: ...` first, then warnings and output ending in another class
    cut short (`RuntimeError: Unable`): the entry the text names is the opening line's, and the
    explanation says that class."""
    [found] = explain_text(paste_text("1211"), matcher)
    assert found.traceback.exception == "AttributeError"
    assert found.traceback.message.startswith("module 'jaxlib.xla_extension' has no attribute")


@pytest.mark.parametrize(
    ("exception", "message", "entry"),
    [
        # NumPy's own array formatted with a spec: not a tracer (jax.debug.print of a vector).
        ("TypeError", "unsupported format string passed to numpy.ndarray.__format__", None),
        ("TypeError", "unsupported format string passed to JVPTracer.__format__", "tracer-format-spec"),
        # An array's missing method is the array entry's, not jaxlib skew.
        ("AttributeError", "'jaxlib._jax.ArrayImpl' object has no attribute 'numpy'", "jax-array-has-no-attribute"),
        # Another package's compiled object is not jaxlib's.
        ("AttributeError", "'torch._C.Generator' object has no attribute 'key'", None),
        # The source line JAX's message is built on is no primitive's name.
        ("NotImplementedError", "msg = \"Batching rule for '{}' not implemented\"", None),
        ("NotImplementedError", "Batching rule for 'my_kernel' not implemented", "batching-rule-not-implemented"),
    ],
)  # fmt: skip
def test_look_alikes(exception: str, message: str, entry: str | None, matcher: Matcher) -> None:
    assert named_for_sure(matcher, exception, message) == entry


def test_a_key_error_elsewhere_is_not_a_missing_batching_rule(matcher: Matcher) -> None:
    from jaxerr_ls.catalog.sites import match_python_site
    from jaxerr_ls.tracebacks.model import Frame

    def frames(path: str) -> tuple[Frame, ...]:
        return (Frame(path, 232, "get_primitive_batcher", "return primitive_batchers[p]"),)

    at_jax = "/site-packages/jax/interpreters/batching.py"
    found = match_python_site(matcher, "KeyError", "fft", frames(at_jax))
    assert found is not None and found.entry.id == "batching-rule-not-implemented"
    assert match_python_site(matcher, "KeyError", "fft", frames("/home/me/batching.py")) is None
    assert match_python_site(matcher, "KeyError", "no such key here", frames(at_jax)) is None
