"""Upgrades: the public API of every catalogued JAX release, and what replaced removed names."""

from jaxerr_ls.upgrades.history import ApiHistory, Facts, Verdict, load_history, normalise

__all__ = ["ApiHistory", "Facts", "Verdict", "load_history", "normalise"]
