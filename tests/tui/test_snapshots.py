"""Snapshots of every screen at 80×24 and 120×40 (pytest-textual-snapshot).

Deterministic by construction: the fake agent's script, fixed timestamps (UTC), a frozen
clock (the timer reads 00:00), no cursor blink, no toasts. Update the baselines with
``pytest tests/tui/test_snapshots.py --snapshot-update`` after looking at the report.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea
from tui_fakes import KV_SCENARIO, TRAINING_SCENARIO, seed_history
from tui_helpers import settle

from interviewer.config import Settings
from tui.app import make_app
from tui.screens.interview_screen import DRAFT_SAVE_DELAY_SECONDS

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


async def steady(pilot) -> None:
    """Finish every worker, stop cursors blinking and drop toasts before the picture."""
    await settle(pilot)
    app = pilot.app
    for screen in app.screen_stack:
        for widget in screen.query(TextArea):
            widget.cursor_blink = False
            # Stopping the blink shows the cursor, but Textual's line cache key (8.2) leaves out
            # focus and blink, so a line drawn in the blink's off phase is reused without the
            # cursor: the picture would depend on the blink phase at the last edit.
            widget._line_cache.clear()
            widget.refresh()
        for widget in screen.query(Input):
            widget.cursor_blink = False
    app.clear_notifications()
    # Scrolling to the newest message is animated: let it land before the picture.
    await pilot.wait_for_scheduled_animations()
    await settle(pilot)
    await pilot.wait_for_scheduled_animations()
    # Timers started by the last edit (status line, timer tick, the draft saved 0.4 s after the last
    # keystroke) fire before the picture; under load a shorter pause let the draft save land after it.
    await pilot.pause(DRAFT_SAVE_DELAY_SECONDS + 0.3)
    await settle(pilot)


async def focus_returned(pilot, widget, rounds: int = 200) -> None:
    """Wait (bounded) until ``widget`` has focus again, and fail if it never gets it."""
    for _ in range(rounds):
        if widget.has_focus:
            return
        await pilot.pause(0.02)
    assert widget.has_focus, f"focus stayed on {pilot.app.focused!r}"


async def start_training_interview(pilot) -> None:
    await settle(pilot)
    pilot.app.start_interview(TRAINING_SCENARIO.id, level="senior", mode="offline", time_limit_minutes=45)
    await settle(pilot)


async def answer(pilot, text: str) -> None:
    pilot.app.screen.query_one("#answer").text = text
    await pilot.press("ctrl+s")
    await settle(pilot)


@pytest.fixture
def seeded_app(settings, store, core):
    seed_history(store)
    return make_app(settings, store=store, services=core.services())


@pytest.mark.parametrize("size", SIZES)
class TestHomeScreen:
    def test_home(self, snap_compare, seeded_app, size):
        assert snap_compare(seeded_app, terminal_size=size, run_before=steady)

    def test_home_search(self, snap_compare, seeded_app, size):
        async def search(pilot):
            await settle(pilot)
            await pilot.press("slash", *"kv")
            await steady(pilot)

        assert snap_compare(seeded_app, terminal_size=size, run_before=search)

    def test_home_light_theme(self, snap_compare, store, core, size):
        seed_history(store)
        app = make_app(Settings(theme="textual-light"), store=store, services=core.services())
        assert snap_compare(app, terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES)
class TestInterviewScreen:
    def test_interview_opening(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_interview_with_claims_and_hint(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await answer(pilot, "Model states: 16 bytes per param,\nso 80 GB for 10B.")
            await pilot.press("f2", "enter")
            await settle(pilot)
            # The picture shows the answer's cursor only when focus is back on it after the
            # confirmation closes; wait for that (and fail if it never happens) instead of
            # assuming settle() was long enough.
            editor = pilot.app.screen.query_one("#answer")
            await focus_returned(pilot, editor)
            editor.text = "ZeRO-3 over 8 GPUs"
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_interview_side_panel_toggled(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await answer(pilot, "The model states are 160 GB.")
            await pilot.press("f8")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_end_confirmation(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await pilot.press("f10")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_note_field_open(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            pilot.app.screen.query_one("#answer").text = "ZeRO-3 over 8 GPUs"
            await pilot.press("f5")
            await settle(pilot)
            pilot.app.screen.query_one("#note-text").text = "Recheck: 16 bytes per parameter, or 18 with fp32 grads?"
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_calculator_with_a_result(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await pilot.press("f4")
            await settle(pilot)
            modal = pilot.app.screen
            modal.query_one("#calculator-name").value = "model-states"
            await settle(pilot)
            modal.query_one("#field-params").value = "10B"
            modal.query_one("#field-gpus").value = "8"
            modal.query_one("#field-params").focus()
            await pilot.press("enter")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
class TestScorecardScreen:
    def test_scorecard(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await answer(pilot, "16 bytes per parameter: 160 GB.")
            await pilot.press("f2", "enter")
            await settle(pilot)
            await pilot.press("f10", "enter")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_scorecard_scrolled_to_the_model_answer(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await pilot.press("f10", "enter")
            await settle(pilot)
            await pilot.press("m", "m")  # collapse and reopen: scrolls to it
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_export_dialog_with_json_picked_by_the_extension(self, snap_compare, app, size):
        async def run_before(pilot):
            await start_training_interview(pilot)
            await pilot.press("f10", "enter")
            await settle(pilot)
            await pilot.press("e")
            await settle(pilot)
            pilot.app.screen.query_one("#export-path").value = "reports/interview-1.json"  # a fixed path: no cwd in the picture
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
class TestCoaching:
    def test_scorecard_coaching(self, snap_compare, size):
        from textual.app import App
        from tui_fakes import fake_coaching, fake_scorecard

        from tui.widgets.scorecard_view import ScorecardView

        card = fake_scorecard(TRAINING_SCENARIO).model_copy(update={"coaching": fake_coaching(TRAINING_SCENARIO)})

        class OneCard(App):
            def compose(self):
                yield ScorecardView(card)

        async def run_before(pilot):
            await pilot.pause()
            view = pilot.app.query_one(ScorecardView)
            view.scroll_to_widget(view.query_one("#coaching-title"), top=True, animate=False)
            await steady(pilot)

        assert snap_compare(OneCard(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
class TestHistoryScreen:
    def test_history_with_plot(self, snap_compare, seeded_app, size):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("h")
            await steady(pilot)

        assert snap_compare(seeded_app, terminal_size=size, run_before=run_before)

    def test_history_filtered_by_scenario(self, snap_compare, seeded_app, size):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("h")
            await settle(pilot)
            pilot.app.screen.query_one("#scenario-filter").value = KV_SCENARIO.id
            await steady(pilot)

        assert snap_compare(seeded_app, terminal_size=size, run_before=run_before)

    def test_replay_transcript(self, snap_compare, seeded_app, size):
        async def run_before(pilot):
            await settle(pilot)
            pilot.app.open_replay(1)
            await settle(pilot)
            await pilot.press("t")
            await steady(pilot)

        assert snap_compare(seeded_app, terminal_size=size, run_before=run_before)

    def test_replay_scorecard(self, snap_compare, seeded_app, size):
        async def run_before(pilot):
            await settle(pilot)
            pilot.app.open_replay(2)
            await steady(pilot)

        assert snap_compare(seeded_app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
class TestHelpScreen:
    def test_help(self, snap_compare, app, size):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("f1")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_command_palette(self, snap_compare, app, size):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*"inter")
            await pilot.pause(0.5)
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)


async def open_drills(pilot) -> None:
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
class TestDrillScreen:
    def test_drill_topics(self, snap_compare, app, size):
        async def run_before(pilot):
            await open_drills(pilot)
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_drill_question(self, snap_compare, app, size):
        async def run_before(pilot):
            await open_drills(pilot)
            await pilot.press("enter")  # practise next: the first question
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_drill_feedback_with_the_worked_solution(self, snap_compare, app, size):
        async def run_before(pilot):
            await open_drills(pilot)
            await pilot.press("enter")
            await settle(pilot)
            pilot.app.screen.query_one("#drill-answer").value = "4 ms"
            await pilot.press("enter")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)

    def test_learn_mode(self, snap_compare, app, size):
        async def run_before(pilot):
            await settle(pilot)
            await pilot.press("n")
            await steady(pilot)

        assert snap_compare(app, terminal_size=size, run_before=run_before)
