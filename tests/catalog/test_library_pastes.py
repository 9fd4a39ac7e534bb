"""Real errors of the libraries used with JAX, as users pasted them, reach the right entry.

Each text is copied verbatim from the public thread at its URL (the field corpus's
`tests/field/pastes/` where noted by its file name, else the thread's exception line); the
expected entry was chosen by reading the paste. An expected miss (none now) would say why.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from jaxerr_ls.catalog import Catalog, Matcher, load_catalog
from jaxerr_ls.explain import explain_text


@dataclass(frozen=True)
class Paste:
    url: str
    text: str
    entry: str | None  # the entry it must reach; None: an expected miss
    library: str
    why_missed: str = ""


PASTES = [
    # field corpus 043: a markdown issue, the message cut short after the parameter's name
    Paste(
        "https://github.com/ikostrikov/walk_in_the_park/issues/6",
        """kernel = self.param('kernel', **flax.errors.ScopeParamShapeError:** Inconsistent shapes between value and initializer for parameter "kernel"
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 044: Flax 0.3's wording, in a notebook comment
    Paste(
        "https://github.com/google/flax/issues/2941",
        """# ScopeParamShapeError: Inconsistent shapes between value and initializer for parameter "kernel" in "/Dense_0": (5, 1), (3, 1).
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 045: the message alone, with Flax's documentation link
    Paste(
        "https://github.com/escontra/viper_rl/issues/10",
        """Initializer expected to generate shape (4, 86) but got shape (16, 86) instead for parameter "d_0" in "/model/BroadcastPositionBiases_0". (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.ScopeParamShapeError)
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 046: the raise line and the 0.3-era wording with the older link
    Paste(
        "https://github.com/google/hypernerf/issues/28",
        # (the first line ends in a space, as pasted)
        "raise errors.ScopeParamShapeError(name, self.path_text, \n"
        """flax.errors.ScopeParamShapeError: Inconsistent shapes between value and initializer for parameter "kernel" in "/warp_field/trunk/hidden_0": (32, 128), (47, 128). (https://flax.readthedocs.io/en/latest/flax.errors.html#flax.errors.ScopeParamShapeError)
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 047: PyCharm's console, no class, "python-BaseException" appended
    Paste(
        "https://github.com/octo-models/octo/issues/97",
        """Initializer expected to generate shape (444, 256) but got shape (472, 256) instead for parameter "kernel" in "/diffusion_model/reverse_network/Dense_0". (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.ScopeParamShapeError) python-BaseException
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 048: without the documentation link
    Paste(
        "https://github.com/apax-hub/apax/issues/344",
        """ScopeParamShapeError: Initializer expected to generate shape (128, 1) but got shape (128, 8) instead for parameter "w" in "/atomistic_model/readout/dense_2".
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 049: in bold, inside a sentence
    Paste(
        "https://github.com/AdaCompNUS/DaXBench/issues/2",
        """I got Error **flax.errors.ScopeParamShapeError: Initializer expected to generate shape (3540, 512) but got shape (3891, 512) instead for parameter "kernel" in "/hidden_0".**
""",
        "flax-scope-param-shape",
        "flax",
    ),
    # field corpus 050
    Paste(
        "https://github.com/google-research/multinerf/issues/163",
        """flax.errors.ScopeParamShapeError: Initializer expected to generate shape (96, 256) but got shape (504, 256) instead for parameter "kernel" in "/NerfMLP_0/Dense_0". (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.ScopeParamShapeError)
""",
        "flax-scope-param-shape",
        "flax",
    ),
    Paste(
        "https://github.com/mlcommons/algorithmic-efficiency/issues/664",
        """flax.errors.InvalidRngError: Dropout_0 needs PRNG for "dropout" (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.InvalidRngError)
""",
        "flax-missing-prng",
        "flax",
    ),
    Paste(
        "https://github.com/google/flax/issues/3997",
        """TraceContextError: Cannot mutate Count from a different trace level
""",
        "nnx-trace-context",
        "flax",
    ),
    Paste(
        "https://github.com/google/flax/issues/5050",
        """#TraceContextError: Cannot mutate RngStream from a different trace level (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.TraceContextError)
""",
        "nnx-trace-context",
        "flax",
    ),
    # field corpus 088: the path wrapped onto the next line
    Paste(
        "https://github.com/apax-hub/apax/issues/465",
        "ValueError: Checkpoint path should be absolute. Got \n"
        """nodes/InitalModel/Apax/apax_model/best/3193/default
""",
        "orbax-path-not-absolute",
        "orbax",
    ),
    # field corpus 090: Orbax's own message (a generated entry, from its source)
    Paste(
        "https://github.com/cgarciae/ciclo/issues/12",
        """FileNotFoundError: File not found: ss_model/checkpoint_-0.19632871448993683/.zarray. In many cases, this results from copying a checkpoint without using the `-a` flag.
""",
        "orbax-28ba23b2",
        "orbax",
    ),
    # field corpus 108: assert_shape given a bare `...`
    Paste(
        "https://github.com/google-deepmind/chex/issues/437",
        """AssertionError: expected shapes should be a list or tuple of ints, got Ellipsis
""",
        "chex-assert-shape-bare-ellipsis",
        "chex",
    ),
    # field corpus 066
    Paste(
        "https://github.com/patrick-kidger/equinox/issues/696",
        """jax.pure_callback failed
Traceback (most recent call last):
  File "/home/dw16200/miniconda3/envs/eqx/lib/python3.12/site-packages/jax/_src/callback.py", line 77, in pure_callback_impl
    return callback(*args)
           ^^^^^^^^^^^^^^^
  File "/home/dw16200/miniconda3/envs/eqx/lib/python3.12/site-packages/jax/_src/callback.py", line 65, in __call__
    return tree_util.tree_leaves(self.callback_func(*args, **kwargs))
                                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/dw16200/miniconda3/envs/eqx/lib/python3.12/site-packages/equinox/_errors.py", line 70, in raises
    raise EqxRuntimeError(msgs[_index.item()])
equinox._errors.EqxRuntimeError: x must be >= 0
""",
        # The user's own check text, under Equinox 0.11.3-0.11.4's class EqxRuntimeError
        # (today's EquinoxRuntimeError): identified by its class.
        "equinox-runtime-error",
        "equinox",
    ),
    # field corpus 1730: JAX 0.7.2 with an Equinox older than 0.13.1, inline in the issue
    Paste(
        "https://github.com/patrick-kidger/optimistix/issues/170",
        """TypeError: cannot create weak reference to 'Flatten' object
""",
        "equinox-flatten-weakref",
        "equinox",
    ),
    # field holdout 1039: the traceback's last frames, in Equinox's primitive bind
    Paste(
        "https://github.com/patrick-kidger/diffrax/issues/695",
        """-packages/equinox/internal/_primitive.py", line 273, in filter_primitive_bind
  flat_out = prim.bind(*dynamic, treedef=treedef, static=static, flatten=flatten)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
TypeError: cannot create weak reference to 'Flatten' object
""",
        "equinox-flatten-weakref",
        "equinox",
    ),
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize("paste", PASTES, ids=lambda p: p.url.split("github.com/")[1])
def test_library_paste_reaches_its_entry(catalog: Catalog, paste: Paste) -> None:
    explained = explain_text(paste.text, Matcher(catalog))
    assert explained, f"no error read in {paste.url}"
    last = explained[-1]
    found = last.match.entry if last.match else None
    if paste.entry is None:
        assert found is None, f"{paste.url}: now reaches {found.id}; update the expected miss"
        return
    assert found is not None, f"{paste.url}: no entry for {last.traceback.message!r}"
    assert (found.id, found.library) == (paste.entry, paste.library)


def test_every_library_is_in_the_pastes() -> None:
    libraries = {p.library for p in PASTES}
    assert {"flax", "equinox", "orbax", "chex"} <= libraries
