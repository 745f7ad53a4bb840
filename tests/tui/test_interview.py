"""Interview screen: a full interview, every key, streaming, slow and failing turns, resume."""

from __future__ import annotations

import asyncio

from textual.geometry import Region
from textual.widgets import Select
from tui_fakes import KV_SCENARIO, TRAINING_SCENARIO, seed_history
from tui_helpers import notifications, screen_name, settle

from interviewer.domain import InterviewStatus
from tui.screens.interview_screen import InterviewRequest, InterviewScreen
from tui.widgets.answer_editor import AnswerEditor
from tui.widgets.claim_card import ClaimCard
from tui.widgets.step_progress import StepProgress
from tui.widgets.transcript_view import CandidateAnswer, TranscriptView
from tui.widgets.turn_status import TurnStatus


async def open_interview(pilot, scenario_id: str = TRAINING_SCENARIO.id, **options) -> InterviewScreen:
    app = pilot.app
    await settle(pilot)
    app.start_interview(scenario_id, level=options.get("level", "senior"), mode="offline", time_limit_minutes=options.get("minutes"))
    await settle(pilot)
    assert isinstance(app.screen, InterviewScreen)
    return app.screen


def transcript_text(app) -> str:
    return app.screen.query_one(TranscriptView).plain_text()


async def open_calculator(pilot, name: str | None = None):
    """F4 in the interview; with ``name``, that calculator chosen. Returns the modal."""
    await pilot.press("f4")
    await settle(pilot)
    modal = pilot.app.screen
    if name is not None:
        modal.query_one("#calculator-name", Select).value = name
        await settle(pilot)
    return modal


async def test_full_interview_from_home_to_scorecard(app, core, store):
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the first scenario, from the home list
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert app.focused is app.screen.query_one(AnswerEditor)
        assert "Step 1." in transcript_text(app)
        answers = [
            "Mixed-precision Adam needs 16 bytes per param,\nso 160 GB in total.",
            "ZeRO-3 over 8 GPUs gives 20 GB per GPU.",
            "Activation checkpointing: recompute in the backward pass.",
        ]
        for answer in answers:
            first, _, rest = answer.partition("\n")
            await pilot.press(*first)
            if rest:
                await pilot.press("enter", *rest)  # Enter is a new line, not send
            assert screen_name(app) == "InterviewScreen"
            await pilot.press("ctrl+s")
            await settle(pilot)
        assert screen_name(app) == "ScorecardScreen"
        agent = core.agents[0]
        assert agent.calls == ["start", "respond", "respond", "respond"]
        # The multi-line answer arrived whole, newline included.
        assert agent.turns[2].text == answers[0]
        record = store.get(agent.interview_id)
        assert record.status == InterviewStatus.finished
        await pilot.press("escape")
        assert screen_name(app) == "HomeScreen"


async def test_enter_adds_a_new_line_and_ctrl_j_sends(app, core):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        await pilot.press(*"first line", "enter", *"second line")
        editor = screen.query_one(AnswerEditor)
        assert editor.text == "first line\nsecond line"
        assert core.agents[0].calls == ["start"]
        await pilot.press("ctrl+j")
        await settle(pilot)
        assert core.agents[0].calls == ["start", "respond"]
        assert core.agents[0].turns[2].text == "first line\nsecond line"
        assert editor.text == ""


async def test_empty_answer_is_not_sent(app, core):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert core.agents[0].calls == ["start"]
        assert any("Type an answer first" in n for n in notifications(app))


async def test_claims_and_progress_show_in_the_side_panel(app, core):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_interview(pilot)
        screen.query_one(AnswerEditor).text = "The model states are 80 GB."
        await pilot.press("ctrl+s")
        await settle(pilot)
        cards = list(screen.query("#claims ClaimCard"))
        assert len(cards) == 1 and cards[0].verdict == "incorrect"
        assert cards[0].has_class("-incorrect")
        rendered = cards[0].plain_text()
        assert "80.0 GB" in rendered and "160.0 GB" in rendered and "16 bytes/param" in rendered
        # A wrong number shows its working straight away; a right one keeps it folded.
        assert not cards[0].query_one("Collapsible").collapsed
        steps = screen.query_one(StepProgress)
        assert (steps.step_index, steps.covered) == (1, 1)
        assert "Step 2/3" in str(screen.query_one("#bar-step").render())
        # Steps are named by their rubric titles, not by their ids.
        assert "Step 2/3 · Choosing a ZeRO stage" in str(screen.query_one("#bar-step").render())
        step_list = str(screen.query_one("#step-list").render())
        assert [line[2:] for line in step_list.splitlines()] == ["The memory budget", "Choosing a ZeRO stage", "Activation memory"]
        assert "✘1" in str(screen.query_one("#bar-claims").render())
        # Wide terminal: the side panel is shown and the inline copy is hidden.
        assert screen.has_class("-side-visible")
        assert not screen.query_one(".inline-claim").display


async def test_narrow_terminal_hides_the_panel_and_shows_claims_inline(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_interview(pilot)
        assert not screen.has_class("-side-visible")
        assert not screen.query_one("#side").display
        screen.query_one(AnswerEditor).text = "I need 160 GB for the states."
        await pilot.press("ctrl+s")
        await settle(pilot)
        inline = screen.query_one(TranscriptView).query_one(ClaimCard)
        assert inline.display and inline.verdict == "correct"
        assert inline.query_one("Collapsible").collapsed
        await pilot.press("f8")
        assert screen.has_class("-side-visible") and screen.query_one("#side").display
        await pilot.press("f8")
        assert not screen.has_class("-side-visible")


async def test_hint_keys_ask_first(app, core):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press("f2")
        await pilot.pause()
        assert screen_name(app) == "ConfirmationModal"  # a hint costs points: F2 alone does not take one
        assert "costs" in str(app.screen.query_one("#question").render())
        await pilot.press("escape")
        await settle(pilot)
        assert core.agents[0].calls == ["start"]
        await pilot.press("f2", "enter")
        await settle(pilot)
        await pilot.press("ctrl+t", "enter")
        await settle(pilot)
        agent = core.agents[0]
        assert agent.calls == ["start", "hint", "hint"]
        assert TRAINING_SCENARIO.steps[0].hint in transcript_text(app)
        assert any("A hint costs 2 points" in n for n in notifications(app))


async def test_skip_keys_ask_first_and_mark_the_skip_in_the_transcript(app, core):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        await pilot.press("f3")
        await pilot.pause()
        assert screen_name(app) == "ConfirmationModal"
        assert TRAINING_SCENARIO.steps[0].title in str(app.screen.query_one("#question").render())
        await pilot.press("n")
        await settle(pilot)
        assert screen.query_one(StepProgress).step_index == 0
        await pilot.press("f3", "enter")
        await settle(pilot)
        assert screen.query_one(StepProgress).step_index == 1
        skipped = [entry for entry in screen.query(CandidateAnswer) if entry.has_class("-skip")]
        assert [entry.text for entry in skipped] == ["(skipped)"]
        assert skipped[0].border_title == "You · skipped"
        await pilot.press("ctrl+n", "enter")
        await settle(pilot)
        assert screen.query_one(StepProgress).step_index == 2
        assert core.agents[0].calls == ["start", "skip", "skip"]


async def test_end_asks_first_and_shows_the_scorecard(app, core):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press("f10")
        await pilot.pause()
        assert screen_name(app) == "ConfirmationModal"
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "InterviewScreen"
        assert core.agents[0].calls == ["start"]
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert screen_name(app) == "ConfirmationModal"
        await pilot.press("enter")
        await settle(pilot)
        assert core.agents[0].calls == ["start", "end"]
        assert screen_name(app) == "ScorecardScreen"


async def test_escape_returns_focus_to_the_editor(app):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        screen.query_one(TranscriptView).focus()
        await pilot.press("escape")
        assert app.focused is screen.query_one(AnswerEditor)


async def test_slow_turn_shows_progress_and_the_screen_keeps_working(app, core):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        hold = core.agents[0].hold = asyncio.Event()  # the reply waits until the test is done looking
        screen.query_one(AnswerEditor).text = "ZeRO-3 it is."
        await pilot.press("ctrl+s")
        status = screen.query_one(TurnStatus)
        for _ in range(200):  # the spinner appears after SHOW_AFTER_S, however loaded the machine
            if status.has_class("-visible"):
                break
            await pilot.pause(0.05)
        assert status.busy and status.has_class("-visible")
        assert "thinking" in str(status.render())
        assert isinstance(screen.query(CandidateAnswer).last(), CandidateAnswer)
        # Not frozen: the candidate can already type the next answer...
        await pilot.press(*"next")
        assert screen.query_one(AnswerEditor).text == "next"
        # ...but a second send waits for the reply instead of cancelling it.
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert any("still replying" in n for n in notifications(app))
        hold.set()
        await settle(pilot)
        assert not status.busy and not status.has_class("-visible")
        assert core.agents[0].calls == ["start", "respond"]
        assert screen.query_one(AnswerEditor).text == "next"


async def test_failed_turn_notifies_and_puts_the_answer_back(app, core):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        core.agents[0].fail_next = True
        screen.query_one(AnswerEditor).text = "My carefully written answer."
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert any("LLM endpoint unreachable" in n for n in notifications(app))
        assert screen.query_one(AnswerEditor).text == "My carefully written answer."
        assert not screen.query(CandidateAnswer)  # the unsent bubble is gone
        await pilot.press("ctrl+s")  # retry works
        await settle(pilot)
        assert core.agents[0].turns[2].text == "My carefully written answer."


async def test_streamed_reply_ends_as_the_complete_message(app, core):
    core.agent_options = {"stream": True}
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        screen.query_one(AnswerEditor).text = "16 bytes per parameter."
        await pilot.press("ctrl+s")
        await settle(pilot)
        entries = screen.query_one(TranscriptView).entries
        last = entries[-1]
        assert last.source == f"**Step 2.** {TRAINING_SCENARIO.steps[1].question}"
        assert last.border_subtitle == ""


async def test_time_limit_counts_down_in_the_bar(app):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot, minutes=45)
        assert "45:00 left" in str(screen.query_one("#timer").render())


async def test_calculator_keys_run_and_insert_into_the_answer(app):
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_interview(pilot)
        await pilot.press(*"States need ")
        await pilot.press("f4")
        await settle(pilot)
        assert screen_name(app) == "CalculatorModal"
        modal = app.screen
        assert modal.query_one("#calculator-name", Select).value == "kv-cache"
        modal.query_one("#calculator-name", Select).value = "model-states"
        await settle(pilot)
        assert modal.query_one("#field-params").value == "10B"  # from the scenario's given facts
        modal.query_one("#field-params").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert "20.0 GB" in str(modal.query_one("#calculator-output").render())  # the given 8 GPUs
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert screen.query_one(AnswerEditor).text == "States need 20.0 GB (18.6 GiB)"
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert screen_name(app) == "CalculatorModal"
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "InterviewScreen"


async def test_calculator_input_error_names_the_field(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        await pilot.press("f4")
        await settle(pilot)
        modal = app.screen
        modal.query_one("#field-layers").focus()
        await pilot.press(*"lots", "enter")
        await settle(pilot)
        assert "layers: not a number" in str(modal.query_one("#calculator-output").render())
        assert modal.query_one("#row-layers").has_class("-invalid")
        await pilot.press("ctrl+s")  # nothing to insert yet
        await pilot.pause()
        assert screen_name(app) == "CalculatorModal"


async def test_calculators_unavailable_is_shown_in_the_modal(app):
    def broken():
        raise ImportError("No module named 'interviewer.tools'")

    app.services.calculators = broken
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        await pilot.press("f4")
        await settle(pilot)
        assert "not available" in str(app.screen.query_one("#calculator-output").render())


async def test_resume_an_interrupted_interview(app, core, store):
    unfinished = seed_history(store)[-1]
    async with app.run_test() as pilot:
        await settle(pilot)
        app.resume_interview(unfinished)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InterviewScreen)
        text = transcript_text(app)
        # What was said before is back, then the pending question is asked again.
        assert "I would shard with ZeRO-3" in text
        assert text.rstrip().endswith(KV_SCENARIO.steps[0].question)
        screen.query_one(AnswerEditor).text = "2 × 32 × 32 × 128 × 4096 × 2 bytes = 2 GiB"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "ScorecardScreen"
        assert store.get(unfinished).status == InterviewStatus.finished


async def test_resume_failure_goes_back_home(app, core):
    async with app.run_test() as pilot:
        await settle(pilot)
        app.resume_interview(9999)
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        assert any("Could not resume interview 9999" in n for n in notifications(app))


async def test_keys_before_the_agent_is_ready_are_refused_politely(app, core):
    core.agent_options = {"delay": 3.0}  # the window to press in: 0.5 s ran out on a busy machine
    async with app.run_test() as pilot:
        await settle(pilot)
        app.push_screen(InterviewScreen(InterviewRequest(scenario_id=TRAINING_SCENARIO.id)))
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert any("still" in n for n in notifications(app))
        await settle(pilot)
        assert core.agents[0].calls == ["start"]


async def test_leave_keeps_the_interview_resumable(app, core, store):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        screen.action_leave()
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        assert store.get(core.agents[0].interview_id).status == InterviewStatus.active


async def test_quitting_with_an_unsent_answer_asks_first(app):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press(*"half an answer")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert screen_name(app) == "ConfirmationModal"
        await pilot.press("escape")
        await pilot.pause()
        assert screen_name(app) == "InterviewScreen"
        assert app.screen.query_one(AnswerEditor).text == "half an answer"
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0


async def test_f9_leaves_without_ending_and_keeps_the_draft(app, core, store):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        await pilot.press(*"half a draft")
        await pilot.press("f9")
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        interview_id = core.agents[0].interview_id
        assert store.get(interview_id).status == InterviewStatus.active
        assert store.draft(interview_id) == "half a draft"
        assert any("unsent answer saved" in n for n in notifications(app))
        assert screen.is_attached is False


async def test_home_from_the_palette_keeps_the_draft_and_resume_brings_it_back(app, core, store):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press(*"typed, not sent")
        app.action_home()  # what the palette's "Home" command runs
        await settle(pilot)
        assert screen_name(app) == "HomeScreen"
        interview_id = core.agents[0].interview_id
        assert store.draft(interview_id) == "typed, not sent"
        app.resume_interview(interview_id)
        await settle(pilot)
        assert app.screen.query_one(AnswerEditor).text == "typed, not sent"
        assert any("back in the editor" in n for n in notifications(app))


async def test_the_draft_is_committed_while_typing_so_a_crash_keeps_it(app, core, interviewer_home):
    """No way out is taken here: what a crash (or kill -9) would find is what is already committed."""
    from interviewer.store.db import TranscriptStore

    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press(*"16 bytes per parameter")
        await pilot.pause(0.8)  # past the save delay after the last keystroke
        other = TranscriptStore(interviewer_home / "interviewer.db")  # another connection: only committed data
        try:
            assert other.draft(core.agents[0].interview_id) == "16 bytes per parameter"
        finally:
            other.close()


async def test_a_sent_answer_stays_in_the_draft_until_the_engine_records_it(app, core, store):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        interview_id = core.agents[0].interview_id
        # The engine holds the answer unrecorded until the test releases it (a fixed delay raced
        # the keypresses under load: the answer was recorded before the test looked).
        hold = core.agents[0].hold = asyncio.Event()
        await pilot.press(*"my answer", "ctrl+s")
        for _ in range(100):  # bounded: until the engine has the answer in hand
            if "respond" in core.agents[0].calls:
                break
            await pilot.pause(0.05)
        assert "respond" in core.agents[0].calls and "my answer" not in [turn.text for turn in core.agents[0].turns]
        screen = app.screen
        screen.save_draft()  # what any way out does mid-turn
        assert store.draft(interview_id) == "my answer"
        hold.set()
        await settle(pilot)
        assert "my answer" in [turn.text for turn in core.agents[0].turns]
        assert store.draft(interview_id) == ""


async def test_ctrl_q_asks_even_under_a_modal(app):
    """It once quit at once: with the calculator (or the palette) on top, the screen was the modal."""
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        await pilot.press(*"half an answer")
        await open_calculator(pilot)
        assert screen_name(app) == "CalculatorModal"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert screen_name(app) == "ConfirmationModal"


async def test_calculator_ctrl_r_runs(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        modal = await open_calculator(pilot, "model-states")
        modal.query_one("#field-params").value = "1B"
        modal.query_one("#field-gpus").value = ""  # not the given 8 GPUs: the default, 1
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "16.0 GB" in str(modal.query_one("#calculator-output").render())


async def test_confirmation_answers_with_y_and_n(app, core):
    async with app.run_test() as pilot:
        await open_interview(pilot)
        await pilot.press("f10", "n")
        await pilot.pause()
        assert screen_name(app) == "InterviewScreen"
        await pilot.press("f10", "y")
        await settle(pilot)
        assert screen_name(app) == "ScorecardScreen"
        assert core.agents[0].calls == ["start", "end"]


async def test_make_app_with_resume_id_opens_that_interview(settings, store, core):
    from tui.app import make_app

    unfinished = seed_history(store)[-1]
    app = make_app(settings, store=store, services=core.services(), resume_id=unfinished)
    async with app.run_test() as pilot:
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert core.agents[-1].interview_id == unfinished
        assert len(app.screen_stack) == 2


async def test_end_during_a_slow_turn_cancels_it_and_scores(app, core):
    async with app.run_test() as pilot:
        screen = await open_interview(pilot)
        core.agents[0].delay = 3.0
        screen.query_one(AnswerEditor).text = "A slow answer."
        await pilot.press("ctrl+s")
        await pilot.pause(0.2)
        assert screen.turn_in_flight == "respond"
        core.agents[0].delay = 0.0
        await pilot.press("f10", "enter")
        await settle(pilot)
        assert screen_name(app) == "ScorecardScreen"
        assert core.agents[0].calls == ["start", "respond", "end"]


async def test_calculator_tab_goes_from_the_choice_to_the_first_field_and_keeps_what_is_typed(app):
    """Issue #17, item 4: Tab used to land on an invisible stop, and the first value typed was lost."""
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        modal = await open_calculator(pilot)
        assert modal.query_one("#calculator-name", Select).value == "kv-cache"
        assert app.focused is modal.query_one("#calculator-name", Select)
        await pilot.press("tab")
        assert app.focused is modal.query_one("#field-layers")
        await pilot.press(*"32")
        assert modal.query_one("#field-layers").value == "32"


async def test_calculator_reopens_on_the_last_one_with_what_was_typed(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        modal = await open_calculator(pilot, "model-states")
        modal.query_one("#field-zero").value = "3"
        await pilot.press("escape")
        await settle(pilot)
        modal = await open_calculator(pilot)
        assert modal.query_one("#calculator-name", Select).value == "model-states"
        assert modal.query_one("#field-zero").value == "3"
        assert modal.query_one("#field-params").value == "10B"


async def test_calculator_fills_in_the_given_facts_and_names_defaults_plainly(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await open_interview(pilot)
        modal = await open_calculator(pilot, "model-states")
        assert (modal.query_one("#field-params").value, modal.query_one("#field-gpus").value) == ("10B", "8")
        assert "From the scenario's given facts: params, gpus" in str(modal.query_one("#calculator-output").render())
        assert modal.query_one("#field-zero").placeholder == "default 0"
        placeholders = [field.placeholder for field in modal.query("#calculator-form Input")]
        assert not any("None" in text or "'" in text for text in placeholders), placeholders
        assert "`" not in str(modal.query_one("#calculator-help").render())
        assert "Enter / Ctrl+R run" in str(modal.query_one("#calculator-dialog").border_subtitle)


def test_given_inputs_are_only_what_the_candidate_can_read():
    from rubrics.loader import shipped_scenario_files, validate_files
    from tui.screens.calculator_modal import given_inputs

    scenarios = {scenario.id: scenario for scenario in validate_files(shipped_scenario_files())[0]}
    training = given_inputs(scenarios["train-10b-8gpu"])
    assert training["params"] == "10B" and training["gpu"] == "A100-40GB" and training["gpus"] == "8"
    assert "tokens" not in training  # the 200B tokens are the compute-optimal answer, not a given
    serving = given_inputs(scenarios["serve-2b-p99"])
    assert serving["params"] == "2B"
    assert "gpu" not in serving  # the given text offers two GPUs: choosing is the candidate's job


def test_a_claim_cut_out_of_a_sentence_is_quoted_with_an_ellipsis():
    from tui.widgets.claim_card import excerpt

    assert excerpt("and decode of 7B on an A100 takes 6.6 ms per token.") == "…and decode of 7B on an A100 takes 6.6 ms per token."
    assert excerpt("so  the KV cache is 2 GiB") == "…so the KV cache is 2 GiB"
    assert excerpt("Llama-2-7B needs 2 GiB of KV cache.") == "Llama-2-7B needs 2 GiB of KV cache."


async def test_at_80_columns_the_bar_keeps_the_step_name_and_the_header_keeps_the_level(app, core):
    long_title = "Fitting the model states, gradients and optimizer states onto eight GPUs"
    first, second, *rest = TRAINING_SCENARIO.steps  # the fake agent moves on after each answer
    steps = [first, second.model_copy(update={"title": long_title}), *rest]
    core.scenarios = [TRAINING_SCENARIO.model_copy(update={"steps": steps}), *core.scenarios[1:]]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_interview(pilot)
        await pilot.press(*"About 999 GB, I think.", "ctrl+s")
        await settle(pilot)
        assert screen.sub_title.startswith("senior · offline · ")  # the end is what a narrow header cuts
        bar = screen.query_one("#bar-step")
        first_line = bar.render_lines(Region(0, 0, bar.size.width, 1))[0].text.rstrip()
        # One line cut with an ellipsis, not wrapped onto a hidden second line at a word boundary.
        assert first_line.startswith("Step 2/3 · Fitting the model") and first_line.endswith("…"), first_line
        assert "claims" not in str(screen.query_one("#bar-claims").render())  # the counts only, to leave room


async def test_note_key_opens_the_field_saves_on_ctrl_s_and_the_replay_shows_it(app, core, store):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_interview(pilot)
        editor = screen.query_one(AnswerEditor)
        editor.text = "an answer I am still typing"
        await pilot.press("f5")
        await settle(pilot)
        assert screen_name(app) == "NoteModal"
        assert "Question 1 of 3: The memory budget" in str(app.screen.query_one("#note-help").render())
        await pilot.press(*"check ZeRO")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen" and editor.has_focus
        assert editor.text == "an answer I am still typing"  # the answer draft is untouched
        assert any("Note saved on question 1" in n for n in notifications(app))
        interview_id = core.agents[0].interview_id
        assert store.get(interview_id).notes_by_step() == {"memory-budget": "check ZeRO"}
        assert all(t.role.value != "candidate" for t in store.turns(interview_id))  # a note is not an answer

        # Esc cancels: the note and the answer stay as they were. Ctrl+L opens it too, with the note in it.
        await pilot.press("ctrl+l")
        await settle(pilot)
        note_text = app.screen.query_one("#note-text")
        assert note_text.text == "check ZeRO"
        await pilot.press(*" and more")
        await pilot.press("escape")
        await settle(pilot)
        assert screen_name(app) == "InterviewScreen"
        assert store.get(interview_id).notes_by_step() == {"memory-budget": "check ZeRO"}
        assert editor.text == "an answer I am still typing"

        await pilot.press("f9")
        await settle(pilot)
        app.open_replay(interview_id)
        await settle(pilot)
        assert screen_name(app) == "ReplayScreen"
        await pilot.press("t")
        await settle(pilot)
        replay = app.screen.query_one("#replay-transcript", TranscriptView)
        entries = replay.entries
        notes = [e for e in entries if e.has_class("-note")]
        assert [n.text for n in notes] == ["check ZeRO"]
        assert entries.index(notes[0]) == len(entries) - 1  # after the question it is on


async def test_a_note_being_typed_when_the_interview_ends_is_kept(app, core, store):
    """The time limit (or any end) switches to the scorecard under an open note: the typed note is saved."""
    async with app.run_test(size=(120, 40)) as pilot:
        await open_interview(pilot)
        await pilot.press("f5")
        await settle(pilot)
        assert screen_name(app) == "NoteModal"
        await pilot.press(*"ask about the budget first")
        agent = core.agents[0]
        events = [event async for event in agent.end()]
        card = next(e.scorecard for e in events if hasattr(e, "scorecard"))
        app.show_scorecard(card, store.get(agent.interview_id))
        await settle(pilot)
        assert screen_name(app) == "ScorecardScreen"
        assert store.get(agent.interview_id).notes_by_step() == {"memory-budget": "ask about the budget first"}
