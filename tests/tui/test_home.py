"""Home screen: scenario list with scores, search, options, recent interviews, and every key."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select
from tui_fakes import KV_SCENARIO, TRAINING_SCENARIO, seed_history
from tui_helpers import notifications, screen_name, settle

from rubrics.loader import RubricError
from tui.screens.home_screen import HomeScreen
from tui.widgets.interview_table import InterviewTable
from tui.widgets.scenario_table import ScenarioTable


async def test_lists_scenarios_with_kind_topics_and_best_and_last_score(app, store):
    seed_history(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ScenarioTable)
        assert [s.id for s in table.shown_scenarios] == [TRAINING_SCENARIO.id, KV_SCENARIO.id]
        row = table.get_row(TRAINING_SCENARIO.id)
        assert row[0] == TRAINING_SCENARIO.title
        assert row[1] == "design"
        assert "zero · memory" in str(row[2])
        assert (str(row[3]), str(row[4])) == ("78.0", "78.0")  # one decimal, as everywhere
        assert str(table.get_row(KV_SCENARIO.id)[3]) == "—"
        recent = app.screen.query_one(InterviewTable)
        assert recent.row_count == 3
        assert app.focused is table


async def test_search_filters_by_title_topic_or_kind(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"kv")
        table = app.screen.query_one(ScenarioTable)
        assert [s.id for s in table.shown_scenarios] == [KV_SCENARIO.id]
        app.focused.value = "design"
        await pilot.pause()
        assert [s.id for s in table.shown_scenarios] == [TRAINING_SCENARIO.id]
        app.focused.value = "nothing matches this"
        await pilot.pause()
        assert table.shown_scenarios == []
        await pilot.press("escape")
        assert app.focused is table


async def test_enter_in_search_starts_the_first_match(app, core):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("slash", *"kv", "enter")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert core.agents[0].scenario.id == KV_SCENARIO.id


async def test_enter_on_the_list_starts_with_the_chosen_options(app, core):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("l")  # senior → mid
        assert app.screen.query_one("#level", Select).value == "mid"
        await pilot.press("t", *"45")
        await pilot.press("escape", "down", "enter")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        agent = core.agents[0]
        assert (agent.scenario.id, agent.level, agent.mode, agent.time_limit_s) == (KV_SCENARIO.id, "mid", "offline", 45 * 60)


async def test_enter_in_the_time_limit_field_starts_too(app, core):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("t", *"30", "enter")
        await settle(pilot)
        assert core.agents[0].time_limit_s == 30 * 60


async def test_bad_time_limit_is_refused_with_a_warning(app, core):
    async with app.run_test() as pilot:
        await settle(pilot)
        app.screen.query_one("#time-limit", Input).value = "0"
        app.screen.action_start()
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        assert core.agents == []
        assert any("time limit" in n for n in notifications(app))


async def test_mode_key_cycles_when_an_llm_is_configured(store, core):
    from interviewer.config import Settings
    from tui.app import make_app

    app = make_app(Settings(llm_model="gpt-test"), store=store, services=core.services())
    async with app.run_test() as pilot:
        await settle(pilot)
        mode = app.screen.query_one("#mode", Select)
        assert mode.value == "llm"
        await pilot.press("m")
        assert mode.value == "offline"
        await pilot.press("m")
        assert mode.value == "llm"


async def test_mode_key_explains_offline_only(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("m")
        assert app.screen.query_one("#mode", Select).value == "offline"
        assert any("llm_model" in n for n in notifications(app))


async def test_history_help_and_quit_keys(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert screen_name(app) == "HistoryScreen"
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        assert screen_name(app) == "HelpScreen"
        await pilot.press("escape")
        assert screen_name(app) == "HomeScreen"
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_recent_enter_resumes_unfinished_and_replays_finished(app, store, core):
    unfinished, *_ = reversed(seed_history(store))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        recent = app.screen.query_one(InterviewTable)
        assert app.focused is recent
        assert recent.highlighted_record.id == unfinished
        await pilot.press("enter")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert core.agents[-1].interview_id == unfinished
        app.return_home()
        await settle(pilot)
        await pilot.press("r", "down", "enter")
        await settle(pilot)
        assert screen_name(app) == "ReplayScreen"


async def test_broken_rubric_is_a_notification_not_a_crash(app, core):
    core.scenario_errors = [RubricError("broken.yaml", "steps[0].probes", "Field required")]
    core.scenarios = [KV_SCENARIO]
    async with app.run_test() as pilot:
        await settle(pilot)
        assert any("broken.yaml: steps[0].probes" in n for n in notifications(app))
        assert [s.id for s in app.screen.query_one(ScenarioTable).shown_scenarios] == [KV_SCENARIO.id]


async def test_scenario_loader_crash_leaves_an_empty_usable_home(app, core, monkeypatch):
    def explode():
        raise RuntimeError("rubrics package missing")

    app.services.load_scenarios = explode
    async with app.run_test() as pilot:
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        assert any("rubrics package missing" in n for n in notifications(app))
        app.screen.action_start()
        await pilot.pause()
        assert any("No scenario to start" in n for n in notifications(app))


async def test_start_failure_is_notified_and_stays_home(app, core):
    core.start_error = ConnectionError("endpoint http://localhost:11434 refused the connection")
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        assert any("refused the connection" in n for n in notifications(app))


async def test_scores_refresh_when_coming_back_home(app, store):
    async with app.run_test() as pilot:
        await settle(pilot)
        table = app.screen.query_one(ScenarioTable)
        assert str(table.get_row(TRAINING_SCENARIO.id)[3]) == "—"
        seed_history(store)
        app.screen.on_screen_resume()
        await settle(pilot)
        assert str(table.get_row(TRAINING_SCENARIO.id)[3]) == "78.0"


@pytest.mark.parametrize("width", [80, 120])
async def test_preview_only_on_wide_terminals(app, width):
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        preview = app.screen.query_one("#scenario-preview")
        assert preview.display is (width >= 110)
        assert isinstance(app.screen, HomeScreen)


async def test_letter_keys_type_into_the_search_box(app):
    """t, r, l, m, h and q are home keys, but in the search box they are just letters."""
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("slash", *"throughput rlmhq")
        assert app.focused.id == "scenario-search"
        assert app.focused.value == "throughput rlmhq"
        assert screen_name(app) == "HomeScreen"
        assert app.screen.query_one("#level", Select).value == "senior"
