"""The app on the real offline engine: embedder, calculators, claim checks, store and exporter.

Slow: the first warm-up builds the knowledge index (shared by the session, see tests/conftest.py).
"""

from __future__ import annotations

import pytest
from tui_helpers import screen_name, settle

from interviewer.config import Settings
from interviewer.domain import InterviewStatus
from tui.app import make_app
from tui.screens.interview_screen import InterviewScreen
from tui.screens.scorecard_screen import ScorecardScreen
from tui.widgets.claim_card import ClaimCard
from tui.widgets.scenario_table import ScenarioTable
from tui.widgets.scorecard_view import CriterionRow
from tui.widgets.transcript_view import TranscriptView

pytestmark = pytest.mark.slow

ANSWERS = [
    "Mixed-precision AdamW keeps 16 bytes per parameter, so the model states are 160 GB for 10B "
    "parameters: they do not fit on one 40 GB GPU.",
    "I would use ZeRO-3 (FSDP) over the 8 GPUs, which is 20 GB of model states per GPU, plus "
    "activation checkpointing to keep activations small.",
]


async def test_full_offline_interview_on_the_real_engine(store, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(Settings(), store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.models_state == "ready"
        table = app.screen.query_one(ScenarioTable)
        assert len(table.shown_scenarios) >= 10
        await pilot.press("slash", *"10B-parameter Transformer", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InterviewScreen)
        assert screen.agent.scenario.id == "train-10b-8gpu"
        transcript = screen.query_one(TranscriptView)
        assert "8 A100 40GB" in transcript.plain_text()
        for answer in ANSWERS:
            screen.query_one("#answer").text = answer
            await pilot.press("ctrl+s")
            await settle(pilot)
            assert screen_name(app) == "InterviewScreen"
        # The numbers were checked by the calculators, and shown by verdict.
        cards = list(screen.query("#claims ClaimCard"))
        assert cards and {card.verdict for card in cards} <= {"correct", "incorrect", "unverifiable"}
        assert any(card.verdict == "correct" for card in cards)
        interview_id = screen.agent.interview_id
        await pilot.press("f2", "enter")  # a real hint (F2 asks first)
        await settle(pilot)
        await pilot.press("f10", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ScorecardScreen)
        rows = list(app.screen.query(CriterionRow))
        assert rows and any(row.criterion.status.value != "missed" for row in rows)
        assert app.screen.query(ClaimCard)
        record = store.get(interview_id)
        assert record.status == InterviewStatus.finished and record.scorecard is not None
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        exported = (tmp_path / f"interview-{interview_id}-train-10b-8gpu.md").read_text()
        assert "160 GB" in exported


async def test_scratch_calculator_runs_a_real_calculator(store):
    app = make_app(Settings(), store=store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        modal = app.screen
        modal.query_one("#calculator-name").value = "model-states"
        await settle(pilot)
        modal.query_one("#field-params").value = "10B"
        modal.query_one("#field-params").focus()
        await pilot.press("enter")
        await settle(pilot)
        output = str(modal.query_one("#calculator-output").render())
        assert "160" in output and "GB" in output
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "160" in app.screen.query_one("#answer").text
