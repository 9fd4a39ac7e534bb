"""numpy-to-jnp: import-aware rewriting of NumPy calls that jax.numpy also has."""

from __future__ import annotations

from jaxerr_ls.fixes.jnp_api import jnp_names
from tests.fixes.helpers import at_cursor, fixed, propose


def test_adds_jnp_import_and_rewrites_every_call_on_the_line() -> None:
    source = "import jax\nimport numpy as np\n\n@jax.jit\ndef f(x):\n    return np.sum(np.sin(x))\n"
    assert fixed("numpy-to-jnp", source, "return") == (
        "import jax\nimport numpy as np\nimport jax.numpy as jnp\n\n@jax.jit\n"
        "def f(x):\n    return jnp.sum(jnp.sin(x))\n"
    )


def test_uses_the_files_aliases() -> None:
    source = (
        "import numpy as onp\nfrom jax import numpy as J\ny = onp.cos(x) + onp.linalg.norm(x)\n"
    )
    assert fixed("numpy-to-jnp", source, "y =") == (
        "import numpy as onp\nfrom jax import numpy as J\ny = J.cos(x) + J.linalg.norm(x)\n"
    )


def test_from_numpy_import_and_plain_numpy() -> None:
    source = (
        "import numpy\nimport jax.numpy as jnp\nfrom numpy import exp\ny = exp(numpy.tanh(x))\n"
    )
    assert fixed("numpy-to-jnp", source, "y =") == (
        "import numpy\nimport jax.numpy as jnp\nfrom numpy import exp\ny = jnp.exp(jnp.tanh(x))\n"
    )


def test_skips_names_jax_numpy_lacks_and_out_arguments() -> None:
    source = "import numpy as np\ny = np.random.rand(3) + np.sin(x, out=buf) + np.savetxt(f, x)\n"
    assert fixed("numpy-to-jnp", source, "y =") is None
    assert "sin" in jnp_names() and "norm" in jnp_names("linalg") and "random" not in jnp_names()


def test_mixed_line_rewrites_only_what_exists() -> None:
    source = "import numpy as np\ny = np.sin(np.random.rand(3))  # 🎉 note\n"
    assert fixed("numpy-to-jnp", source, "y =") == (
        "import numpy as np\nimport jax.numpy as jnp\ny = jnp.sin(np.random.rand(3))  # 🎉 note\n"
    )


def test_title_safe_and_twice() -> None:
    source = "import numpy as np\ny = np.sin(x)\n"
    proposal = propose("numpy-to-jnp", source, "y =")
    assert proposal is not None and proposal.safe
    assert proposal.title == "Use jax.numpy instead of numpy"
    once = fixed("numpy-to-jnp", source, "y =")
    assert once is not None and fixed("numpy-to-jnp", once, "y =") is None


def test_jnp_name_taken_falls_back_to_jax_numpy() -> None:
    source = "import jax\nimport numpy as np\njnp = None\ny = np.sin(x)\n"
    assert fixed("numpy-to-jnp", source, "y =") == (
        "import jax\nimport numpy as np\njnp = None\ny = jax.numpy.sin(x)\n"
    )


def test_at_cursor_only_the_call_under_it() -> None:
    source = "import numpy as np\nimport jax.numpy as jnp\ny = np.sin(x) + np.cos(x)\n"
    assert at_cursor(source, "y =", "np.cos")["numpy-to-jnp"] == (
        "import numpy as np\nimport jax.numpy as jnp\ny = np.sin(x) + jnp.cos(x)\n"
    )
