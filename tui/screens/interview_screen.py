"""The interview: the conversation, the answer editor, and a side panel with steps, timer and claims.

Every agent call runs in one async worker group (``exclusive=True, group="agent"``), so the
screen keeps responding while a turn is computed: the candidate can scroll, open the
calculator or start the next answer, and a turn that takes more than a moment shows a spinner.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Label, Markdown, Static, TextArea

from interviewer.events import (
    CandidateTurnRecorded,
    ClaimChecked,
    CriteriaCovered,
    HintGiven,
    InterviewerMessage,
    InterviewFinished,
    Notice,
    ScoreReady,
    StepAdvanced,
    TokenDelta,
)
from tui.widgets.answer_editor import AnswerEditor
from tui.widgets.claim_card import ClaimCard
from tui.widgets.interview_timer import InterviewTimer
from tui.widgets.key_footer import KeyFooter
from tui.widgets.models_status import ModelsStatus
from tui.widgets.step_progress import StepProgress
from tui.widgets.transcript_view import CandidateAnswer, TranscriptMarkdown, TranscriptView
from tui.widgets.turn_status import TurnStatus

if TYPE_CHECKING:
    from textual.app import SystemCommand

    from interviewer.domain import InterviewRecord
    from interviewer.engine.protocol import InterviewAgent

logger = logging.getLogger(__name__)

DRAFT_SAVE_DELAY_SECONDS = 0.4
"""The typed answer is stored this long after the last keystroke (and at once on every way out)."""

SIDE_PANEL_MIN_WIDTH = 100
"""Below this many columns the side panel is hidden (F8 shows it) and claims appear inline."""

TURN_LABELS = {
    "start": "Preparing the interview",
    "respond": "The interviewer is thinking",
    "hint": "Finding a hint",
    "skip": "Moving to the next step",
    "end": "Scoring the interview",
}


@dataclass(frozen=True)
class InterviewRequest:
    """What to open: a new interview (scenario and options) or an unfinished one (``resume_id``)."""

    scenario_id: str | None = None
    level: str = "senior"
    mode: str | None = None
    time_limit_minutes: float | None = None
    resume_id: int | None = None


class InterviewScreen(Screen):
    """Renders the agent's events; never scores, stores or checks anything itself."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (SIDE_PANEL_MIN_WIDTH, "-wide")]

    BINDINGS = [
        Binding("ctrl+s,ctrl+j", "send", "Send", tooltip="Send the answer (Enter adds a new line)"),
        Binding("f2,ctrl+t", "hint", "Hint", tooltip="Ask for a hint (asks first: it costs a few points)"),
        Binding("f3,ctrl+n", "skip", "Skip", tooltip="Skip the current step (asks first; marked in the transcript)"),
        Binding("f4,ctrl+o", "calculator", "Calc", tooltip="Scratch calculator"),
        # Kept out of the crowded footer (every other key there is one an interview needs); the
        # help screen and the command palette list it, and the note field names its own keys.
        Binding("f5,ctrl+l", "note", "Note", show=False, tooltip="Your own note on this question (kept with it, never graded)"),
        Binding("f10,ctrl+g", "end", "End", tooltip="End the interview and see the scorecard"),
        Binding("f8", "toggle_side_panel", "Panel", tooltip="Show or hide the side panel"),
        Binding("f9", "leave", "Home", tooltip="Back home without ending; resume it from the recent list"),
        Binding("escape", "focus_editor", "Editor", show=False),
    ]

    def __init__(self, request: InterviewRequest) -> None:
        super().__init__()
        self.request = request
        self.agent: InterviewAgent | None = None
        """The running interview, once the engine has created or re-opened it."""
        self.turn_in_flight: str | None = None
        """The agent call being computed (``respond``, ``hint``...), None when idle."""
        self.finished = False
        self._turn_serial = 0
        self._side_override: bool | None = None
        self._claim_counts = {"correct": 0, "incorrect": 0, "unverifiable": 0}
        self._hints = 0
        self._draft_timer: Timer | None = None
        self._unrecorded_answer = ""
        """An answer sent but not yet recorded by the engine: kept in the draft until it is."""
        self._typed_text = ""

    # -- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        services = self.app.services
        yield Header()
        with Horizontal(id="interview-body"):
            with Vertical(id="conversation"):
                with Horizontal(id="interview-bar"):
                    yield Label("Preparing…", id="bar-step")
                    yield Label("", id="bar-claims")
                    yield ModelsStatus()
                    yield InterviewTimer(clock=services.clock, id="timer")
                yield TranscriptView(id="transcript", formatter=services.format_quantity)
                yield TurnStatus(id="turn-status")
                yield AnswerEditor(id="answer")
            with Vertical(id="side"):
                yield Label("Progress", classes="side-title")
                yield Static("", id="side-scenario")
                yield Label("Claim checks", classes="side-title")
                yield VerticalScroll(Static("None yet: numbers you give are checked here.", id="claims-empty"), id="claims")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(AnswerEditor).focus()
        self._update_layout()
        self.open_interview()

    def on_resize(self) -> None:
        self._update_layout()
        self._update_claims_bar()

    def _update_layout(self) -> None:
        wide = self.size.width >= SIDE_PANEL_MIN_WIDTH
        visible = self._side_override if self._side_override is not None else wide
        self.set_class(visible, "-side-visible")

    # -- opening -------------------------------------------------------------------------------

    @work(exclusive=True, group="agent", exit_on_error=False)
    async def open_interview(self) -> None:
        """Create (or re-open) the agent off the event loop, then run its ``start``."""
        services = self.app.services
        request = self.request
        self.query_one(TurnStatus).begin(TURN_LABELS["start"])
        self._begin_turn("start")
        try:
            if request.resume_id is not None:
                agent = await asyncio.to_thread(services.resume_factory, request.resume_id)
            else:
                agent = await asyncio.to_thread(
                    services.agent_factory,
                    request.scenario_id,
                    level=request.level,
                    time_limit_minutes=request.time_limit_minutes,
                    mode=request.mode,
                )
        except Exception as error:
            self._end_turn()
            what = f"resume interview {request.resume_id}" if request.resume_id is not None else "start the interview"
            self.app.notify_error(f"Could not {what}: {error}")
            self.dismiss_to_home()
            return
        self.agent = agent
        await self._show_agent(agent)
        self._restore_draft(agent)
        if agent.finished:
            self._end_turn()
            self.app.call_later(self.app.show_scorecard, agent.scorecard(), self._record(), target_level=agent.level)
            return
        await self._consume("start", agent.start())

    async def _show_agent(self, agent: InterviewAgent) -> None:
        """Steps, the conversation so far (on resume) and the claims already checked."""
        scenario = agent.scenario
        # Level and mode first: a narrow header cuts the end, and the title is in the transcript too.
        self.sub_title = f"{agent.level} · {agent.mode} · {scenario.title}"
        self.query_one("#side-scenario", Static).update(
            Content.from_markup("[b]$title[/b]\n[dim]$meta[/dim]", title=scenario.title, meta=f"{agent.level} · {agent.mode}")
        )
        progress = StepProgress([step.title for step in scenario.steps], criteria_total=len(scenario.criteria), id="steps")
        await self.query_one("#side").mount(progress, after="#side-scenario")
        progress.covered = len(agent.covered_criteria)
        progress.step_index = agent.step_index
        self._show_step_in_bar(agent.step_index, len(scenario.steps))
        self.query_one(InterviewTimer).remaining = agent.remaining_seconds
        self.query_one(InterviewTimer).tick()
        self._hints = agent.hints_used
        if agent.turns:
            await self.query_one(TranscriptView).add_turns(agent.turns)
        for claim in agent.claims:
            self._add_claim_to_panel(claim)
        self._update_claims_bar()

    # -- the event loop of a turn ----------------------------------------------------------------

    async def _consume(self, action: str, events: AsyncIterator[Any], answer: str = "", pending: CandidateAnswer | None = None) -> None:
        """Render every event of one agent call; on failure, notify and give the answer back."""
        transcript = self.query_one(TranscriptView)
        self.query_one(TurnStatus).begin(TURN_LABELS.get(action, "Working"))
        if self.turn_in_flight != action:
            self._begin_turn(action)
        turn = self._turn_serial
        recorded = pending is None
        reply: TranscriptMarkdown | None = None
        stream = None
        try:
            async for event in events:
                if isinstance(event, TokenDelta):
                    if stream is None:
                        reply = await transcript.begin_reply()
                        stream = Markdown.get_stream(reply)
                    await stream.write(event.text)
                elif isinstance(event, InterviewerMessage):
                    if stream is not None and reply is not None:
                        await stream.stop()
                        stream = None
                        # The complete turn is the reference: replace whatever was streamed.
                        await reply.update(event.turn.text)
                        reply.set_kind(event.turn.role.value, event.turn.kind.value)
                        reply.border_subtitle = ""
                        reply = None
                    else:
                        transcript.add_turn(event.turn)
                elif isinstance(event, CandidateTurnRecorded):
                    recorded = True
                    if pending is not None:
                        pending.mark_recorded()
                    self._unrecorded_answer = ""
                    self.save_draft()
                elif isinstance(event, HintGiven):
                    self._hints = event.hints_used
                    transcript.add_turn(event.turn)
                elif isinstance(event, ClaimChecked):
                    self._add_claim(event.claim)
                elif isinstance(event, CriteriaCovered):
                    steps = self.query_one(StepProgress)
                    steps.criteria_total = event.total
                    steps.covered = event.covered
                elif isinstance(event, StepAdvanced):
                    self.query_one(StepProgress).step_index = event.index
                    self._show_step_in_bar(event.index, event.total)
                elif isinstance(event, Notice):
                    severity = event.severity if event.severity in ("information", "warning", "error") else "information"
                    self.app.notify(event.text, severity=severity, markup=False)
                    transcript.add_notice(event.text, severity)
                elif isinstance(event, InterviewFinished):
                    self._mark_finished(event.reason)
                elif isinstance(event, ScoreReady):
                    self._mark_finished("completed")
                    self.app.call_later(self.app.show_scorecard, event.scorecard, self._record(), target_level=self.agent.level if self.agent else None)
        except Exception as error:
            self._turn_failed(action, error, answer, pending, recorded)
        finally:
            if stream is not None:
                await stream.stop()
            if reply is not None and not reply.source.strip():
                await reply.remove()
            # An "end" that cancelled this turn has begun its own: leave its busy state alone.
            if turn == self._turn_serial:
                self._end_turn()

    def _turn_failed(self, action: str, error: Exception, answer: str, pending: CandidateAnswer | None, recorded: bool) -> None:
        message = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        self._unrecorded_answer = ""
        if answer and not recorded:
            if pending is not None:
                pending.remove()
            self.query_one(AnswerEditor).restore(answer)
            self.app.notify_error(f"The answer was not sent ({message}). It is back in the editor: press Ctrl+S to retry.")
        elif answer:
            self.app.notify_error(
                f"Your answer is saved, but the interviewer could not reply ({message}). "
                "Ask for a hint, skip, or end the interview to go on."
            )
        else:
            self.app.notify_error(f"Could not {action} ({message}).")

    def _mark_finished(self, reason: str) -> None:
        if self.finished:
            return
        self.finished = True
        self.query_one(InterviewTimer).running = False
        editor = self.query_one(AnswerEditor)
        editor.read_only = True
        editor.border_subtitle = "interview finished"
        if reason == "time_limit":
            self.app.notify("Time is up: the interview is over.", severity="warning")

    def _record(self) -> InterviewRecord | None:
        """The stored interview (for export); built from the agent when there is no store."""
        agent = self.agent
        if agent is None:
            return None
        store = self.app.store
        if store is not None and agent.interview_id is not None:
            try:
                return store.get(agent.interview_id)
            except Exception:  # the scorecard still shows; export will say what is missing
                return None
        from interviewer.domain import InterviewRecord, InterviewStatus, utcnow

        return InterviewRecord(
            id=agent.interview_id or 0,
            scenario_id=agent.scenario.id,
            scenario_hash="",
            title=agent.scenario.title,
            mode=agent.mode,
            level=agent.level,
            status=InterviewStatus.finished if agent.finished else InterviewStatus.active,
            started_at=agent.turns[0].created_at if agent.turns else utcnow(),
            turns=agent.turns,
            scorecard=agent.scorecard() if agent.finished else None,
        )

    # -- side panel and bar ----------------------------------------------------------------------

    def _add_claim(self, claim: dict) -> None:
        self.query_one(TranscriptView).add_claim(claim)
        self._add_claim_to_panel(claim)
        self._update_claims_bar()

    def _add_claim_to_panel(self, claim: dict) -> None:
        verdict = str(claim.get("verdict") or "unverifiable")
        self._claim_counts[verdict] = self._claim_counts.get(verdict, 0) + 1
        claims = self.query_one("#claims", VerticalScroll)
        claims.query("#claims-empty").remove()
        claims.mount(ClaimCard(claim, formatter=self.app.services.format_quantity, compact=True))
        claims.call_after_refresh(claims.scroll_end, animate=False)

    def _update_claims_bar(self) -> None:
        counts = self._claim_counts
        if not any(counts.values()):
            self.query_one("#bar-claims", Label).update("")
            return
        # The word "claims" only where there is room: at 80 columns the step's name needs it.
        prefix = "claims " if self.size.width >= SIDE_PANEL_MIN_WIDTH else ""
        self.query_one("#bar-claims", Label).update(
            Content.from_markup(
                prefix + "[$text-success]✔$ok[/] [$text-error]✘$bad[/] [$text-warning]?$unknown[/]",
                ok=str(counts["correct"]),
                bad=str(counts["incorrect"]),
                unknown=str(counts["unverifiable"]),
            )
        )

    def _show_step_in_bar(self, index: int, total: int) -> None:
        agent = self.agent
        label = self.query_one("#bar-step", Label)
        if agent is None or index >= total:
            label.update(Content.from_markup("[b]All steps done[/b]"))
            return
        title = agent.scenario.steps[index].title
        label.update(Content.from_markup("[b]Step $n/$total[/b] · $name", n=str(index + 1), total=str(total), name=title))

    # -- actions ---------------------------------------------------------------------------------

    def _ready(self) -> bool:
        if self.agent is None:
            self.app.notify("The interview is still being prepared.", severity="warning", timeout=2)
            return False
        if self.finished:
            self.app.notify("The interview is over.", severity="warning", timeout=2)
            return False
        if self.turn_in_flight is not None:
            self.app.notify(
                "The interviewer is still replying; your text stays in the editor.", severity="warning", timeout=3
            )
            return False
        return True

    async def action_send(self) -> None:
        editor = self.query_one(AnswerEditor)
        if not editor.text.strip():
            self.app.notify("Type an answer first: Enter adds a new line, Ctrl+S sends.", timeout=3)
            return
        if not self._ready():
            return
        answer = editor.take_text()
        self._unrecorded_answer = answer
        # Busy from this very frame: a second Ctrl+S while the bubble mounts must not send twice.
        self._begin_turn("respond")
        pending = self.query_one(TranscriptView).add_pending_answer(answer)
        self.run_agent("respond", answer, pending)

    def action_hint(self) -> None:
        """Asks first: a hint costs points, and F2 is easy to hit by accident."""
        if not self._ready():
            return
        penalty = getattr(self.app.settings, "hint_penalty", 0)
        cost = f"It costs {penalty:g} points." if penalty else "It is noted on the scorecard."
        self._confirm_then(f"Take a hint for this question? {cost}", "Hint", self._take_hint)

    def _take_hint(self) -> None:
        self._begin_turn("hint")
        self.run_agent("hint")

    def action_skip(self) -> None:
        """Asks first (a skipped step scores nothing); the skip is then marked in the transcript."""
        if not self._ready():
            return
        agent = self.agent
        step = agent.scenario.steps[agent.step_index] if agent and agent.step_index < len(agent.scenario.steps) else None
        what = f"step {agent.step_index + 1}, “{step.title}”" if agent and step else "this step"
        self._confirm_then(f"Skip {what}? It counts as not answered.", "Skip step", self._take_skip)

    def _take_skip(self) -> None:
        self._begin_turn("skip")
        # The engine stores the skip as the candidate's turn; show it the way a replay does.
        self.query_one(TranscriptView).mount(CandidateAnswer("(skipped)", kind="skip"))
        self.run_agent("skip")

    def _confirm_then(self, question: str, confirm: str, then) -> None:
        from tui.screens.confirm_modal import ConfirmationModal

        def answered(yes: bool | None) -> None:
            # The turn may have become busy (or finished) while the question was open.
            if yes and self._ready():
                then()

        self.app.push_screen(ConfirmationModal(question, confirm=confirm), answered)

    def _begin_turn(self, action: str) -> None:
        self._turn_serial += 1
        self.turn_in_flight = action
        self.query_one(AnswerEditor).show_busy(True)

    def _end_turn(self) -> None:
        self.query_one(TurnStatus).end()
        self.query_one(AnswerEditor).show_busy(False)
        self.turn_in_flight = None

    def action_end(self) -> None:
        if self.agent is None or self.finished:
            self._ready()
            return
        from tui.screens.confirm_modal import ConfirmationModal

        def confirmed(yes: bool | None) -> None:
            if yes:
                # exclusive=True: a turn still in flight is cancelled (the engine keeps what arrived).
                self._begin_turn("end")
                self.run_agent("end")

        self.app.push_screen(
            ConfirmationModal("End the interview now and see your scorecard?", confirm="End interview"), confirmed
        )

    def action_calculator(self) -> None:
        from tui.screens.calculator_modal import CalculatorMemory, CalculatorModal, given_inputs

        def insert(snippet: str | None) -> None:
            if snippet:
                editor = self.query_one(AnswerEditor)
                if not editor.read_only:
                    editor.insert_snippet(snippet)
                editor.focus()

        given = given_inputs(self.agent.scenario) if self.agent is not None else {}
        if self.app.calculator_memory is None:
            self.app.calculator_memory = CalculatorMemory()
        self.app.push_screen(CalculatorModal(given, memory=self.app.calculator_memory), insert)

    def action_note(self) -> None:
        """Open the note on the current question; it can be written while the interviewer replies."""
        agent = self.agent
        if agent is None or self.finished or agent.current_step is None:
            self._ready()
            return
        from tui.screens.note_modal import NoteModal

        step, index, total = agent.current_step, agent.step_index, len(agent.scenario.steps)
        step_id = step.id  # the note belongs to this question even if a reply moves the interview on

        def store(text: str) -> None:
            try:
                note = agent.save_note(text, step_id=step_id)
            except Exception as error:  # a full disk, say: say so, keep going
                self.app.notify_error(f"The note was not saved ({error}).")
                return
            what = "saved" if note.text else "deleted"
            self.app.notify(f"Note {what} on question {index + 1}.", timeout=3)

        def saved(text: str | None) -> None:
            self.query_one(AnswerEditor).focus()
            if text is not None:
                store(text)

        modal = NoteModal(f"Question {index + 1} of {total}: {step.title}", agent.note(step_id), on_abandoned=store)
        self.app.push_screen(modal, saved)

    def action_toggle_side_panel(self) -> None:
        self._side_override = not self.has_class("-side-visible")
        self._update_layout()

    def action_focus_editor(self) -> None:
        self.set_focus(self.query_one(AnswerEditor))

    def unsent_text(self) -> str:
        """What is typed in the editor and not sent (the app asks before quitting over it)."""
        return "" if self.finished else self.query_one(AnswerEditor).text.strip()

    # -- the draft: stored as it is typed, so no way out loses it ----------------------------------

    @on(TextArea.Changed, "#answer")
    def _draft_changed(self, event: TextArea.Changed) -> None:
        self._typed_text = event.text_area.text
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(DRAFT_SAVE_DELAY_SECONDS, self.save_draft, name="save-draft")

    def _draft_text(self) -> str:
        editors = self.query(AnswerEditor)
        # While the screen is being removed its editor may already be gone: use the last text seen.
        typed = (editors.first().text if editors else self._typed_text).strip()
        return "\n\n".join(part for part in (self._unrecorded_answer, typed) if part)

    def save_draft(self) -> None:
        """Store what is typed (and any answer the engine has not recorded yet) for this interview."""
        if self._draft_timer is not None:
            self._draft_timer.stop()
            self._draft_timer = None
        agent, store = self.agent, self.app.store
        if agent is None or store is None or agent.interview_id is None:
            return
        try:
            store.save_draft(agent.interview_id, "" if self.finished else self._draft_text())
        except Exception as error:  # a full disk must not take the interview down: log it and go on
            logger.warning("could not save the draft of interview %s: %s", agent.interview_id, error)

    def _restore_draft(self, agent: InterviewAgent) -> None:
        store = self.app.store
        if agent.finished or store is None or agent.interview_id is None:
            return
        try:
            draft = store.draft(agent.interview_id)
        except Exception as error:
            logger.warning("could not read the draft of interview %s: %s", agent.interview_id, error)
            return
        editor = self.query_one(AnswerEditor)
        if draft and not editor.text.strip():
            editor.text = draft
            editor.move_cursor(editor.document.end)
            self.app.notify("Your unsent answer is back in the editor.", timeout=4)

    def on_unmount(self) -> None:
        self.save_draft()

    def action_leave(self) -> None:
        """Back home without ending; the interview and the typed draft stay for a resume."""
        self.save_draft()
        if not self.finished and self.agent is not None:
            kept = " and your unsent answer" if self.unsent_text() else ""
            self.app.notify(f"Interview{kept} saved: resume it from the home screen or history.", timeout=4)
        self.dismiss_to_home()

    def dismiss_to_home(self) -> None:
        self.app.return_home()

    @work(exclusive=True, group="agent", exit_on_error=False)
    async def run_agent(self, action: str, answer: str = "", pending: CandidateAnswer | None = None) -> None:
        agent = self.agent
        if agent is None:
            return
        events = agent.respond(answer) if action == "respond" else getattr(agent, action)()
        await self._consume(action, events, answer, pending)

    @on(InterviewTimer.TimeUp)
    def _time_up(self) -> None:
        if not self.finished:
            self.app.notify("Time is up. Send your last answer or press F10 to end.", severity="warning", timeout=6)

    def palette_commands(self) -> list[SystemCommand]:
        from textual.app import SystemCommand

        return [
            SystemCommand("Send answer", "Send what is in the editor (Ctrl+S)", self.action_send),
            SystemCommand("Hint", "Ask for a hint; costs a few points (F2)", self.action_hint),
            SystemCommand("Skip step", "Move on to the next step (F3)", self.action_skip),
            SystemCommand("Note on this question", "Your own note, kept with the question and never graded (F5)", self.action_note),
            SystemCommand("Scratch calculator", "Run any calculator without leaving the interview (F4)", self.action_calculator),
            SystemCommand("End interview", "Finish now and see the scorecard (F10)", self.action_end),
            SystemCommand("Toggle side panel", "Steps, timer and claim checks (F8)", self.action_toggle_side_panel),
            SystemCommand("Leave interview", "Back home without ending; resume it later from the recent list (F9)", self.action_leave),
        ]
