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
    # 100 columns: no preview beside the list, so the list has room for a topics column.
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ScenarioTable)
        assert [s.id for s in table.shown_scenarios] == [TRAINING_SCENARIO.id, KV_SCENARIO.id]

        def cell(row: str, column: str) -> str:
            return str(table.get_cell(row, column))

        assert cell(TRAINING_SCENARIO.id, "title") == TRAINING_SCENARIO.title
        assert cell(TRAINING_SCENARIO.id, "kind") == "design"
        assert "zero · memory" in cell(TRAINING_SCENARIO.id, "topics")
        assert (cell(TRAINING_SCENARIO.id, "best"), cell(TRAINING_SCENARIO.id, "last")) == ("78.0", "78.0")  # one decimal, as everywhere
        assert cell(KV_SCENARIO.id, "best") == "—"
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


async def test_enter_in_the_time_limit_field_sets_it_and_goes_back_to_the_list(app, core):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("t", *"2", "enter")
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"  # Enter there sets the limit; it does not start
        assert isinstance(app.focused, ScenarioTable)
        assert any("Time limit: 2 min" in message for message in notifications(app))
        await pilot.press("enter")
        await settle(pilot)
        assert core.agents[0].time_limit_s == 2 * 60


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
        assert str(table.get_cell(TRAINING_SCENARIO.id, "best")) == "—"
        seed_history(store)
        app.screen.on_screen_resume()
        await settle(pilot)
        assert str(table.get_cell(TRAINING_SCENARIO.id, "best")) == "78.0"


@pytest.mark.parametrize("width", [80, 120])
async def test_preview_only_on_wide_terminals(app, width):
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot)
        preview = app.screen.query_one("#scenario-preview")
        assert preview.display is (width >= 110)
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 40)])
async def test_every_option_control_is_whole_at_each_size(app, size):
    """At 60x20 the options row used to cut "Limit" and its field off at the right edge."""
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        row = app.screen.query_one("#interview-options")
        controls = [*row.query(".option-label"), *row.query("Select"), row.query_one("#time-limit")]
        assert [str(label.render()) for label in row.query(".option-label")] == ["Level l", "Mode m", "Limit t"]
        for control in controls:
            assert control.region.width > 0 and control.region.right <= row.region.right, (control, control.region, row.region)


async def test_letter_keys_type_into_the_search_box(app):
    """t, r, l, m, h and q are home keys, but in the search box they are just letters."""
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("slash", *"throughput rlmhq")
        assert app.focused.id == "scenario-search"
        assert app.focused.value == "throughput rlmhq"
        assert screen_name(app) == "HomeScreen"
        assert app.screen.query_one("#level", Select).value == "senior"


async def test_search_reads_prompt_and_given_facts_and_the_title_counts_the_matches(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        table = app.screen.query_one(ScenarioTable)
        assert table.border_title == "2 scenarios"
        await pilot.press("slash", *"nvlink3")  # only in the training scenario's given facts
        assert [s.id for s in table.shown_scenarios] == [TRAINING_SCENARIO.id]
        assert table.border_title == "1 of 2 scenarios"
        app.focused.value = "4096 tokens"  # only in the KV scenario's prompt
        await pilot.pause()
        assert [s.id for s in table.shown_scenarios] == [KV_SCENARIO.id]


def test_search_lists_title_and_topic_matches_before_text_matches():
    from tui.widgets.scenario_table import search

    # "inference" is a topic of the KV scenario; add it to the training scenario's prompt only.
    prompt_match = TRAINING_SCENARIO.model_copy(update={"prompt": "Plan training and inference."})
    assert [s.id for s in search([prompt_match, KV_SCENARIO], "inference")] == [KV_SCENARIO.id, TRAINING_SCENARIO.id]


async def test_escape_clears_the_search_and_goes_back_to_the_full_list(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        table = app.screen.query_one(ScenarioTable)
        await pilot.press("slash", *"kv")
        assert len(table.shown_scenarios) == 1
        await pilot.press("escape")
        assert app.focused is table
        assert app.screen.query_one("#scenario-search", Input).value == ""
        assert len(table.shown_scenarios) == 2
        assert table.border_title == "2 scenarios"


async def test_level_key_shows_the_change_on_the_control_and_in_a_toast(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("l")
        level = app.screen.query_one("#level", Select)
        assert level.value == "mid"
        assert level.has_class("-changed")
        assert any("Level: mid" in message for message in notifications(app))
        labels = [str(label.render()) for label in app.screen.query("#interview-options .option-label")]
        assert labels == ["Level l", "Mode m", "Limit t"]


async def test_shipped_titles_are_readable_in_full_at_120_columns(store, core):
    """The real catalog's longest titles wrap in their column instead of being cut."""
    from interviewer.config import Settings
    from rubrics.loader import shipped_scenario_files, validate_files
    from tui.app import make_app

    core.scenarios, _ = validate_files(shipped_scenario_files())
    app = make_app(Settings(theme="textual-dark"), store=store, services=core.services())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.screen.query_one(ScenarioTable)
        assert "topics" not in table.columns  # the preview shows them at this width
        title_width = table.columns["title"].width
        for scenario in core.scenarios:
            row = table.rows[scenario.id]
            # Words are wrapped whole: enough lines for the whole title at this width.
            assert row.height >= -(-len(scenario.title) // title_width), scenario.title
        assert max(len(s.title) for s in core.scenarios) > title_width  # the test really exercises wrapping
