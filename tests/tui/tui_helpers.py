"""Small helpers shared by the Pilot tests."""

from __future__ import annotations

from textual.pilot import Pilot


async def settle(pilot: Pilot, rounds: int = 2) -> None:
    """Let workers finish and the screen catch up (agent turns, table loads, modals)."""
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def notifications(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def screen_name(app) -> str:
    return type(app.screen).__name__
