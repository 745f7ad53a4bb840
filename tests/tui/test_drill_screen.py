"""Pilot tests of the Drill and Learn screens and the mastery line on home and History."""

from __future__ import annotations

from textual.widgets import Input, OptionList, Static
from tui_helpers import notifications, screen_name, settle

from interviewer.drills.bank import load_bank
from interviewer.drills.check import expected_answer
from tui.app import make_app


def answer_for(item) -> str:
    """A right answer typed the way a candidate would (the key as shown, or its letter)."""
    key, unit = expected_answer(item)
    return key.split(")")[0] if unit == "option" else key


def wrong_answer_for(item) -> str:
    """A readable but wrong answer: another letter, an absurd number, or other output."""
    if item.options is not None:
        right = next(index for index, option in enumerate(item.options) if option.correct)
        return "b" if right == 0 else "a"
    return "1e30" if item.numeric is not None else "something else"


async def open_topic(pilot, topic: str) -> None:
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)
    topics = pilot.app.screen.query_one("#drill-topics", OptionList)
    topics.highlighted = next(i for i in range(topics.option_count) if topics.get_option_at_index(i).id == topic)
    await pilot.press("enter")
    await settle(pilot)


async def submit(pilot, text: str) -> None:
    pilot.app.screen.query_one("#drill-answer", Input).value = text
    await pilot.press("enter")
    await settle(pilot)


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_a_topic_session_checks_answers_at_once_and_stores_them(app, store):
    async with app.run_test(size=(100, 40)) as pilot:
        await open_topic(pilot, "moe-routing")
        screen = pilot.app.screen
        assert screen_name(pilot.app) == "DrillScreen"
        first = screen.session[0]
        assert first.topic == "moe-routing" and len(screen.session) == 10
        assert text_of(pilot.app, "#drill-status").startswith("Question 1 of 10 · 0 right")

        await submit(pilot, answer_for(first))
        feedback = text_of(pilot.app, "#drill-feedback")
        assert "✓ Correct" in feedback and "Worked solution:" in feedback and f"knowledge/notes/{first.note}.md" in feedback
        assert [(a.item_id, a.correct) for a in store.drill_attempts()] == [(first.id, True)]

        await pilot.press("enter")  # next question
        await settle(pilot)
        second = screen.session[1]
        assert text_of(pilot.app, "#drill-status").startswith("Question 2 of 10 · 1 right")
        await submit(pilot, wrong_answer_for(second))
        assert "✗ Not quite" in text_of(pilot.app, "#drill-feedback")
        assert store.drill_schedule()[second.id][0] == 0  # missed: due again in a day


async def test_an_unreadable_answer_is_kept_and_not_recorded(app, store):
    async with app.run_test(size=(100, 40)) as pilot:
        await open_topic(pilot, "train-10b-8gpu")
        item = pilot.app.screen.session[0]
        garbage = "q" if item.options is not None else "lots"
        await submit(pilot, garbage)
        assert any("answer" in message.lower() or "cannot read" in message for message in notifications(pilot.app))
        assert pilot.app.screen.query_one("#drill-answer", Input).value == garbage
        assert pilot.app.screen.result is None and store.drill_attempts() == []


async def test_hint_skip_summary_and_back(app, store):
    async with app.run_test(size=(100, 40)) as pilot:
        await open_topic(pilot, "monitoring-drift")
        screen = pilot.app.screen
        await pilot.press("f2")
        await settle(pilot)
        assert screen.session[0].hint in text_of(pilot.app, "#drill-feedback")
        for item in screen.session:
            await submit(pilot, answer_for(item))
            await pilot.press("enter")
            await settle(pilot)
        assert text_of(pilot.app, "#drill-status") == "Session done · 10 of 10 right"
        assert "Mastery now: Monitoring" in text_of(pilot.app, "#drill-prompt")
        assert len(store.drill_attempts()) == 10
        await pilot.press("enter")  # back to the topic list, with the new level
        await settle(pilot)
        topics = screen.query_one("#drill-topics", OptionList)
        assert topics.display
        labels = [str(topics.get_option_at_index(i).prompt) for i in range(topics.option_count)]
        assert any(label.startswith("strong") and "Monitoring" in label for label in labels)
        await pilot.press("escape")
        await settle(pilot)
        assert screen_name(pilot.app) == "HomeScreen"


async def test_skipping_records_nothing_and_escape_leaves_a_session(app, store):
    async with app.run_test(size=(100, 40)) as pilot:
        await open_topic(pilot, "attention-vs-rnn")
        await pilot.press("f3")
        await settle(pilot)
        assert pilot.app.screen.index == 1 and store.drill_attempts() == []
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen.query_one("#drill-topics").display and screen_name(pilot.app) == "DrillScreen"


async def test_practise_next_starts_with_the_most_probed_unknown_topic(app):
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter")  # "Practise next" is the first option
        await settle(pilot)
        screen = pilot.app.screen
        assert len(screen.session) == 10
        assert screen.session[0].topic == screen.tracker.priorities()[0].topic


async def test_mastery_shows_on_home_and_history_and_survives_a_restart(settings, store, core):
    app = make_app(settings, store=store, services=core.services())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert text_of(pilot.app, "#home-mastery").startswith("Mastery: 12 unknown · next: ")
        await open_topic(pilot, "kv-cache-long-context")
        for item in pilot.app.screen.session[:3]:
            await submit(pilot, wrong_answer_for(item))
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("escape", "escape")
        await settle(pilot)
        assert screen_name(pilot.app) == "HomeScreen"
        assert len(store.drill_attempts()) == 3
        assert text_of(pilot.app, "#home-mastery").startswith("Mastery: 1 weak · 11 unknown")

    restarted = make_app(settings, store=store, services=core.services())
    async with restarted.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert screen_name(pilot.app) == "HistoryScreen"
        line = text_of(pilot.app, "#history-mastery")
        assert line.startswith("Mastery: 1 weak · 11 unknown · next: ")  # the misses are due tomorrow, not now


async def test_learn_mode_pages_through_the_steps_to_the_model_answer(app):
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        screen = pilot.app.screen
        assert screen_name(pilot.app) == "LearnScreen"
        steps = len(screen.scenario.steps)
        assert len(screen.pages) == steps + 1 and screen.pages[0].startswith(f"## Step 1 of {steps + 1}: ")
        for _ in range(steps + 3):  # past the end stays on the last page
            await pilot.press("right")
        await settle(pilot)
        assert screen.page == steps and screen.pages[-1].endswith(screen.scenario.model_answer.strip())
        await pilot.press("left")
        assert screen.page == steps - 1
        await pilot.press("escape")
        await settle(pilot)
        assert screen_name(pilot.app) == "HomeScreen"


def test_every_shipped_drill_has_an_answer_the_screen_accepts():
    from interviewer.drills.check import check_answer

    for item in load_bank().items:
        assert check_answer(item, answer_for(item)).correct, item.id
