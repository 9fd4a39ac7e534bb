"""`jaxerr-ls catalog extract-xla`: the messages XLA and jaxlib build in C++, as catalog data.

Reads C++ sources from git repositories (a clone or a bare git directory; files missing from
a partial snapshot are skipped) or plain folders, never compiles them, and writes
`catalog/xla/messages.json.gz`: one record per distinct (status code or Python class, message
template), with every place that builds it (source, file, line, function). Only facts are
recorded: the message text and where it is; no code.

    jaxerr-ls catalog extract-xla \\
        --source xla=/path/to/xla.git@main:xla --repo xla=openxla/xla \\
        --source jaxlib=/path/to/jax.git@jax-v0.10.2:jaxlib --repo jaxlib=jax-ml/jax \\
        --out catalog/xla/messages.json.gz
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from jaxerr_ls.extract.cpp import CppMessage, blank_comments, messages
from jaxerr_ls.extract.cpp_log import log_messages

FORMAT = 1
# Paths that never run in a user's process: tests, benchmarks, tools, test utilities.
_SKIP = re.compile(
    r"(?:^|/)(?:tests?|testing|testlib|testdata|benchmarks?|tools|examples)/"
    r"|_test(?:_util|lib|_utils?|base)?\.(?:cc|h)$|_benchmark\.cc$|test_util|mock_"
)

# `.inc`: TensorFlow's TPU loader includes its function tables from such files.
_SUFFIXES = (".cc", ".h", ".inc")


def file_messages(text: str) -> list[CppMessage]:
    """Statuses and Python exceptions (`cpp.messages`), then log messages (`cpp_log`), of one
    file: a log message's kind is "log" and its code the severity (`ERROR`, `FATAL`, ...)."""
    logs = [
        CppMessage("log", severity, template, line, function)
        for severity, template, line, function in log_messages(text, blank_comments(text))
    ]
    return [*messages(text), *logs]


@dataclass(frozen=True)
class SourceSpec:
    """`name=PATH[@REF][:SUBDIR]`: a label, a git dir or folder, a ref, a folder inside."""

    name: str
    path: Path
    ref: str = ""
    subdir: str = ""

    @classmethod
    def parse(cls, text: str) -> SourceSpec:
        found = re.match(r"^([\w.-]+)=([^@:]+)(?:@([^:]+))?(?::(.+))?$", text)
        if not found:
            raise ValueError(f"not a source spec (name=PATH[@REF][:SUBDIR]): {text!r}")
        name, path, ref, subdir = found.groups()
        return cls(name, Path(path), ref or "", (subdir or "").strip("/"))


def _git(path: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(_git_dir(path)), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return done.stdout


def _git_dir(path: Path) -> Path:
    return path / ".git" if (path / ".git").exists() else path


def _is_git(path: Path) -> bool:
    return (path / ".git").exists() or (path / "HEAD").is_file()


def read_files(spec: SourceSpec) -> Iterator[tuple[str, str]]:
    """(path relative to the repository, text) of every C++ file worth reading."""
    if not _is_git(spec.path):
        base = spec.path / spec.subdir if spec.subdir else spec.path
        for file in sorted(base.rglob("*")):
            relative = file.relative_to(spec.path).as_posix()
            if file.suffix in _SUFFIXES and not _SKIP.search(relative):
                yield relative, file.read_text(encoding="utf-8", errors="replace")
        return
    ref = spec.ref or "HEAD"
    listing = _git(spec.path, "ls-tree", "-r", ref, *([spec.subdir] if spec.subdir else []))
    wanted: list[tuple[str, str]] = []
    for row in listing.splitlines():
        meta, _, relative = row.partition("\t")
        parts = meta.split()
        is_cpp = len(parts) == 3 and parts[1] == "blob" and relative.endswith(_SUFFIXES)
        if is_cpp and not _SKIP.search(relative):
            wanted.append((parts[2], relative))
    batch = subprocess.Popen(
        ["git", "--git-dir", str(_git_dir(spec.path)), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert batch.stdin is not None and batch.stdout is not None
    try:
        for sha, relative in wanted:
            batch.stdin.write(sha.encode() + b"\n")
            batch.stdin.flush()
            header = batch.stdout.readline().decode()
            if header.rstrip().endswith("missing"):  # absent from a partial snapshot
                continue
            size = int(header.split()[2])
            data = batch.stdout.read(size)
            batch.stdout.read(1)
            yield relative, data.decode("utf-8", errors="replace")
    finally:
        batch.stdin.close()
        batch.wait(timeout=60)


def file_commits(spec: SourceSpec) -> dict[str, str]:
    """A folder source's `COMMITS` file (`path commit` per line, `#` comments): the commit each
    file was read at, when the files were gathered one by one (a repository too big to fetch)."""
    manifest = spec.path / "COMMITS"
    if _is_git(spec.path) or not manifest.is_file():
        return {}
    commits: dict[str, str] = {}
    for row in manifest.read_text(encoding="utf-8").splitlines():
        parts = row.split()
        if len(parts) == 2 and not row.startswith("#"):
            commits[parts[0]] = parts[1]
    return commits


def describe(spec: SourceSpec, repo: str = "") -> dict[str, str]:
    data = {"name": spec.name, "ref": spec.ref, "subdir": spec.subdir, "repo": repo}
    if _is_git(spec.path):
        # `^{commit}`: an annotated tag (`jax-v0.4.30`) names a tag object; links pin the commit.
        ref = f"{spec.ref or 'HEAD'}^{{commit}}"
        data["commit"] = _git(spec.path, "rev-parse", ref).strip()
        data["date"] = _git(spec.path, "log", "-1", "--format=%cs", spec.ref or "HEAD").strip()
    return data


def entry_id(kind: str, code: str, template: str) -> str:
    words = re.findall(r"[a-z0-9]+", re.sub(r"\{[^{}]*\}", " ", template).lower())[:6]
    digest = hashlib.sha1(f"{kind}\0{code}\0{template}".encode()).hexdigest()[:6]
    # The digest stays whole (ids are unique), the words are cut to keep ids readable.
    label = code.lower().replace("_", "-")
    head = "-".join(["xla", *(["log"] if kind == "log" else []), label, *words])[:80].rstrip("-")
    return f"{head}-{digest}"


@dataclass(frozen=True)
class Found:
    """One message a C++ file builds: its record kind, code (status, class, severity or MLIR
    diagnostic), template, and where."""

    kind: str
    code: str
    template: str
    line: int
    function: str


def collect(
    specs: Sequence[SourceSpec],
    repos: dict[str, str] | None,
    found_in: Callable[[str], Iterable[Found]],
    make_id: Callable[[str, str, str], str],
) -> dict[str, object]:
    """Every message `found_in` reads in every source, grouped by (kind, code, template), newest
    source first, with each place that builds it (`extract-xla`, `extract-mlir`)."""
    records: dict[tuple[str, str, str], dict[str, object]] = {}
    counts: dict[str, int] = {}
    for number, spec in enumerate(specs):
        found = 0
        commits = file_commits(spec)
        for relative, text in read_files(spec):
            for message in found_in(text):
                found += 1
                key = (message.kind, message.code, message.template)
                record = records.setdefault(
                    key,
                    {
                        "id": make_id(*key),
                        "kind": message.kind,
                        "code": message.code,
                        "message": message.template,
                        "sites": [],
                    },
                )
                sites = record["sites"]
                assert isinstance(sites, list)
                if not any(s["source"] == number and s["file"] == relative for s in sites):
                    site = {"source": number, "file": relative, "line": message.line}
                    site["function"] = message.function
                    if relative in commits:
                        site["commit"] = commits[relative]
                    sites.append(site)
        counts[spec.name] = found
    return {
        "format": FORMAT,
        "sources": [describe(spec, (repos or {}).get(spec.name, "")) for spec in specs],
        "found": counts,
        "messages": sorted(records.values(), key=lambda r: str(r["id"])),
    }


def _cpp_found(text: str) -> Iterator[Found]:
    for message in file_messages(text):
        yield Found(message.kind, message.code, message.template, message.line, message.function)


def extract(specs: Sequence[SourceSpec], repos: dict[str, str] | None = None) -> dict[str, object]:
    """Every status, Python exception and log message of every source."""
    return collect(specs, repos, _cpp_found, entry_id)


def write(data: dict[str, object], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    # mtime=0: the same sources give the same bytes.
    out.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


def run(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str,
    out: Path,
    extract_with: Callable[[Sequence[SourceSpec], dict[str, str] | None], dict[str, object]],
    noun: str,
) -> int:
    """The command line of an extractor of C++ sources: `--source`, `--repo`, `--out`."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--source",
        action="append",
        required=True,
        help="name=PATH[@REF][:SUBDIR], newest first (a git dir or clone, or a folder)",
    )
    parser.add_argument(
        "--repo",
        action="append",
        default=[],
        help="name=OWNER/REPO: the public repository a source's commit is in (for links)",
    )
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    try:
        specs = [SourceSpec.parse(text) for text in args.source]
    except ValueError as exc:
        print(f"jaxerr-ls: {exc}", file=sys.stderr)
        return 2
    for spec in specs:
        if not spec.path.exists():
            print(f"jaxerr-ls: no such source: {spec.path}", file=sys.stderr)
            return 2
    try:
        repos = dict(text.split("=", 1) for text in args.repo if "=" in text)
        data = extract_with(specs, repos)
    except subprocess.CalledProcessError as exc:
        print(f"jaxerr-ls: git failed: {exc.stderr.strip()}", file=sys.stderr)
        return 2
    write(data, args.out)
    found = data["found"]
    messages_out = data["messages"]
    assert isinstance(found, dict) and isinstance(messages_out, list)
    print(
        f"{len(messages_out)} distinct {noun} from "
        + ", ".join(f"{name}: {count}" for name, count in found.items())
        + f" -> {args.out}"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run(
        argv,
        prog="jaxerr-ls catalog extract-xla",
        description="Extract XLA's and jaxlib's C++ error messages into the catalog.",
        out=Path("catalog/xla/messages.json.gz"),
        extract_with=extract,
        noun="messages",
    )


if __name__ == "__main__":
    sys.exit(main())
