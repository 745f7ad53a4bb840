"""CLI for the interview content: ``scenarios``, ``rubrics validate``, ``kb index`` and ``kb search``."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from interviewer.cli.base import fail, print_json
from interviewer.cli.help import Typer

rubrics_app = Typer(help="Check scenario rubric files.", no_args_is_help=True)
kb_app = Typer(help="The knowledge base: index the notes and search them.", no_args_is_help=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON value instead of a table.")]
ChromaUrl = Annotated[
    str | None, typer.Option("--chroma-url", metavar="URL", help="Use a Chroma server (http://HOST:PORT) instead of the embedded index.")
]


def list_scenarios(as_json: JsonFlag = False) -> None:
    """List the interview scenarios."""
    from rubrics.loader import RubricLoadError, load_scenarios

    try:
        scenarios = load_scenarios()
    except RubricLoadError as exc:
        fail(f"the shipped rubrics are invalid:\n{exc}")
    if as_json:
        print_json(
            [
                {"id": s.id, "title": s.title, "kind": s.kind.value, "topics": s.topics, "steps": len(s.steps), "criteria": len(s.criteria)}
                for s in scenarios
            ]
        )
        return
    width = max(len(s.id) for s in scenarios)
    for s in scenarios:
        typer.echo(f"{s.id:<{width}}  {s.kind.value:<7}  {s.title}")


@rubrics_app.command("validate")
def validate(
    path: Annotated[Path | None, typer.Argument(help="A scenario YAML file or a folder of them (default: the shipped ones).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Validate scenario files; errors are printed as `file: field: message`."""
    from knowledge.notes import known_note_ids
    from rubrics.loader import RubricLoadError, read_scenario_files, shipped_scenario_files, validate_files

    if path is not None and not path.exists():
        fail(f"{path}: no such file or folder")
    try:
        files = read_scenario_files(path) if path is not None else shipped_scenario_files()
    except RubricLoadError as exc:
        fail(str(exc))
    if not files:
        fail(f"{path}: no .yaml files to validate")
    scenarios, errors = validate_files(files, known_notes=known_note_ids())
    if as_json:
        print_json({"valid": not errors, "files": len(files), "errors": [e.__dict__ for e in errors]})
    else:
        for error in errors:
            typer.echo(str(error))
        if not errors:
            typer.echo(f"ok: {len(scenarios)} scenario(s) in {len(files)} file(s) are valid")
    if errors:
        raise typer.Exit(1)


def _open_index(chroma_url: str | None, with_progress: bool):
    from interviewer import retrieval
    from knowledge.indexer import IndexError_

    bar = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if not with_progress or total == 0:
            return
        if bar is None:
            typer.echo(f"indexing {total} passage(s)…", err=True)
            bar = typer.progressbar(length=total, label="embedding", file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)
        if done >= total:
            bar.__exit__(None, None, None)

    try:
        return retrieval.open_index(chroma_url, progress=progress)
    except IndexError_ as exc:
        fail(str(exc))
    except Exception as exc:  # chromadb raises many types for an unreachable server
        fail(f"cannot open the knowledge index{f' at {chroma_url}' if chroma_url else ''}: {exc}")


@kb_app.command("index")
def index(chroma_url: ChromaUrl = None, as_json: JsonFlag = False) -> None:
    """Index the knowledge notes (only what changed since the last run)."""
    _, report = _open_index(chroma_url, with_progress=not as_json)
    from interviewer.engine.warmup import embed_rubric_criteria

    embed_rubric_criteria()  # so that no interview's first answer waits for them
    if as_json:
        print_json(report.__dict__)
    else:
        typer.echo(
            f"indexed: {report.added} added, {report.updated} updated, {report.removed} removed, "
            f"{report.unchanged} unchanged in {report.seconds:.2f} s"
        )


@kb_app.command("search")
def search(
    query: Annotated[str, typer.Argument(help="What to look up, in your own words.")],
    k: Annotated[int, typer.Option("-k", "--top", min=1, max=50, metavar="N", help="How many passages.")] = 5,
    chroma_url: ChromaUrl = None,
    as_json: JsonFlag = False,
) -> None:
    """Search the knowledge base; prints passages with `note#heading` citations."""
    if not query.strip():
        fail("QUERY is empty: say what to look up")
    index, _ = _open_index(chroma_url, with_progress=not as_json)
    passages = _by_note(index.search(query, k))
    if as_json:
        print_json({"query": query, "results": [p.public_dict() for group in passages for p in group]})
        return
    if not passages:
        typer.echo("no passage matches; try other words")
    for rank, group in enumerate(passages, 1):
        typer.echo(f"{rank}. {group[0].title}  (score {group[0].score:.2f})")
        for passage in group:
            heading = "" if passage.heading == passage.title else f" — {passage.heading}"
            typer.echo(f"   [{passage.anchor}]{heading}{f'  (score {passage.score:.2f})' if len(group) > 1 else ''}")
            body = " ".join(strip_emphasis(passage.text).split())
            typer.echo(f"   {body[:400]}{'…' if len(body) > 400 else ''}")
        typer.echo("")


def _by_note(passages: list) -> list[list]:
    """Passages grouped by note, best score first (in each group and across groups); a section
    split into several passages is shown once, with its best score."""
    best: dict[str, object] = {}
    for passage in passages:
        if passage.anchor not in best or passage.score > best[passage.anchor].score:
            best[passage.anchor] = passage
    groups: dict[str, list] = {}
    for passage in sorted(best.values(), key=lambda p: -p.score):
        groups.setdefault(passage.note, []).append(passage)
    return list(groups.values())


_EMPHASIS = [
    re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"),
    re.compile(r"(?<![\w*])(\*)(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"),
    re.compile(r"(?<!\w)(_)(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)"),
]


def strip_emphasis(markdown: str) -> str:
    """``**bold**``, ``*italic*`` and ``_italic_`` as plain words; ``head_dim``, ``2 * 3`` and code
    spans (`` `__init__` ``) stay as they are."""
    pieces = re.split(r"(`+[^`]*`+)", markdown)
    for index in range(0, len(pieces), 2):  # the odd pieces are code spans
        for pattern in _EMPHASIS:
            pieces[index] = pattern.sub(r"\2", pieces[index])
    return "".join(pieces)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``interviewer`` app (called by ``interviewer.cli``)."""
    app.add_typer(rubrics_app, name="rubrics")
    app.add_typer(kb_app, name="kb")
    app.command("scenarios")(list_scenarios)
