"""App-wide behaviour: factory, start-up, background warm-up, help, command palette, themes."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

from textual.command import CommandPalette
from textual.widgets import Input, Select
from tui_fakes import TRAINING_SCENARIO, FakeCore
from tui_helpers import notifications, screen_name, settle

from interviewer.config import Settings
from tui.app import Core, InterviewerApp, make_app
from tui.screens.help_screen import help_markdown, key_label
from tui.screens.interview_screen import InterviewScreen
from tui.widgets.models_status import ModelsStatus


def test_importing_the_app_loads_no_heavy_modules():
    """The first screen must not wait for torch, Chroma or the engine."""
    code = (
        "import sys, tui.app\n"
        "heavy = [m for m in ('torch', 'chromadb', 'interviewer.engine', 'interviewer.tools', 'textual_plotext', 'openai')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_plain_interviewer_reaches_the_app_without_typer_or_settings(monkeypatch):
    """``interviewer`` with no arguments: the first screen waits for neither Typer nor pydantic."""
    code = (
        "import sys, tui.app\n"
        "tui.app.InterviewerApp.run = lambda self: print(type(self._open_core).__name__)\n"
        "from tui.entry import cli\n"
        "cli([])\n"
        "late = [m for m in ('typer', 'pydantic', 'pydantic_settings', 'interviewer.config', 'interviewer.store')"
        " if m in sys.modules]\n"
        "print(','.join(late) or 'none')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["function", "none"]


async def test_the_core_opens_off_the_ui_thread_after_the_first_paint(interviewer_home, store, core):
    """The deferred start: settings and store are read by the home screen's worker, then the
    options, theme and start-up problems are applied on the UI thread."""
    (interviewer_home / "config.toml").write_text(
        'llm_model = "llama3.1:8b"\ntime_limit_minutes = 30\ntheme = "textual-light"\n'
    )
    opened_on: list[bool] = []

    def open_later() -> Core:
        from interviewer.config import load_settings

        opened_on.append(threading.current_thread() is threading.main_thread())
        return Core(load_settings(), store, core.services(), problems=["a start-up problem"])

    app = InterviewerApp(open_later)
    assert not app.core_is_open
    async with app.run_test() as pilot:
        await settle(pilot)
        assert opened_on == [False]
        assert app.theme == "textual-light"
        assert any("a start-up problem" in n for n in notifications(app))
        mode = app.screen.query_one("#mode", Select)
        assert [value for _, value in app.mode_choices(app.settings)] == ["offline", "llm"]
        assert mode.value == "llm"
        assert app.screen.query_one("#time-limit", Input).value == "30"


async def test_make_app_with_defaults_opens_the_store_in_interviewer_home(interviewer_home):
    app = make_app()
    assert isinstance(app, InterviewerApp)
    assert app.store is not None and app.store.path.parent == interviewer_home
    assert app.settings.theme == "textual-dark"
    app.store.close()


async def test_agent_factory_argument_replaces_the_engine(store, core):
    calls = []

    def factory(scenario_id, **options):
        calls.append((scenario_id, options))
        return core.start(scenario_id, **options)

    app = make_app(Settings(), store=store, agent_factory=factory, services=core.services())
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert calls == [(TRAINING_SCENARIO.id, {"level": "senior", "time_limit_minutes": None, "mode": "offline"})]


async def test_a_broken_config_is_a_notification(interviewer_home, monkeypatch):
    (interviewer_home / "config.toml").write_text("llm_temperature = 'hot'\n")
    app = make_app(services=None)
    app.services.warm_up = lambda: None
    app.services.load_scenarios = lambda: ([], [])
    async with app.run_test() as pilot:
        await settle(pilot)
        assert any("llm_temperature" in n for n in notifications(app))
    app.store.close()


async def test_an_unopenable_database_is_a_notification(interviewer_home):
    (interviewer_home / "interviewer.db").write_text("this is not a database" * 100)
    core = FakeCore(store=None)
    app = make_app(Settings(), services=core.services())
    assert app.store is None
    async with app.run_test() as pilot:
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        assert any("History and resume are off" in n for n in notifications(app))
        await pilot.press("enter")  # interviews still run, unstored
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"


async def test_models_load_in_the_background_after_the_first_screen(app):
    release = threading.Event()
    started = threading.Event()

    def slow_warm_up():
        started.set()
        release.wait(5)

    app.services.warm_up = slow_warm_up
    async with app.run_test() as pilot:
        await pilot.pause()
        assert screen_name(app) == "HomeScreen"
        started.wait(2)
        status = app.screen.query_one(ModelsStatus)
        assert app.models_state == "loading"
        assert "loading models" in str(status.render())
        await pilot.press("slash", *"kv")  # the screen answers while models load
        assert app.focused.value == "kv"
        release.set()
        await settle(pilot)
        assert app.models_state == "ready"
        assert not status.display or status.has_class("-ready")


async def test_a_failed_warm_up_is_a_warning_and_the_app_goes_on(app):
    def broken():
        raise OSError("embedder weights not found")

    app.services.warm_up = broken
    async with app.run_test() as pilot:
        await settle(pilot)
        assert app.models_state == "failed"
        assert any("embedder weights not found" in n for n in notifications(app))


class TestHelp:
    def test_help_lists_every_binding_of_every_screen(self):
        text = help_markdown()
        for binding in InterviewScreen.BINDINGS:
            assert key_label(binding.key) in text
        assert "Ctrl+S / Ctrl+J" in text and "Enter adds a new line" in text
        assert "F2 / Ctrl+T" in text and "F10 / Ctrl+G" in text

    def test_key_labels(self):
        assert key_label("ctrl+s,ctrl+j") == "Ctrl+S / Ctrl+J"
        assert key_label("f10") == "F10"
        assert key_label("slash") == "/"
        assert key_label("escape,q") == "Esc / q"

    async def test_f1_opens_help_anywhere_and_escape_closes(self, app):
        async with app.run_test() as pilot:
            await settle(pilot)
            app.start_interview(TRAINING_SCENARIO.id, level="senior", mode="offline", time_limit_minutes=None)
            await settle(pilot)
            await pilot.press("f1")
            await pilot.pause()
            assert screen_name(app) == "HelpScreen"
            await pilot.press("f1")
            await pilot.pause()
            assert screen_name(app) == "InterviewScreen"
            await pilot.press("f1", "q")
            await pilot.pause()
            assert screen_name(app) == "InterviewScreen"
            await pilot.press("f1", "question_mark")
            await pilot.pause()
            assert screen_name(app) == "InterviewScreen"
            await pilot.press("f1", "escape")
            await pilot.pause()
            assert screen_name(app) == "InterviewScreen"


class TestCommandPalette:
    async def test_palette_offers_the_app_and_screen_actions(self, app):
        async with app.run_test() as pilot:
            await settle(pilot)
            app.start_interview(TRAINING_SCENARIO.id, level="senior", mode="offline", time_limit_minutes=None)
            await settle(pilot)
            titles = [command.title for command in app.get_system_commands(app.screen)]
            expected = ["History", "Keys and help", "Toggle light/dark theme", "Hint", "Skip step", "End interview", "Scratch calculator"]
            assert set(expected) <= set(titles)

    async def test_palette_runs_a_command(self, app):
        async with app.run_test() as pilot:
            await settle(pilot)
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*"history")
            await pilot.pause(0.5)
            await pilot.press("enter")
            await settle(pilot)
            assert screen_name(app) == "HistoryScreen"


class TestThemes:
    async def test_theme_comes_from_settings(self, store, core):
        app = make_app(Settings(theme="textual-light"), store=store, services=core.services())
        async with app.run_test() as pilot:
            await pilot.pause()
            assert app.theme == "textual-light"

    async def test_unknown_theme_falls_back_with_a_warning(self, store, core):
        app = make_app(Settings(theme="no-such-theme"), store=store, services=core.services())
        async with app.run_test() as pilot:
            await settle(pilot)
            assert app.theme == "textual-dark"
            assert any("no-such-theme" in n for n in notifications(app))

    async def test_toggle_between_light_and_dark(self, app):
        async with app.run_test() as pilot:
            await pilot.pause()
            app.action_toggle_theme()
            assert app.theme == "textual-light"
            app.action_toggle_theme()
            assert app.theme == "textual-dark"

    async def test_the_theme_chosen_in_the_app_is_kept_after_a_restart(self, store, core, interviewer_home):
        first = make_app(Settings(theme="textual-dark"), store=store, services=core.services())
        async with first.run_test() as pilot:
            await pilot.pause()
            first.theme = "nord"  # what the palette's theme picker does
            await pilot.pause()
        assert json.loads((interviewer_home / "ui-state.json").read_text())["theme"] == "nord"
        second = make_app(Settings(theme="textual-dark"), store=store, services=core.services())
        async with second.run_test() as pilot:
            await pilot.pause()
            assert second.theme == "nord"

    async def test_starting_on_the_configured_theme_saves_nothing(self, store, core, interviewer_home):
        app = make_app(Settings(theme="textual-light"), store=store, services=core.services())
        async with app.run_test() as pilot:
            await settle(pilot)
        assert not (interviewer_home / "ui-state.json").exists()

    async def test_light_theme_titles_and_tags_are_readable(self, store, core):
        """Issue #17, item 6: side-panel titles and topic tags were about 1.3:1 on the light theme."""
        from textual.color import Color

        from tui.colors import accent_text

        app = make_app(Settings(theme="textual-light"), store=store, services=core.services())
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            app.start_interview(TRAINING_SCENARIO.id, level="senior", mode="offline", time_limit_minutes=None)
            await settle(pilot)
            background = app.screen.styles.background
            for title in app.screen.query(".side-title"):
                assert contrast(title.styles.color, background) >= 4.5, str(title.render())
            variables = app.get_css_variables()
            tag_color = Color.parse(variables[accent_text(app).removeprefix("$")])
            assert contrast(tag_color, background) >= 4.5


def contrast(first, second) -> float:
    """WCAG contrast ratio of two colors."""

    def luminance(color) -> float:
        def channel(value: int) -> float:
            value /= 255
            return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)

    high, low = sorted([luminance(first), luminance(second)], reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_palette_screenshot_saves_to_the_data_dir_when_downloads_is_missing(app, interviewer_home, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "no-downloads-here"))
    async with app.run_test() as pilot:
        await settle(pilot)
        app.deliver_screenshot()  # what the palette's "Screenshot" runs
        await pilot.pause(0.5)
        await settle(pilot)
        saved = list((interviewer_home / "screenshots").glob("*.svg"))
        assert len(saved) == 1
        assert any("Saved screenshot" in n for n in notifications(app))


async def test_ctrl_q_quits_from_the_interview(app):
    async with app.run_test() as pilot:
        await settle(pilot)
        app.start_interview(TRAINING_SCENARIO.id, level="senior", mode="offline", time_limit_minutes=None)
        await settle(pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


def test_the_app_refuses_to_start_without_a_terminal():
    """Issue #17, item 10: with stdin from /dev/null the app used to start and spin at 100% CPU."""
    for args in ([], ["--offline"]):
        result = subprocess.run(
            [sys.executable, "-m", "interviewer", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 2
        assert result.stderr.startswith("error: the app needs a terminal, but stdin, stdout and stderr are not one")
        assert "interviewer interview --scenario ID" in result.stderr


def test_resuming_an_unknown_interview_is_an_error_before_the_app_starts():
    result = subprocess.run(
        [sys.executable, "-m", "interviewer", "--resume", "999"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "error: --resume: no interview with id 999 (see `interviewer history`)"


def test_terminal_problem_names_the_stream_that_is_not_a_terminal(monkeypatch):
    import os
    import pty

    from tui.app import terminal_problem

    controller, terminal = pty.openpty()
    with open(os.devnull) as devnull, os.fdopen(terminal, "w") as tty, os.fdopen(controller, "rb"):
        monkeypatch.setattr(sys, "__stdout__", tty)
        monkeypatch.setattr(sys, "__stderr__", tty)
        monkeypatch.setattr(sys, "__stdin__", tty)
        assert terminal_problem() is None
        monkeypatch.setattr(sys, "__stdin__", devnull)
        assert terminal_problem().startswith("the app needs a terminal, but stdin is not one (redirected or closed)")
        monkeypatch.setattr(sys, "__stdout__", devnull)
        assert terminal_problem().startswith("the app needs a terminal, but stdin and stdout are not one")


async def test_launch_lists_the_scenarios_before_the_core_opens_and_from_the_cache_after_the_first(
    store, core, interviewer_home, monkeypatch
):
    """Issue #16, item 7: the list no longer waits for the settings, the store and (from the second
    launch on) the validation of the scenario files; the full load still follows and replaces it."""
    from rubrics.loader import shipped_scenario_files
    from tui.app import open_core
    from tui.widgets.scenario_table import ScenarioTable

    shipped = len(shipped_scenario_files())
    validations = []
    import tui.services

    real_shipped = tui.services.shipped_scenarios
    monkeypatch.setattr(tui.services, "shipped_scenarios", lambda: validations.append(1) or real_shipped())

    async def launch(expect_validation_before_the_core: bool) -> None:
        release = threading.Event()

        def slow_open_core():
            release.wait(30)  # the core (settings, store) is still opening while we look
            services = core.services()
            services.load_scenarios = tui.services.shipped_scenarios
            return open_core(Settings(theme="textual-dark"), store=store, services=services)

        validations.clear()
        app = InterviewerApp(slow_open_core)
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.screen.query_one(ScenarioTable)
            for _ in range(200):
                if table.row_count:
                    break
                await pilot.pause(0.05)
            assert table.row_count == shipped and not app.core_is_open
            assert table.border_title == f"{shipped} scenarios"
            assert bool(validations) is expect_validation_before_the_core
            release.set()
            await settle(pilot)
            for _ in range(200):  # the full load replaces the list in a worker of its own
                if app.core_is_open and table.row_count == shipped:
                    break
                await pilot.pause(0.05)
            assert app.core_is_open and table.row_count == shipped
            # The full validation ran too (and would report a broken file), once: the first
            # ScreenResume used to start a second load that raced the first and blanked the list.
            assert len(validations) == 1

    await launch(expect_validation_before_the_core=True)  # first launch: nothing cached yet
    assert (interviewer_home / "catalog-cache.json").exists()
    await launch(expect_validation_before_the_core=False)  # later: the list comes from the cache


async def test_enter_on_the_early_list_while_the_core_opens_does_not_deadlock(store, core):
    """The list is drawn before the core opens; Enter then waits for the core on the UI thread.
    The core used to announce itself with call_from_thread while holding its lock, which that
    waiting UI thread could never serve: the app froze (seen in tmux with a cold knowledge index)."""
    from rubrics.loader import shipped_scenario_files, validate_files
    from tui.app import open_core
    from tui.widgets.scenario_table import ScenarioTable

    core.scenarios, _ = validate_files(shipped_scenario_files())  # the early list shows the shipped ones
    opening = threading.Event()
    listed = threading.Event()

    def slow_open_core():
        opening.set()
        # Held until the test has seen the early list (however slow the machine), then long
        # enough for Enter to arrive while the lock is held.
        listed.wait(30)
        time.sleep(1.0)
        return open_core(Settings(theme="textual-dark"), store=store, services=core.services())

    app = InterviewerApp(slow_open_core)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(ScenarioTable)
        for _ in range(200):
            if table.row_count and opening.is_set():
                break
            await pilot.pause(0.05)
        assert table.row_count and not app.core_is_open
        listed.set()
        await pilot.press("enter")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
