"""Prefixes that loggers, aggregators and quoting put in front of every line of a traceback.

A prefix is removed only from runs of lines that share its shape (two or more in a row), so a
lone log line or a pytest `>` marker is left alone. Patterns are anchored and linear.
"""

from __future__ import annotations

import re

from jaxerr_ls.tracebacks.dialects.common import ABSL_TIME

# Each pattern matches the prefix only; what follows is the traceback line.
_PATTERNS = (
    # GitHub Actions raw logs: 2025-01-07T10:15:02.4812345Z
    re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?"),
    # Ray actor and task output: (TrainWorker pid=4242) / (pid=4242, ip=10.0.0.1)
    re.compile(r"^\((?:[\w.:-]+ )?pid=\d+(?:, ip=[\d.:a-fA-F]+)?\) ?"),
    # kubectl logs --prefix: [pod/name/container]
    re.compile(r"^\[pod/[^\]\s]{1,200}\] ?"),
    # docker compose: `trainer-1  | ` (service name, padding, bar)
    re.compile(r"^[A-Za-z0-9][\w.-]{0,80} +\| ?"),
    # absl's Python logging relaying another program's output line by line (AlphaFold's
    # `run_docker.py`): `I1119 14:49:41.358900 140491874862912 run_docker.py:258] `.
    re.compile(rf"^{ABSL_TIME}[\w.-]+\.py:\d+\] ?"),
    # Timestamped logging on every line: 2025-01-07 10:15:02,481 or [2025-01-07 10:15:02]; not
    # the time of TensorFlow's C++ log lines (`2022-06-28 19:26:35.110279: W path/file.cc:111] `),
    # which is part of the line the catalog's log entries read (`catalog.loglines`).
    re.compile(
        r"^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\]?(?: [A-Z]+)?:? "
        r"(?![IWEF] \S+:\d+\] )"
    ),
)
_ANY = re.compile("|".join(f"(?P<p{n}>{p.pattern[1:]})" for n, p in enumerate(_PATTERNS)))
# Quoting (e-mail, markdown `>`); only stripped when the quoted block holds a traceback header,
# or when every line is quoted (a message quoted in a reply).
_QUOTE = re.compile(r"^> ?")
_QUOTED_LINE = re.compile(r"^>(?: |$)")
_MAX_QUOTE_DEPTH = 4
_QUOTED_HEADER = re.compile(r"^> ?(?:Traceback \(most recent call last\)|\S+\s+Traceback \()")


def strip_prefixes(lines: list[str]) -> list[str]:
    """Lines with per-line prefixes removed where they run over several lines."""
    lines = _strip_backticks(lines)
    for _ in range(_MAX_QUOTE_DEPTH):  # a reply quoting a reply: `> > Traceback ...`
        if not (any(_QUOTED_HEADER.match(line) for line in lines) or _all_quoted(lines)):
            break
        lines = [_QUOTE.sub("", line, count=1) for line in lines]
    lines = _diff_added(lines)
    # One combined pass finds which shapes occur at all; most texts have none.
    seen = {found.lastgroup for line in lines if (found := _ANY.match(line)) and found.lastgroup}
    for position, pattern in enumerate(_PATTERNS):
        if f"p{position}" in seen:
            lines = _strip_runs(lines, pattern)
    return lines


def _diff_added(lines: list[str]) -> list[str]:
    """A diff's added lines (`+   E0929 ... coordination_service_agent.cc:332] ...`, a pull
    request adding a log to the docs, jax#39095): without the `+` and the indentation they share."""
    filled = [line for line in lines if line.strip()]
    if len(filled) < 2 or not all(line.startswith("+") for line in filled):
        return lines
    bare = [line[1:] for line in lines]
    indent = min(len(line) - len(line.lstrip()) for line in bare if line.strip())
    return [line[indent:] for line in bare]


def _all_quoted(lines: list[str]) -> bool:
    filled = [line for line in lines if line.strip()]
    return bool(filled) and all(_QUOTED_LINE.match(line) for line in filled)


def _strip_runs(lines: list[str], pattern: re.Pattern[str]) -> list[str]:
    matches = [pattern.match(line) for line in lines]
    if sum(1 for m in matches if m) < 2:
        return lines
    out: list[str] = []
    for index, (line, found) in enumerate(zip(lines, matches, strict=True)):
        neighbour = (index > 0 and matches[index - 1] is not None) or (
            index + 1 < len(lines) and matches[index + 1] is not None
        )
        out.append(line[found.end() :] if found is not None and neighbour else line)
    return out


def _strip_backticks(lines: list[str]) -> list[str]:
    """Markdown inline code on every line: `` `  File "x", line 1` `` -> the bare line; also a
    paste of one line in inline code (jax-md#295)."""
    ticked = sum(1 for line in lines if len(line) > 1 and line[0] == "`" and line[-1] == "`")
    alone = ticked == 1 and sum(1 for line in lines if line.strip()) == 1
    if ticked < 2 and not alone:
        return lines
    return [
        line[1:-1] if len(line) > 1 and line[0] == "`" and line[-1] == "`" else line
        for line in lines
    ]
