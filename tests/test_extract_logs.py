"""The extractor reads what JAX and the libraries log as it reads their raises: a logging call
at a severity users are shown, its message read as `message % arguments`."""

from __future__ import annotations

from pathlib import Path

from tests.test_extract import run


def test_logged_messages_are_read_with_their_severity(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/bridge.py": """
            import logging
            from absl import logging as absl_logging

            logger = logging.getLogger(__name__)

            def backends(platform):
                if platform == "METAL":
                    logger.warning(
                        "Platform '%s' is experimental and not all JAX functionality may be "
                        "correctly supported!", platform)
                absl_logging.error("Jax plugin configuration error: %s", platform)
                logging.critical(f"Backend {platform} is gone")
                logger.exception("Unable to initialize backend '%s': %s", platform, 3)
                logger.info("Initializing backend '%s'", platform)
                absl_logging.log_every_n_seconds(
                    absl_logging.WARNING, "SaveArgs.aggregate is deprecated: %s", 60, platform)
                logging.log(logging.ERROR, "Levelled: %s", platform)
                logging.log(logging.INFO, "an info line")
                logging.log(level, "a level known at run time")
                logger.debug("progress")
                registry.warning("a method that happens to be named so: %s", platform)
                logger.warning(*messages)
            """,
            "numpy/__init__.py": "from jax._src.bridge import backends as backends\n",
        },
    )
    logged = {e.message: e for e in result.errors if e.exception == "LogMessage"}
    assert set(logged) == {
        "Platform '{platform}' is experimental and not all JAX functionality may be correctly "
        "supported!",
        "Jax plugin configuration error: {platform}",
        "Backend {platform} is gone",
        "Unable to initialize backend '{platform}': {3}",
        "SaveArgs.aggregate is deprecated: {platform}",
        "Levelled: {platform}",
    }
    platform = logged[
        "Platform '{platform}' is experimental and not all JAX functionality may be correctly "
        "supported!"
    ]
    assert platform.title.startswith("WARNING log: Platform '{platform}' is experimental")
    assert platform.raised_at[0].condition == "platform == 'METAL'"
    assert "jax.numpy.backends" in platform.apis
    assert logged["Jax plugin configuration error: {platform}"].title.startswith("ERROR log: ")
    assert logged["Backend {platform} is gone"].title.startswith("FATAL log: ")


def test_a_module_without_logging_logs_nothing(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/other.py": """
            import warnings
            from mylib import logging
            logger = make_logger()

            def f(x):
                logger.warning("made elsewhere: %s", x)
                logging.error("another package's logging module: %s", x)
                warnings.warn("a warning, not a log")
            """,
        },
    )
    assert [e.exception for e in result.errors] == ["UserWarning"]
