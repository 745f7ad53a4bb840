"""What the CLI prints for the cases issue #17 (item 9) found wanting: empty or mistyped history
filters, mistyped interview commands, check's claim limit and --strict, kb search's listing, and
help texts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from interviewer.cli import _register_subcommands, app
from interviewer.cli.content import _by_note, strip_emphasis
from interviewer.domain import Scorecard
from interviewer.store import open_store
from knowledge.indexer import Passage

_register_subcommands()


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


# -- history ---------------------------------------------------------------------------------------


def test_history_with_an_unknown_scenario_is_an_error_that_lists_the_scenarios():
    result = cli("history", "--scenario", "nope")
    assert result.exit_code == 2
    assert "--scenario: unknown scenario 'nope'; known: " in result.output and "moe-routing" in result.output
    assert cli("history", "--scenario", "nope", "--json").exit_code == 2


def test_history_says_when_no_interview_matches_the_filters():
    store = open_store()
    store.create_interview(scenario_id="moe-routing", scenario_hash="h", title="MoE")
    none_yet = cli("history", "--scenario", "serve-2b-p99")
    assert none_yet.exit_code == 0
    assert none_yet.output.strip() == "no interview matches --scenario 'serve-2b-p99' (`interviewer history` lists them all)"
    searched = cli("history", "--search", "zzzunsaid")
    assert "no interview matches --search 'zzzunsaid'" in searched.output and "yet" not in searched.output


def test_history_with_no_interviews_at_all_says_so():
    result = cli("history")
    assert result.exit_code == 0 and result.output.startswith("no interviews yet")


def test_history_rows_use_the_apps_score_and_status_wording():
    store = open_store()
    finished = store.create_interview(scenario_id="moe-routing", scenario_hash="h", title="MoE")
    store.finish(finished, Scorecard(scenario="moe-routing", score=71.8, level="mid", tiers={}, criteria=[]))
    store.create_interview(scenario_id="moe-routing", scenario_hash="h", title="MoE")
    rows = cli("history").output.splitlines()
    assert rows[0].endswith("moe-routing                      —  unfinished")
    assert rows[1].endswith("moe-routing                   71.8  finished")


def test_show_prints_each_note_after_its_questions_turns_and_history_search_finds_it():
    from interviewer.domain import Turn

    store = open_store()
    interview = store.create_interview(scenario_id="moe-routing", scenario_hash="h", title="MoE")
    store.add_turn(interview, Turn(role="interviewer", kind="question", step_id="why-moe", text="Why MoE?"))
    store.add_turn(interview, Turn(role="candidate", kind="answer", step_id="why-moe", text="More parameters, same FLOPs."))
    store.add_turn(interview, Turn(role="interviewer", kind="question", step_id="routing", text="How do you route?"))
    store.save_note(interview, "why-moe", "ask about expert capacity")
    lines = [line for line in cli("show", str(interview)).output.splitlines() if line]
    assert lines[1:] == [
        "interviewer> Why MoE?",
        "you> More parameters, same FLOPs.",
        "your note (why-moe)> ask about expert capacity",
        "interviewer> How do you route?",
    ]
    assert f"#{interview}" in cli("history", "--search", "expert capacity").output


# -- the plain interview's commands ----------------------------------------------------------------


@pytest.mark.slow
def test_an_unknown_slash_command_is_not_taken_as_an_answer():
    result = subprocess.run(
        [sys.executable, "-m", "interviewer", "interview", "--scenario", "moe-routing"],
        input="/bogus\n/dev/shm is where the experts live.\n/end\n",
        capture_output=True,
        text=True,
        timeout=180,
        env=os.environ.copy(),
    )
    assert result.returncode == 0, result.stderr
    assert "unknown command /bogus: the commands are /hint, /skip, /end, /score, /note TEXT; any other line is your answer" in result.stderr
    record = open_store().list_interviews()[0]
    said = [t.text for t in open_store().turns(record.id) if t.role.value == "candidate"]
    assert said == ["/dev/shm is where the experts live."]


@pytest.mark.slow
def test_note_keeps_a_note_on_the_current_question_and_never_an_answer():
    result = subprocess.run(
        [sys.executable, "-m", "interviewer", "interview", "--scenario", "moe-routing", "--json"],
        input="/note\n/note   look up the capacity factor\n/NOTE and top-2 gating\nExperts add parameters without adding FLOPs per token.\n/end\n",
        capture_output=True,
        text=True,
        timeout=180,
        env=os.environ.copy(),
    )
    assert result.returncode == 0, result.stderr
    assert "usage: /note TEXT keeps TEXT as your own note on this question" in result.stderr
    assert result.stdout.count("[note saved on step 1/") == 2
    payload = json.loads(result.stdout[result.stdout.index("\n{") + 1 :])
    store = open_store()
    record = store.list_interviews()[0]
    first_step = store.get(record.id).turns[0].step_id
    assert payload["notes"] == {first_step: "look up the capacity factor\nand top-2 gating"}
    assert store.get(record.id).notes_by_step() == payload["notes"]
    said = [t.text for t in store.turns(record.id) if t.role.value == "candidate"]
    assert said == ["Experts add parameters without adding FLOPs per token."]


# -- check -------------------------------------------------------------------------------------------

RIGHT = "10B params with Adam in mixed precision is 160 GB."
WRONG = "10B params with Adam in mixed precision is 100 GB."


def test_check_says_where_it_stopped_at_the_claim_limit():
    from interviewer.claims.checker import MAX_CLAIMS

    text = " ".join([RIGHT] * (MAX_CLAIMS + 20))
    table = cli("check", text)
    assert table.exit_code == 0
    assert table.output.rstrip().splitlines()[-1] == (
        f"stopped at the limit of {MAX_CLAIMS} claims, after “{RIGHT}”: any claims after it were not checked"
    )
    payload = json.loads(cli("check", text, "--json").output)
    assert payload["truncated"] is True and payload["max_claims"] == MAX_CLAIMS
    assert len(payload["claims"]) == MAX_CLAIMS


def test_check_json_keeps_its_shape_and_adds_the_limit():
    payload = json.loads(cli("check", RIGHT, "--json").output)
    assert set(payload) == {"claims", "truncated", "max_claims"}
    assert payload["truncated"] is False
    assert set(payload["claims"][0]) == {"text", "quantity", "claimed", "computed", "unit", "verdict", "explanation", "scope", "provenance"}
    assert "stopped" not in cli("check", RIGHT).output


@pytest.mark.parametrize(
    ("text", "flags", "code"),
    [
        (WRONG, ["--strict"], 1),
        (WRONG, ["--strict", "--json"], 1),
        (WRONG, [], 0),
        (RIGHT, ["--strict"], 0),
        ("No numbers here at all.", ["--strict"], 0),
    ],
)
def test_check_strict_fails_only_on_an_incorrect_claim(text, flags, code):
    result = cli("check", text, *flags)
    assert result.exit_code == code, result.output
    if "--json" in flags:
        assert json.loads(result.output)["claims"][0]["verdict"] == "incorrect"


# -- kb search ---------------------------------------------------------------------------------------


def _passage(note: str, heading: str, score: float, text: str = "Some text.", title: str | None = None) -> Passage:
    return Passage(anchor=f"{note}#{heading.lower()}", note=note, heading=heading, title=title or note.title(), text=text, score=score)


def test_search_results_are_grouped_by_note_and_sorted_by_score():
    passages = [
        _passage("kv-cache", "Formula", 0.50),
        _passage("batching", "Continuous", 0.66),
        _passage("kv-cache", "Paging", 0.70),
        _passage("kv-cache", "Paging", 0.40),  # a second part of the same section
        _passage("quantization", "Int8", 0.10),
    ]
    groups = _by_note(passages)
    assert [[(p.heading, p.score) for p in group] for group in groups] == [
        [("Paging", 0.70), ("Formula", 0.50)],
        [("Continuous", 0.66)],
        [("Int8", 0.10)],
    ]


@pytest.mark.parametrize(
    ("markdown", "plain"),
    [
        ("- **Model weights**: the fp32 master copy", "- Model weights: the fp32 master copy"),
        ("it minimizes *training* compute, __not__ serving", "it minimizes training compute, not serving"),
        ("an _italic_ word", "an italic word"),
        ("head_dim and kv_heads stay, as does 2 * 3 * 4", "head_dim and kv_heads stay, as does 2 * 3 * 4"),
        ("code: `__init__` and `**kwargs`", "code: `__init__` and `**kwargs`"),
    ],
)
def test_search_prints_notes_without_markdown_emphasis(markdown, plain):
    assert strip_emphasis(markdown) == plain


@pytest.mark.slow
def test_kb_search_lists_each_note_once_best_first_without_emphasis():
    result = cli("kb", "search", "what goes in a checkpoint and how often to write it", "-k", "6")
    assert result.exit_code == 0, result.output
    headers = [line for line in result.output.splitlines() if re.match(r"\d+\. ", line)]
    assert len(headers) >= 3
    scores = [float(re.search(r"\(score (\d\.\d\d)\)$", line).group(1)) for line in headers]
    assert scores == sorted(scores, reverse=True)
    titles = [re.sub(r"^\d+\. |  \(score .*$", "", line) for line in headers]
    assert len(set(titles)) == len(titles)
    assert "**" not in result.output
    assert not any(f"— {title}" in result.output for title in titles), "a note's title is not repeated as its heading"


# -- help ---------------------------------------------------------------------------------------------


def _command_paths(group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name)
        if hasattr(command, "commands"):
            yield from _command_paths(command, (*prefix, name))


PATHS = [(), *_command_paths(typer.main.get_command(app))]


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "interviewer")
def test_help_shows_metavars_not_python_types(path):
    result = cli(*path, "--help")
    assert result.exit_code == 0, result.output
    for pattern in (r"<[a-z][a-z\[\] ]*>", r"\{[a-z_]+\}"):  # <str>, <float range>, <list[str]>, {text}
        assert not re.search(pattern, result.output), (pattern, result.output)


def test_help_names_values_by_what_they_are():
    check = cli("check", "--help").output
    assert "Usage: interviewer check [OPTIONS] TEXT" in check
    assert "--fact KEY=VALUE" in check and "--scenario ID" in check
    assert "--time-limit MINUTES" in cli("interview", "--help").output
    assert "-k, --top N" in cli("kb", "search", "--help").output
    assert "--kv-heads KV_HEADS" in cli("calc", "kv-cache", "--help").output
