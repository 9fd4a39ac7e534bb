"""The JAX version of an environment, read from its metadata (nothing run)."""

from __future__ import annotations

from pathlib import Path

from jaxerr_ls.catalog.envs import interpreter_setting, jax_version_in
from tests.server.test_release import fake_env


def test_version_read_from_metadata(tmp_path: Path) -> None:
    python = fake_env(tmp_path / "env", "0.4.38")
    assert jax_version_in(python) == "0.4.38"
    assert jax_version_in(tmp_path / "env") == "0.4.38"
    assert jax_version_in(tmp_path / "nowhere" / "python") is None


def test_interpreter_setting_shapes() -> None:
    assert interpreter_setting({"interpreter": "/x/python"}) == "/x/python"
    assert interpreter_setting({"jaxerr": {"interpreter": " /y/python "}}) == "/y/python"
    assert interpreter_setting(None) is None and interpreter_setting({"interpreter": 3}) is None
