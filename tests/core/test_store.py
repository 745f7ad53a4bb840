"""The transcript store: migrations from a blank DB and from the first schema, turns, search, stats."""

from __future__ import annotations

import sqlite3

import pytest

from interviewer.domain import Role, Scorecard, Turn, TurnKind
from interviewer.store import StoreError, TranscriptStore, migrations
from interviewer.store.migrations import MIGRATIONS, migrate

m001_initial = MIGRATIONS[0]  # the decorator returns None (llm style); the list keeps the functions


def test_migrate_blank_db_is_idempotent():
    db = sqlite3.connect(":memory:")
    applied = migrate(db)
    assert applied == [fn.__name__ for fn in MIGRATIONS]
    assert migrate(db) == []
    columns = {row[1] for row in db.execute("PRAGMA table_info(interviews)")}
    assert {"scenario_id", "scenario_hash", "mode", "model", "status", "started_at", "finished_at", "state_json"} <= columns
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table')")}
    assert {"interviews", "turns", "scores", "turns_fts", "drafts", "_migrations"} <= tables


def _first_schema_db(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (datetime('now')))")
    m001_initial(db)
    db.execute("INSERT INTO _migrations (name) VALUES ('m001_initial')")
    db.execute(
        "INSERT INTO interviews (scenario_id, scenario_hash, started_at, status) VALUES ('moe-routing', 'abc', '2026-01-01T00:00:00+00:00', 'active')"
    )
    db.execute(
        "INSERT INTO turns (interview_id, seq, role, content, created_at) VALUES (1, 0, 'interviewer', 'Explain MoE.', '2026-01-01T00:00:00+00:00')"
    )
    db.execute(
        "INSERT INTO turns (interview_id, seq, role, content, created_at) VALUES (1, 1, 'candidate', 'Top-2 gating with a load balancing loss.', '2026-01-01T00:01:00+00:00')"
    )
    db.commit()
    db.close()


def test_first_schema_migrates_forward_with_backup(tmp_path):
    path = tmp_path / "old.db"
    _first_schema_db(path)
    store = TranscriptStore(path)
    record = store.get(1)
    assert [t.text for t in record.turns] == ["Explain MoE.", "Top-2 gating with a load balancing loss."]
    assert record.turns[0].kind is TurnKind.question and record.mode == "offline"
    assert [r.id for r in store.list_interviews(search="balancing")] == [1]
    backups = list(tmp_path.glob("old.db.bak-*"))
    assert len(backups) == 1
    old = sqlite3.connect(backups[0])
    assert [r[0] for r in old.execute("SELECT name FROM _migrations")] == ["m001_initial"]



def m004_notes(db):
    """A later migration as it was first written: its third statement fails."""
    db.execute("ALTER TABLE interviews ADD COLUMN notes TEXT NOT NULL DEFAULT ''")
    db.execute("UPDATE interviews SET notes = 'migrated'")
    db.execute("CREATE INDEX interviews_notes ON interviews (no_such_column)")


def m004_notes_fixed(db):
    db.execute("ALTER TABLE interviews ADD COLUMN notes TEXT NOT NULL DEFAULT ''")
    db.execute("UPDATE interviews SET notes = 'migrated'")
    db.execute("CREATE INDEX interviews_notes ON interviews (notes)")


m004_notes_fixed.__name__ = "m004_notes"  # the same migration, mended before it shipped


def _dump(path):
    db = sqlite3.connect(path)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def test_a_migration_that_fails_halfway_changes_nothing_and_a_fixed_retry_applies(tmp_path, monkeypatch):
    path = tmp_path / "t.db"
    store = TranscriptStore(path)
    interview = store.create_interview(scenario_id="moe-routing", scenario_hash="h", title="MoE")
    store.add_turn(interview, Turn(role=Role.candidate, kind=TurnKind.answer, text="top-2 gating"))
    store.close()
    before = _dump(path)

    monkeypatch.setattr(migrations, "MIGRATIONS", [*MIGRATIONS, m004_notes])
    for _ in range(2):  # a retry of the broken migration fails the same way, not on "duplicate column"
        with pytest.raises(StoreError, match="no_such_column"):
            TranscriptStore(path)
        assert _dump(path) == before

    monkeypatch.setattr(migrations, "MIGRATIONS", [*MIGRATIONS, m004_notes_fixed])
    store = TranscriptStore(path)
    assert [row["notes"] for row in store.db.execute("SELECT notes FROM interviews")] == ["migrated"]
    assert [row[0] for row in store.db.execute("SELECT name FROM _migrations ORDER BY rowid")] == [
        *(fn.__name__ for fn in MIGRATIONS),
        "m004_notes",
    ]
    assert [t.text for t in store.turns(interview)] == ["top-2 gating"]


def test_migrations_before_a_failing_one_stay_applied(monkeypatch):
    monkeypatch.setattr(migrations, "MIGRATIONS", [*MIGRATIONS, m004_notes])
    db = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError, match="no_such_column"):
        migrate(db)
    assert not db.in_transaction
    assert {row[0] for row in db.execute("SELECT name FROM _migrations")} == {fn.__name__ for fn in MIGRATIONS}
    assert "notes" not in {row[1] for row in db.execute("PRAGMA table_info(interviews)")}


def test_a_migration_that_commits_on_its_own_is_refused(monkeypatch):
    def m004_script(db):
        db.executescript("ALTER TABLE interviews ADD COLUMN notes TEXT;")

    db = sqlite3.connect(":memory:")
    migrate(db)
    monkeypatch.setattr(migrations, "MIGRATIONS", [*MIGRATIONS, m004_script])
    with pytest.raises(RuntimeError, match="m004_script ended its transaction"):
        migrate(db)
    assert "m004_script" not in {row[0] for row in db.execute("SELECT name FROM _migrations")}

def test_turns_are_committed_immediately_and_visible_to_another_connection(tmp_path):
    path = tmp_path / "t.db"
    writer = TranscriptStore(path)
    interview = writer.create_interview(scenario_id="serve-2b-p99", scenario_hash="h", title="Serve")
    writer.add_turn(interview, Turn(role=Role.candidate, kind=TurnKind.answer, text="int8 weights"), {"step_index": 1})
    reader = TranscriptStore(path)
    assert [t.text for t in reader.turns(interview)] == ["int8 weights"]
    assert reader.state(interview) == {"step_index": 1}
    assert writer.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_seq_numbers_follow_order(tmp_path):
    store = TranscriptStore(tmp_path / "t.db")
    interview = store.create_interview(scenario_id="x", scenario_hash="h")
    seqs = [store.add_turn(interview, Turn(role=Role.interviewer, kind=TurnKind.question, text=str(i))).seq for i in range(3)]
    assert seqs == [0, 1, 2]


def _card(score: float) -> Scorecard:
    return Scorecard(scenario="x", score=score, level="mid", tiers={"must": 0.5, "good": 0.5, "bonus": 0}, criteria=[])


def test_finish_stats_and_history(tmp_path):
    store = TranscriptStore(tmp_path / "t.db")
    first = store.create_interview(scenario_id="x", scenario_hash="h", started_at=None)
    store.finish(first, _card(40.0))
    second = store.create_interview(scenario_id="x", scenario_hash="h")
    store.finish(second, _card(70.0))
    third = store.create_interview(scenario_id="y", scenario_hash="h")
    assert store.scenario_stats() == {"x": (70.0, 70.0)}
    assert [score for _, _, score in store.score_history("x")] == [40.0, 70.0]
    assert [r.id for r in store.list_interviews()] == [third, second, first]
    assert store.get(second).scorecard.score == 70.0


def test_score_history_keeps_the_newest_per_scenario_oldest_first(tmp_path):
    store = TranscriptStore(tmp_path / "t.db")
    for scenario, score in [("x", 10.0), ("y", 20.0), ("x", 30.0), ("y", 40.0), ("x", 50.0)]:
        store.finish(store.create_interview(scenario_id=scenario, scenario_hash="h"), _card(score))
    assert [score for _, _, score in store.score_history()] == [10.0, 20.0, 30.0, 40.0, 50.0]
    assert [score for _, _, score in store.score_history(latest_per_scenario=2)] == [20.0, 30.0, 40.0, 50.0]
    assert [score for _, _, score in store.score_history("x", latest_per_scenario=1)] == [50.0]


def test_corrupted_database_names_the_path(tmp_path):
    path = tmp_path / "broken.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=str(path)):
        TranscriptStore(path)


def test_a_draft_is_kept_per_interview_replaced_cleared_and_dropped_at_the_finish(tmp_path):
    store = TranscriptStore(tmp_path / "t.db")
    first = store.create_interview(scenario_id="moe-routing", scenario_hash="h")
    second = store.create_interview(scenario_id="moe-routing", scenario_hash="h")
    assert store.draft(first) == ""
    store.save_draft(first, "Top-2 gating,\nwith a load-balancing loss")
    store.save_draft(second, "other")
    store.save_draft(first, "Top-2 gating,\nwith a load-balancing loss and capacity 1.25")
    store.close()
    reopened = TranscriptStore(tmp_path / "t.db")  # committed, so a crash right now keeps it
    assert reopened.draft(first) == "Top-2 gating,\nwith a load-balancing loss and capacity 1.25"
    reopened.save_draft(second, "   ")
    assert reopened.draft(second) == ""
    reopened.finish(first, _card(50.0))
    assert reopened.draft(first) == ""
    reopened.close()


def test_notes_migration_applies_on_a_database_from_before_it(tmp_path):
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (datetime('now')))")
    before_notes = [fn for fn in MIGRATIONS if fn.__name__ < "m006"]
    for fn in before_notes:
        fn(old)
        old.execute("INSERT INTO _migrations (name) VALUES (?)", (fn.__name__,))
    old.execute(
        "INSERT INTO interviews (scenario_id, scenario_hash, started_at, status) VALUES ('moe-routing', 'abc', '2026-01-01T00:00:00+00:00', 'active')"
    )
    old.execute(
        "INSERT INTO turns (interview_id, seq, role, kind, step_id, content, created_at) VALUES"
        " (1, 0, 'candidate', 'answer', 'why-moe', 'Top-2 gating.', '2026-01-01T00:01:00+00:00')"
    )
    old.commit()
    old.close()

    store = TranscriptStore(path)
    applied = [row[0] for row in store.db.execute("SELECT name FROM _migrations ORDER BY rowid")]
    assert applied == [fn.__name__ for fn in MIGRATIONS] and applied[-1] == "m006_notes"
    assert store.get(1).notes == [] and [t.text for t in store.turns(1)] == ["Top-2 gating."]
    store.save_note(1, "why-moe", "look up the capacity factor")
    assert [(n.step_id, n.text) for n in store.get(1).notes] == [("why-moe", "look up the capacity factor")]
    assert [r.id for r in store.list_interviews(search="capacity")] == [1]
    assert len(list(tmp_path.glob("old.db.bak-*"))) == 1  # backed up before migrating, as every migration is


def test_a_note_per_step_is_replaced_deleted_and_searched_in_sync(tmp_path):
    store = TranscriptStore(tmp_path / "t.db")
    first = store.create_interview(scenario_id="moe-routing", scenario_hash="h")
    second = store.create_interview(scenario_id="moe-routing", scenario_hash="h")
    store.save_note(first, "why-moe", "experts scale parameters, not FLOPs")
    store.save_note(first, "routing", "top-2 gating")
    store.save_note(second, "why-moe", "other interview")
    saved = store.save_note(first, "why-moe", "capacity factor 1.25")
    assert saved is not None and saved.text == "capacity factor 1.25" and saved.updated_at >= saved.created_at
    store.close()
    reopened = TranscriptStore(tmp_path / "t.db")  # committed at once: a crash now keeps them
    assert [(n.step_id, n.text) for n in reopened.notes(first)] == [("why-moe", "capacity factor 1.25"), ("routing", "top-2 gating")]
    assert [n.text for n in reopened.notes(second)] == ["other interview"]
    # The full-text index follows the replacement and the deletion.
    assert [r.id for r in reopened.list_interviews(search="capacity fact")] == [first]
    assert reopened.list_interviews(search="FLOPs") == []
    assert reopened.save_note(first, "routing", "  \n") is None
    assert reopened.list_interviews(search="gating") == []
    assert [n.step_id for n in reopened.notes(first)] == ["why-moe"]
    assert reopened.turns(first) == []  # a note is never a turn
    reopened.close()
