"""CLI for interviews: the app (no subcommand), ``interview``, ``grade``, ``history``, ``show``, ``export``."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from interviewer.cli.base import fail, print_json

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
LlmFlag = Annotated[str | None, typer.Option("--llm", metavar="MODEL", help="LLM model for the interviewer (e.g. gpt-4o-mini, llama3.1:8b).")]
BaseUrlFlag = Annotated[str | None, typer.Option("--base-url", metavar="URL", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1.")]
ChromaFlag = Annotated[str | None, typer.Option("--chroma-url", metavar="URL", help="Chroma server instead of the embedded index.")]


def _settings(**overrides):
    from interviewer.config import ConfigError, load_settings

    try:
        return load_settings(**overrides)
    except ConfigError as exc:
        fail(str(exc))


def _store():
    from interviewer.store import StoreError, open_store

    try:
        return open_store()
    except StoreError as exc:
        fail(str(exc))


def root(
    ctx: typer.Context,
    llm: LlmFlag = None,
    base_url: BaseUrlFlag = None,
    chroma_url: ChromaFlag = None,
    resume: Annotated[int | None, typer.Option("--resume", metavar="ID", help="Reopen an unfinished interview by id.")] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Use the offline interviewer even if an LLM is configured.")] = False,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    """With no command: start the terminal app."""
    if version:
        from interviewer import __version__

        typer.echo(f"interviewer {__version__}")
        raise typer.Exit()
    ctx.obj = {"llm": llm, "base_url": base_url, "chroma_url": chroma_url, "offline": offline}
    if ctx.invoked_subcommand is not None:
        return
    settings = _settings(llm_model=llm, llm_base_url=base_url, chroma_url=chroma_url)
    if offline:
        settings = settings.model_copy(update={"llm_model": None})
    store = _store()
    if resume is not None:
        try:
            store.get(resume)
        except KeyError as exc:
            fail(f"--resume: {exc.args[0]} (see `interviewer history`)")
    from interviewer.cli.base import launch_app

    launch_app(settings=settings, store=store, resume_id=resume)


def _command_settings(ctx: typer.Context, llm: str | None, base_url: str | None, offline: bool = False):
    """Settings for a subcommand: its own flags, then the root's, then env and config."""
    parent = ctx.obj or {}
    settings = _settings(
        llm_model=llm or parent.get("llm"),
        llm_base_url=base_url or parent.get("base_url"),
        chroma_url=parent.get("chroma_url"),
    )
    if offline or parent.get("offline"):
        settings = settings.model_copy(update={"llm_model": None})
    return settings


def _print_event(event, *, target_level: str | None, quiet: bool = False) -> None:
    from interviewer import events as ev

    if quiet:
        return
    if isinstance(event, ev.InterviewerMessage):
        typer.echo(f"\ninterviewer> {event.turn.text}\n")
    elif isinstance(event, ev.TokenDelta):
        pass  # streamed pieces are not echoed: the complete message follows, and scripts read whole lines
    elif isinstance(event, ev.HintGiven):
        typer.echo(f"\ninterviewer> {event.turn.text}\n")
    elif isinstance(event, ev.ClaimChecked):
        claim = event.claim
        mark = {"correct": "ok", "incorrect": "WRONG", "unverifiable": "?"}.get(claim["verdict"], claim["verdict"])
        typer.echo(f"[check {mark}] {claim['text']} — {claim['explanation']}")
    elif isinstance(event, ev.StepAdvanced):
        typer.echo(f"[step {event.index + 1}/{event.total}: {event.title}]")
    elif isinstance(event, ev.Notice):
        typer.echo(f"[{event.severity}] {event.text}", err=True)
    elif isinstance(event, ev.ScoreReady):
        _print_scorecard(event.scorecard, target_level)


def _print_scorecard(card, target_level: str | None) -> None:
    from interviewer.display import format_score, level_line

    typer.echo(f"\n=== Score: {format_score(card.score)}/100 · {level_line(target_level, card.level)} ===")
    typer.echo(
        "tiers: " + ", ".join(f"{tier} {100 * value:.0f}%" for tier, value in card.tiers.items()) + f" · hints used: {card.hints_used}"
    )
    for c in card.criteria:
        mark = {"met": "[x]", "partial": "[~]", "missed": "[ ]"}[c.status.value]
        typer.echo(f"{mark} ({c.tier}) {c.description}")
        for quote in c.evidence:
            typer.echo(f"      “{quote}”")
        if c.status.value != "met":
            typer.echo(f"      study: {', '.join(c.notes)}")
    for misconception in card.misconceptions:
        typer.echo(f"[!] misconception: {misconception['description']}\n      “{misconception['quote']}”")
    for notice in card.notices:
        typer.echo(f"note: {notice}")
    for question, topics in card.framing.by_question():
        typer.echo(f"[?] you asked about {', '.join(topics)}: “{question}”")
    if card.framing.never_asked:
        typer.echo(f"[?] never asked, but it mattered: {', '.join(card.framing.never_asked)}")
    if card.coaching:
        typer.echo("\n--- Coaching per step (suggestions) ---")
    for step in card.coaching:
        typer.echo(f"{step.title}")
        for n, point in enumerate(step.outline, 1):
            typer.echo(f"  {n}. {point}")
        typer.echo(f"  tip: {step.tip}")
        for item in step.missing:
            typer.echo(f"  missing: {item}")


def interview(
    ctx: typer.Context,
    scenario: Annotated[str | None, typer.Option("--scenario", "-s", metavar="ID", help="Scenario id (see `interviewer scenarios`).")] = None,
    level: Annotated[str, typer.Option("--level", metavar="mid|senior", help="The level to interview at.")] = "senior",
    time_limit: Annotated[float | None, typer.Option("--time-limit", min=0.1, metavar="MINUTES", help="Time limit in minutes (default: the config's time_limit_minutes).")] = None,
    resume: Annotated[int | None, typer.Option("--resume", metavar="ID", help="Continue an unfinished interview by id.")] = None,
    llm: LlmFlag = None,
    base_url: BaseUrlFlag = None,
    offline: Annotated[bool, typer.Option("--offline", help="Use the offline interviewer even if an LLM is configured.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="At the end print the scorecard as `grade --json` does.")] = False,
) -> None:
    """A plain-terminal interview: one answer per stdin line; /hint, /skip, /end, /score and /note TEXT as commands."""
    if scenario is None and resume is None:
        fail("--scenario: give a scenario id (see `interviewer scenarios`), or --resume ID")
    if level not in ("mid", "senior"):
        fail(f"--level: {level!r} is not one of mid, senior")
    settings = _command_settings(ctx, llm, base_url, offline)
    store = _store()
    from interviewer.interviews import resume_interview, start_interview

    try:
        if resume is not None:
            agent = resume_interview(resume, settings=settings, store=store)
        else:
            agent = start_interview(scenario, settings=settings, store=store, level=level, time_limit_minutes=time_limit)
    except KeyError as exc:
        fail(f"--scenario: {exc.args[0]}" if resume is None else f"--resume: {exc.args[0]}")
    except ValueError as exc:
        fail(str(exc))
    asyncio.run(_run_plain_interview(agent, quiet_json=as_json))


COMMANDS = ("/hint", "/skip", "/end", "/score", "/note TEXT")
"""What ``interviewer interview`` reads as a command rather than an answer (``hint``, ``skip`` and
``end`` also work without the slash)."""
NOTE_USAGE = "/note TEXT keeps TEXT as your own note on this question (never graded; shown in the replay and the export)"
_NOTE_COMMAND = re.compile(r"/note(?:\s+(?P<text>.*))?", re.IGNORECASE | re.DOTALL)
_COMMAND_LIKE = re.compile(r"/[a-z][\w-]*")
"""A line that is one slash-word (``/bogus``) is a mistyped command, not an answer; ``/dev/shm is
tmpfs`` is an answer."""


async def _run_plain_interview(agent, *, quiet_json: bool) -> None:
    from interviewer import events as ev

    final = None

    async def pump(stream) -> None:
        nonlocal final
        async for event in stream:
            if isinstance(event, ev.ScoreReady):
                final = event.scorecard
            _print_event(event, target_level=agent.level, quiet=quiet_json and isinstance(event, ev.ScoreReady))

    typer.echo(f"interview #{agent.interview_id} · {agent.scenario.title} · mode {agent.mode}", err=True)
    await pump(agent.start())
    loop = asyncio.get_running_loop()
    while not agent.finished:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if line == "":
            typer.echo(
                f"\n[stdin closed] interview #{agent.interview_id} is saved; continue it with "
                f"`interviewer interview --resume {agent.interview_id}`",
                err=True,
            )
            return
        command = line.strip().lower()
        note = _NOTE_COMMAND.fullmatch(line.strip())
        if note is not None:
            _take_note(agent, note.group("text") or "")
        elif command in ("/hint", "hint"):
            await pump(agent.hint())
        elif command in ("/skip", "skip"):
            await pump(agent.skip())
        elif command in ("/end", "end"):
            await pump(agent.end())
        elif command == "/score":
            _print_scorecard(agent.scorecard(), agent.level)
        elif _COMMAND_LIKE.fullmatch(command):
            typer.echo(f"unknown command {line.strip()}: the commands are {', '.join(COMMANDS)}; any other line is your answer", err=True)
        elif line.strip():
            await pump(agent.respond(line.rstrip("\n")))
    if quiet_json and final is not None:
        print_json(final.grade_json(agent.notes()))


def _take_note(agent, text: str) -> None:
    """``/note TEXT``: stored at once with the current step; nothing is sent to the interviewer."""
    if not text.strip():
        typer.echo(f"usage: {NOTE_USAGE}", err=True)
        return
    try:
        saved = agent.add_note(text)
    except ValueError as exc:
        typer.echo(f"note not saved: {exc}", err=True)
        return
    typer.echo(f"[note saved on step {saved.index + 1}/{len(agent.scenario.steps)}: {saved.title}]")


def read_answers(path: Path) -> list[str]:
    """A JSON list of strings, or a text/Markdown file with one answer per blank-line-separated paragraph."""
    if not path.exists():
        fail(f"--answers: {path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"--answers: {path}: cannot read: {exc}")
    if path.suffix.lower() == ".json" or text.lstrip().startswith(("[", "{")):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            fail(f"--answers: {path}: not valid JSON ({exc.msg} at line {exc.lineno}); expected a list of strings")
        if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
            fail(f"--answers: {path}: expected a JSON list of strings (the candidate's turns in order)")
        answers = data
    else:
        answers = [p.strip() for p in text.replace("\r\n", "\n").split("\n\n")]
    answers = [a for a in answers if a.strip()]
    if not answers:
        fail(f"--answers: {path}: no answers in the file")
    return answers


def grade(
    ctx: typer.Context,
    scenario: Annotated[str | None, typer.Option("--scenario", "-s", metavar="ID", help="Scenario id.")] = None,
    answers: Annotated[Path | None, typer.Option("--answers", metavar="FILE", help="JSON list of answers, or text with blank-line-separated answers.")] = None,
    level: Annotated[
        str, typer.Option("--level", metavar="mid|senior", help="The level the candidate aims at (mid or senior), printed beside the estimated level; grading is the same for both.")
    ] = "senior",
    llm: LlmFlag = None,
    base_url: BaseUrlFlag = None,
    as_json: JsonFlag = False,
) -> None:
    """Grade a finished set of answers against a scenario's rubric, without the conversation."""
    if scenario is None:
        fail("--scenario: missing (see `interviewer scenarios`)")
    if answers is None:
        fail("--answers: missing (a JSON list of strings, or a text file with one answer per paragraph)")
    if level not in ("mid", "senior"):
        fail(f"--level: {level!r} is not one of mid, senior")
    from rubrics.loader import get_scenario

    try:
        loaded = get_scenario(scenario)
    except KeyError as exc:
        fail(f"--scenario: {exc.args[0]}")
    turns = read_answers(answers)
    settings = _command_settings(ctx, llm, base_url)
    if settings.llm_model:
        from interviewer.llm.grading import grade_with_llm

        card = grade_with_llm(loaded.scenario, turns, settings)
    else:
        from interviewer.engine import grade_answers

        card = grade_answers(loaded.scenario, turns)
    if as_json:
        print_json(card.grade_json())
    else:
        _print_scorecard(card, level)


def history(
    scenario: Annotated[str | None, typer.Option("--scenario", "-s", metavar="ID", help="Only this scenario.")] = None,
    search: Annotated[str | None, typer.Option("--search", metavar="WORDS", help="Full-text search in what was said.")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, metavar="N", help="At most this many.")] = 50,
    as_json: JsonFlag = False,
) -> None:
    """List past interviews: date, scenario, score, status."""
    records = _store().list_interviews(scenario_id=scenario, search=search, limit=limit)
    if not records and scenario is not None:
        _known_scenario_or_fail(scenario)
    if as_json:
        print_json(
            [
                {
                    "id": r.id,
                    "scenario": r.scenario_id,
                    "started_at": r.started_at.isoformat(),
                    "score": r.score,
                    "status": r.status.value,
                    "mode": r.mode,
                }
                for r in records
            ]
        )
        return
    if not records:
        filters = [f"--{name} {value!r}" for name, value in (("scenario", scenario), ("search", search)) if value is not None]
        if filters:
            typer.echo(f"no interview matches {' and '.join(filters)} (`interviewer history` lists them all)")
        else:
            typer.echo("no interviews yet: run `interviewer` or `interviewer interview --scenario ID`")
        return
    from interviewer.display import format_score, status_label

    for r in records:
        score = f"{format_score(r.score):>5}" if r.score is not None else "    —"
        typer.echo(f"#{r.id:<5} {r.started_at:%Y-%m-%d %H:%M}  {r.scenario_id:<28} {score}  {status_label(r.status)}")


def _known_scenario_or_fail(scenario_id: str) -> None:
    """An id that is no shipped scenario (and has no stored interview) is a typo: say which ids exist."""
    from rubrics.loader import RubricLoadError, get_scenario

    try:
        get_scenario(scenario_id)
    except KeyError as exc:
        fail(f"--scenario: {exc.args[0]}")
    except RubricLoadError:
        pass  # the shipped rubrics are broken: the listing itself still works, so do not fail on them


def _record(interview_id: int):
    try:
        return _store().get(interview_id)
    except KeyError as exc:
        fail(f"ID: {exc.args[0]} (see `interviewer history`)")


def show(
    interview_id: Annotated[int, typer.Argument(metavar="ID", help="Interview id (see `interviewer history`).")],
    as_json: JsonFlag = False,
) -> None:
    """Print an interview's transcript with its scores."""
    record = _record(interview_id)
    if as_json:
        from interviewer.engine.export import export_json

        typer.echo(export_json(record))
        return
    from interviewer.display import status_label

    typer.echo(f"#{record.id} {record.title} · {status_label(record.status)} · started {record.started_at:%Y-%m-%d %H:%M}")
    from interviewer.domain import CandidateNote

    for turn in record.transcript():
        if isinstance(turn, CandidateNote):
            typer.echo(f"\nyour note ({turn.step_id})> {turn.text}")
            continue
        who = {"interviewer": "interviewer", "candidate": "you", "system": "notice"}[turn.role.value]
        typer.echo(f"\n{who}> {turn.text}")
    if record.scorecard:
        _print_scorecard(record.scorecard, record.level)


def export(
    interview_id: Annotated[int, typer.Argument(metavar="ID", help="Interview id (see `interviewer history`).")],
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="md|json", help="Markdown report or JSON.")] = "md",
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write to this file instead of stdout.")] = None,
) -> None:
    """Export an interview as a Markdown report or JSON."""
    if fmt not in ("md", "json"):
        fail(f"--format: {fmt!r} is not one of md, json")
    record = _record(interview_id)
    from interviewer.engine.export import export_json, export_markdown

    text = export_markdown(record) if fmt == "md" else export_json(record)
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"--output: {output}: {exc.strerror or exc}")
    typer.echo(f"wrote {output}", err=True)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``interviewer`` app (called by ``interviewer.cli``)."""
    app.callback(invoke_without_command=True)(root)
    app.command("interview")(interview)
    app.command("grade")(grade)
    app.command("history")(history)
    app.command("show")(show)
    app.command("export")(export)
