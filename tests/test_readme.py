"""The README stays what issue 22 made it: the two set-up commands first (CI runs the test command
written there, through .ci/run), short enough to read, every place it tells users about present,
and every link and picture it points at there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

SETUP = (
    "./scripts/bootstrap && .venv/bin/jaxerr-ls explain examples/eager_shard_map_ref.txt"
    " --root examples\n./scripts/test\n"
)


def test_the_two_setup_commands_come_first() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert first_block and first_block.group(1) == SETUP
    assert "scripts/test" in (ROOT / ".ci" / "run").read_text()


def test_short_and_every_place_has_its_section() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    sections = re.findall(r"^## (.+)$", text, re.M)
    for place in (
        "VS Code",
        "Neovim",
        "JupyterLab",
        "Jupyter, Colab, IPython",
        "command line",
        "pre-commit",
        "site",
    ):
        assert any(place in s for s in sections), (place, sections)


def test_links_and_the_picture_exist() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert targets
    missing = [t for t in targets if "://" not in t and not (ROOT / t).exists()]
    assert missing == []
    assert any(t.endswith(".png") for t in targets)
