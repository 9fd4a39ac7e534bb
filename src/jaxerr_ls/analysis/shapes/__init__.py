"""Shapes before running: the shape, dtype and pytree structure of the values the code states,
and the errors JAX raises on them, with JAX itself as the oracle (`docs/shapes.md`).

- `events(model, oracle) -> list[Event]`: where JAX will raise, and its exact message.
- `oracle_for(interpreter)`: the shared `ProcessOracle` of an interpreter (runs `worker.py`);
  `NoOracle()`: no JAX to ask (nothing is predicted).

Pure given the oracle: the answers are a function of the queries, the events a function of the
text and the answers.
"""

from __future__ import annotations

from jaxerr_ls.analysis.build import Model
from jaxerr_ls.analysis.shapes.evaluate import Evaluator, Event
from jaxerr_ls.analysis.shapes.oracle import NoOracle, Oracle, ProcessOracle, oracle_for


def events(model: Model, oracle: Oracle) -> list[Event]:
    """The errors JAX raises on what the code states, in source order."""
    return Evaluator(model, oracle).run()


__all__ = ["Event", "NoOracle", "Oracle", "ProcessOracle", "events", "oracle_for"]
