"""Rules and entries the fourteenth and fifteenth field batches asked for once they joined the
tuned corpus (measured unseen first: 59 of 76 and 51 of 67), and the eighteenth, nineteenth and
twentieth (gathered to be tuned on: 31 of 36, 57 of 70 and 29 of 54 as they came), each on the public paste that showed the need
(`tests/field/pastes/`, verbatim, URLs in its index.json), with look-alikes kept away."""

from __future__ import annotations

import pytest

from jaxerr_ls.catalog import Matcher
from jaxerr_ls.explain import explain_text
from tests.catalog.batch_rules import printed_and_entry


@pytest.mark.parametrize(
    ("number", "exception", "entry"),
    [
        # hypernerf#33: Python's TypeError from hashing a static argument, JAX's error cut off.
        ("1644", "TypeError", "static-arg-unhashable-object"),
        # jax#11669: checkify's division check as JAX 0.3 worded it.
        ("1655", "ValueError", "checkify-check-failed"),
        # optimistix#120: a jaxpr passed to jit, the message cut inside the printed jaxpr.
        ("1610", "TypeError", "jit-argument-invalid-type"),
        # kfac-jax#314, localcolabfold#282: a missing name's message cut inside the name.
        ("1603", "AttributeError", "api-not-yet-added"),
        ("1595", "ImportError", "jax-private-name-missing"),
        # localcolabfold#149: pip's resolver after the install, chex's JAX range not met.
        ("1714", "", "pip-jax-requirement-conflict"),
        # jax#7444: a libtpu on a machine whose metadata server has no TPU (an HTML 404 in it).
        ("1578", "UserWarning", "cloud-tpu-init-failed"),
        # netket#1594: jnp.einsum's subscripts against its operands (opt_einsum's wording).
        ("1824", "ValueError", "einsum-subscripts-mismatch"),
        # xla#18214: a custom call's packed descriptor of another build's size.
        ("1819", "RuntimeError", "custom-call-descriptor-size-mismatch"),
        # PyBaMM#3683: a warning in JAX's words that do not spell the name as the name.
        ("1882", "DeprecationWarning", "deprecated-api"),
        # jax#15488: a submodule's name with its closing quote lost.
        ("1862", "AttributeError", "jax-submodule-not-imported"),
        # mujoco_warp#350, multinerf#139, jax#25141: XLA's CUDA graphs failing (generated
        # entries explained them as a bare status before, with nothing to check).
        ("1304", "XlaRuntimeError", "xla-gpu-command-buffer-failed"),
        ("1487", "ValueError", "xla-gpu-command-buffer-failed"),
        ("1306", "", "xla-gpu-command-buffer-failed"),
        # maxdiffusion#471, marin#3737: jax's report of libtpu's failure at start.
        ("1899", "RuntimeError", "tpu-platform-unavailable"),
        ("1576", "RuntimeError", "tpu-platform-unavailable"),
        # Older pastes a generated entry explained with a message only (no meaning, no advice):
        # jax#12140, jax#2736: a primitive without its transpose or forward-mode rule.
        ("256", "NotImplementedError", "differentiation-rule-not-implemented"),
        ("1168", "NotImplementedError", "differentiation-rule-not-implemented"),
        # brax#228 (JAX 0.2-0.4's scan types check), jax#1361 (XLA's, before JAX checked).
        ("841", "TypeError", "scan-carry-type-mismatch"),
        ("839", "RuntimeError", "scan-carry-type-mismatch"),
        # jax#2347: JAX 0.1.5x's object arrays as XLA tokens.
        ("307", "RuntimeError", "jnp-string-array"),
        # jax#13137 (a Kaggle TPU seen as one CPU device): pmap over 8 with 1 device.
        ("374", "ValueError", "pmap-more-devices-than-available"),
        # TheRock#4578: 2022-2023's "Unknown backend <name>. Available backends are [...]".
        ("1058", "RuntimeError", "unknown-backend-requested"),
        # jax#7780, jax#19538: a cotangent of another dtype (float16; float0 printed as a record).
        ("845", "TypeError", "vjp-cotangent-type-mismatch"),
        ("538", "TypeError", "vjp-cotangent-type-mismatch"),
        # pertpy#685: JAX's refusal to turn a typed key into a NumPy array.
        ("427", "TypeError", "prng-key-dtype-in-numpy"),
        # jax-triton#196, jax-triton#114: Triton of another release under jax-triton.
        ("1954", "TypeError", "jax-triton-triton-version-skew"),
        ("1956", "ImportError", "jax-triton-triton-version-skew"),
        # helion#3204: Mosaic's failure as a tool lowercased it.
        ("1944", "", "mosaic-tpu-compile-failed"),
        # jax#27715: JAX's export module importing absl, which the environment lacked.
        ("1996", "ModuleNotFoundError", "jax-import-failed"),
        # tdmpc2-jax#4: `with ocp.CheckpointManager(...)` under orbax-checkpoint before 0.5.8.
        ("2022", "TypeError", "orbax-checkpoint-manager-not-context-manager"),
        # chex#226: `import jax.numpy` finds a `jax` that is not JAX.
        ("1585", "ModuleNotFoundError", "jax-not-installed"),
    ],
)
def test_fourteenth_batch_pastes(number: str, exception: str, entry: str, matcher: Matcher) -> None:
    assert printed_and_entry(number, matcher) == (exception, entry)


@pytest.mark.parametrize(
    ("url", "text"),
    [
        (
            "https://github.com/f0uriest/interpax/issues/20",
            "ERROR: pip's dependency resolver does not currently take into account all the "
            "packages that are installed. \nThis behaviour is the source of the following "
            "dependency conflicts.\ninterpax 0.2.4 requires jax[cpu]<=0.4.20,>=0.3.2, but you "
            "have jax 0.4.24 which is incompatible.\nSuccessfully installed jax-0.4.24 "
            "jaxlib-0.4.24+cuda11.cudnn86",
        ),
        (
            "https://github.com/kevin-tracy/qpax/issues/10",
            "ERROR: Cannot install qpax==0.0.4, qpax==0.0.6, qpax==0.0.7 and qpax==0.0.9 because "
            "these package versions have conflicting dependencies.\n\nThe conflict is caused by:"
            "\n    qpax 0.0.9 depends on jax>=0.4.0\n    qpax 0.0.7 depends on jax>=0.4.0\n",
        ),
    ],
)
def test_pips_jax_conflicts_name_the_range_not_met(url: str, text: str, matcher: Matcher) -> None:
    found = explain_text(text, matcher)[-1]
    assert found.match is not None, url
    assert found.match.entry.id == "pip-jax-requirement-conflict", url
    assert found.match.fields["requirement"].startswith("jax"), url


@pytest.mark.parametrize(
    ("exception", "message"),
    [
        # gpax#119: pip's conflict over another package's range.
        (
            "",
            "tensorflow 2.18.0 requires ml-dtypes<0.5.0,>=0.4.0, but you have ml-dtypes 0.5.1 "
            "which is incompatible.",
        ),
        # Another package whose name begins with jax; a JAX module a release removed.
        ("ModuleNotFoundError", "No module named 'jax_fem'"),
        ("ModuleNotFoundError", "No module named 'jax.experimental.maps'"),
        # Triton's import failing elsewhere than in jax-triton (PyTorch imports it too).
        ("ImportError", "cannot import name 'ir' from 'triton._C.libtriton'"),
        # Any unhashable TypeError outside JAX's static-argument hashing.
        ("TypeError", "unhashable type: 'NerfModel'"),
    ],
)
def test_look_alikes_stay_away(exception: str, message: str, matcher: Matcher) -> None:
    readings = explain_text(f"{exception}: {message}" if exception else message, matcher)
    new = {
        "pip-jax-requirement-conflict",
        "jax-not-installed",
        "static-arg-unhashable-object",
        "jax-triton-triton-version-skew",
    }
    named = {r.match.entry.id for r in readings if r.match is not None}
    assert not named & new, named


def test_a_missing_module_a_users_file_imports_is_not_jaxs_import(matcher: Matcher) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/train.py", line 3, in <module>\n'
        "    from absl import logging\n"
        "ModuleNotFoundError: No module named 'absl'\n"
    )
    [found] = explain_text(text, matcher)
    assert found.match is None or found.match.entry.id != "jax-import-failed"
