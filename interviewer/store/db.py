"""The transcript store: every interview, turn and score in one SQLite file in the data dir.

Each turn is committed the moment the engine emits it, so an interview interrupted in any way
(crash, kill, closed terminal) loses nothing that was said and can be resumed. WAL mode and a
busy timeout let two app instances share the file (one interviewing, one browsing history).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from interviewer.domain import CandidateNote, InterviewRecord, InterviewStatus, Scorecard, Turn, utcnow
from interviewer.store.migrations import migrate, pending_migrations


@dataclass(frozen=True)
class DrillAttempt:
    """One checked drill answer."""

    item_id: str
    topic: str
    kind: str
    difficulty: str
    correct: bool
    answer: str
    answered_at: datetime


class StoreError(Exception):
    """The database cannot be opened or used; the message names the file."""


BUSY_TIMEOUT_MS = 5000


def _to_iso(moment: datetime) -> str:
    return moment.isoformat()


def _from_iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


class TranscriptStore:
    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
            self.db.row_factory = sqlite3.Row
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate_with_backup()
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path}: cannot open the transcript database ({exc}). "
                "If the file is damaged, move it aside (a backup may exist next to it) and start again."
            ) from exc
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the transcript database: {exc}") from exc

    def _migrate_with_backup(self) -> None:
        pending = pending_migrations(self.db)
        if not pending:
            return
        has_data = self.db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'interviews'").fetchone()[0]
        if has_data and self.path.exists():
            backup = self.path.with_name(f"{self.path.name}.bak-{utcnow().strftime('%Y%m%d%H%M%S')}")
            with self._lock:
                self.db.execute("PRAGMA wal_checkpoint(FULL)")
                shutil.copy2(self.path, backup)
        migrate(self.db)

    def close(self) -> None:
        with self._lock:
            self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            with self.db:
                yield self.db

    # -- writing -----------------------------------------------------------------------------

    def create_interview(
        self,
        *,
        scenario_id: str,
        scenario_hash: str,
        title: str = "",
        mode: str = "offline",
        model: str | None = None,
        level: str = "senior",
        time_limit_s: float | None = None,
        started_at: datetime | None = None,
    ) -> int:
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO interviews (scenario_id, scenario_hash, title, mode, model, level, time_limit_s, started_at, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active')",
                (scenario_id, scenario_hash, title, mode, model, level, time_limit_s, _to_iso(started_at or utcnow())),
            )
            return int(cursor.lastrowid)

    def add_turn(self, interview_id: int, turn: Turn, state: dict[str, Any] | None = None) -> Turn:
        """Append a turn (and the engine state after it) in one committed transaction."""
        with self._transaction() as db:
            seq = db.execute("SELECT coalesce(max(seq) + 1, 0) FROM turns WHERE interview_id = ?", (interview_id,)).fetchone()[0]
            stored = turn.model_copy(update={"seq": seq})
            db.execute(
                "INSERT INTO turns (interview_id, seq, role, kind, step_id, content, created_at, meta_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    interview_id,
                    seq,
                    stored.role.value,
                    stored.kind.value,
                    stored.step_id,
                    stored.text,
                    _to_iso(stored.created_at),
                    json.dumps(stored.meta, default=str),
                ),
            )
            if state is not None:
                db.execute("UPDATE interviews SET state_json = ? WHERE id = ?", (json.dumps(state), interview_id))
        return stored

    def save_state(self, interview_id: int, state: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute("UPDATE interviews SET state_json = ? WHERE id = ?", (json.dumps(state), interview_id))

    def finish(self, interview_id: int, scorecard: Scorecard, status: InterviewStatus = InterviewStatus.finished) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE interviews SET status = ?, finished_at = ?, score = ?, scorecard_json = ? WHERE id = ?",
                (status.value, _to_iso(utcnow()), scorecard.score, scorecard.model_dump_json(), interview_id),
            )
            db.execute("DELETE FROM scores WHERE interview_id = ?", (interview_id,))
            db.execute("DELETE FROM drafts WHERE interview_id = ?", (interview_id,))  # nothing left to answer
            db.executemany(
                "INSERT INTO scores (interview_id, criterion, tier, status, value, evidence_json, rationale) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (interview_id, c.id, c.tier, c.status.value, c.score, json.dumps(c.evidence), c.rationale)
                    for c in scorecard.criteria
                ],
            )

    def save_draft(self, interview_id: int, text: str) -> None:
        """Keep the unsent answer of an interview (committed at once); empty text deletes it."""
        with self._transaction() as db:
            if text.strip():
                db.execute(
                    "INSERT INTO drafts (interview_id, content, updated_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (interview_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
                    (interview_id, text, _to_iso(utcnow())),
                )
            else:
                db.execute("DELETE FROM drafts WHERE interview_id = ?", (interview_id,))

    def draft(self, interview_id: int) -> str:
        """The unsent answer kept by ``save_draft``, or "" when there is none."""
        with self._lock:
            row = self.db.execute("SELECT content FROM drafts WHERE interview_id = ?", (interview_id,)).fetchone()
        return row[0] if row else ""

    def save_note(self, interview_id: int, step_id: str, text: str) -> CandidateNote | None:
        """Keep the candidate's note on one step (committed at once), replacing the one before;
        blank text deletes it (None). Notes are kept apart from the turns: never an answer."""
        now = _to_iso(utcnow())
        with self._transaction() as db:
            if not text.strip():
                db.execute("DELETE FROM candidate_notes WHERE interview_id = ? AND step_id = ?", (interview_id, step_id))
                return None
            db.execute(
                "INSERT INTO candidate_notes (interview_id, step_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (interview_id, step_id) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
                (interview_id, step_id, text, now, now),
            )
            row = db.execute(
                "SELECT step_id, content, created_at, updated_at FROM candidate_notes WHERE interview_id = ? AND step_id = ?",
                (interview_id, step_id),
            ).fetchone()
        return self._note(row)

    def notes(self, interview_id: int) -> list[CandidateNote]:
        """The candidate's notes on an interview, in the order they were first written."""
        with self._lock:
            rows = self.db.execute(
                "SELECT step_id, content, created_at, updated_at FROM candidate_notes WHERE interview_id = ? ORDER BY created_at, id",
                (interview_id,),
            ).fetchall()
        return [self._note(row) for row in rows]

    @staticmethod
    def _note(row: sqlite3.Row) -> CandidateNote:
        return CandidateNote(
            step_id=row["step_id"], text=row["content"], created_at=_from_iso(row["created_at"]), updated_at=_from_iso(row["updated_at"])
        )

    def set_status(self, interview_id: int, status: InterviewStatus) -> None:
        with self._transaction() as db:
            db.execute("UPDATE interviews SET status = ? WHERE id = ?", (status.value, interview_id))

    # -- reading -----------------------------------------------------------------------------

    def _record(
        self, row: sqlite3.Row, turns: list[Turn] | None = None, notes: list[CandidateNote] | None = None
    ) -> InterviewRecord:
        scorecard = Scorecard.model_validate_json(row["scorecard_json"]) if row["scorecard_json"] else None
        return InterviewRecord(
            id=row["id"],
            scenario_id=row["scenario_id"],
            scenario_hash=row["scenario_hash"],
            title=row["title"],
            mode=row["mode"],
            model=row["model"],
            level=row["level"],
            status=InterviewStatus(row["status"]),
            started_at=_from_iso(row["started_at"]),
            finished_at=_from_iso(row["finished_at"]),
            score=row["score"],
            time_limit_s=row["time_limit_s"],
            turns=turns or [],
            scorecard=scorecard,
            notes=notes or [],
        )

    def get(self, interview_id: int) -> InterviewRecord:
        with self._lock:
            row = self.db.execute("SELECT * FROM interviews WHERE id = ?", (interview_id,)).fetchone()
            if row is None:
                raise KeyError(f"no interview with id {interview_id}")
            return self._record(row, self.turns(interview_id), self.notes(interview_id))

    def turns(self, interview_id: int) -> list[Turn]:
        with self._lock:
            rows = self.db.execute(
                "SELECT seq, role, kind, step_id, content, created_at, meta_json FROM turns WHERE interview_id = ? ORDER BY seq",
                (interview_id,),
            ).fetchall()
        return [
            Turn(
                seq=r["seq"],
                role=r["role"],
                kind=r["kind"],
                step_id=r["step_id"],
                text=r["content"],
                created_at=_from_iso(r["created_at"]),
                meta=json.loads(r["meta_json"]),
            )
            for r in rows
        ]

    def state(self, interview_id: int) -> dict[str, Any]:
        with self._lock:
            row = self.db.execute("SELECT state_json FROM interviews WHERE id = ?", (interview_id,)).fetchone()
        if row is None:
            raise KeyError(f"no interview with id {interview_id}")
        return json.loads(row[0] or "{}")

    _LIST_COLUMNS = (
        "id, scenario_id, scenario_hash, title, mode, model, level, status, started_at, finished_at, score, time_limit_s,"
        " NULL AS scorecard_json"
    )

    def list_interviews(
        self,
        *,
        scenario_id: str | None = None,
        search: str | None = None,
        status: InterviewStatus | None = None,
        limit: int | None = None,
    ) -> list[InterviewRecord]:
        """Newest first. ``search`` matches titles and scenario ids, what was said and the
        candidate's notes (full-text: every word, as a prefix, in one turn or one note)."""
        clauses, params = [], []
        if scenario_id:
            clauses.append("scenario_id = ?")
            params.append(scenario_id)
        if status:
            clauses.append("status = ?")
            params.append(status.value)
        if search and search.strip():
            words = [w for w in search.replace('"', " ").split() if w]
            fts_query = " ".join(f'"{w}"*' for w in words)
            like = f"%{search.strip()}%"
            clauses.append(
                "(title LIKE ? OR scenario_id LIKE ? OR id IN ("
                "SELECT turns.interview_id FROM turns_fts JOIN turns ON turns.id = turns_fts.rowid WHERE turns_fts MATCH ?)"
                " OR id IN (SELECT candidate_notes.interview_id FROM candidate_notes_fts"
                " JOIN candidate_notes ON candidate_notes.id = candidate_notes_fts.rowid WHERE candidate_notes_fts MATCH ?))"
            )
            params.extend([like, like, fts_query, fts_query])
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = f"SELECT {self._LIST_COLUMNS} FROM interviews {where} ORDER BY started_at DESC, id DESC"
        if limit:
            sql += f" LIMIT {int(limit)}"
        with self._lock:
            rows = self.db.execute(sql, params).fetchall()
        return [self._record(row) for row in rows]

    def scenario_stats(self) -> dict[str, tuple[float | None, float | None]]:
        """Per scenario: (best score, last score) over finished interviews."""
        with self._lock:
            rows = self.db.execute(
                "SELECT scenario_id, max(score) AS best,"
                " (SELECT score FROM interviews AS i2 WHERE i2.scenario_id = i.scenario_id AND i2.score IS NOT NULL"
                "  ORDER BY i2.finished_at DESC LIMIT 1) AS last"
                " FROM interviews AS i WHERE score IS NOT NULL GROUP BY scenario_id"
            ).fetchall()
        return {row["scenario_id"]: (row["best"], row["last"]) for row in rows}

    def score_history(
        self, scenario_id: str | None = None, *, latest_per_scenario: int | None = None
    ) -> list[tuple[str, datetime, float]]:
        """(scenario id, finished at, score) of finished interviews, oldest first; with
        ``latest_per_scenario``, only that many of the newest per scenario (what a chart shows)."""
        sql = (
            "SELECT scenario_id, finished_at, score,"
            " row_number() OVER (PARTITION BY scenario_id ORDER BY finished_at DESC) AS newest_rank"
            " FROM interviews WHERE score IS NOT NULL AND finished_at IS NOT NULL"
        )
        params: list[Any] = []
        if scenario_id:
            sql += " AND scenario_id = ?"
            params.append(scenario_id)
        sql = f"SELECT scenario_id, finished_at, score FROM ({sql})"
        if latest_per_scenario is not None:
            sql += " WHERE newest_rank <= ?"
            params.append(latest_per_scenario)
        with self._lock:
            rows = self.db.execute(sql + " ORDER BY finished_at", params).fetchall()
        return [(r["scenario_id"], _from_iso(r["finished_at"]), r["score"]) for r in rows]

    def count(self) -> int:
        with self._lock:
            return self.db.execute("SELECT count(*) FROM interviews").fetchone()[0]

    # -- practice drills (interviewer.drills.progress decides what to write) ------------------

    def record_drill_attempt(self, attempt: DrillAttempt, schedule: tuple[int, datetime] | None) -> None:
        """One checked drill answer and the item's review schedule after it, in one transaction.

        ``schedule`` is (box, due at) while the item is being reviewed, None once it is learned."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO drill_attempts (item_id, topic, kind, difficulty, correct, answer, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (attempt.item_id, attempt.topic, attempt.kind, attempt.difficulty, int(attempt.correct), attempt.answer, _to_iso(attempt.answered_at)),
            )
            if schedule is None:
                db.execute("DELETE FROM drill_schedule WHERE item_id = ?", (attempt.item_id,))
            else:
                box, due_at = schedule
                db.execute(
                    "INSERT INTO drill_schedule (item_id, topic, box, due_at, updated_at) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (item_id) DO UPDATE SET box = excluded.box, due_at = excluded.due_at, updated_at = excluded.updated_at",
                    (attempt.item_id, attempt.topic, box, _to_iso(due_at), _to_iso(attempt.answered_at)),
                )

    def drill_attempts(self) -> list[DrillAttempt]:
        """Every checked drill answer, oldest first."""
        with self._lock:
            rows = self.db.execute(
                "SELECT item_id, topic, kind, difficulty, correct, answer, answered_at FROM drill_attempts ORDER BY answered_at, id"
            ).fetchall()
        return [
            DrillAttempt(r["item_id"], r["topic"], r["kind"], r["difficulty"], bool(r["correct"]), r["answer"], _from_iso(r["answered_at"]))
            for r in rows
        ]

    def drill_schedule(self) -> dict[str, tuple[int, datetime]]:
        """Item id → (box, due at) of the items under review."""
        with self._lock:
            rows = self.db.execute("SELECT item_id, box, due_at FROM drill_schedule").fetchall()
        return {r["item_id"]: (r["box"], _from_iso(r["due_at"])) for r in rows}

    def criterion_results(self) -> list[tuple[str, datetime, float]]:
        """(scenario id, finished at, criterion score 0-1) of every criterion of every finished interview."""
        with self._lock:
            rows = self.db.execute(
                "SELECT interviews.scenario_id, interviews.finished_at, scores.value FROM scores"
                " JOIN interviews ON interviews.id = scores.interview_id WHERE interviews.finished_at IS NOT NULL"
            ).fetchall()
        return [(r["scenario_id"], _from_iso(r["finished_at"]), float(r["value"])) for r in rows]


def open_store(path: Path | str | None = None) -> TranscriptStore:
    from interviewer import locations

    return TranscriptStore(path or locations.database_path())
