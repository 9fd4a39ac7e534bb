"""Rebuild the traceback corpus: run every program in tests/corpus/programs under each form.

Each program is a small JAX script that fails; its header says what it should raise:

    # expect: jax.errors.TracerBoolConversionError   (exception as plain Python prints it)
    # message: Attempted boolean conversion           (a stable piece of the message)

and `# user-line` marks the line the diagnostic belongs on (the deepest frame in user code).
Programs are copied to a directory outside the repository first, so the captured paths look like a
run on another machine and tests locate them by path suffix, as they would for a container.

    .venv/bin/python scripts/make_corpus.py [--only NAME ...] [--jobs N]

Writes tests/corpus/out/<program>.<form>.txt and tests/corpus/manifest.json. Run it again after
upgrading JAX; the tests then check the parser against the new output.

Older releases: run it with that release's python and `--release`, which writes
tests/corpus/out-<release>/ and tests/corpus/manifest-<release>.json and keeps every output that
reports an error, also when the program fails differently there (the manifest records what each
program printed):

    $(JAXERR_JAX_VENVS=/work/venvs bash scripts/jax-venv 0.4.38) scripts/make_corpus.py --release
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "corpus" / "programs"
OUT = ROOT / "tests" / "corpus" / "out"
MANIFEST = ROOT / "tests" / "corpus" / "manifest.json"
# Catalog entries checked by hand to be the right explanation: program -> entry id.
ENTRIES = ROOT / "tests" / "corpus" / "entries.json"
RUN_DIR = Path("/tmp/jaxerr-corpus/proj")
BIN = Path(sys.executable).parent
TIMEOUT = 1800  # one IPython or pytest session runs every program


@dataclass(frozen=True)
class Form:
    name: str
    describe: str
    kind: str  # "python" (one forked child per program), "ipython" or "pytest" (one session)
    option: str  # filtering mode, IPython colour scheme, or pytest --tb style
    cells: bool = False  # IPython: the program's code is typed in as cells, not %run
    located: bool = True  # False when the user's code runs as notebook cells (no file)


FORMS = (
    Form("plain", "python prog.py (JAX's default filtering)", "python", "auto"),
    Form("unfiltered", "JAX_TRACEBACK_FILTERING=off python prog.py", "python", "off"),
    Form(
        "remove_frames",
        "JAX_TRACEBACK_FILTERING=remove_frames python prog.py (UnfilteredStackTrace cause)",
        "python",
        "remove_frames",
    ),
    Form("ipython", "ipython --colors=NoColor, `%run prog.py` piped in", "ipython", "NoColor"),
    Form("ipython_color", "ipython --colors=Linux, `%run prog.py` (ANSI)", "ipython", "Linux"),
    Form(
        "ipython_cells",
        "ipython --colors=NoColor with the program's code piped in (Cell In[n])",
        "ipython",
        "NoColor",
        cells=True,
        located=False,
    ),
    Form("pytest_long", "pytest --tb=long", "pytest", "long"),
    Form("pytest_short", "pytest --tb=short", "pytest", "short"),
    Form("pytest_native", "pytest --tb=native", "pytest", "native"),
)

# Runs every program of the "python" forms in a child forked from one process that imported JAX
# once (a fresh interpreter per run costs ~10 s on a busy 2-core box). The child prints the
# exception as the interpreter's default hook would, minus the runpy frames above the program.
_FORKER = r"""
import json, os, runpy, sys, traceback
import jax, jax.numpy, numpy

jobs = json.loads(sys.stdin.read())


def trim(exc, program, seen):
    if exc is None or id(exc) in seen:
        return
    seen.add(id(exc))
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != program:
        tb = tb.tb_next
    if tb is not None or isinstance(exc, SyntaxError):
        exc.__traceback__ = tb
    trim(exc.__cause__, program, seen)
    trim(exc.__context__, program, seen)
    for sub in getattr(exc, "exceptions", ()):
        trim(sub, program, seen)


for program, mode, out in jobs:
    pid = os.fork()
    if pid == 0:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        sys.argv = [program]
        jax.config.update("jax_traceback_filtering", mode)
        try:
            runpy.run_path(program, run_name="__main__")
        except BaseException as exc:
            trim(exc, program, set())
            traceback.print_exception(exc)
            sys.stderr.flush()
            if mode == "auto":
                # What a user copies short of the traceback: the exception as the hook prints it.
                only = "".join(traceback.format_exception_only(exc))
                side = {"name": type(exc).__name__, "message": str(exc), "only": only}
                with open(out + ".exception.json", "w", encoding="utf-8") as handle:
                    json.dump(side, handle)
            os._exit(1)
        os._exit(0)
    os.waitpid(pid, 0)
"""

_CUT = "=====JAXERR-CUT {}====="
_CUT_LINE = re.compile(r"=====JAXERR-CUT (\w+)=====")
_PYTEST_SECTION = re.compile(r"^_{3,} test_(\w+) _{3,}$", re.MULTILINE)
_PYTEST_END = re.compile(r"^={3,} ", re.MULTILINE)


_HEADER = re.compile(r"^# (expect|message): (.+)$")
# `# message: (none)`: the exception has no message (a bare `assert` inside JAX); the output is
# recognised by its exception line instead.
NO_MESSAGE = "(none)"
_USER_LINE = "# user-line"


def read_expectations(program: Path) -> dict[str, object]:
    text = program.read_text(encoding="utf-8")
    found: dict[str, object] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            found[header.group(1)] = header.group(2).strip()
        elif _USER_LINE in line:
            found["line"] = number
    if "expect" not in found or "message" not in found or "line" not in found:
        raise SystemExit(f"{program.name}: needs '# expect:', '# message:' and '# user-line'")
    return found


def _reported(expectation: dict[str, object], text: str) -> bool:
    """The output reports the program's error (its message, or its bare exception line)."""
    if expectation["message"] == NO_MESSAGE:
        name = str(expectation["expect"]).rsplit(".", 1)[-1]
        plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
        # IPython prints `AssertionError: ` for an empty message.
        found = re.search(rf"^(?:E +)?(?:[\w.]+\.)?{name}:?\s*$", plain, re.MULTILINE)
        return found is not None
    return str(expectation["message"]) in text


def _prepare(program: Path) -> Path:
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    target = RUN_DIR / program.name
    shutil.copyfile(program, target)
    runner = (
        "import pathlib\nimport runpy\n\n\n"
        f"def test_{program.stem}():\n"
        f'    path = pathlib.Path(__file__).with_name("{program.name}")\n'
        '    runpy.run_path(str(path), run_name="__main__")\n'
    )
    (RUN_DIR / f"test_{program.stem}.py").write_text(runner, encoding="utf-8")
    return target


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "PYTEST_"))}
    env.update({"COLUMNS": "120", "TERM": "xterm-256color", "PYTHONHASHSEED": "0"})
    return env


def _run(command: list[str], stdin: str) -> str:
    done = subprocess.run(
        command,
        cwd=RUN_DIR,
        env=_env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    # Both streams, as a terminal shows them.
    return done.stdout + done.stderr


def run_python(form: Form, programs: list[Path]) -> dict[str, str]:
    jobs = [[str(p), form.option, str(OUT / f"{p.stem}.{form.name}.txt")] for p in programs]
    _run([sys.executable, "-c", _FORKER], json.dumps(jobs))
    return {
        p.stem: (OUT / f"{p.stem}.{form.name}.txt").read_text(encoding="utf-8")
        for p in programs
        if (OUT / f"{p.stem}.{form.name}.txt").exists()
    }


def run_ipython(form: Form, programs: list[Path]) -> dict[str, str]:
    # A program that never finishes parsing (a SyntaxError) leaves IPython waiting for more input
    # when typed in as cells: it has no cell form.
    group = [p for p in programs if not (form.cells and "SyntaxError" in p.read_text())]
    lines: list[str] = []
    for program in group:
        lines.append(f"print({_CUT.format(program.stem)!r})")
        lines.append("")
        lines.append(program.read_text(encoding="utf-8") if form.cells else f"%run {program}")
        lines.append("")
        lines.append("")
    lines.append(f"print({_CUT.format('end')!r})")
    command = [str(BIN / "ipython"), f"--colors={form.option}", "--no-banner"]
    return _split_cuts(_run(command, "\n".join(lines) + "\n"))


def _split_cuts(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    current: str | None = None
    chunk: list[str] = []
    for line in text.splitlines(keepends=True):
        cut = _CUT_LINE.search(line)
        if cut is None:
            chunk.append(line)
            continue
        if current is not None:
            chunk.append(line[: cut.start()].rstrip("\n"))
            found[current] = "".join(chunk).strip("\n") + "\n"
        current, chunk = cut.group(1), []
    return found


def run_pytest(form: Form, programs: list[Path]) -> dict[str, str]:
    tests = [str(p.with_name(f"test_{p.stem}.py")) for p in programs]
    command = [str(BIN / "pytest"), "-p", "no:cacheprovider", "--color=no", f"--tb={form.option}"]
    text = _run(command + tests, "")
    found: dict[str, str] = {}
    sections = list(_PYTEST_SECTION.finditer(text))
    for position, section in enumerate(sections):
        stop = sections[position + 1].start() if position + 1 < len(sections) else len(text)
        body = text[section.start() : stop]
        end = _PYTEST_END.search(body)
        found[section.group(1)] = body[: end.start() if end else len(body)].rstrip("\n") + "\n"
    return found


RUNNERS = {"python": run_python, "ipython": run_ipython, "pytest": run_pytest}

# Forms derived from the real outputs above, as users copy them (never typed by hand):
# name -> (description, located).
SHORT_FORMS = {
    "last_line": ("the exception line alone, as Python printed it", False),
    "message": ("the message alone, without its class (str(exc))", False),
    "vscode_json": (
        "VS Code's copy of a notebook error: JSON {name, message, stack}, the stack being the "
        "IPython traceback with its colours",
        True,
    ),
    "json_log": ("the plain traceback as one JSON log record (escaped)", True),
}
_PROMPT = re.compile(r"^(?:\x1b\[[0-9;]*m)*In \[\d+\]: ")


def _notebook_stack(colour: Path) -> str:
    """What a notebook's error output holds: IPython's coloured traceback from its rule line
    on, without the terminal's `In [n]:` prompts."""
    lines = colour.read_text(encoding="utf-8").split("\n")
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    start = next((n for n, line in enumerate(plain) if "(most recent call last)" in line), 0)
    if start > 0 and "-----" in plain[start - 1]:
        start -= 1
    # A line that held only a prompt is the terminal's, not the output's.
    kept = [
        _PROMPT.sub("", line)
        for line in lines[start:]
        if not _PROMPT.match(line) or _PROMPT.sub("", line).strip()
    ]
    return "\n".join(kept).rstrip("\n")


def write_short_forms(stem: str) -> list[str]:
    """The short forms of one program from its plain and IPython outputs."""
    side = OUT / f"{stem}.plain.txt.exception.json"
    plain = OUT / f"{stem}.plain.txt"
    colour = OUT / f"{stem}.ipython_color.txt"
    written: list[str] = []
    if not side.exists():
        return written
    exc = json.loads(side.read_text(encoding="utf-8"))
    side.unlink()
    if not plain.exists():
        return written
    forms = {
        # The exception's own line (a SyntaxError prints its location lines first).
        "last_line": next(
            (line for line in exc["only"].split("\n") if line and not line[0].isspace()), ""
        )
        + "\n",
        "json_log": json.dumps(
            {"level": "ERROR", "logger": "train", "message": plain.read_text(encoding="utf-8")}
        )
        + "\n",
    }
    if exc["message"].strip():
        forms["message"] = exc["message"] + "\n"
    if colour.exists():
        forms["vscode_json"] = json.dumps(
            {"name": exc["name"], "message": exc["message"], "stack": _notebook_stack(colour)}
        )
    for form, text in forms.items():
        (OUT / f"{stem}.{form}.txt").write_text(text, encoding="utf-8")
        written.append(f"{stem}.{form}")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="program names (stems) to rebuild")
    parser.add_argument("--forms", nargs="*", help="forms to rebuild")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--manifest-only", action="store_true", help="only rewrite the manifest")
    parser.add_argument(
        "--release",
        action="store_true",
        help="an older JAX: write out-<version>/ and manifest-<version>.json, keep every report",
    )
    args = parser.parse_args(argv)
    global OUT, MANIFEST
    if args.release:
        import jax

        OUT = OUT.with_name(f"out-{jax.__version__}")
        MANIFEST = MANIFEST.with_name(f"manifest-{jax.__version__}.json")
    programs = sorted(PROGRAMS.glob("*.py"))
    expectations = {p.stem: read_expectations(p) for p in programs}
    chosen = [p for p in programs if not args.only or p.stem in args.only]
    forms = [f for f in FORMS if not args.forms or f.name in args.forms]
    if args.manifest_only:
        forms = []
    entries = json.loads(ENTRIES.read_text(encoding="utf-8")) if ENTRIES.exists() else {}
    OUT.mkdir(parents=True, exist_ok=True)
    targets = [_prepare(p) for p in chosen]

    def job(form: Form) -> list[str]:
        outputs = RUNNERS[form.kind](form, targets)
        report = []
        for target in targets:
            text = outputs.get(target.stem, "")
            if args.release and _reports_error(text):
                # An older release may word the error differently or fail another way: keep it,
                # the manifest says what it printed.
                (OUT / f"{target.stem}.{form.name}.txt").write_text(text, encoding="utf-8")
                same = _reported(expectations[target.stem], text)
                report.append(f"{'ok  ' if same else 'DIFF'} {target.stem}.{form.name}")
                continue
            if not _reported(expectations[target.stem], text):
                # No report of the error in this form (IPython %run prints no ExceptionGroup,
                # a SyntaxError typed as cells never ends): nothing to test, nothing kept.
                report.append(f"none {target.stem}.{form.name} ({len(text)} chars)")
                (OUT / f"{target.stem}.{form.name}.txt").unlink(missing_ok=True)
                continue
            (OUT / f"{target.stem}.{form.name}.txt").write_text(text, encoding="utf-8")
            ok = _reported(expectations[target.stem], text)
            report.append(
                f"{'ok  ' if ok else 'MISS'} {target.stem}.{form.name} ({len(text)} chars)"
            )
        return report

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for lines in pool.map(job, forms):
            print("\n".join(lines), flush=True)
    for target in targets:
        # Only where the plain form kept a report (write_short_forms checks it exists).
        print("\n".join(f"ok   {name}" for name in write_short_forms(target.stem)))

    import jax  # the version the corpus was made with

    manifest = {
        "jax": jax.__version__,
        "python": sys.version.split()[0],
        "run_dir": str(RUN_DIR),
        "forms": {
            **{f.name: {"describe": f.describe, "located": f.located} for f in FORMS},
            **{name: {"describe": d, "located": loc} for name, (d, loc) in SHORT_FORMS.items()},
        },
        "programs": {
            stem: {
                "exception": exp["expect"],
                "message": exp["message"],
                "file": f"{stem}.py",
                "line": exp["line"],
                **({"entry": entries[stem]} if stem in entries else {}),
            }
            for stem, exp in sorted(expectations.items())
        },
    }
    if args.release:
        manifest["printed"] = {
            stem: _last_exception_line(OUT / f"{stem}.plain.txt") for stem in sorted(expectations)
        }
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return 0


_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Group|Interrupt)\b.*$")


def _reports_error(text: str) -> bool:
    # pytest puts `E   ` before it: search, do not anchor.
    return re.search(r"\b[A-Za-z_][\w.]*(?:Error|Exception)\b", text) is not None


def _last_exception_line(path: Path) -> str | None:
    """The last exception line a plain run printed (what a reader of the manifest checks)."""
    if not path.exists():
        return None
    found = [line for line in path.read_text(encoding="utf-8").splitlines()]
    lines = [line for line in found if _EXCEPTION_LINE.match(line)]
    return lines[-1][:300] if lines else None


if __name__ == "__main__":
    raise SystemExit(main())
