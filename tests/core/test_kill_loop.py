"""SIGKILL a real interview process at random points, 50 times: no answered turn is ever lost,
the database stays sound, and every interrupted interview resumes."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from interviewer.config import Settings
from interviewer.domain import Role
from interviewer.interviews import resume_interview
from interviewer.store import open_store

pytestmark = [pytest.mark.slow, pytest.mark.serial]

KILLS = 50
ANSWERS = [
    "I'd shard model states with ZeRO-3 across the 8 GPUs, that is 20 GB per GPU.",
    "Activation checkpointing per layer, bf16 mixed precision, gradient accumulation.",
    "Sharded checkpoints every 30 minutes, written asynchronously.",
    "Monitor loss spikes and gradient norms.",
]


class Interview:
    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interviewer", "interview", "--scenario", "train-10b-8gpu"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env=os.environ.copy(),
        )

    def wait_for_reply(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError("the interview process exited early")
            if line.startswith("interviewer>"):
                return
        raise AssertionError("no interviewer reply in time")

    def send(self, text: str) -> None:
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def test_fifty_random_kills_lose_nothing():
    rng = random.Random(20261129)
    store = open_store()
    for iteration in range(KILLS):
        interview = Interview()
        interview.wait_for_reply()
        answered = rng.randrange(0, 3)  # answers whose reply we saw before the kill
        for answer in ANSWERS[:answered]:
            interview.send(answer)
            interview.wait_for_reply()
        interview.send(ANSWERS[answered])
        time.sleep(rng.uniform(0.0, 1.5))  # somewhere in analysis, claim checks, storage or the reply
        interview.kill()

        record = store.list_interviews(limit=1)[0]
        said = [t.text for t in store.turns(record.id) if t.role is Role.candidate]
        assert said[:answered] == ANSWERS[:answered], f"kill {iteration}: lost an answered turn"
        assert len(said) in (answered, answered + 1), f"kill {iteration}: unexpected turns {said}"
        if len(said) == answered + 1:
            assert said[-1] == ANSWERS[answered], "a stored turn is always complete"

        agent = resume_interview(record.id, settings=Settings(), store=store)
        asyncio.run(_drain(agent.start()))
        turns = store.turns(record.id)
        assert turns[-1].role is Role.interviewer, f"kill {iteration}: resume left the last answer unanswered"
    assert store.count() == KILLS
    assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def _drain(stream) -> None:
    async for _ in stream:
        pass
