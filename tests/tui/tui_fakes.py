"""Fakes for the TUI tests: a scripted agent, fixed scenarios, calculators and an exporter.

The fake agent implements ``interviewer.engine.protocol.InterviewAgent`` with a fixed script
(so the Pilot and snapshot tests are deterministic) and writes every turn to the real
``TranscriptStore``, as the engine does, so history, replay and resume run on real data.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

from interviewer.domain import (
    CriterionResult,
    InterviewRecord,
    InterviewStatus,
    Role,
    Scorecard,
    Status,
    StepCoaching,
    StudyItem,
    Turn,
    TurnKind,
)
from interviewer.events import (
    CandidateTurnRecorded,
    ClaimChecked,
    CriteriaCovered,
    Event,
    HintGiven,
    InterviewerMessage,
    InterviewFinished,
    NoteSaved,
    Notice,
    ScoreReady,
    StepAdvanced,
    TokenDelta,
)
from interviewer.store.db import TranscriptStore
from rubrics.schema import Scenario
from tui.services import CoreServices

FIXED_START = datetime(2025, 3, 14, 9, 30, tzinfo=UTC)
"""Every fake interview starts here (plus a minute per interview): stable snapshots."""


def _scenario(data: dict[str, Any]) -> Scenario:
    return Scenario.model_validate(data)


TRAINING_SCENARIO = _scenario(
    {
        "id": "train-10b-on-8-gpus",
        "title": "Train a 10B model on 8 GPUs",
        "kind": "design",
        "topics": ["zero", "memory", "parallelism"],
        "prompt": "You must train a **10B-parameter** decoder on one node of 8×A100-80GB. How do you fit it?",
        "given": ["8× A100-80GB (SXM), NVLink3", "Mixed-precision Adam"],
        "facts": {"params": 10e9, "gpus": 8, "gpu": "A100-80GB"},
        "levels": {"mid": "Knows model states need ~16 bytes/param.", "senior": "Picks a ZeRO stage with numbers."},
        "steps": [
            {
                "id": "memory-budget",
                "title": "The memory budget",
                "question": "How much memory do the model states need?",
                "hint": "Count bytes per parameter for mixed-precision Adam.",
                "key_decision": "Whether the model states fit on one GPU.",
                "common_wrong_answer": "Only counting the fp16 weights.",
                "outline": ["Count bytes per parameter: 2 weights, 2 gradients, 12 Adam states.", "Multiply by the parameter count.", "Compare with one GPU's memory."],
                "tip": "Write the byte breakdown before the total.",
                "probes": ["What about the optimizer states?"],
            },
            {
                "id": "sharding-choice",
                "title": "Choosing a ZeRO stage",
                "question": "Which ZeRO stage would you use, and what is the per-GPU memory?",
                "hint": "ZeRO-3 shards weights, gradients and optimizer states.",
                "key_decision": "How far to shard.",
                "common_wrong_answer": "Tensor parallelism across nodes.",
                "outline": ["Compare ZeRO stages by what each shards.", "Divide the sharded states by the GPU count.", "Weigh the extra communication of ZeRO-3."],
                "tip": "Name the communication cost of each stage.",
                "probes": ["What does ZeRO-3 cost in communication?"],
            },
            {
                "id": "activations",
                "title": "Activation memory",
                "question": "How do you keep activation memory in check?",
                "hint": "Think about recomputation.",
                "key_decision": "Recompute or not.",
                "common_wrong_answer": "Ignore activations.",
                "outline": ["Estimate activation memory per layer.", "Recompute activations in the backward pass.", "Say what recomputation costs in compute."],
                "tip": "Give the recompute overhead as a percentage.",
                "probes": ["Selective or full recomputation?"],
            },
        ],
        "criteria": [
            {
                "id": "model-state-bytes",
                "tier": "must",
                "step": "memory-budget",
                "description": "States 16 bytes/param for mixed-precision Adam (160 GB for 10B).",
                "evidence": ["16 bytes", "160 ?GB"],
                "notes": ["model-state-memory"],
            },
            {
                "id": "zero-stage",
                "tier": "must",
                "step": "sharding-choice",
                "description": "Chooses ZeRO-3 (or 2) with the per-GPU figure.",
                "evidence": ["zero-?3", "20 ?GB"],
                "notes": ["zero-sharding"],
            },
            {
                "id": "recompute",
                "tier": "good",
                "step": "activations",
                "description": "Uses activation checkpointing.",
                "evidence": ["checkpoint", "recompute"],
                "notes": ["activation-checkpointing"],
            },
        ],
        "model_answer": "Model states: 16 bytes/param × 10B = **160 GB**. ZeRO-3 over 8 GPUs: 20 GB per GPU.",
    }
)

KV_SCENARIO = _scenario(
    {
        "id": "kv-cache-sizing",
        "title": "Size the KV cache for Llama-2-7B",
        "kind": "concept",
        "topics": ["kv-cache", "inference"],
        "prompt": "How big is the KV cache of Llama-2-7B at 4096 tokens?",
        "levels": {"mid": "Knows the formula.", "senior": "Gets 2 GiB per sequence."},
        "steps": [
            {
                "id": "formula",
                "title": "The KV-cache formula",
                "question": "Give the formula and the number.",
                "hint": "2 × layers × kv heads × head dim × seq × bytes.",
                "key_decision": "The formula.",
                "common_wrong_answer": "Forgetting the factor 2.",
                "outline": ["Write 2 x layers x kv heads x head dim x bytes.", "Plug in the model's numbers.", "Multiply by the sequence length."],
                "tip": "Derive the factor 2 from keys and values.",
                "probes": ["Per token?"],
            }
        ],
        "criteria": [
            {"id": "kv-formula", "tier": "must", "description": "Formula with the factor 2.", "evidence": ["2 ?×"], "notes": ["kv-cache"]},
            {"id": "kv-number", "tier": "good", "description": "2 GiB per sequence.", "evidence": ["2 ?GiB"], "notes": ["kv-cache"]},
            {"id": "kv-gqa", "tier": "bonus", "description": "Mentions GQA.", "evidence": ["gqa"], "notes": ["kv-cache"]},
        ],
        "model_answer": "2 × 32 × 32 × 128 × 4096 × 2 bytes = 2 GiB.",
    }
)

SCENARIOS = [TRAINING_SCENARIO, KV_SCENARIO]


def fake_scorecard(scenario: Scenario, hints_used: int = 0, claims: list[dict] | None = None) -> Scorecard:
    criteria = []
    statuses = [Status.met, Status.partial, Status.missed]
    for index, criterion in enumerate(scenario.criteria):
        status = statuses[index % 3]
        criteria.append(
            CriterionResult(
                id=criterion.id,
                tier=criterion.tier.value,
                description=criterion.description,
                status=status,
                score={Status.met: 1.0, Status.partial: 0.5, Status.missed: 0.0}[status],
                evidence=["mixed precision Adam needs 16 bytes per parameter"] if status != Status.missed else [],
                notes=list(criterion.notes),
            )
        )
    return Scorecard(
        scenario=scenario.id,
        score=62.0 - 2.0 * hints_used,
        level="mid",
        tiers={"must": 0.75, "good": 0.0, "bonus": 0.0},
        criteria=criteria,
        claims=claims or [],
        hints_used=hints_used,
        hint_penalty=2.0 * hints_used,
        strengths=["Sized the model states correctly."],
        gaps=["Did not bring up activation recomputation."],
        study=[StudyItem(note="activation-checkpointing", reason="Recomputation was not discussed.")],
        model_answer=scenario.model_answer,
    )


def fake_coaching(scenario: Scenario) -> list[StepCoaching]:
    """Coaching for every step from the scenario's own outline and tip; the first step lacks numbers."""
    return [
        StepCoaching(step=step.id, title=step.title, outline=list(step.outline), tip=step.tip,
                     missing=["No numbers: this step asks for figures; put a number on: model-state memory."] if index == 0 else [])
        for index, step in enumerate(scenario.steps)
    ]


class FakeAgent:
    """A scripted ``InterviewAgent``: each answer moves one step on; the last step finishes.

    ``delay`` slows every call (to see the spinner and test that the screen keeps working),
    ``hold`` (an event) keeps every call waiting until the test sets it,
    ``stream`` sends interviewer messages as ``TokenDelta`` pieces first (LLM style), and
    ``fail_next`` makes the next ``respond`` raise before the answer is recorded.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        store: TranscriptStore | None = None,
        level: str = "senior",
        mode: str = "offline",
        time_limit_minutes: float | None = None,
        interview_id: int | None = None,
        started_at: datetime | None = None,
    ) -> None:
        self.scenario = scenario
        self.store = store
        self.level = level
        self.mode = mode
        self.time_limit_s = time_limit_minutes * 60 if time_limit_minutes else None
        self.delay = 0.0
        self.hold: asyncio.Event | None = None
        self.stream = False
        self.fail_next = False
        self._turns: list[Turn] = []
        self._step = 0
        self._hints = 0
        self._claims: list[dict] = []
        self._covered: set[str] = set()
        self._finished = False
        self._started = False
        self._notes: dict[str, str] = {}
        self.calls: list[str] = []
        """Agent methods called, in order (tests assert on it)."""
        if interview_id is None and store is not None:
            interview_id = store.create_interview(
                scenario_id=scenario.id,
                scenario_hash="fake",
                title=scenario.title,
                mode=mode,
                level=level,
                time_limit_s=self.time_limit_s,
                started_at=started_at or FIXED_START,
            )
        self.interview_id = interview_id

    # -- protocol properties ---------------------------------------------------------------------
    @property
    def turns(self) -> list[Turn]:
        return list(self._turns)

    @property
    def step_index(self) -> int:
        return self._step

    @property
    def current_step(self):
        return self.scenario.steps[self._step] if self._step < len(self.scenario.steps) else None

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def hints_used(self) -> int:
        return self._hints

    @property
    def claims(self) -> list[dict]:
        return list(self._claims)

    @property
    def covered_criteria(self) -> set[str]:
        return set(self._covered)

    def remaining_seconds(self) -> float | None:
        return self.time_limit_s  # frozen: the snapshots must not tick

    # -- helpers -----------------------------------------------------------------------------------
    def _state(self) -> dict:
        return {
            "step": self._step,
            "hints": self._hints,
            "claims": self._claims,
            "covered": sorted(self._covered),
            "started": self._started,
        }

    def _record(self, role: Role, kind: TurnKind, text: str, **meta: Any) -> Turn:
        step = self.current_step
        turn = Turn(role=role, kind=kind, text=text, step_id=step.id if step else None, created_at=FIXED_START, meta=meta)
        if self.store is not None and self.interview_id is not None:
            turn = self.store.add_turn(self.interview_id, turn, self._state())
        else:
            turn = turn.model_copy(update={"seq": len(self._turns)})
        self._turns.append(turn)
        return turn

    async def _say(self, kind: TurnKind, text: str) -> AsyncIterator[Event]:
        if self.stream:
            for piece in text.split(" "):
                yield TokenDelta(piece + " ")
                await asyncio.sleep(0)
        yield InterviewerMessage(self._record(Role.interviewer, kind, text))

    async def _pause(self) -> None:
        await asyncio.sleep(self.delay)
        if self.hold is not None:
            await self.hold.wait()

    async def _ask_current(self) -> AsyncIterator[Event]:
        step = self.current_step
        assert step is not None
        yield StepAdvanced(self._step, len(self.scenario.steps), step.id, step.title, step.question)
        async for event in self._say(TurnKind.question, f"**Step {self._step + 1}.** {step.question}"):
            yield event

    async def _finish(self, reason: str) -> AsyncIterator[Event]:
        self._finished = True
        async for event in self._say(TurnKind.closing, "Thanks, that's the end of the interview."):
            yield event
        yield InterviewFinished(reason)
        scorecard = self.scorecard()
        if self.store is not None and self.interview_id is not None:
            self.store.finish(self.interview_id, scorecard)
        yield ScoreReady(scorecard)

    # -- protocol methods --------------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Event]:
        self.calls.append("start")
        await self._pause()
        if not self._started:
            self._started = True
            async for event in self._say(TurnKind.question, f"{self.scenario.prompt}\n\n- Level: {self.level}"):
                yield event
        async for event in self._ask_current():
            yield event

    async def respond(self, answer: str) -> AsyncIterator[Event]:
        self.calls.append("respond")
        await self._pause()
        if self.fail_next:
            self.fail_next = False
            raise ConnectionError("LLM endpoint unreachable")
        yield CandidateTurnRecorded(self._record(Role.candidate, TurnKind.answer, answer))
        if "GB" in answer:
            correct = "160" in answer or "20 GB" in answer
            claim = {
                "text": answer[:60],
                "quantity": "model-state memory",
                "claimed": 160e9 if correct else 80e9,
                "computed": 160e9,
                "unit": "bytes",
                "verdict": "correct" if correct else "incorrect",
                "explanation": "Mixed-precision Adam keeps 16 bytes per parameter (ZeRO §3.1).",
                "working": ["16 bytes/param × 10e9 params = 160 GB"],
            }
            self._claims.append(claim)
            yield ClaimChecked(claim)
        criterion = self.scenario.criteria[min(self._step, len(self.scenario.criteria) - 1)]
        self._covered.add(criterion.id)
        yield CriteriaCovered((criterion.id,), len(self._covered), len(self.scenario.criteria))
        self._step += 1
        if self._step >= len(self.scenario.steps):
            async for event in self._finish("completed"):
                yield event
            return
        async for event in self._ask_current():
            yield event

    async def hint(self) -> AsyncIterator[Event]:
        self.calls.append("hint")
        await self._pause()
        self._hints += 1
        step = self.current_step
        turn = self._record(Role.interviewer, TurnKind.hint, step.hint if step else "No hint left.")
        yield HintGiven(turn, self._hints)
        yield Notice("A hint costs 2 points.", "information")

    async def skip(self) -> AsyncIterator[Event]:
        self.calls.append("skip")
        await self._pause()
        self._record(Role.candidate, TurnKind.skip, "(skipped)")
        self._step += 1
        if self._step >= len(self.scenario.steps):
            async for event in self._finish("completed"):
                yield event
            return
        async for event in self._ask_current():
            yield event

    async def end(self) -> AsyncIterator[Event]:
        self.calls.append("end")
        await self._pause()
        async for event in self._finish("ended"):
            yield event

    def scorecard(self) -> Scorecard:
        return fake_scorecard(self.scenario, self._hints, self._claims)

    # -- the candidate's notes, stored like the session stores them --------------------------------
    def notes(self) -> dict[str, str]:
        return dict(self._notes)

    def note(self, step_id: str | None = None) -> str:
        step_id = step_id or (self.current_step.id if self.current_step else "")
        return self._notes.get(step_id, "")

    def save_note(self, text: str, *, step_id: str | None = None) -> NoteSaved:
        if self._finished and step_id is None:
            raise ValueError("the interview is over: there is no question to take a note on")
        step = next(s for s in self.scenario.steps if s.id == step_id) if step_id else self.current_step
        text = text.strip()
        if self.store is not None and self.interview_id is not None:
            self.store.save_note(self.interview_id, step.id, text)
        if text:
            self._notes[step.id] = text
        else:
            self._notes.pop(step.id, None)
        return NoteSaved(step.id, self.scenario.steps.index(step), step.title, text)

    def add_note(self, text: str) -> NoteSaved:
        earlier = self.note()
        return self.save_note(f"{earlier}\n{text}" if earlier else text)

    @classmethod
    def resume(cls, store: TranscriptStore, interview_id: int) -> FakeAgent:
        record = store.get(interview_id)
        scenario = next(s for s in SCENARIOS if s.id == record.scenario_id)
        agent = cls(scenario, store=store, level=record.level, mode=record.mode, interview_id=interview_id)
        state = store.state(interview_id)
        agent._turns = list(record.turns)
        agent._step = state.get("step", 0)
        agent._hints = state.get("hints", 0)
        agent._claims = list(state.get("claims", []))
        agent._covered = set(state.get("covered", []))
        agent._started = state.get("started", bool(record.turns))
        agent._finished = record.status == InterviewStatus.finished
        agent._notes = record.notes_by_step()
        return agent


class FakeCore:
    """Builds ``CoreServices`` around fake agents and records what the app asked for."""

    def __init__(self, store: TranscriptStore) -> None:
        self.store = store
        self.agents: list[FakeAgent] = []
        self.agent_options: dict[str, Any] = {}
        """Options applied to every new agent (delay, stream, fail_next)."""
        self.start_error: Exception | None = None
        self.scenarios = list(SCENARIOS)
        self.scenario_errors: list[Any] = []
        self.exports: list[InterviewRecord] = []

    def start(
        self, scenario_id: str, *, level: str = "senior", time_limit_minutes: float | None = None, mode: str | None = None
    ) -> FakeAgent:
        if self.start_error is not None:
            raise self.start_error
        scenario = next(s for s in self.scenarios if s.id == scenario_id)
        agent = FakeAgent(scenario, store=self.store, level=level, mode=mode or "offline", time_limit_minutes=time_limit_minutes)
        for name, value in self.agent_options.items():
            setattr(agent, name, value)
        self.agents.append(agent)
        return agent

    def resume(self, interview_id: int) -> FakeAgent:
        agent = FakeAgent.resume(self.store, interview_id)
        for name, value in self.agent_options.items():
            setattr(agent, name, value)
        self.agents.append(agent)
        return agent

    def export_json(self, record: InterviewRecord) -> str:
        self.exports.append(record)
        return json.dumps({"id": record.id, "scenario_id": record.scenario_id, "turns": len(record.turns)}) + "\n"

    def export(self, record: InterviewRecord) -> str:
        self.exports.append(record)
        lines = [f"# {record.title or record.scenario_id}", ""]
        lines += [f"**{turn.role.value}**: {turn.text}" for turn in record.turns]
        if record.scorecard is not None:
            lines += ["", f"Score: {record.scorecard.score:.0f}/100"]
        return "\n".join(lines) + "\n"

    def services(self) -> CoreServices:
        return CoreServices(
            agent_factory=self.start,
            resume_factory=self.resume,
            warm_up=lambda: None,
            load_scenarios=lambda: (list(self.scenarios), list(self.scenario_errors)),
            calculators=fake_calculators,
            run_calculator=fake_run_calculator,
            format_quantity=fake_format_quantity,
            export_markdown=self.export,
            export_json=self.export_json,
            clock=lambda: 1000.0,
        )


# -- a fake calculator registry (the real one imports torch) -------------------------------------


def model_states(params: float, gpus: int = 1, zero: int = 0, optimizer: str = "adam") -> None:
    """Model-state memory per GPU for mixed-precision training (ZeRO §3.1)."""


def kv_cache(layers: int, kv_heads: int, head_dim: int, seq: int, batch: int = 1, bytes_per_elem: int = 2) -> None:
    """KV-cache bytes: 2 × layers × kv_heads × head_dim × seq × batch × bytes."""


def fake_calculators() -> dict[str, Any]:
    return {"model-states": model_states, "kv-cache": kv_cache}


class FakeCalcResult:
    def __init__(self, value: float, unit: str, working: list[str], source: str) -> None:
        self.value, self.unit, self.working, self.source = value, unit, working, source


class FakeInputError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


def _number(field: str, text: Any) -> float:
    if text is None:
        raise FakeInputError(field, "is required")
    text = str(text).strip()
    scale = {"B": 1e9, "M": 1e6, "K": 1e3}.get(text[-1:].upper(), 1)
    try:
        return float(text[:-1] if scale != 1 else text) * scale
    except ValueError:
        raise FakeInputError(field, f"not a number: {text!r}") from None


def fake_run_calculator(name: str, **inputs: Any) -> FakeCalcResult:
    if name == "model-states":
        params = _number("params", inputs.get("params"))
        gpus = _number("gpus", inputs.get("gpus", 1))
        value = 16 * params / gpus
        return FakeCalcResult(value, "bytes", [f"16 bytes/param × {params:g} / {gpus:g} GPUs"], "Rajbhandari et al. 2020, §3.1")
    fields = ("layers", "kv_heads", "head_dim", "seq")
    numbers = [_number(field, inputs.get(field)) for field in fields]
    value = 2 * 2 * numbers[0] * numbers[1] * numbers[2] * numbers[3]
    return FakeCalcResult(value, "bytes", ["2 × layers × kv_heads × head_dim × seq × 2 bytes"], "KV cache")


def fake_format_quantity(value: float, unit: str) -> str:
    if unit == "bytes":
        return f"{value / 1e9:.1f} GB ({value / 2**30:.1f} GiB)"
    return f"{value:.4g} {unit}"


def seed_history(store: TranscriptStore) -> list[int]:
    """Three past interviews: two finished (scores 55 then 78) and one unfinished."""
    ids = []
    for minutes, (scenario, score) in enumerate([(TRAINING_SCENARIO, 55.0), (TRAINING_SCENARIO, 78.0), (KV_SCENARIO, None)]):
        agent = FakeAgent(scenario, store=store, started_at=FIXED_START + timedelta(days=minutes))
        agent._record(Role.interviewer, TurnKind.question, scenario.steps[0].question)
        agent._record(Role.candidate, TurnKind.answer, "I would shard with ZeRO-3: 16 bytes per parameter, 160 GB in total.")
        agent._started = True
        store.save_state(agent.interview_id, agent._state())
        if score is not None:
            card = fake_scorecard(scenario).model_copy(update={"score": score})
            store.finish(agent.interview_id, card)
            finished = (FIXED_START + timedelta(days=minutes, hours=1)).isoformat()
            with store._transaction() as db:  # pin finished_at so the plot is stable
                db.execute("UPDATE interviews SET finished_at = ? WHERE id = ?", (finished, agent.interview_id))
        ids.append(agent.interview_id)
    return ids
