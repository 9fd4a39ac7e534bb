"""Write the test notebooks under tests/notebooks/data/ by executing them in a real kernel.

Each notebook is built from the cells below, then run by nbclient + ipykernel with real JAX (CPU),
errors allowed, so every error output (ename, evalue, ANSI traceback) is what Jupyter saved.
Nothing in the outputs is typed by hand.
Run: `.venv/bin/python scripts/make_notebooks.py [NAME ...]` (all notebooks when none is named).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

OUT = Path(__file__).resolve().parent.parent / "tests" / "notebooks" / "data"

IMPORTS = "import jax\nimport jax.numpy as jnp"

# name -> (cells, order of execution by cell index; None = top to bottom once)
NOTEBOOKS: dict[str, tuple[list[tuple[str, str]], list[int] | None]] = {
    # A jitted function with a Python `if` on a traced value: the frame is in the cell that
    # defined it (Cell In[2]) and the message names the ipykernel file.
    "tracer_bool": (
        [
            ("markdown", "# A branch on a traced value"),
            ("code", IMPORTS),
            (
                "code",
                "@jax.jit\ndef clip_positive(x):\n    if x > 0:\n        return x\n    return 0.0",
            ),
            ("code", "y = jnp.float32(2.0)\nclip_positive(y)"),
        ],
        None,
    ),
    # In-place assignment on a JAX array, at module level of the failing cell.
    "immutable_set": (
        [
            ("code", IMPORTS),
            ("code", "x = jnp.zeros(3)\nx[0] = 1.0\nx"),
        ],
        None,
    ),
    # Cells run out of order (and one twice): execution counts differ from cell positions.
    "out_of_order": (
        [
            ("code", IMPORTS),
            ("markdown", "Helpers are defined below the cell that uses them."),
            ("code", "total = add_rows(jnp.ones((2, 3)), jnp.ones((4, 5)))"),
            ("code", "def add_rows(a, b):\n    scale = 2.0\n    return scale * (a + b)"),
        ],
        [0, 3, 0, 2],
    ),
    # A traceback printed by Python itself inside a cell (logging, traceback.print_exc): its
    # frames name the ipykernel file, /tmp/ipykernel_P/H.py, not `Cell In[N]`.
    "printed_traceback": (
        [
            ("code", IMPORTS + "\nimport traceback"),
            (
                "code",
                "def make_key(seed):\n    return jax.random.normal(seed, (3,))\n",
            ),
            ("code", "try:\n    make_key(0)\nexcept Exception:\n    traceback.print_exc()"),
        ],
        None,
    ),
    # Cells that make one program (predictive diagnostics, `jaxerr-ls check NOTEBOOK.ipynb`): a
    # function defined in one cell and jitted in the next, IPython lines, a cell that does not
    # parse, a branch silenced by `# jaxerr: ignore`.
    "one_program": (
        [
            ("markdown", "# A function defined in one cell, jitted in another"),
            ("code", IMPORTS + "\n!echo ready\n%time warm = jnp.zeros(2)"),
            ("code", "def steps(x, n):\n    for _ in range(n):\n        x = x + 1\n    return x"),
            ("code", "fast = jax.jit(steps)\nfast(jnp.float32(0.0), 3)"),
            ("code", "def broken(:\n    pass"),
            (
                "code",
                "@jax.jit\ndef relu(x):\n    if x > 0:\n        return x\n    return 0.0 * x\n\n"
                "relu(jnp.float32(1.0))",
            ),
            (
                "code",
                "@jax.jit\ndef quiet(x):\n    if x > 0:  # jaxerr: ignore\n        return x\n"
                "    return -x",
            ),
        ],
        None,
    ),
}


def build(cells: list[tuple[str, str]]) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    for kind, source in cells:
        maker = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        notebook.cells.append(maker(source))
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    notebook.metadata["language_info"] = {"name": "python"}
    return notebook


def execute(notebook: nbformat.NotebookNode, order: list[int] | None) -> None:
    client = NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(OUT)}},
    )
    if order is None:
        client.execute()
        return
    with client.setup_kernel():
        for index in order:
            client.execute_cell(notebook.cells[index], index)


def main(names: list[str]) -> int:
    """Write the named notebooks (all when none is named)."""
    OUT.mkdir(parents=True, exist_ok=True)
    unknown = sorted(set(names) - NOTEBOOKS.keys())
    if unknown:
        print(f"no notebook named {', '.join(unknown)}; known: {', '.join(NOTEBOOKS)}")
        return 2
    for name, (cells, order) in NOTEBOOKS.items():
        if names and name not in names:
            continue
        notebook = build(cells)
        execute(notebook, order)
        path = OUT / f"{name}.ipynb"
        nbformat.write(notebook, path)
        errors = sum(
            1
            for cell in notebook.cells
            for output in cell.get("outputs", [])
            if output.get("output_type") == "error"
        )
        print(f"{path.relative_to(OUT.parent.parent.parent)}: {errors} error output(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
