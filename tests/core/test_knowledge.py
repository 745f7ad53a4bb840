"""The knowledge notes, their chunking, incremental indexing, search (embedded and server), and recall."""

from __future__ import annotations

import hashlib
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from knowledge.indexer import KnowledgeIndex, make_client
from knowledge.notes import load_notes, parse_note, slugify

REPO = Path(__file__).resolve().parents[2]
NOTES = load_notes()


class HashEmbedder:
    """A tiny deterministic embedder for indexing-logic tests (no torch)."""

    def __init__(self):
        self.calls = 0
        self.texts: list[str] = []

    def embed(self, texts):
        self.calls += 1
        self.texts.extend(texts)
        vectors = []
        for text in texts:
            digest = hashlib.sha256(text.encode()).digest()
            vectors.append([b / 255 for b in digest[:16]])
        return vectors


def test_at_least_thirty_notes_each_with_sources():
    assert len(NOTES) >= 30
    for note_id, note in NOTES.items():
        assert note.sources, f"{note_id} has no Sources section"
        assert len(note.chunks) >= 2, note_id
        assert all(chunk.anchor.startswith(f"{note_id}#") for chunk in note.chunks)


def test_topics_the_issue_names_are_covered():
    text = " ".join(note.text.lower() for note in NOTES.values())
    for topic in [
        "o(l²·d)" if "o(l²·d)" in text else "o(n²",
        "tensor parallel",
        "pipeline",
        "zero-3",
        "offload",
        "checkpointing",
        "loss scal",
        "gradient accumulation",
        "warmup",
        "ring all-reduce",
        "preempt",
        "kv cache",
        "continuous batching",
        "quantization",
        "distillation",
        "replication",
        "kaplan",
        "chinchilla",
        "slo",
        "drift",
        "mixture-of-experts",
        "rope",
        "sentencepiece",
    ]:
        assert topic in text, topic


def test_chunking_by_heading_and_long_sections_split():
    text = "# T\n\nIntro.\n\n## First Part\n" + ("word " * 50 + "\n\n") * 10 + "## Sources\n- A. (2020). B.\n"
    note = parse_note("demo", text)
    assert [c.anchor for c in note.chunks][:2] == ["demo#t", "demo#first-part"]
    assert len([c for c in note.chunks if c.heading == "First Part"]) > 1
    assert note.sources == ["A. (2020). B."]
    assert slugify("Korthikanti's Eq. (1), per layer") == "korthikanti-s-eq-1-per-layer"


def test_note_without_title_is_rejected():
    with pytest.raises(ValueError, match="bad.md: first line must be"):
        parse_note("bad", "no title\n## x\ny", "bad.md")


@pytest.mark.slow
def test_incremental_reindex_embeds_only_changes(tmp_path):
    client = make_client(path=tmp_path / "chroma")
    chunks = [c for note in list(NOTES.values())[:3] for c in note.chunks]
    embedder = HashEmbedder()
    first = KnowledgeIndex(client, embedder, chunks).sync()
    assert first.added == len(chunks) and first.unchanged == 0
    again = KnowledgeIndex(client, embedder, chunks).sync()
    assert again.changed == 0 and again.unchanged == len(chunks)
    edited = chunks[0].__class__(**{**chunks[0].__dict__, "text": chunks[0].text + " Edited."})
    embedder.texts.clear()
    third = KnowledgeIndex(client, embedder, [edited, *chunks[1:-1]]).sync()
    assert (third.added, third.updated, third.removed) == (0, 1, 1)
    assert embedder.texts == [edited.embedding_text]


@pytest.mark.slow
def test_progress_is_reported(tmp_path):
    seen = []
    chunks = list(NOTES.values())[0].chunks
    KnowledgeIndex(make_client(path=tmp_path / "c"), HashEmbedder(), chunks).sync(lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, len(chunks)) and seen[-1] == (len(chunks), len(chunks))


@pytest.mark.slow
def test_search_returns_cited_passages_from_cli():
    from interviewer.cli import _register_subcommands, app

    _register_subcommands()
    result = CliRunner().invoke(app, ["kb", "search", "how much memory does ZeRO stage 3 save per GPU", "--json", "-k", "3"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert len(payload["results"]) == 3
    top = payload["results"][0]
    assert top["citation"] == f"{top['note']}#{slugify(top['heading'])}"
    assert top["note"] in {"zero-sharding", "model-state-memory"}
    assert top["text"]


def test_empty_query_is_a_clear_error():
    from interviewer.cli import _register_subcommands, app

    _register_subcommands()
    result = CliRunner().invoke(app, ["kb", "search", "  "])
    assert result.exit_code == 2 and "QUERY is empty" in result.output


@pytest.mark.slow
def test_retrieval_recall_at_3_on_question_set():
    from interviewer import retrieval

    questions = [q for path in sorted((REPO / "bench").glob("retrieval_questions_*.yaml")) for q in yaml.safe_load(path.read_text())]
    assert len(questions) >= 25
    assert {q["note"] for q in questions} <= set(NOTES)
    hits = sum(q["note"] in [p.note for p in retrieval.search(q["question"], k=3)] for q in questions)
    assert hits / len(questions) >= 0.9


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_same_code_works_against_a_chroma_server(tmp_path):
    port = _free_port()
    chroma = Path(sys.executable).parent / "chroma"
    server = subprocess.Popen(
        [str(chroma), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("chroma server did not start")
                time.sleep(0.2)
        from interviewer.embeddings import get_embedder

        url = f"http://127.0.0.1:{port}"
        chunks = [c for nid in ("kv-cache", "zero-sharding", "ring-allreduce") for c in NOTES[nid].chunks]
        index = KnowledgeIndex(make_client(url), get_embedder(), chunks)
        assert index.sync().added == len(chunks)
        assert KnowledgeIndex(make_client(url), get_embedder(), chunks).sync().changed == 0
        top = index.search("how big is the KV cache of llama 2 7B at 4k context", k=2)
        assert top[0].note == "kv-cache"
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.slow
def test_unreachable_chroma_server_is_a_clear_error():
    from interviewer.cli import _register_subcommands, app

    _register_subcommands()
    result = CliRunner().invoke(app, ["kb", "search", "kv cache", "--chroma-url", f"http://127.0.0.1:{_free_port()}"])
    assert result.exit_code == 2
    assert "Chroma" in result.output or "chroma" in result.output
