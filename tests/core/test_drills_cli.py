"""``interviewer drills``, ``drill ID [--answer A]`` and ``progress``: JSON for scripts, clear errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from interviewer.cli import _register_subcommands, app

_register_subcommands()


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def test_drills_json_lists_every_item_with_id_topic_kind_difficulty_and_no_key():
    result = cli("drills", "--json")
    assert result.exit_code == 0, result.output
    items = json.loads(result.output)
    assert len(items) >= 150
    assert set(items[0]) == {"id", "topic", "kind", "difficulty", "note"}
    assert {item["kind"] for item in items} == {"choice", "numeric", "code-output", "debug", "tradeoff", "trace"}


def test_drills_filtered_by_topic_and_an_unknown_topic_is_an_error():
    result = cli("drills", "--topic", "moe-routing", "--json")
    assert {item["topic"] for item in json.loads(result.output)} == {"moe-routing"}
    wrong = cli("drills", "--topic", "moe")
    assert wrong.exit_code == 2 and "unknown topic 'moe'; topics: " in wrong.output and "moe-routing" in wrong.output


def test_showing_a_drill_never_reveals_its_key():
    result = cli("drill", "t10b-zero2-per-gpu", "--json")
    shown = json.loads(result.output)
    assert shown["prompt"].startswith("With ZeRO-2") and shown["unit"] == "GB" and shown["answer_format"] == "numeric"
    assert "37.5" not in result.output
    text = cli("drill", "t10b-bytes-per-param")
    assert "d) 16 bytes" in text.output and "expected" not in text.output.lower()


def test_checking_an_answer_prints_the_issue_fields_and_records_it():
    result = cli("drill", "t10b-zero2-per-gpu", "--answer", "20 GB", "--json")
    assert result.exit_code == 0, result.output
    checked = json.loads(result.output)
    assert {"correct", "expected", "unit", "solution", "note"} <= set(checked)
    assert checked["correct"] is False and checked["expected"] == "37.5 GB" and checked["unit"] == "GB"
    assert checked["diagnosis"] == "off-by-factor" and checked["note"] == "zero-sharding" and checked["recorded"] is True
    progress = json.loads(cli("progress", "--json").output)
    topic = next(t for t in progress["topics"] if t["topic"] == "train-10b-8gpu")
    assert topic["drills_answered"] == 1 and topic["level"] == "weak"
    assert [r["id"] for r in progress["review"]] == ["t10b-zero2-per-gpu"]


def test_no_record_leaves_mastery_alone():
    cli("drill", "mp-fp16-max", "--answer", "65504", "--no-record")
    progress = json.loads(cli("progress", "--json").output)
    assert all(t["drills_answered"] == 0 for t in progress["topics"])


def test_an_unreadable_answer_or_unknown_id_is_a_clear_error_and_records_nothing():
    result = cli("drill", "t10b-bytes-per-param", "--answer", "q")
    assert result.exit_code == 2 and "error: answer with one letter, a, b, c or d (got 'q')" in result.output
    result = cli("drill", "no-such-drill")
    assert result.exit_code == 2 and "unknown drill 'no-such-drill'" in result.output
    assert all(t["drills_answered"] == 0 for t in json.loads(cli("progress", "--json").output)["topics"])


def test_progress_text_lists_every_topic_and_what_to_practise_next():
    result = cli("progress")
    assert result.exit_code == 0
    assert result.output.startswith("Mastery: 12 unknown")
    assert "Practise next (lowest mastery × most probed first): " in result.output
    assert "Next session: " in result.output
