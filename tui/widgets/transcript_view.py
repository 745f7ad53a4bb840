"""The conversation: interviewer turns as Markdown (streamed while they arrive), answers as typed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownBlock

from interviewer.domain import CandidateNote
from tui.widgets.claim_card import ClaimCard

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.widget import AwaitMount

    from interviewer.domain import Turn

_INTERVIEWER_TITLES = {
    "question": "Interviewer",
    "followup": "Interviewer · follow-up",
    "challenge": "Interviewer · challenge",
    "pushback": "Interviewer · push-back",
    "hint": "Hint",
    "skip": "Interviewer · step skipped",
    "closing": "Interviewer · wrap-up",
    "notice": "Notice",
}


def turn_title(role: str, kind: str) -> str:
    if role == "candidate":
        return "You · skipped" if kind == "skip" else "You"
    if role == "system":
        return "Notice"
    return _INTERVIEWER_TITLES.get(kind, "Interviewer")


class TranscriptMarkdown(Markdown):
    """An interviewer (or system) turn. Interviewer texts are Markdown by contract."""

    DEFAULT_CSS = """
    TranscriptMarkdown { height: auto; }
    """

    def __init__(self, text: str = "", *, role: str = "interviewer", kind: str = "question") -> None:
        super().__init__(text, classes=f"transcript-entry -{role} -{kind}")
        self.border_title = turn_title(role, kind)

    def on_markdown_table_of_contents_updated(self, event: Markdown.TableOfContentsUpdated) -> None:
        """After every (re)render, mark the last block so its bottom margin goes (see the CSS)."""
        event.stop()
        blocks = self.query_children(MarkdownBlock)
        for block in blocks.filter(".-last-block"):
            block.remove_class("-last-block")
        if blocks:
            blocks.last().add_class("-last-block")

    def set_kind(self, role: str, kind: str) -> None:
        for css_class in list(self.classes):
            if css_class.startswith("-") and css_class not in ("-interviewer", "-system", "-candidate"):
                self.remove_class(css_class)
        self.add_class(f"-{kind}")
        self.border_title = turn_title(role, kind)


class CandidateAnswer(Static):
    """An answer exactly as typed (no Markdown: ``16*10e9*2`` must not turn into italics)."""

    def __init__(self, text: str, *, kind: str = "answer", pending: bool = False) -> None:
        super().__init__(text, markup=False, classes=f"transcript-entry -candidate -{kind}")
        self.text = text
        """The answer as typed, to put back in the editor if sending fails."""
        self.border_title = turn_title("candidate", kind)
        if pending:
            self.add_class("-pending")
            self.border_subtitle = "sending…"

    def mark_recorded(self) -> None:
        self.remove_class("-pending")
        self.border_subtitle = ""


class CandidateNoteEntry(Static):
    """The candidate's own note on a question, as typed (a replay shows it after the question)."""

    def __init__(self, text: str) -> None:
        super().__init__(text, markup=False, classes="transcript-entry -candidate -note")
        self.text = text
        self.border_title = "Your note"
        self.border_subtitle = "not graded"


class TranscriptView(VerticalScroll):
    """The dialogue, newest at the bottom; stays scrolled to the end unless the user scrolls up."""

    DEFAULT_CSS = """
    TranscriptView { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None, formatter: Callable[[float, str], str] | None = None) -> None:
        super().__init__(id=id, can_focus=True)
        self.formatter = formatter
        """Renders a claim's values with units (``160 GB (149 GiB)``); None: plain numbers."""

    def on_mount(self) -> None:
        self.anchor()

    # Mounting methods return the AwaitMount instead of awaiting it: a turn's events arrive in
    # a burst, and mounts left to complete together cost one layout pass instead of one each.

    def add_turn(self, turn: Turn) -> AwaitMount:
        return self.mount(self._entry(turn))

    def add_turns(self, turns: list[Turn | CandidateNote]) -> AwaitMount:
        """Many turns (and, in a replay, notes) in one mount (a resumed interview, a replay)."""
        return self.mount_all([self._entry(turn) for turn in turns])

    @staticmethod
    def _entry(turn: Turn | CandidateNote) -> TranscriptMarkdown | CandidateAnswer | CandidateNoteEntry:
        if isinstance(turn, CandidateNote):
            return CandidateNoteEntry(turn.text)
        role, kind = str(turn.role.value), str(turn.kind.value)
        if role == "candidate":
            return CandidateAnswer(turn.text, kind=kind)
        return TranscriptMarkdown(turn.text, role=role, kind=kind)

    def add_pending_answer(self, text: str) -> CandidateAnswer:
        """Show the answer at once; the agent confirms it with ``CandidateTurnRecorded``."""
        answer = CandidateAnswer(text, pending=True)
        self.mount(answer)
        self.anchor()
        return answer

    async def begin_reply(self) -> TranscriptMarkdown:
        """An empty interviewer turn to stream into (``Markdown.get_stream``)."""
        reply = TranscriptMarkdown("", role="interviewer", kind="question")
        reply.border_subtitle = "typing…"
        await self.mount(reply)
        return reply

    def add_claim(self, claim: dict) -> AwaitMount:
        return self.mount(ClaimCard(claim, formatter=self.formatter, compact=True, classes="inline-claim"))

    def add_notice(self, text: str, severity: str = "information") -> AwaitMount:
        notice = TranscriptMarkdown(text, role="system", kind="notice")
        notice.add_class(f"-{severity}")
        return self.mount(notice)

    @property
    def entries(self) -> list[TranscriptMarkdown | CandidateAnswer]:
        return list(self.query(".transcript-entry"))

    def plain_text(self) -> str:
        """Everything shown, as text (tests and the tmux check read this)."""
        parts = []
        for entry in self.entries:
            if isinstance(entry, CandidateAnswer | CandidateNoteEntry):
                parts.append(entry.text)
            else:
                parts.append(entry.source)
        return "\n\n".join(parts)
