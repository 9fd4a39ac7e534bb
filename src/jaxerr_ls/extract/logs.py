"""One Python logging call (`logger.warning(...)`, absl's `logging.error(...)`) -> a site like a
raise's, its class `LogMessage` and its severity kept.

Users paste what JAX and the libraries log as often as what they raise: Orbax's `WARNING:absl:
SaveArgs.aggregate is deprecated, ...`, JAX's `W0312 ... xla_bridge.py:758] Platform 'METAL' is
experimental ...`. A call logs when its receiver is the `logging` module (the standard library's or
absl's, however imported) or a module-level logger (`logger = logging.getLogger(__name__)`), and
its method says a severity a user is shown by default: `warning`/`warn`, `error`/`exception`,
`critical`/`fatal`, or `log(level, ...)` and absl's `log_every_n(level, ...)`,
`log_every_n_seconds`, `log_first_n` with such a level (`logging.WARNING`). `info` and `debug` are
left out: hidden unless asked for, and mostly progress. Logging formats its message with `%` and
the call's further arguments, so the message and those arguments are read as
`message % (args...)` by the same rules as a raise's message.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from jaxerr_ls.catalog.model import LOG_CLASS
from jaxerr_ls.extract.messages import Lookup, Skip, template_of
from jaxerr_ls.extract.sites import RaiseSite

Chain = tuple[str, ...]
Import = tuple[str, "str | None"]

# The method -> the severity Python's logging and absl print (absl's letter is its first).
SEVERITIES = {
    "warning": "WARNING",
    "warn": "WARNING",
    "error": "ERROR",
    "exception": "ERROR",
    "critical": "FATAL",
    "fatal": "FATAL",
}
_LOGGING_MODULES = frozenset({"logging", "absl.logging"})
# Methods given the level as their first argument -> how many arguments come between the message
# and its format arguments (absl's `log_every_n(level, msg, n, *args)`).
_LEVELLED = {"log": 0, "log_every_n": 1, "log_every_n_seconds": 1, "log_first_n": 1}
_LEVELS = {"WARNING": "WARNING", "WARN": "WARNING", "ERROR": "ERROR"}
_LEVELS |= {"CRITICAL": "FATAL", "FATAL": "FATAL"}


@dataclass(frozen=True)
class LogCall:
    """How a call logs: its severity, where its message is, where its format arguments start."""

    severity: str
    message_index: int
    arguments_index: int


def may_log(chain: Chain) -> bool:
    """A cheap test during the walk; `log_call` decides once the module is read."""
    return len(chain) == 2 and (chain[1] in SEVERITIES or chain[1] in _LEVELLED)


def is_logging(name: str, imports: Mapping[str, Import]) -> bool:
    """`name` is the logging module: `import logging`, `from absl import logging`, `import
    absl.logging as logging`."""
    module, attribute = imports.get(name, ("", None))
    target = f"{module}.{attribute}" if attribute else module
    return target in _LOGGING_MODULES


def module_loggers(statements: list[ast.stmt], imports: Mapping[str, Import]) -> frozenset[str]:
    """The module-level names bound to `logging.getLogger(...)` (JAX's `logger = logging.
    getLogger(__name__)`)."""
    names: set[str] = set()
    for statement in statements:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call)
        ):
            continue
        func = statement.value.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "getLogger"
            and isinstance(func.value, ast.Name)
            and is_logging(func.value.id, imports)
        ):
            names.add(statement.targets[0].id)
    return frozenset(names)


def log_call(
    chain: Chain, node: ast.Call, imports: Mapping[str, Import], loggers: frozenset[str]
) -> LogCall | None:
    """How the call logs, or None when it is no logging call or logs below a warning."""
    receiver, method = chain if len(chain) == 2 else ("", "")
    if not (receiver in loggers or is_logging(receiver, imports)):
        return None
    if method in SEVERITIES:
        return LogCall(SEVERITIES[method], 0, 1)
    if method not in _LEVELLED or not node.args:
        return None
    level = node.args[0]
    name = level.attr if isinstance(level, ast.Attribute) else ""
    if name not in _LEVELS:
        return None  # INFO, DEBUG, or a level known only at run time
    return LogCall(_LEVELS[name], 1, 2 + _LEVELLED[method])


def log_site(
    file: str,
    node: ast.Call,
    how: LogCall,
    function: str,
    lookup: Lookup,
    condition: str = "",
) -> RaiseSite | None:
    """The call's site, or None when its message is not known from the source."""
    args = node.args
    if len(args) <= how.message_index or any(isinstance(a, ast.Starred) for a in args):
        return None
    message, arguments = args[how.message_index], args[how.arguments_index :]
    if arguments:  # logging formats `message % arguments` when it prints
        message = ast.BinOp(
            left=message,
            op=ast.Mod(),
            right=ast.Tuple(elts=arguments, ctx=ast.Load()),
            lineno=node.lineno,
            col_offset=node.col_offset,
        )
    template = template_of(message, lookup)
    if isinstance(template, Skip) or not template.strip():
        return None
    return RaiseSite(file, node.lineno, function, LOG_CLASS, template, condition, how.severity)
