"""Small helpers shared by the Pilot tests."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.worker import WorkerCancelled


async def settle(pilot: Pilot, rounds: int = 2) -> None:
    """Let workers finish and the screen catch up (agent turns, table loads, modals)."""
    for _ in range(rounds):
        await pilot.pause()
        for worker in list(pilot.app.workers):
            try:
                await worker.wait()
            except WorkerCancelled:
                pass  # replaced by a newer exclusive worker (a calculator re-run, a reload): by design
        await pilot.pause()


def notifications(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def screen_name(app) -> str:
    return type(app.screen).__name__
