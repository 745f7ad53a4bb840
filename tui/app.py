"""The Textual app: one factory (``make_app``) that the CLI and the tests share.

The app renders the core's events and nothing else: scoring, storage and claim checking live
in ``interviewer``. Start-up stays light: torch, the embedder and Chroma load in a thread
worker after the home screen is drawn (``InterviewerApp.warm_up_models``).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen

from tui.screens.home_screen import HomeScreen
from tui.services import AgentFactory, CoreServices, default_services

if TYPE_CHECKING:
    from interviewer.config import Settings
    from interviewer.domain import InterviewRecord, Scorecard
    from interviewer.store.db import TranscriptStore
    from tui.screens.calculator_modal import CalculatorMemory

ModelsState = Literal["loading", "ready", "failed"]

logger = logging.getLogger(__name__)

NO_TERMINAL_EXIT_CODE = 2
"""``interviewer`` exits with this when it is not run in a terminal (a usage error, like a bad flag)."""
TERMINAL_LOST_EXIT_CODE = 1
"""... and with this when the terminal goes away under it (the interview so far is saved)."""
TERMINAL_CHECK_SECONDS = 1.0


def _is_terminal(stream) -> bool:
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (OSError, ValueError):  # closed, or no file descriptor
        return False


def terminal_problem() -> str | None:
    """Why the app cannot run here, or None. It reads keys from stdin and Textual draws on stderr:
    with stdin redirected the keys never come (and Textual's input thread spins on end-of-file),
    with stdout or stderr redirected the screen or what it prints goes into a file."""
    streams = {"stdin": sys.__stdin__, "stdout": sys.__stdout__, "stderr": sys.__stderr__}
    missing = [name for name, stream in streams.items() if not _is_terminal(stream)]
    if not missing:
        return None
    names = " and ".join(missing) if len(missing) < 3 else "stdin, stdout and stderr"
    return (
        f"the app needs a terminal, but {names} {'is' if len(missing) == 1 else 'are'} not one (redirected or closed). "
        "Run `interviewer` in a terminal; from a script, use `interviewer interview --scenario ID` "
        "(one answer per stdin line) or `interviewer grade`."
    )


@dataclass
class Core:
    """What the app needs from the core: settings, the transcript store and its entry points."""

    settings: Settings
    store: TranscriptStore | None
    """None when the database could not be opened (``problems`` says why)."""
    services: CoreServices
    problems: list[str] = field(default_factory=list)
    """Start-up problems to show once the app is up (a broken config, an unreadable database)."""


LIGHT_THEME = "textual-light"
DARK_THEME = "textual-dark"


class InterviewerApp(App[None]):
    """Home → interview → scorecard, plus history, replay, help and a scratch calculator."""

    CSS_PATH = "interviewer.tcss"
    TITLE = "interviewer"
    SUB_TITLE = "mock ML-systems interviews"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS = [
        Binding("f1", "help", "Help", tooltip="Every key, screen by screen"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
    ]

    models_state: reactive[ModelsState] = reactive("loading")
    """Whether torch, the embedder and the knowledge index are loaded (``warm_up``)."""

    def __init__(self, core: Core | Callable[[], Core], *, resume_id: int | None = None) -> None:
        """``core`` is either opened already (tests, CLI flags) or a function that opens it.

        With a function, settings, the store and the core's entry points are opened on first
        use, which the home screen makes off the UI thread right after the first paint:
        pydantic, pydantic-settings and the store cost about 0.25 s that the first screen
        does not need.
        """
        super().__init__()
        self._core: Core | None = core if isinstance(core, Core) else None
        self._open_core: Callable[[], Core] | None = None if isinstance(core, Core) else core
        self._core_lock = threading.Lock()
        self._core_announced = False
        self.resume_id = resume_id
        """An interview to resume straight away (``interviewer --resume ID``)."""
        self._warm_up_started = False
        self._kept_theme: str | None = None
        self.scenario_titles: dict[str, str] = {}
        """Scenario id → title of the loaded catalog (filled by the home screen)."""
        self.calculator_memory: CalculatorMemory | None = None
        """The scratch calculator's last choice and typed values, kept between openings (set on first use)."""

    # -- the core: settings, store, entry points -------------------------------------------------

    @property
    def core(self) -> Core:
        """Opens the core on first use (from any thread; once)."""
        if self._core is None:
            opened_here = False
            with self._core_lock:
                if self._core is None and self._open_core is not None:
                    self._core = self._open_core()
                    opened_here = True
            # Announce it after the lock is released: the UI thread may be waiting for the lock
            # (Enter on a list drawn before the core opened), and call_from_thread waits for the
            # UI thread, so announcing under the lock deadlocked the app.
            if opened_here:
                if self._thread_id == threading.get_ident():
                    self.call_later(self._core_opened)
                else:
                    self.call_from_thread(self._core_opened)
        assert self._core is not None
        return self._core

    @property
    def core_is_open(self) -> bool:
        return self._core is not None

    @property
    def settings(self) -> Settings:
        """Settings the interview options default to (mode, time limit, theme)."""
        return self.core.settings

    @property
    def store(self) -> TranscriptStore | None:
        """The transcript store, or None when the database could not be opened."""
        return self.core.store

    @property
    def services(self) -> CoreServices:
        """Entry points into the core (engine, calculators, exporter)."""
        return self.core.services

    def _core_opened(self) -> None:
        """Once, on the UI thread: theme, start-up problems, and the home screen's options."""
        if self._core_announced or self._core is None:
            return
        self._core_announced = True
        self._apply_theme(self._core.settings.theme)
        for problem in self._core.problems:
            self.notify_error(problem)
        home = self.screen_stack[0] if self.screen_stack else None
        # A home screen composed before the settings were read shows defaults until now.
        if isinstance(home, HomeScreen) and home.is_mounted:
            home.apply_settings(self._core.settings)

    # -- start-up ------------------------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        return HomeScreen()

    def run(self, *, headless: bool = False, **options) -> None:
        """``App.run``, refused with a one-line error (exit code 2) when not in a terminal."""
        if not headless and (problem := terminal_problem()) is not None:
            print(f"error: {problem}", file=sys.stderr)
            raise SystemExit(NO_TERMINAL_EXIT_CODE)
        return super().run(headless=headless, **options)

    def on_mount(self) -> None:
        if not self.is_headless:
            # A killed tmux session or a closed terminal window usually ends us with SIGHUP; where
            # SIGHUP is ignored (nohup, some launchers), stdin stops being a terminal instead, and
            # Textual's input thread would spin on end-of-file: notice it and exit.
            self.set_interval(TERMINAL_CHECK_SECONDS, self._check_terminal, name="terminal-check")
        if self._core is not None:
            self._core_opened()
        # The home screen calls start_warm_up once its scenario list is in: the heavy imports
        # hold the GIL for seconds and would otherwise delay the list.
        if self.resume_id is not None:
            if self._core is None:
                # The list is drawn before the core opens: resume once it is open (off the UI
                # thread), not while the screens are still being set up around it.
                self.run_worker(self._resume_once_open, thread=True, name="resume", exit_on_error=False)
            else:
                self.call_after_refresh(self.resume_interview, self.resume_id)

    def _resume_once_open(self) -> None:
        _ = self.core  # opens it (settings, store) in this worker thread
        self.call_from_thread(self.resume_interview, self.resume_id)

    def _check_terminal(self) -> None:
        """Exit at once when stdin stopped being a terminal (the terminal hung up).

        Not through ``App.exit``: its shutdown restores the terminal by writing to it, and with
        the terminal gone it was seen to block for ever there (Textual's output queue full, in
        ``stop_application_mode``). ``os._exit`` is what the default SIGHUP would have done; every
        turn is already committed to the store.
        """
        if not _is_terminal(sys.__stdin__):
            logger.warning("the terminal went away (stdin is no longer a terminal): exiting")
            logging.shutdown()
            os._exit(TERMINAL_LOST_EXIT_CODE)

    def _apply_theme(self, name: str) -> None:
        """The theme chosen in the app last time (kept in the data dir), else the config's."""
        saved = load_ui_state().get("theme")
        if isinstance(saved, str) and saved in self.available_themes:
            name = saved
        if name in self.available_themes:
            self.theme = name
        else:
            self.theme = DARK_THEME
            self.notify(
                f"Unknown theme {name!r} in the config; using {DARK_THEME}.", severity="warning", markup=False
            )
        self._kept_theme = self.theme
        self.theme_changed_signal.subscribe(self, self._keep_theme)

    def _keep_theme(self, theme) -> None:
        """A theme picked in the app (palette, toggle) is the one the next start uses."""
        if theme.name != self._kept_theme:
            self._kept_theme = theme.name
            save_ui_state(theme=theme.name)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None, time_format: str | None = None) -> str | None:
        """Screenshots go to the data dir's ``screenshots`` folder (Textual's ~/Downloads may not exist)."""
        if path is None:
            from interviewer.locations import screenshots_dir

            folder = screenshots_dir()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                self.notify_error(f"Cannot save the screenshot: {folder}: {error}", title="Screenshot")
                return None
            path = str(folder)
        return super().deliver_screenshot(filename, path, time_format)

    def start_warm_up(self) -> None:
        """Load the models in the background (once)."""
        if not self._warm_up_started:
            self._warm_up_started = True
            self.warm_up_models()

    @work(thread=True, group="warm-up", exit_on_error=False)
    def warm_up_models(self) -> None:
        """Load torch, the embedder and the knowledge index without blocking the UI."""
        try:
            self.services.warm_up()
        except Exception as error:  # a missing model must not take the app down
            self.call_from_thread(self._models_loaded, f"{type(error).__name__}: {error}")
        else:
            self.call_from_thread(self._models_loaded, None)
        # While we are at it, the screens that are imported on first use (plotext is slow to import).
        import tui.screens.history_screen
        import tui.screens.interview_screen  # noqa: F401

    def _models_loaded(self, problem: str | None) -> None:
        self.models_state = "failed" if problem else "ready"
        if problem:
            self.notify(
                f"Could not load the embedder and knowledge index ({problem}). "
                "Interviews still work, with keyword matching only.",
                title="Models",
                severity="warning",
                timeout=10,
                markup=False,
            )

    # -- helpers the screens share -------------------------------------------------------------

    def notify_error(self, message: str, *, title: str = "") -> None:
        """An error toast; ``markup=False`` because messages quote user text and file paths."""
        self.notify(message, title=title, severity="error", timeout=10, markup=False)

    def mode_choices(self, settings: Settings | None = None) -> list[tuple[str, str]]:
        """(label, mode) pairs for the mode picker: offline always, the LLM when configured."""
        choices = [("Offline (rubric engine)", "offline")]
        if settings is not None and settings.llm_model:
            choices.append((f"LLM: {settings.llm_model}", "llm"))
        return choices

    def load_record(self, interview_id: int) -> InterviewRecord | None:
        if self.store is None:
            self.notify_error("The transcript database is not available.")
            return None
        try:
            return self.store.get(interview_id)
        except Exception as error:
            self.notify_error(f"Cannot open interview {interview_id}: {error}")
            return None

    def return_home(self) -> None:
        """Pop every screen above the home screen."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    # -- navigation ----------------------------------------------------------------------------

    def start_interview(self, scenario_id: str, *, level: str, mode: str | None, time_limit_minutes: float | None) -> None:
        from tui.screens.interview_screen import InterviewRequest, InterviewScreen

        request = InterviewRequest(scenario_id=scenario_id, level=level, mode=mode, time_limit_minutes=time_limit_minutes)
        self.push_screen(InterviewScreen(request))

    def resume_interview(self, interview_id: int) -> None:
        from tui.screens.interview_screen import InterviewRequest, InterviewScreen

        self.return_home()
        self.push_screen(InterviewScreen(InterviewRequest(resume_id=interview_id)))

    def show_scorecard(self, scorecard: Scorecard, record: InterviewRecord | None, *, target_level: str | None = None) -> None:
        """Replace the interview screen with its scorecard (back goes home, not into the interview)."""
        from tui.screens.scorecard_screen import ScorecardScreen

        self.switch_screen(ScorecardScreen(scorecard, record, target_level=target_level))

    def open_replay(self, interview_id: int) -> None:
        from tui.screens.replay_screen import ReplayScreen

        record = self.load_record(interview_id)
        if record is not None:
            self.push_screen(ReplayScreen(record))

    def export_record(self, record: InterviewRecord) -> None:
        from tui.screens.export_modal import ExportModal

        self.push_screen(ExportModal(record))

    def open_learn(self, scenario) -> None:
        """Learn mode: a scenario's steps, cited notes and model answer, page by page."""
        from tui.screens.learn_screen import LearnScreen

        self.push_screen(LearnScreen(scenario))

    def action_drills(self, topic: str | None = None) -> None:
        """Drill mode: pick a topic or "practise next" (``topic`` starts one at once)."""
        from tui.screens.drill_screen import DrillScreen

        if not isinstance(self.screen, DrillScreen):
            self.push_screen(DrillScreen(topic))

    def action_help(self) -> None:
        from tui.screens.help_screen import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_history(self) -> None:
        from tui.screens.history_screen import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen())

    def _interview_screen(self):
        """The interview screen in the stack, even under a modal (the palette, the calculator)."""
        from tui.screens.interview_screen import InterviewScreen

        return next((screen for screen in reversed(self.screen_stack) if isinstance(screen, InterviewScreen)), None)

    def action_home(self) -> None:
        """Home; from an interview through its leave action, which stores the typed draft first."""
        interview = self._interview_screen() if "tui.screens.interview_screen" in sys.modules else None
        if interview is not None:
            interview.action_leave()
        else:
            self.return_home()

    async def action_quit(self) -> None:
        """Quit; asks first when an answer is typed but not sent (it is kept as a draft either way)."""
        interview = self._interview_screen() if "tui.screens.interview_screen" in sys.modules else None
        if interview is not None:
            interview.save_draft()
        if interview is None or not interview.unsent_text():
            self.exit()
            return
        from tui.screens.confirm_modal import ConfirmationModal

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(
            ConfirmationModal(
                "Your answer is not sent yet. Quit anyway? (It is kept as a draft: resume the interview to send it.)",
                confirm="Quit",
            ),
            confirmed,
        )

    def action_toggle_theme(self) -> None:
        self.theme = LIGHT_THEME if self.current_theme.dark else DARK_THEME

    # -- command palette -----------------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Home", "Back to the scenario list", self.action_home)
        yield SystemCommand("History", "Past interviews, replays and your scores over time", self.action_history)
        yield SystemCommand("Drill", "Practice questions per topic, with mastery and what to practise next", self.action_drills)
        yield SystemCommand("Keys and help", "Every key binding, screen by screen", self.action_help)
        yield SystemCommand("Toggle light/dark theme", "Switch between textual-light and textual-dark", self.action_toggle_theme)
        screen_commands = getattr(screen, "palette_commands", None)
        if screen_commands is not None:
            yield from screen_commands()


def load_ui_state() -> dict:
    """What ``save_ui_state`` kept; {} when there is nothing (or it cannot be read)."""
    import json

    from interviewer.locations import ui_state_file

    try:
        state = json.loads(ui_state_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def save_ui_state(**changes) -> None:
    """Merge ``changes`` into the UI state file (written whole, then renamed: never half a file)."""
    import json

    from interviewer.locations import ui_state_file

    path = ui_state_file()
    state = {**load_ui_state(), **changes}
    try:
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2), encoding="utf-8")
        temporary.replace(path)
    except OSError as error:  # a read-only data dir costs the remembered choice, nothing else
        logger.warning("cannot save %s: %s", path, error)


def open_core(
    settings: Settings | None = None,
    *,
    store: TranscriptStore | None = None,
    agent_factory: AgentFactory | None = None,
    services: CoreServices | None = None,
) -> Core:
    """Settings, store and entry points; what cannot be opened becomes a start-up problem.

    ``agent_factory(scenario_id, level=..., time_limit_minutes=..., mode=...)`` defaults to
    ``interviewer.engine.start_interview`` bound to ``settings`` and ``store``. ``services``
    replaces every core entry point at once (tests pass fakes); ``agent_factory`` wins over
    ``services.agent_factory`` when both are given.
    """
    problems: list[str] = []
    if settings is None:
        from interviewer.config import ConfigError, Settings, load_settings

        try:
            settings = load_settings()
        except ConfigError as error:
            problems.append(str(error))
            settings = Settings.model_construct()
    if store is None:
        from interviewer.store.db import StoreError, open_store

        try:
            store = open_store()
        except StoreError as error:
            problems.append(f"{error} History and resume are off for this session.")
    if services is None:
        services = default_services(settings, store, agent_factory)
    elif agent_factory is not None:
        services.agent_factory = agent_factory
    return Core(settings, store, services, problems)


def make_app(
    settings: Settings | None = None,
    *,
    store: TranscriptStore | None = None,
    agent_factory: AgentFactory | None = None,
    resume_id: int | None = None,
    services: CoreServices | None = None,
) -> InterviewerApp:
    """Build the app with its core opened now; the CLI's flags and every test go through here."""
    core = open_core(settings, store=store, agent_factory=agent_factory, services=services)
    return InterviewerApp(core, resume_id=resume_id)


def run_app(
    settings: Settings | None = None,
    *,
    store: TranscriptStore | None = None,
    agent_factory: AgentFactory | None = None,
    resume_id: int | None = None,
    services: CoreServices | None = None,
) -> None:
    """Entry point for ``interviewer``; with nothing given, the core opens after the first paint."""
    if settings is None and store is None and agent_factory is None and services is None:
        app = InterviewerApp(open_core, resume_id=resume_id)
    else:
        app = make_app(settings, store=store, agent_factory=agent_factory, resume_id=resume_id, services=services)
    app.run()
