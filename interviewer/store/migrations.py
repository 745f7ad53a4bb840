"""Versioned schema migrations, in the simonw/llm style.

Each migration is a function registered in order; the names of applied migrations are kept in
``_migrations`` so ``migrate(db)`` is idempotent and can run on every open. Never change what a
migration that has shipped does: add a new one.

Each migration runs in one real transaction, committed together with its ``_migrations`` row:
SQLite's DDL is transactional, so a migration that fails halfway leaves the database as it was,
and a retry starts from a clean slate. Migrations therefore run one statement per
``db.execute``, never ``executescript`` (which commits whatever is pending first and then runs
every statement in autocommit mode).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = []
migration = MIGRATIONS.append


def applied_migrations(db: sqlite3.Connection) -> set[str]:
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (datetime('now')))")
    return {row[0] for row in db.execute("SELECT name FROM _migrations")}


def pending_migrations(db: sqlite3.Connection) -> list[Callable[[sqlite3.Connection], None]]:
    done = applied_migrations(db)
    return [fn for fn in MIGRATIONS if fn.__name__ not in done]


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply pending migrations, each in its own transaction; return their names.

    A migration that raises is rolled back with everything it did, and the error propagates;
    the migrations before it stay applied.
    """
    if db.in_transaction:
        raise RuntimeError("migrate() needs a connection with no open transaction")
    applied = []
    for fn in pending_migrations(db):
        db.execute("BEGIN")
        try:
            fn(db)
            if not db.in_transaction:
                raise RuntimeError(f"{fn.__name__} ended its transaction (executescript or COMMIT); use db.execute")
            db.execute("INSERT INTO _migrations (name) VALUES (?)", (fn.__name__,))
            db.commit()
        except BaseException:
            if db.in_transaction:
                db.rollback()
            raise
        applied.append(fn.__name__)
    return applied


def _execute_each(db: sqlite3.Connection, *statements: str) -> None:
    for statement in statements:
        db.execute(statement)


@migration
def m001_initial(db: sqlite3.Connection) -> None:
    _execute_each(
        db,
        """
        CREATE TABLE interviews (
            id INTEGER PRIMARY KEY,
            scenario_id TEXT NOT NULL,
            scenario_hash TEXT NOT NULL,
            model TEXT,
            status TEXT NOT NULL DEFAULT 'active',
            started_at TEXT NOT NULL,
            finished_at TEXT,
            score REAL
        )
        """,
        """
        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            interview_id INTEGER NOT NULL REFERENCES interviews(id),
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at TEXT NOT NULL,
            meta_json TEXT NOT NULL DEFAULT '{}',
            UNIQUE (interview_id, seq)
        )
        """,
        """
        CREATE TABLE scores (
            interview_id INTEGER NOT NULL REFERENCES interviews(id),
            criterion TEXT NOT NULL,
            value REAL NOT NULL,
            rationale TEXT,
            PRIMARY KEY (interview_id, criterion)
        )
        """,
    )


@migration
def m002_interview_details(db: sqlite3.Connection) -> None:
    """Mode, level, title, time limit, the engine's resumable state and the full scorecard."""
    _execute_each(
        db,
        "ALTER TABLE interviews ADD COLUMN mode TEXT NOT NULL DEFAULT 'offline'",
        "ALTER TABLE interviews ADD COLUMN level TEXT NOT NULL DEFAULT 'senior'",
        "ALTER TABLE interviews ADD COLUMN title TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE interviews ADD COLUMN time_limit_s REAL",
        "ALTER TABLE interviews ADD COLUMN state_json TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE interviews ADD COLUMN scorecard_json TEXT",
        "ALTER TABLE turns ADD COLUMN kind TEXT NOT NULL DEFAULT 'answer'",
        "ALTER TABLE turns ADD COLUMN step_id TEXT",
        "ALTER TABLE scores ADD COLUMN tier TEXT NOT NULL DEFAULT 'must'",
        "ALTER TABLE scores ADD COLUMN status TEXT NOT NULL DEFAULT 'missed'",
        "ALTER TABLE scores ADD COLUMN evidence_json TEXT NOT NULL DEFAULT '[]'",
        "UPDATE turns SET kind = 'question' WHERE role = 'interviewer'",
        "CREATE INDEX interviews_scenario ON interviews (scenario_id, started_at)",
        "CREATE INDEX interviews_started ON interviews (started_at)",
    )


@migration
def m003_turns_fts(db: sqlite3.Connection) -> None:
    """Full-text search over what was said, for the history screen."""
    _execute_each(
        db,
        "CREATE VIRTUAL TABLE turns_fts USING fts5(content, content='turns', content_rowid='id')",
        "INSERT INTO turns_fts (rowid, content) SELECT id, content FROM turns",
        """
        CREATE TRIGGER turns_ai AFTER INSERT ON turns BEGIN
            INSERT INTO turns_fts (rowid, content) VALUES (new.id, new.content);
        END
        """,
        """
        CREATE TRIGGER turns_ad AFTER DELETE ON turns BEGIN
            INSERT INTO turns_fts (turns_fts, rowid, content) VALUES ('delete', old.id, old.content);
        END
        """,
    )


@migration
def m004_drills(db: sqlite3.Connection) -> None:
    """Practice drills: every answer checked (for mastery) and the missed items' review schedule."""
    _execute_each(
        db,
        """
        CREATE TABLE drill_attempts (
            id INTEGER PRIMARY KEY,
            item_id TEXT NOT NULL,
            topic TEXT NOT NULL,
            kind TEXT NOT NULL,
            difficulty TEXT NOT NULL,
            correct INTEGER NOT NULL,
            answer TEXT NOT NULL,
            answered_at TEXT NOT NULL
        )
        """,
        "CREATE INDEX drill_attempts_topic ON drill_attempts (topic, answered_at)",
        """
        CREATE TABLE drill_schedule (
            item_id TEXT PRIMARY KEY,
            topic TEXT NOT NULL,
            box INTEGER NOT NULL,
            due_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
    )


@migration
def m005_drafts(db: sqlite3.Connection) -> None:
    """The answer being typed in an unfinished interview, so no way out of the app loses it."""
    _execute_each(
        db,
        """
        CREATE TABLE drafts (
            interview_id INTEGER PRIMARY KEY REFERENCES interviews(id),
            content TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """,
    )


@migration
def m006_notes(db: sqlite3.Connection) -> None:
    """The candidate's own note per question (step) of an interview, searchable like the turns.

    An explicit integer key: the full-text index refers to rows by rowid, which VACUUM may
    renumber in a table without one."""
    _execute_each(
        db,
        """
        CREATE TABLE candidate_notes (
            id INTEGER PRIMARY KEY,
            interview_id INTEGER NOT NULL REFERENCES interviews(id),
            step_id TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (interview_id, step_id)
        )
        """,
        "CREATE VIRTUAL TABLE candidate_notes_fts USING fts5(content, content='candidate_notes', content_rowid='id')",
        """
        CREATE TRIGGER candidate_notes_ai AFTER INSERT ON candidate_notes BEGIN
            INSERT INTO candidate_notes_fts (rowid, content) VALUES (new.id, new.content);
        END
        """,
        """
        CREATE TRIGGER candidate_notes_ad AFTER DELETE ON candidate_notes BEGIN
            INSERT INTO candidate_notes_fts (candidate_notes_fts, rowid, content) VALUES ('delete', old.id, old.content);
        END
        """,
        """
        CREATE TRIGGER candidate_notes_au AFTER UPDATE ON candidate_notes BEGIN
            INSERT INTO candidate_notes_fts (candidate_notes_fts, rowid, content) VALUES ('delete', old.id, old.content);
            INSERT INTO candidate_notes_fts (rowid, content) VALUES (new.id, new.content);
        END
        """,
    )
