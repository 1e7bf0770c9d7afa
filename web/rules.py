"""The rules panel of /play/: the "In short" section of each game's rules page
(``docs/rules/<game>.md``), turned into data for ``web/static/web/rules.js`` by
``manage.py web_rules``, so the page says what the project's rules say, in the same words.

The section is plain: paragraphs, "- " bullets (continued by indented lines) and ``**bold**``;
``### Title`` starts a part for one variant, named by a ``<!-- when: option=value -->`` line
under it. Other HTML comments are notes for the editor and are left out."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from games.engine import registry

ROOT = Path(__file__).resolve().parents[1]
RULES_JS = ROOT / "web" / "static" / "web" / "rules.js"
SECTION = "## In short"

Inline = list[list[Any]]  # [[text, bold], ...]


def inline(text: str) -> Inline:
    parts = re.split(r"\*\*(.+?)\*\*", " ".join(text.split()))
    return [[part, i % 2 == 1] for i, part in enumerate(parts) if part]


def _value(text: str) -> Any:
    return {"true": True, "false": False}.get(text, text)


def section(markdown: str) -> list[dict[str, Any]]:
    """The parts of the "In short" section: the common part first, then one per variant."""
    start = markdown.index(SECTION) + len(SECTION)
    rest = markdown[start:]
    end = re.search(r"^## ", rest, re.MULTILINE)
    body = rest[: end.start()] if end else rest
    parts: list[dict[str, Any]] = [{"title": None, "when": None, "blocks": []}]
    lines: list[str] = []

    def flush() -> None:
        blocks = parts[-1]["blocks"]
        text = "\n".join(lines).strip()
        lines.clear()
        if not text:
            return
        if text.startswith("- "):
            items = re.split(r"^- ", text, flags=re.MULTILINE)
            blocks.append({"ul": [inline(item) for item in items if item.strip()]})
        else:
            blocks.append({"p": inline(text)})

    body = re.sub(r"<!--(?!\s*when:).*?-->\n?", "", body, flags=re.DOTALL)
    for line in body.splitlines():
        when = re.fullmatch(r"<!--\s*when:\s*(\w+)=(\w+)\s*-->", line.strip())
        if line.startswith("### "):
            flush()
            parts.append({"title": line[4:].strip(), "when": None, "blocks": []})
        elif when:
            parts[-1]["when"] = {when.group(1): _value(when.group(2))}
        elif not line.strip():
            flush()
        else:
            lines.append(line)
    flush()
    return parts


def panels() -> dict[str, Any]:
    """Every game's panel: its name and the parts of its rules in short."""
    out = {}
    for game in registry.game_ids():
        page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
        out[game] = {"name": registry.get(game).name, "parts": section(page)}
    return out


def rules_js() -> str:
    games = ",\n".join(
        f"  {json.dumps(game)}: {json.dumps(panel, ensure_ascii=False)}"
        for game, panel in panels().items()
    )
    return (
        "// The rules panel's text: the \"In short\" section of each game's page in docs/rules/.\n"
        "// Made by `uv run python manage.py web_rules`; do not edit by hand.\n"
        f"export const RULES = {{\n{games},\n}};\n"
    )
