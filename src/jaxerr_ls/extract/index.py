"""Raise sites + API reach -> the index document (`catalog/index/jax-<version>.json`)."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from jaxerr_ls.extract.apis import Node
from jaxerr_ls.extract.sites import RaiseSite, Skipped
from jaxerr_ls.extract.source import module_name

FORMAT = 1
# A module named after an API (`jax/_src/shard_map.py` for `jax.shard_map`) is its machinery,
# but reached through tables: ranked after what calls show more directly.
NAMESAKE_DEPTH = 2
GENERATOR = "jaxerr-ls catalog extract"
TITLE_LIMIT = 80
_SEVERITY_ORDER = ("", "INFO", "WARNING", "ERROR", "FATAL")
_CLAUSE_END = re.compile(r"(?<=[^.\s])(?:[.;:!?](?=\s|$))|\n")


@dataclass(frozen=True)
class IndexedError:
    id: str
    exception: str
    message: str
    title: str
    apis: tuple[str, ...]  # most direct first
    raised_at: tuple[RaiseSite, ...]
    api_depths: tuple[int, ...] = ()  # parallel to `apis`: calls from the API to the raise

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "exception": self.exception,
            "message": self.message,
            "title": self.title,
            "apis": list(self.apis),
            "api_depths": list(self.api_depths),
            "raised_at": [site_json(s) for s in self.raised_at],
        }


def site_json(site: RaiseSite) -> dict[str, object]:
    data: dict[str, object] = {"file": site.file, "line": site.line, "function": site.function}
    if site.condition:
        data["condition"] = site.condition
    return data


def ordered_apis(depths: Mapping[str, int]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """APIs most direct first (then by name), with their depths."""
    pairs = sorted(depths.items(), key=lambda kv: (kv[1], kv[0]))
    return tuple(a for a, _ in pairs), tuple(d for _, d in pairs)


def error_id(exception: str, template: str, prefix: str = "jax") -> str:
    """`jax-1a2b3c4d`; a library's errors are `flax-…`, `optax-…` (the same hash)."""
    digest = hashlib.sha1(f"{exception}\0{template}".encode()).hexdigest()
    return f"{prefix}-{digest[:8]}"


def title_of(template: str) -> str:
    """The first clause of the message, at most 80 characters, cut at a word."""
    text = template.strip()
    found = _CLAUSE_END.search(text)
    clause = (text[: found.start()] if found else text).strip()
    clause = re.sub(r"\s+", " ", clause)
    if len(clause) <= TITLE_LIMIT:
        return clause
    cut = clause[: TITLE_LIMIT - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,") + "…"


def site_apis(
    sites: Iterable[RaiseSite],
    reached: Mapping[Node, Mapping[str, int]],
    roots: Mapping[Node, set[str]],
    namesake_depth: int = NAMESAKE_DEPTH,
) -> dict[RaiseSite, dict[str, int]]:
    """The APIs reaching each site's function, plus the export a module is named after
    (`jax/_src/shard_map.py` -> `jax.shard_map`): such a module is that API's machinery, much of
    it reached only through tables (eager rules, lowerings) that calls cannot show; it counts
    as `namesake_depth` calls away unless calls reach the site more directly."""
    out: dict[RaiseSite, dict[str, int]] = {}
    for site in sites:
        module = module_name(site.file)
        depths = {
            api: namesake_depth for api in roots.get((module, module.rsplit(".", 1)[-1]), set())
        }
        for api, depth in reached.get((module, site.function), {}).items():
            depths[api] = min(depth, depths.get(api, depth))
        out[site] = depths
    return out


def group_errors(
    apis_by_site: Mapping[RaiseSite, Mapping[str, int]], prefix: str = "jax"
) -> list[IndexedError]:
    groups: dict[tuple[str, str], list[RaiseSite]] = {}
    for site in apis_by_site:
        groups.setdefault((site.exception, site.template), []).append(site)
    errors = []
    for (exception, template), members in groups.items():
        # A logged message's title says its severity, as the C++ logs' do (`catalog.loglines`);
        # the most severe of its calls when it is logged at several.
        severity = max((s.severity for s in members), key=_SEVERITY_ORDER.index)
        title = f"{severity} log: {title_of(template)}" if severity else title_of(template)
        depths: dict[str, int] = {}
        for site in members:
            for api, depth in apis_by_site[site].items():
                depths[api] = min(depth, depths.get(api, depth))
        apis, api_depths = ordered_apis(depths)
        errors.append(
            IndexedError(
                id=error_id(exception, template, prefix),
                exception=exception,
                message=template,
                title=title,
                apis=apis,
                api_depths=api_depths,
                raised_at=tuple(sorted(members, key=lambda s: (s.file, s.line))),
            )
        )
    return sorted(errors, key=lambda e: (e.id, e.exception, e.message))


def skip_counts(skipped: Iterable[Skipped]) -> dict[str, int]:
    counts = Counter(s.reason for s in skipped)
    return dict(sorted(counts.items()))


def render_index(
    version: str, source: str, errors: Iterable[IndexedError], skipped: Mapping[str, int]
) -> str:
    """Compact JSON with one error per line: small, and diffs read error by error."""
    head = {"format": FORMAT, "jax_version": version, "generator": GENERATOR, "source": source}
    lines = ["{" + json.dumps(head, ensure_ascii=False)[1:-1] + ',\n "errors": [']
    rows = [json.dumps(e.to_json(), ensure_ascii=False, separators=(",", ":")) for e in errors]
    lines.append(",\n".join("  " + row for row in rows))
    lines.append(" ],\n" + ' "skipped": ' + json.dumps(dict(skipped), ensure_ascii=False) + "\n}\n")
    return "\n".join(lines)
