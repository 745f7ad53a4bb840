"""The Markdown export reads well in a viewer and gives back the candidate's text byte for byte
(issue #17, item 1). "Gives back" is checked with a CommonMark parser (markdown-it-py, the one
Textual renders Markdown with): each answer's text, as a viewer shows it, equals what was typed."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from interviewer.domain import CandidateNote, Citation, InterviewRecord, InterviewStatus, Role, Scorecard, StudyItem, Turn, TurnKind
from interviewer.engine.export import export_markdown

SPEAKERS = {"You", "Your note", "Interviewer", "Notice"}


def parse(markdown: str):
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(markdown)


def _speaker(token) -> str | None:
    children = [c for c in token.children or [] if c.type != "text" or c.content] if token.type == "inline" else []
    if len(children) >= 3 and children[0].type == "strong_open" and children[1].type == "text" and children[1].content in SPEAKERS:
        return children[1].content
    return None


def _text(children) -> str:
    parts = []
    for child in children:
        if child.type == "text":
            parts.append(child.content)
        elif child.type == "hardbreak":
            parts.append("\n")
        else:  # emphasis, a link, code, raw HTML, even a soft break: not the literal text
            raise AssertionError(f"the candidate's text rendered as {child.type}: {child}")
    return "".join(parts)


def candidate_texts(markdown: str, speaker: str = "You") -> list[str]:
    """Each candidate turn (or, with ``speaker="Your note"``, note) as a viewer shows it: the blocks
    between its "**You** · time" line and the next speaker or heading; paragraphs joined by a blank
    line, code blocks verbatim."""
    tokens = parse(markdown)
    turns: list[list[str]] = []
    current: list[str] | None = None
    depth = 0
    for index, token in enumerate(tokens):
        if token.type == "heading_open" or (token.type == "paragraph_open" and _speaker(tokens[index + 1])):
            current = None
            if token.type == "paragraph_open" and _speaker(tokens[index + 1]) == speaker:
                current = []
                turns.append(current)
            continue
        if current is None or _speaker(token):
            continue
        assert token.type in {"paragraph_open", "paragraph_close", "inline", "fence"}, f"the candidate's text made a {token.type}"
        if token.type == "inline" and depth == 0:
            current.append(_text(token.children))
        elif token.type == "fence":
            current.append(token.content[:-1])
    return ["\n\n".join(blocks) for blocks in turns]


def record_with(*answers: str, **fields) -> InterviewRecord:
    turns = []
    for answer in answers:
        turns.append(Turn(role=Role.interviewer, kind=TurnKind.question, text="**Question 1 of 3.** What limits decode?"))
        turns.append(Turn(role=Role.candidate, kind=TurnKind.answer, text=answer))
    return InterviewRecord(
        id=7, scenario_id="serve-2b-p99", scenario_hash="abc", title="Serve a 2B model", started_at=datetime(2026, 1, 1, tzinfo=UTC),
        turns=turns, **fields,
    )


ANSWERS = [
    "Decode is memory-bound end-to-end: 1.5 s for 150 tokens (TTFT) is the wrong target.",
    "2 * 10B * 16 bytes = 160 GB; h_t and kv_heads, __init__ and a*b*c, **bold**, _it_, ~150 GiB and ~~gone~~.",
    "# Not a heading\n## Nor this\n> not a quote\n>> nor this",
    "Use `torch.compile` and ``double`` ticks; ```fences``` too.\n```\nnot a fence\n```",
    "- not a list\n* nor this\n+ nor this\n1. nor an ordered list\n2) nor this\n2024.",
    "Title?\n===\nSubtitle?\n---\n***\n___\n- - -\n~~~\nnot a fence",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "<script>alert(1)</script> [click](javascript:alert(1)) ![x](http://x/y.png) <http://x.y> [ref]\n\n[ref]: http://evil",
    "Entities: &amp; &lt; &#42; &copy; and a bare & ampersand; costs $5 and $10, math $x^2$.",
    "Backslashes: C:\\path\\to\\file \\* \\_ \\\\ and one at the end \\",
    "First paragraph.\n\nSecond paragraph,\nwith a line break.\n\n\n\nAfter three blank lines.",
    "    indented code stays\n\tand a tab\n  two spaces",
    "  leading and trailing blanks  \n\ttabbed\r\ncarriage return",
    "\nstarts and ends with a line break\n",
    "QK^T / sqrt(d_k), O(n^2 d) vs O(n d^2); p99 < 100 ms and TTFT > 200 ms; 50% of 8×A100.",
]


@pytest.mark.parametrize("answer", ANSWERS)
def test_the_candidates_text_round_trips_through_a_markdown_parser(answer):
    assert candidate_texts(export_markdown(record_with(answer))) == [answer]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 \t\n\r*_#>`~-+=.)([]!<&;|$\\:") + ["é", "·", "\x1b", "\x0b", "\x0c", "\x85", "\u2028", "\xa0"]), max_size=40))
def test_any_text_round_trips(answer):
    # The documented exception: no CommonMark form keeps a carriage return (only character
    # references do) and a vertical tab or NEL among a line's edge blanks (which none does) in the same answer.
    edges = [line[: len(line) - len(line.lstrip())] + line[len(line.rstrip()) :] for line in answer.split("\n")]
    assume(not ("\r" in answer and any(set(edge) & set("\x0b\x85") for edge in edges)))
    assert candidate_texts(export_markdown(record_with(answer, "a second answer"))) == [answer, "a second answer"]


def test_plain_prose_is_not_escaped_in_the_file():
    report = export_markdown(record_with(ANSWERS[0]))
    assert ANSWERS[0] in report.splitlines()
    assert "\\-" not in report and "\\." not in report and "\\(" not in report


def test_knowledge_passages_are_real_quotes_and_statuses_use_the_apps_words():
    passage = "Decode is memory-bound: each step reads every weight.\nPrefill is compute-bound."
    card = Scorecard(
        scenario="serve-2b-p99", score=61.5, level="mid", tiers={"must": 0.5}, criteria=[],
        study=[StudyItem(note="llm-inference-latency", reason="must: decode", citation=Citation(
            note="llm-inference-latency", heading="Decode", anchor="llm-inference-latency#decode", passage=passage))],
    )
    report = export_markdown(record_with("An answer.", scorecard=card))
    assert "&gt;" not in report
    assert "  > Decode is memory-bound: each step reads every weight.\n  > Prefill is compute-bound." in report
    tokens = parse(report)
    quoted = [tokens[i + 2].content for i, t in enumerate(tokens) if t.type == "blockquote_open"]
    assert quoted == [passage]
    unfinished = export_markdown(record_with("An answer.", status=InterviewStatus.active))
    assert "· unfinished" in unfinished and "active" not in unfinished


def test_interviewer_quotes_of_knowledge_render_as_quotes():
    record = record_with("An answer.")
    record.turns.append(Turn(role=Role.interviewer, kind=TurnKind.pushback, text="Not quite.\n\n> Decode is memory-bound.\n>\n> — `note#decode`"))
    tokens = parse(export_markdown(record))
    assert any(t.type == "blockquote_open" for t in tokens)


def test_each_note_follows_its_questions_turns_as_literal_text_and_is_in_the_json():
    note = "# my own reminder\n- check *the* 2 × 16 bytes <b>"
    turns = [
        Turn(role=Role.interviewer, kind=TurnKind.question, step_id="latency", text="**Question 1 of 2.** What limits decode?"),
        Turn(role=Role.candidate, kind=TurnKind.answer, step_id="latency", text="Memory bandwidth."),
        Turn(role=Role.interviewer, kind=TurnKind.followup, step_id="latency", text="How much?"),
        Turn(role=Role.candidate, kind=TurnKind.answer, step_id="latency", text="About 4 GB per token."),
        Turn(role=Role.interviewer, kind=TurnKind.question, step_id="batching", text="**Question 2 of 2.** How do you batch?"),
        Turn(role=Role.candidate, kind=TurnKind.answer, step_id="batching", text="Continuous batching."),
    ]
    record = record_with().model_copy(update={"turns": turns, "notes": [CandidateNote(step_id="batching", text="vLLM paging"), CandidateNote(step_id="latency", text=note)]})
    report = export_markdown(record)
    assert candidate_texts(report, speaker="Your note") == [note, "vLLM paging"]
    assert candidate_texts(report) == ["Memory bandwidth.", "About 4 GB per token.", "Continuous batching."]
    # Right after the last turn of its question, before the next question.
    assert report.index("About 4 GB per token.") < report.index("**Your note** (step `latency`") < report.index("Question 2 of 2")
    assert report.index("Continuous batching.") < report.index("**Your note** (step `batching`")
    from interviewer.engine.export import export_json

    assert [(n["step_id"], n["text"]) for n in json.loads(export_json(record))["notes"]] == [("batching", "vLLM paging"), ("latency", note)]


def test_the_framing_section_lists_each_question_once_with_its_topics_and_what_was_never_asked():
    from interviewer.engine.grading import grade_answers
    from rubrics.loader import get_scenario

    question = "Before I design anything: what is the peak request rate, and is there a budget for serving?"
    card = grade_answers(get_scenario("serve-2b-p99").scenario, [question], use_embeddings=False)
    markdown = export_markdown(record_with(question, status=InterviewStatus.finished, scorecard=card))
    section = markdown[markdown.index("## Framing"):].split("\n## ")[0]
    assert f"- You asked about peak request rate, serving budget: “{question}”" in section
    assert "- Never asked, but it mattered: what the 100 ms covers, daily traffic shape and bursts" in section
