"""Drill: pick a topic or "practise next", then ten questions with immediate feedback.

The screen only renders what ``interviewer.drills`` decides: the session's items, the checked
result and its worked solution. Checking runs in a thread worker because a numeric key runs a
calculator (a few import torch on first use); every checked answer is stored at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from interviewer.drills.bank import DrillBank
    from interviewer.drills.check import DrillResult
    from interviewer.drills.progress import DrillProgress, TopicPriority
    from interviewer.drills.schema import DrillItem

PRACTISE_NEXT = "practise-next"
"""The option id of the "practise next" session in the topic list."""


class DrillScreen(Screen):
    """Topic list first; Enter starts a session, Enter checks an answer, Enter again moves on."""

    BINDINGS = [
        Binding("escape", "back", "Back", tooltip="From a question: back to the topics (answers so far are kept); from the topics: home"),
        Binding("f2", "hint", "Hint", tooltip="Show the question's hint"),
        Binding("f3", "skip", "Skip", tooltip="Skip the question (nothing is recorded)"),
    ]

    def __init__(self, topic: str | None = None) -> None:
        super().__init__()
        self.initial_topic = topic
        """A topic to start at once (None: show the topic list)."""
        self.tracker: DrillProgress | None = None
        self.bank: DrillBank | None = None
        self.titles: dict[str, str] = {}
        self.session: list[DrillItem] = []
        self.session_topic: str | None = None
        self.index = 0
        self.right = 0
        self.result: DrillResult | None = None
        """The current question's checked answer; None until it is answered."""
        self.checking = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Loading drills…", id="drill-status", markup=False)
        yield OptionList(id="drill-topics")
        with VerticalScroll(id="drill-body"):
            yield Static("", id="drill-prompt", markup=False)
            yield Static("", id="drill-feedback")
        yield Input(id="drill-answer", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "Drill"
        self._set_mode(picking=True)
        self.load_topics()

    # -- data ----------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="drill-load", exit_on_error=False)
    def load_topics(self) -> None:
        from interviewer.drills.bank import load_bank
        from interviewer.drills.progress import DrillProgress
        from rubrics.loader import load_scenarios

        try:
            scenarios = load_scenarios()
            bank = load_bank()
            store = self.app.store
            tracker = DrillProgress(store, bank, scenarios) if store is not None else None
            priorities = tracker.priorities() if tracker else []
        except Exception as error:  # broken drill files: say so, keep the app up
            self.app.call_from_thread(self.app.notify_error, f"Cannot load the drills: {error}", title="Drills")
            return
        titles = {scenario.id: scenario.title for scenario in scenarios}
        self.app.call_from_thread(self._show_topics, bank, tracker, priorities, titles)

    def _show_topics(self, bank: DrillBank, tracker: DrillProgress | None, priorities: list[TopicPriority], titles: dict[str, str]) -> None:
        self.tracker = tracker
        self.bank = bank
        self.titles = titles
        if tracker is None:
            self.app.notify("The transcript database is not available: answers are checked but not counted.", severity="warning")
        levels = {p.topic: p.mastery for p in priorities}
        options = [Option(Content("▶ Practise next: missed drills that are due, then your weakest, most-probed topics"), id=PRACTISE_NEXT)]
        for topic in bank.topics():
            mastery = levels.get(topic)
            level = mastery.level.value if mastery else "unknown"
            due = f" ({mastery.due} due)" if mastery and mastery.due else ""
            options.append(Option(Content(f"{level:<8} {titles.get(topic, topic)}{due}"), id=topic))
        topic_list = self.query_one("#drill-topics", OptionList)
        topic_list.clear_options()
        topic_list.add_options(options)
        topic_list.highlighted = 0
        self.query_one("#drill-status", Static).update(f"Pick a topic, or practise next · {len(bank.items)} drills over {len(bank.topics())} topics")
        if self.initial_topic is not None:
            topic, self.initial_topic = self.initial_topic, None
            self.start_session(None if topic == PRACTISE_NEXT else topic)

    # -- modes ---------------------------------------------------------------------------------

    def _set_mode(self, *, picking: bool) -> None:
        self.query_one("#drill-topics").display = picking
        self.query_one("#drill-body").display = not picking
        self.query_one("#drill-answer").display = not picking
        if picking:
            self.query_one("#drill-topics").focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        in_question = bool(self.session) and self.index < len(self.session) and self.result is None
        if action in ("hint", "skip"):
            return in_question
        return True

    @on(OptionList.OptionSelected, "#drill-topics")
    def _topic_chosen(self, event: OptionList.OptionSelected) -> None:
        topic = event.option.id
        self.start_session(None if topic == PRACTISE_NEXT else topic)

    def start_session(self, topic: str | None) -> None:
        if self.tracker is not None:
            items = self.tracker.session(topic)
        else:  # no store: no history to schedule from, so the topic's items in order
            items = (self.bank.for_topic(topic) if topic else list(self.bank.items))[:10]
        if not items:
            self.app.notify("Nothing to practise there yet.", severity="warning")
            return
        self.session, self.session_topic, self.index, self.right = items, topic, 0, 0
        self._set_mode(picking=False)
        self._show_question()

    # -- questions -----------------------------------------------------------------------------

    def _show_question(self) -> None:
        from interviewer.drills.present import answer_instructions, prompt_lines

        item = self.session[self.index]
        self.result = None
        self._show_status()
        self.query_one("#drill-prompt", Static).update("\n".join([*prompt_lines(item), "", answer_instructions(item)]))
        self.query_one("#drill-feedback", Static).update("")
        answer = self.query_one("#drill-answer", Input)
        answer.value = ""
        answer.placeholder = "your answer, then Enter  (F2 hint · F3 skip · Esc topics)"
        answer.focus()
        self.query_one("#drill-body", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    def _show_status(self) -> None:
        item = self.session[self.index]
        self.query_one("#drill-status", Static).update(
            f"Question {self.index + 1} of {len(self.session)} · {self.right} right · {item.kind.value} · {item.difficulty.value}"
            f" · {self.titles.get(item.topic, item.topic)}"
        )

    @on(Input.Submitted, "#drill-answer")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.index >= len(self.session):
            self._finish_session()
        elif self.result is not None:
            self._next_question()
        elif not self.checking:
            if not event.value.strip():
                self.app.notify("Type an answer first (F2 for a hint, F3 to skip).", severity="warning", timeout=3)
                return
            self.checking = True
            self.check(self.session[self.index], event.value)

    @work(thread=True, exclusive=True, group="drill-check", exit_on_error=False)
    def check(self, item: DrillItem, answer: str) -> None:
        from interviewer.drills.check import DrillAnswerError, check_answer

        try:
            result = check_answer(item, answer)
        except DrillAnswerError as error:
            self.app.call_from_thread(self._answer_unreadable, str(error))
            return
        except Exception as error:  # a calculator failing must not lose the session
            self.app.call_from_thread(self._answer_unreadable, f"cannot check this answer: {type(error).__name__}: {error}")
            return
        problem = None
        if self.tracker is not None:
            try:
                self.tracker.record(item, answer, result.correct)
            except Exception as error:
                problem = f"The answer was checked but not stored: {error}"
        self.app.call_from_thread(self._show_feedback, result, problem)

    def _answer_unreadable(self, message: str) -> None:
        self.checking = False
        # The typed answer stays in the field so it can be corrected.
        self.app.notify(message, title="Answer", severity="warning", timeout=6, markup=False)

    def _show_feedback(self, result: DrillResult, problem: str | None) -> None:
        from interviewer.drills.present import feedback_lines

        self.checking = False
        self.result = result
        self.right += result.correct
        self._show_status()
        lines = feedback_lines(result)
        style = "$success" if result.correct else "$error"
        heading = Content.from_markup(f"[b {style}]$line[/]", line=lines[0])
        feedback = self.query_one("#drill-feedback", Static)
        feedback.update(Content("\n").join([Content(""), heading, *(Content(line) for line in lines[1:])]))
        self.call_after_refresh(self.query_one("#drill-body", VerticalScroll).scroll_to_widget, feedback, top=True, animate=False)
        last = self.index + 1 >= len(self.session)
        answer = self.query_one("#drill-answer", Input)
        answer.value = ""  # the verdict quotes it; the empty field shows what Enter does next
        answer.placeholder = "Enter: see the summary" if last else "Enter: next question"
        self.refresh_bindings()
        if problem:
            self.app.notify_error(problem)

    def _next_question(self) -> None:
        self.index += 1
        if self.index >= len(self.session):
            self._show_summary()
        else:
            self._show_question()

    def _show_summary(self) -> None:
        self.result = None
        mastery = self.tracker.mastery() if self.tracker else {}
        topics = list(dict.fromkeys(item.topic for item in self.session))
        levels = ", ".join(f"{self.titles.get(t, t)}: {mastery[t].level.value}" for t in topics if t in mastery)
        self.query_one("#drill-status", Static).update(f"Session done · {self.right} of {len(self.session)} right")
        self.query_one("#drill-prompt", Static).update(
            f"{self.right} of {len(self.session)} right.\n\nMastery now: {levels or 'not stored'}.\n\n"
            "Missed drills come back for review after a day, then 3, 7 and 21 days as you get them right."
        )
        self.query_one("#drill-feedback", Static).update("")
        self.query_one("#drill-answer", Input).placeholder = "Enter: back to the topics"
        self.refresh_bindings()

    def _finish_session(self) -> None:
        self.session = []
        self._set_mode(picking=True)
        self.load_topics()

    # -- actions -------------------------------------------------------------------------------

    def action_hint(self) -> None:
        item = self.session[self.index]
        self.query_one("#drill-feedback", Static).update(Content.from_markup("\n[b]Hint:[/b] $hint", hint=item.hint))

    def action_skip(self) -> None:
        # A skipped question is not an answer: nothing is recorded.
        self._next_question()

    def action_back(self) -> None:
        if self.session and self.query_one("#drill-body").display:
            self._finish_session()
        else:
            self.app.pop_screen()
