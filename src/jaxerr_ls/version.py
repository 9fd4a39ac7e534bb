"""The package's version, in a module of its own so the core can read it without the facade."""

__version__ = "0.1.0"
