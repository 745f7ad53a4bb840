"""Practice drills: the shipped bank, computed keys, answer checking, mastery and the review schedule."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from drill_keys import code_key_problems, numeric_key_problems, recompute_numeric_key, run_snippet

from interviewer.drills.bank import DrillBank, load_bank, parse_drill_file, shipped_drill_files, validate_drill_files
from interviewer.drills.check import DrillAnswerError, check_answer, format_in_unit, output_tokens
from interviewer.drills.progress import (
    MasteryLevel,
    choose_session,
    compute_mastery,
    next_review,
    open_progress,
    probe_weights,
    topic_priorities,
)
from interviewer.drills.schema import DrillItem, DrillKind
from interviewer.store.db import DrillAttempt, TranscriptStore
from knowledge.notes import known_note_ids
from rubrics.loader import load_scenarios

BANK = load_bank()
NUMERIC = [item for item in BANK.items if item.numeric is not None]
CODE = [item for item in BANK.items if item.code is not None]
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


# -- the bank ------------------------------------------------------------------------------------


def test_the_bank_has_150_items_at_least_10_per_scenario_all_kinds_easy_to_hard():
    assert len(BANK.items) >= 150
    scenario_ids = {scenario.id for scenario in load_scenarios()}
    assert set(BANK.topics()) == scenario_ids
    per_topic = Counter(item.topic for item in BANK.items)
    assert min(per_topic.values()) >= 10, per_topic
    assert {item.kind for item in BANK.items} == set(DrillKind)
    for topic in BANK.topics():
        assert {item.difficulty.value for item in BANK.for_topic(topic)} == {"easy", "medium", "hard"}, topic


def test_every_item_cites_a_knowledge_note_and_has_its_parts():
    notes = known_note_ids()
    for item in BANK.items:
        assert item.note in notes, item.id
        assert item.hint and item.quick_check and item.mistakes and len(item.solution) >= 2


def test_validation_names_file_and_field():
    text = "topic: moe-routing\nitems:\n  - id: broken\n    kind: numeric\n    difficulty: easy\n    prompt: p\n    note: moe-routing\n"
    parsed, errors = parse_drill_file(text, "broken.yaml")
    assert parsed is None
    assert any(str(error).startswith("broken.yaml: items[0].hint:") for error in errors)


def test_unknown_notes_topics_and_duplicate_ids_are_errors():
    name, text = next(f for f in shipped_drill_files() if f[0] == "moe-routing.yaml")
    renamed = text.replace("topic: moe-routing", "topic: no-such-scenario").replace("note: moe-routing", "note: no-such-note")
    _, errors = validate_drill_files([(name, text), ("copy.yaml", renamed)], known_notes=known_note_ids(), known_topics={"moe-routing"})
    messages = [str(error) for error in errors]
    assert any("copy.yaml: topic: unknown topic 'no-such-scenario'" in m for m in messages)
    assert any("duplicate drill id 'moe-active-flops'" in m for m in messages)
    _, errors = validate_drill_files([("renamed.yaml", renamed)], known_notes=known_note_ids())
    assert any("unknown knowledge note 'no-such-note'" in str(e) for e in errors)


def test_a_numeric_drill_must_name_a_known_calculator_and_a_matching_display_unit():
    base = BANK.get("t10b-zero2-per-gpu").model_dump(mode="json")
    with pytest.raises(ValueError, match="unknown calculator 'memory'"):
        DrillItem.model_validate({**base, "numeric": {**base["numeric"], "key": {"calculator": "memory"}}})
    with pytest.raises(ValueError, match="not a unit of bytes"):
        DrillItem.model_validate({**base, "numeric": {**base["numeric"], "display_unit": "ms"}})
    with pytest.raises(ValueError, match="exactly one of options, numeric or code"):
        DrillItem.model_validate({**base, "code": {"snippet": "print(1)", "output": "1"}})


# -- keys are computed, and checked ---------------------------------------------------------------


@pytest.mark.parametrize("item", NUMERIC, ids=lambda item: item.id)
def test_every_numeric_key_is_recomputed_and_stated_by_its_solution(item):
    assert numeric_key_problems(item) == []
    key = recompute_numeric_key(item)
    # The app's checker agrees with the calculator: the key, shown in its unit, is a right answer.
    assert check_answer(item, format_in_unit(key, item.numeric)).correct


@pytest.mark.parametrize("item", CODE, ids=lambda item: item.id)
def test_every_code_output_key_is_what_its_snippet_prints(item):
    assert code_key_problems(item) == []
    assert check_answer(item, run_snippet(item.code.snippet)).correct


def test_a_deliberately_wrong_numeric_key_fails_the_check():
    item = BANK.get("t10b-zero2-per-gpu")
    # Same worked solution (37.5 GB), but inputs that compute ZeRO-3's 20 GB.
    wrong = item.model_copy(update={"numeric": item.numeric.model_copy(update={"key": item.numeric.key.model_copy(update={"inputs": {"params": 10e9, "gpus": 8, "zero": 3}})})})
    assert numeric_key_problems(wrong) == ["t10b-zero2-per-gpu: the worked solution's last step does not state the key 20 GB"]
    wrong_unit = item.model_copy(update={"numeric": item.numeric.model_copy(update={"unit": "seconds", "display_unit": "s"})})
    assert "the calculator answers in bytes, the drill in seconds" in numeric_key_problems(wrong_unit)[0]


def test_a_deliberately_wrong_code_output_key_fails_the_check():
    item = BANK.get("mp-fp16-max")
    wrong = item.model_copy(update={"code": item.code.model_copy(update={"output": "65536.0"})})
    assert code_key_problems(wrong) == ["mp-fp16-max: the snippet prints '65504.0', the key says '65536.0'"]


# -- answers ------------------------------------------------------------------------------------


@pytest.mark.parametrize("answer", ["37.5 GB", "37.5", "3.75e10 bytes", "~35 GiB", "about 37.5GB", "3.6e10", "39 GB"])
def test_numeric_answers_in_any_notation_within_tolerance(answer):
    result = check_answer(BANK.get("t10b-zero2-per-gpu"), answer)
    assert result.correct, result.verdict
    assert result.expected == "37.5 GB" and result.unit == "GB"


def test_the_issue_notations_are_read_the_claim_checkers_way():
    item = BANK.get("t10b-zero3-per-gpu")  # 20 GB
    assert check_answer(item, "20 GB").correct
    assert check_answer(item, "2e10 bytes").correct
    assert check_answer(item, "~18.6 GiB").correct
    assert not check_answer(item, "21.5 GB").correct  # 7.5 % off: outside ±5 %


def test_a_wrong_unit_is_named_with_the_worked_solution():
    result = check_answer(BANK.get("t10b-zero2-per-gpu"), "37.5 ms")
    assert not result.correct and result.diagnosis == "wrong-unit"
    assert "is a time, but the question asks for a size (in GB)" in result.verdict
    assert result.solution[:3] == list(BANK.get("t10b-zero2-per-gpu").solution)
    assert any(step.startswith("calculator: interviewer calc model-states") for step in result.solution)


def test_off_by_a_factor_gets_the_items_own_explanation_or_a_generic_one():
    result = check_answer(BANK.get("kv-llama7b-4k"), "1 GiB")
    assert result.diagnosis == "off-by-factor"
    assert result.verdict.startswith("Off by a factor of 1/2: 1 GiB vs 2 GiB. Both keys and values are cached")
    generic = check_answer(BANK.get("t10b-zero2-per-gpu"), "375 GB")
    assert generic.diagnosis == "off-by-factor" and "a factor of 10 (a decimal slip)" in generic.verdict
    bits = check_answer(BANK.get("t10b-zero2-per-gpu"), "300 GB")
    assert "8× too large" in bits.verdict


def test_gb_and_gib_mixed_up_is_called_out():
    result = check_answer(BANK.get("t10b-zero2-per-gpu"), "37.5 GiB")  # 40.3 GB: 7 % off
    assert not result.correct and result.diagnosis == "binary-vs-decimal"
    assert "1 GiB = 2^30 B = 1.074 GB" in result.verdict


def test_fractions_percentages_and_counts():
    bubble = BANK.get("par-bubble-4-8")  # 3/11
    assert all(check_answer(bubble, answer).correct for answer in ("27%", "27.3", "0.273", "27.3 %"))
    assert check_answer(bubble, "37.5%").diagnosis == "off-by-factor"
    tokens = BANK.get("t10b-chinchilla-tokens")  # 200B tokens
    assert all(check_answer(tokens, answer).correct for answer in ("200B", "200B tokens", "2e11", "200", "200 billion"))
    days = BANK.get("t10b-time-to-train")  # 139 days
    assert all(check_answer(days, answer).correct for answer in ("139 days", "139", "1.2e7 s", "3340 hours"))


@pytest.mark.parametrize("answer", ["", "   ", "abc", "lots", "37.5 GB or so"])
def test_an_unreadable_numeric_answer_is_an_error_not_a_wrong_answer(answer):
    with pytest.raises(DrillAnswerError):
        check_answer(BANK.get("t10b-zero2-per-gpu"), answer)


def test_multiple_choice_by_letter_with_the_reason_for_the_wrong_pick():
    item = BANK.get("t10b-bytes-per-param")
    assert check_answer(item, "d").correct and check_answer(item, "D)").correct
    wrong = check_answer(item, "b")
    assert not wrong.correct and wrong.diagnosis == "wrong-option"
    assert wrong.verdict.startswith("Not b: That is the 16-bit weights plus 16-bit gradients")
    assert wrong.expected.startswith("d) 16 bytes")
    with pytest.raises(DrillAnswerError, match="answer with one letter, a, b, c or d"):
        check_answer(item, "4")  # digits are ambiguous when options are numbers


def test_printed_output_ignores_punctuation_but_not_values():
    item = BANK.get("kv-gqa-repeat")
    assert check_answer(item, "torch.Size([1, 32, 4096, 128])").correct
    assert check_answer(item, "(1, 32, 4096, 128)").correct
    assert not check_answer(item, "(1, 8, 4096, 128)").correct
    assert output_tokens("tensor([0.2500, 0.25])") == ["tensor", 0.25, 0.25]


# -- mastery and the schedule ---------------------------------------------------------------------


def attempt(topic: str, correct: bool, days_ago: float = 0, difficulty: str = "easy", item: str = "x") -> DrillAttempt:
    return DrillAttempt(item, topic, "choice", difficulty, correct, "a", NOW - timedelta(days=days_ago))


def test_mastery_moves_from_unknown_to_strong_as_drills_are_passed():
    topic = "moe-routing"
    levels = []
    for passed in range(6):
        mastery = compute_mastery([topic], [attempt(topic, True) for _ in range(passed)], [], now=NOW)[topic]
        levels.append(mastery.level)
    assert levels == [MasteryLevel.unknown, MasteryLevel.weak, MasteryLevel.fair, MasteryLevel.fair, MasteryLevel.fair, MasteryLevel.strong]
    failed = compute_mastery([topic], [attempt(topic, False) for _ in range(5)], [], now=NOW)[topic]
    assert failed.level == MasteryLevel.weak and failed.drills_answered == 5 and failed.drills_correct == 0


def test_mastery_weights_hard_items_and_recent_results_more():
    topic = "moe-routing"
    hard = compute_mastery([topic], [attempt(topic, True, difficulty="hard") for _ in range(3)], [], now=NOW)[topic]
    easy = compute_mastery([topic], [attempt(topic, True) for _ in range(3)], [], now=NOW)[topic]
    assert hard.level == MasteryLevel.strong and easy.level == MasteryLevel.fair
    old = compute_mastery([topic], [attempt(topic, True, days_ago=21) for _ in range(5)], [], now=NOW)[topic]
    assert old.evidence == pytest.approx(2.5)  # five results at half weight after one half-life
    recent_miss = compute_mastery([topic], [attempt(topic, True, days_ago=60), attempt(topic, False)], [], now=NOW)[topic]
    assert recent_miss.score < 0.1


def test_interview_criteria_count_towards_their_scenarios_topic():
    topic = "serve-2b-p99"
    criteria = [(topic, NOW - timedelta(days=1), 1.0)] * 10 + [("another-scenario", NOW, 0.0)]
    mastery = compute_mastery([topic], [], criteria, now=NOW)[topic]
    assert mastery.interview_criteria == 10 and mastery.level == MasteryLevel.strong


def test_the_leitner_schedule():
    assert next_review(None, True, NOW) is None  # never missed: not under review
    assert next_review(None, False, NOW) == (0, NOW + timedelta(days=1))
    assert next_review(0, True, NOW) == (1, NOW + timedelta(days=3))
    assert next_review(2, True, NOW) == (3, NOW + timedelta(days=21))
    assert next_review(3, True, NOW) is None  # learned
    assert next_review(2, False, NOW) == (0, NOW + timedelta(days=1))


def test_practise_next_puts_due_misses_first_then_the_weakest_most_probed_topics():
    weights = probe_weights(BANK, load_scenarios())
    assert sum(weights.values()) / len(weights) == pytest.approx(1.0)
    mastery = compute_mastery(BANK.topics(), [attempt(t, True, item=f"{t}-{i}") for t in BANK.topics() if t != "moe-routing" for i in range(6)], [], now=NOW)
    schedule = {"kv-llama7b-4k": (0, NOW - timedelta(hours=1)), "q-fp16-decode": (1, NOW + timedelta(days=2))}
    session = choose_session(BANK, mastery, schedule, [], weights=weights, now=NOW)
    assert len(session) == 10
    assert session[0].id == "kv-llama7b-4k"  # due; q-fp16-decode is not due yet
    priorities = topic_priorities(mastery, weights)
    top = priorities[0]
    assert top.priority == max((1 - m.score) * weights[t] for t, m in mastery.items())
    assert all(item.topic == top.topic for item in session[1:5])  # four fresh items of the top topic
    start = {"unknown": "easy", "weak": "easy", "fair": "medium", "strong": "hard"}[top.mastery.level.value]
    assert session[1].difficulty.value == start
    # The unknown topic outranks every topic probed as often or less.
    unknown = next(p for p in priorities if p.topic == "moe-routing")
    assert all(unknown.priority > p.priority for p in priorities if p.topic != "moe-routing" and p.probe_weight <= unknown.probe_weight)
    only = choose_session(BANK, mastery, schedule, [], weights=weights, topic="quantization-tradeoffs", now=NOW)
    assert len(only) == 10 and {item.topic for item in only} == {"quantization-tradeoffs"}
    assert only[0].difficulty.value == "hard"  # strong topics start at the hard end


def test_mastery_and_the_schedule_persist_across_restarts(tmp_path):
    path = tmp_path / "interviewer.db"
    store = TranscriptStore(path)
    tracker = open_progress(store)
    missed = BANK.get("kv-llama7b-4k")
    tracker.record(missed, "1 GiB", False, now=NOW)
    for item in BANK.for_topic("moe-routing")[:6]:
        tracker.record(item, "right", True, now=NOW)
    store.close()

    reopened = TranscriptStore(path)
    tracker = open_progress(reopened)
    assert reopened.drill_schedule() == {"kv-llama7b-4k": (0, NOW + timedelta(days=1))}
    mastery = tracker.mastery(NOW)
    assert mastery["moe-routing"].level == MasteryLevel.strong
    assert mastery["kv-cache-long-context"].level == MasteryLevel.weak
    assert tracker.session(now=NOW + timedelta(days=1, minutes=1))[0].id == "kv-llama7b-4k"
    assert tracker.record(missed, "2 GiB", True, now=NOW + timedelta(days=1)) == (1, NOW + timedelta(days=4))
    reopened.close()


def test_a_bank_without_topics_gives_empty_sessions():
    empty = DrillBank(())
    assert choose_session(empty, {}, {}, [], now=NOW) == []
