"""CLI for practice drills: ``drills`` (list), ``drill ID [--answer A]`` (show or check), ``progress``."""

from __future__ import annotations

from typing import Annotated

import typer

from interviewer.cli.base import fail, print_json

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON value instead of text.")]


def _bank():
    from interviewer.drills.bank import DrillLoadError, load_bank

    try:
        return load_bank()
    except DrillLoadError as exc:
        fail(f"the shipped drills are invalid:\n{exc}")


def _progress():
    from interviewer.drills.progress import DrillProgress
    from interviewer.store.db import StoreError, open_store
    from rubrics.loader import load_scenarios

    try:
        store = open_store()
    except StoreError as exc:
        fail(str(exc))
    return DrillProgress(store, _bank(), load_scenarios())


def list_drills(
    topic: Annotated[str | None, typer.Option("--topic", metavar="T", help="Only this topic (a scenario id).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """List the practice drills (id, topic, kind, difficulty); never their answers."""
    bank = _bank()
    if topic is not None and topic not in bank.topics():
        fail(f"unknown topic {topic!r}; topics: {', '.join(bank.topics())}")
    items = bank.for_topic(topic) if topic else list(bank.items)
    if as_json:
        print_json([item.summary() for item in items])
        return
    width = max(len(item.id) for item in items)
    for item in items:
        typer.echo(f"{item.id:<{width}}  {item.topic:<30}  {item.kind.value:<11}  {item.difficulty.value}")
    typer.echo(f"{len(items)} drill(s)")


def drill(
    item_id: Annotated[str, typer.Argument(metavar="ID", help="A drill id (see `interviewer drills`).")],
    answer: Annotated[str | None, typer.Option("--answer", "-a", metavar="A", help="Check this answer and show the worked solution.")] = None,
    record: Annotated[bool, typer.Option("--record/--no-record", help="Count a checked answer towards mastery (default: yes).")] = True,
    as_json: JsonFlag = False,
) -> None:
    """Show a drill, or check an answer: prints {correct, expected, unit, solution, note, ...} with --json."""
    from interviewer.drills.check import DrillAnswerError, check_answer
    from interviewer.drills.present import answer_instructions, feedback_lines, header, prompt_lines

    bank = _bank()
    try:
        item = bank.get(item_id)
    except KeyError as exc:
        fail(str(exc.args[0]))
    if answer is None:
        if as_json:
            print_json(
                {
                    **item.summary(),
                    "prompt": item.prompt,
                    "options": [option.text for option in item.options] if item.options else None,
                    "snippet": item.code.snippet if item.code else None,
                    "unit": item.numeric.display_unit if item.numeric else None,
                    "answer_format": item.answer_format,
                    "how_to_answer": answer_instructions(item),
                    "hint": item.hint,
                }
            )
            return
        typer.echo(header(item))
        typer.echo("\n".join(prompt_lines(item)))
        typer.echo(f"\n{answer_instructions(item)}\nHint: {item.hint}\nCheck an answer: interviewer drill {item.id} --answer '...'")
        return
    try:
        result = check_answer(item, answer)
    except DrillAnswerError as exc:
        fail(str(exc))
    recorded = False
    if record:
        progress = _progress()
        progress.record(item, answer, result.correct)
        progress.store.close()
        recorded = True
    if as_json:
        print_json({**result.to_json_dict(), "recorded": recorded})
        return
    typer.echo("\n".join(feedback_lines(result)))


def progress(as_json: JsonFlag = False) -> None:
    """Mastery per topic (unknown, weak, fair, strong), the drills due for review, and what to practise next."""
    from interviewer.domain import utcnow
    from interviewer.drills.progress import mastery_summary

    tracker = _progress()
    now = utcnow()
    priorities = tracker.priorities(now)
    schedule = tracker.store.drill_schedule()
    session = tracker.session(now=now)
    tracker.store.close()
    from rubrics.loader import load_scenarios

    titles = {scenario.id: scenario.title for scenario in load_scenarios()}
    due = sorted((due_at, item_id, box) for item_id, (box, due_at) in schedule.items())
    if as_json:
        print_json(
            {
                "topics": [
                    {**p.mastery.to_json_dict(), "title": titles.get(p.topic, p.topic), "priority": round(p.priority, 3), "probe_weight": round(p.probe_weight, 3)}
                    for p in priorities
                ],
                "practise_next": [item.id for item in session],
                "review": [{"id": item_id, "box": box, "due_at": due_at.isoformat(), "due": due_at <= now} for due_at, item_id, box in due],
            }
        )
        return
    typer.echo(f"Mastery: {mastery_summary({p.topic: p.mastery for p in priorities})}")
    width = max(len(p.topic) for p in priorities)
    typer.echo(f"{'topic':<{width}}  {'level':<8}  score  drills  right  interview  due")
    for p in priorities:
        m = p.mastery
        typer.echo(
            f"{p.topic:<{width}}  {m.level.value:<8}  {m.score:5.2f}  {m.drills_answered:>6}  {m.drills_correct:>5}  {m.interview_criteria:>9}  {m.due:>3}"
        )
    typer.echo(f"\nPractise next (lowest mastery × most probed first): {', '.join(p.topic for p in priorities[:3])}")
    typer.echo(f"Next session: {', '.join(item.id for item in session)}")
    waiting = [item_id for due_at, item_id, _ in due if due_at > now]
    if waiting:
        typer.echo(f"Scheduled for review later: {len(waiting)} drill(s)")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``interviewer`` app (called by ``interviewer.cli``)."""
    app.command("drills")(list_drills)
    app.command("drill")(drill)
    app.command("progress")(progress)
