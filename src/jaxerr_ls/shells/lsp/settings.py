"""The server's settings, from `initializationOptions` or `workspace/didChangeConfiguration`.

Accepted shapes: `{"jaxerr": {"siteUrl": ...}}` (what editors send for a `jaxerr` section),
`{"siteUrl": ...}` and `{"jaxerr.siteUrl": ...}`. A bad value keeps the previous one and says why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Settings:
    # Base URL of a published `jaxerr-ls catalog site`; "" links JAX's docs instead.
    site_url: str = ""


def _section(options: object) -> dict[str, object]:
    if not isinstance(options, dict):
        return {}
    nested = options.get("jaxerr")
    section: dict[str, object] = dict(nested) if isinstance(nested, dict) else {}
    for key, value in options.items():
        if isinstance(key, str) and key.startswith("jaxerr."):
            section[key.removeprefix("jaxerr.")] = value
        elif key == "siteUrl":
            section[key] = value
    return section


SETTING_NAMES = ("interpreter", "siteUrl", "predict")


def names_settings(options: object) -> bool:
    """Whether `options` (a didChangeConfiguration payload) carries the `jaxerr` section or one
    of its settings; `null`, `{}` or another tool's section mean "ask the client"."""
    if not isinstance(options, dict):
        return False
    return isinstance(options.get("jaxerr"), dict) or any(
        isinstance(key, str) and (key.startswith("jaxerr.") or key in SETTING_NAMES)
        for key in options
    )


def read_settings(options: object, current: Settings) -> tuple[Settings, list[str]]:
    """The settings `options` change, and a message per value that was not usable."""
    section = _section(options)
    problems: list[str] = []
    settings = current
    if "siteUrl" in section:
        value = section["siteUrl"]
        if value is None or value == "":
            settings = replace(settings, site_url="")
        elif isinstance(value, str) and urlsplit(value.strip()).scheme in ("http", "https", "file"):
            settings = replace(settings, site_url=value.strip().rstrip("/"))
        else:
            problems.append(
                f"jaxerr.siteUrl must be an http(s) or file URL, got {value!r}; "
                "links keep pointing at JAX's documentation"
            )
    return settings, problems
