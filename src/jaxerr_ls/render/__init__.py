"""Rendering of entries and explanations as terminal text and markdown (pure functions)."""
