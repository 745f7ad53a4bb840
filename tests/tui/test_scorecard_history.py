"""Scorecard, history, replay and export screens, with every key."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Collapsible, Input, Select, TabbedContent
from tui_fakes import FIXED_START, KV_SCENARIO, TRAINING_SCENARIO, seed_history
from tui_helpers import notifications, screen_name, settle

from interviewer.domain import Role, Turn, TurnKind
from tui.screens.scorecard_screen import ScorecardScreen
from tui.widgets.interview_table import InterviewTable
from tui.widgets.score_chart import ScoreChart
from tui.widgets.scorecard_view import CriterionRow, ScorecardView
from tui.widgets.transcript_view import TranscriptView


async def finish_an_interview(pilot) -> None:
    app = pilot.app
    await settle(pilot)
    app.start_interview(TRAINING_SCENARIO.id, level="senior", mode="offline", time_limit_minutes=None)
    await settle(pilot)
    app.screen.query_one("#answer").text = "16 bytes per param: 160 GB."
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("f10", "enter")
    await settle(pilot)
    assert isinstance(app.screen, ScorecardScreen)


class TestScorecard:
    async def test_shows_total_tiers_criteria_evidence_claims_and_model_answer(self, app):
        async with app.run_test(size=(120, 40)) as pilot:
            await finish_an_interview(pilot)
            view = app.screen.query_one(ScorecardView)
            # One decimal, as the CLI and the export print it; the chosen level beside the estimate.
            assert view.query_one("#total").value == "62.0"
            meta = str(view.query_one("#score-meta").render())
            assert meta.splitlines()[1:3] == ["target: senior", "estimated: mid"]
            rows = list(view.query(CriterionRow))
            assert [row.criterion.id for row in rows] == ["model-state-bytes", "zero-stage", "recompute"]
            met, partial, missed = (str(row.render()) for row in rows)
            assert "met" in met and "“mixed precision Adam needs 16 bytes per parameter”" in met
            assert "Study: zero-sharding" in partial
            assert "Study: activation-checkpointing" in missed
            assert len(view.query("ClaimCard")) == 1
            assert "Sized the model states correctly." in str(view.query_one("#strengths").render())
            assert "activation recomputation" in str(view.query_one("#gaps").render())
            model_answer = view.query_one("#model-answer", Collapsible)
            assert not model_answer.collapsed

    async def test_model_answer_key_toggles(self, app):
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            collapsible = app.screen.query_one("#model-answer", Collapsible)
            await pilot.press("m")
            assert collapsible.collapsed
            await pilot.press("m")
            assert not collapsible.collapsed

    async def test_export_key_writes_markdown(self, app, core, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            await pilot.press("e")
            await pilot.pause()
            assert screen_name(app) == "ExportModal"
            path_input = app.screen.query_one("#export-path", Input)
            expected = tmp_path / f"interview-{core.agents[0].interview_id}-{TRAINING_SCENARIO.id}.md"
            assert Path(path_input.value) == expected
            await pilot.press("enter")
            await settle(pilot)
            assert screen_name(app) == "ScorecardScreen"
            text = expected.read_text()
            assert text.startswith(f"# {TRAINING_SCENARIO.title}") and "Score: 62/100" in text
            assert core.exports[0].scorecard is not None
            assert any("Exported to" in n for n in notifications(app))

    async def test_export_writes_json_when_the_format_control_says_so(self, app, core, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            await pilot.press("e")
            await pilot.pause()
            select = app.screen.query_one("#export-format", Select)
            assert select.value == "md"
            await pilot.press("tab")  # from the file name to the format picker
            assert app.focused is select
            await pilot.press("enter", "down", "enter")  # open it, pick JSON
            await pilot.pause()
            assert select.value == "json"
            path = Path(app.screen.query_one("#export-path", Input).value)
            assert path == tmp_path / f"interview-{core.agents[0].interview_id}-{TRAINING_SCENARIO.id}.json"
            await pilot.click("#export")
            await settle(pilot)
            assert screen_name(app) == "ScorecardScreen"
            assert json.loads(path.read_text())["id"] == core.agents[0].interview_id
            assert not path.with_suffix(".md").exists()
            assert not list(tmp_path.glob(".*.part")), "written under a temporary name, then renamed"

    async def test_export_follows_the_extension_typed(self, app, core, tmp_path):
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            await pilot.press("e")
            await pilot.pause()
            path_input = app.screen.query_one("#export-path", Input)
            select = app.screen.query_one("#export-format", Select)
            path_input.value = str(tmp_path / "report.json")  # renamed to .json: JSON, not Markdown in a .json file
            await pilot.pause()
            assert select.value == "json"
            await pilot.press("enter")
            await settle(pilot)
            assert json.loads((tmp_path / "report.json").read_text())["scenario_id"] == TRAINING_SCENARIO.id
            await pilot.press("e")
            await pilot.pause()
            app.screen.query_one("#export-path", Input).value = str(tmp_path / "report.md")
            await pilot.pause()
            assert app.screen.query_one("#export-format", Select).value == "md"
            await pilot.press("enter")
            await settle(pilot)
            assert (tmp_path / "report.md").read_text().startswith(f"# {TRAINING_SCENARIO.title}")

    async def test_export_can_be_cancelled_and_failures_are_notified(self, app, core, tmp_path):
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            await pilot.press("e")
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            assert screen_name(app) == "ScorecardScreen"
            blocker = tmp_path / "a-file"
            blocker.write_text("")
            await pilot.press("e")
            await pilot.pause()
            app.screen.query_one("#export-path", Input).value = str(blocker / "inside-a-file.md")
            await pilot.press("enter")
            await settle(pilot)
            assert screen_name(app) == "ExportModal"
            assert any("Export failed" in n for n in notifications(app))

    async def test_new_interview_and_history_keys(self, app):
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            await pilot.press("h")
            await settle(pilot)
            assert screen_name(app) == "HistoryScreen"
            await pilot.press("escape")
            await pilot.pause()
            assert screen_name(app) == "ScorecardScreen"
            await pilot.press("n")
            await pilot.pause()
            assert screen_name(app) == "HomeScreen"

    async def test_q_goes_home_too(self, app):
        async with app.run_test() as pilot:
            await finish_an_interview(pilot)
            await pilot.press("q")
            await pilot.pause()
            assert screen_name(app) == "HomeScreen"


class TestHistory:
    async def test_lists_everything_with_a_score_plot(self, app, store):
        seed_history(store)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            table = app.screen.query_one(InterviewTable)
            assert table.row_count == 3
            chart = app.screen.query_one(ScoreChart)
            assert [score for _, _, score in chart.points] == [55.0, 78.0]
            assert app.screen.sub_title == "History · 3 interviews"

    async def test_search_by_what_was_said(self, app, store):
        seed_history(store)
        store.add_turn(1, Turn(role="candidate", kind="answer", text="pipeline bubbles everywhere"))
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await pilot.press("slash", *"bubbles")
            await pilot.pause(0.4)
            await settle(pilot)
            table = app.screen.query_one(InterviewTable)
            assert [r.id for r in table.records] == [1]
            await pilot.press("escape")
            assert isinstance(app.focused, InterviewTable)

    async def test_search_matches_the_candidates_notes(self, app, store):
        ids = seed_history(store)
        store.save_note(ids[1], TRAINING_SCENARIO.steps[0].id, "remember the optimizer moments")
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await pilot.press("slash", *"optimizer mom")
            await pilot.pause(0.4)
            await settle(pilot)
            table = app.screen.query_one(InterviewTable)
            assert [r.id for r in table.records] == [ids[1]]

    async def test_filter_by_scenario_and_status(self, app, store):
        seed_history(store)
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await pilot.press("f")
            assert app.focused.id == "scenario-filter"
            app.screen.query_one("#scenario-filter", Select).value = KV_SCENARIO.id
            await settle(pilot)
            table = app.screen.query_one(InterviewTable)
            assert {r.scenario_id for r in table.records} == {KV_SCENARIO.id}
            app.screen.query_one("#scenario-filter", Select).clear()
            app.screen.query_one("#status-filter", Select).value = "finished"
            await settle(pilot)
            assert [r.score for r in table.records] == [78.0, 55.0]

    async def test_enter_replays_transcript_and_scorecard_read_only(self, app, store):
        seed_history(store)
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await pilot.press("down", "enter")
            await settle(pilot)
            assert screen_name(app) == "ReplayScreen"
            header = str(app.screen.query_one("#replay-header").render())
            assert "· target: senior ·" in header and header.endswith("· finished · 78.0/100")
            meta = str(app.screen.query_one("#score-meta").render())
            assert meta.splitlines()[1:3] == ["target: senior", "estimated: mid"]
            tabs = app.screen.query_one(TabbedContent)
            assert tabs.active == "scorecard"
            await pilot.press("t")
            assert tabs.active == "transcript"
            text = app.screen.query_one(TranscriptView).plain_text()
            assert "I would shard with ZeRO-3" in text
            assert not app.screen.query("AnswerEditor")
            await pilot.press("s")
            assert tabs.active == "scorecard"
            await pilot.press("r")  # finished: resume is not offered
            await pilot.pause()
            assert screen_name(app) == "ReplayScreen"
            await pilot.press("escape")
            assert screen_name(app) == "HistoryScreen"

    async def test_resume_key_continues_an_unfinished_interview(self, app, store, core):
        unfinished = seed_history(store)[-1]
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await pilot.press("down")  # a finished one: r explains
            await pilot.press("r")
            await pilot.pause()
            assert any("finished" in n for n in notifications(app))
            await pilot.press("up", "r")
            await settle(pilot)
            assert screen_name(app) == "InterviewScreen"
            assert core.agents[-1].interview_id == unfinished
            assert len(app.screen_stack) == 2  # history is gone: back means home

    async def test_replay_of_an_unfinished_interview_offers_resume(self, app, store, core):
        unfinished = seed_history(store)[-1]
        async with app.run_test() as pilot:
            await settle(pilot)
            app.open_replay(unfinished)
            await settle(pilot)
            assert app.screen.query_one(TabbedContent).active == "transcript"
            await pilot.press("r")
            await settle(pilot)
            assert screen_name(app) == "InterviewScreen"

    async def test_export_key_from_history(self, app, store, core, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        seed_history(store)
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            await pilot.press("down", "e")
            await pilot.pause()
            assert screen_name(app) == "ExportModal"
            await pilot.press("enter")
            await settle(pilot)
            assert core.exports[0].turns  # the full record, turns included
            assert list(tmp_path.glob("interview-*.md"))

    async def test_export_key_from_replay(self, app, store, core, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        ids = seed_history(store)
        async with app.run_test() as pilot:
            await settle(pilot)
            app.open_replay(ids[0])
            await settle(pilot)
            await pilot.press("e")
            await pilot.pause()
            await pilot.press("enter")
            await settle(pilot)
            assert (tmp_path / f"interview-{ids[0]}-{TRAINING_SCENARIO.id}.md").exists()

    async def test_plot_key_toggles_the_chart(self, app, store):
        seed_history(store)
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            chart = app.screen.query_one(ScoreChart)
            await pilot.press("p")
            assert not chart.display
            await pilot.press("p")
            assert chart.display

    async def test_empty_history(self, app):
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            table = app.screen.query_one(InterviewTable)
            assert table.row_count == 0
            assert "No interviews yet" in str(table.border_title)
            await pilot.press("enter", "r", "e")
            await pilot.pause()
            assert screen_name(app) == "HistoryScreen"
            assert any("No interview selected" in n for n in notifications(app))

    async def test_score_chart_plots_each_scenario(self, app, store):
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            chart = app.screen.query_one(ScoreChart)
            chart.show_history([(TRAINING_SCENARIO.id, FIXED_START, 40.0), (KV_SCENARIO.id, FIXED_START, 90.0)], {})
            await pilot.pause()
            assert "Scores over time" in str(chart.render())


async def test_history_search_box_takes_f_and_slash_as_letters(app, store):
    seed_history(store)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        await pilot.press("slash", *"fp16/bf16")
        assert app.focused.id == "history-search"
        assert app.focused.value == "fp16/bf16"


async def test_scorecard_lists_misconceptions_with_the_candidates_words():
    from textual.app import App
    from tui_fakes import fake_scorecard

    card = fake_scorecard(TRAINING_SCENARIO).model_copy(update={"misconceptions": [
        {"id": "plain-data-parallel", "description": "Proposes plain data parallelism.", "quote": "Just use plain DDP.", "contradicts": []},
    ]})

    class OneCard(App):
        def compose(self):
            yield ScorecardView(card)

    async with OneCard().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = str(pilot.app.query_one("#misconceptions").render())
        assert "Proposes plain data parallelism." in shown and "“Just use plain DDP.”" in shown


def test_chart_ticks_never_repeat_a_label():
    """Issue #17, item 5: at 80×24 the x-axis read "01 Dec" six times."""
    from datetime import timedelta

    from tui.widgets.score_chart import MAX_X_TICKS, x_ticks

    same_day = [FIXED_START + timedelta(minutes=7 * i) for i in range(9)]
    ticks, labels = x_ticks(same_day)
    assert len(set(labels)) == len(labels) <= MAX_X_TICKS
    assert labels[0] == "09:30"  # one day: times of day, not the date again and again
    many_days = [FIXED_START + timedelta(hours=5 * i) for i in range(40)]
    ticks, labels = x_ticks(many_days)
    assert len(set(labels)) == len(labels) <= MAX_X_TICKS
    assert labels[0] == "14 Mar" and ticks[0] == many_days[0]


async def test_chart_legend_covers_no_point(app, store):
    """Issue #17, item 5: at 80×24 the legend (top left) hid a score near 100 at the left edge."""
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        chart = app.screen.query_one(ScoreChart)
        points = [(TRAINING_SCENARIO.id, FIXED_START, 100.0), (KV_SCENARIO.id, FIXED_START.replace(day=20), 97.0)]
        chart.show_history(points, {})
        await pilot.pause()
        text = str(chart.render())
        assert text.count("●") == 2, text  # both lone points are drawn with a dot, none under the legend


async def test_scorecard_shows_coaching_per_step_as_suggestions():
    from textual.app import App
    from textual.widgets import Label
    from tui_fakes import fake_coaching, fake_scorecard

    card = fake_scorecard(TRAINING_SCENARIO).model_copy(update={"coaching": fake_coaching(TRAINING_SCENARIO)})

    class OneCard(App):
        def compose(self):
            yield ScorecardView(card)

    async with OneCard().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        titles = [str(label.render()) for label in pilot.app.query(Label)]
        assert "Coaching per step (suggestions)" in titles
        steps = pilot.app.query(".coaching-step")
        assert len(steps) == len(TRAINING_SCENARIO.steps)
        first = str(steps.first().render())
        first_step = TRAINING_SCENARIO.steps[0]
        assert first_step.title in first and f"1. {first_step.outline[0]}" in first
        assert f"Tip: {first_step.tip}" in first and "Missing: No numbers" in first
        assert "Missing:" not in str(steps.last().render())


async def test_replay_shows_the_stored_coaching(app, store):
    from tui_fakes import FakeAgent, fake_coaching, fake_scorecard

    agent = FakeAgent(TRAINING_SCENARIO, store=store, started_at=FIXED_START)
    agent._record(Role.candidate, TurnKind.answer, "16 bytes per parameter.")
    store.finish(agent.interview_id, fake_scorecard(TRAINING_SCENARIO).model_copy(update={"coaching": fake_coaching(TRAINING_SCENARIO)}))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_replay(agent.interview_id)
        await settle(pilot)
        shown = [str(step.render()) for step in app.screen.query(".coaching-step")]
        assert len(shown) == len(TRAINING_SCENARIO.steps)
        assert TRAINING_SCENARIO.steps[1].outline[0] in shown[1]
