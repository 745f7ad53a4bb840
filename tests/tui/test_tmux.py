"""The real terminal check: ``bench/tmux_session.py`` types a short interview into the real app in tmux."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.serial,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.mark.parametrize("size", ["80x24", "120x40"])
def test_short_interview_in_tmux(size, shared_chroma_dir):
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "tmux_session.py"), "--size", size, "--chroma-dir", str(shared_chroma_dir)],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all checks passed" in result.stdout


def _gone(pid: int) -> bool:
    """No such process, or only its zombie is left (it exited)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("sighup", ["default", "ignored"])
def test_the_app_exits_when_its_terminal_goes_away(sighup, tmp_path, shared_chroma_dir):
    """Issue #17, item 10: killing the tmux session must not leave the app running. With SIGHUP
    ignored (as under nohup) the hang-up does not end it, and it used to spin on stdin's end-of-file."""
    sys.path.insert(0, str(REPO / "bench"))
    from tmux_session import TmuxApp, app_command, app_env

    command = ["sh", "-c", ("trap '' HUP; " if sighup == "ignored" else "") + 'exec "$@"', "sh", *app_command("cli")]
    session = TmuxApp(command, width=100, height=30, env=app_env(tmp_path / "home", shared_chroma_dir))
    session.start()
    try:
        session.wait_for("search scenarios", timeout=120)
        pid = session.app_pid()
        assert pid is not None
        session.stop()  # kill-server: the pane's terminal hangs up
        deadline = time.monotonic() + 10
        while not _gone(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        alive = not _gone(pid)
        if alive:
            os.kill(pid, signal.SIGKILL)
        assert not alive, "the app kept running after its terminal went away"
    finally:
        session.stop()


def test_a_typed_draft_survives_kill_9_and_comes_back_on_resume(tmp_path, shared_chroma_dir):
    """Issue #17, item 8: the draft is stored while typing, so even SIGKILL (no exit code runs) keeps it."""
    sys.path.insert(0, str(REPO / "bench"))
    from tmux_session import TmuxApp, app_command, app_env

    env = app_env(tmp_path / "home", shared_chroma_dir)
    draft = "a draft that must survive kill -9"
    session = TmuxApp(app_command("cli"), width=120, height=40, env=env)
    session.start()
    try:
        session.wait_for(" scenarios ─", timeout=120)
        session.keys("Enter")
        session.wait_for("Question 1 of", timeout=120)
        session.type(draft)
        session.wait_for(draft, timeout=20)
        time.sleep(1.5)  # past the save delay after the last keystroke
        pid = session.app_pid()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
    finally:
        session.stop()
    resumed = TmuxApp([*app_command("cli"), "--resume", "1"], width=120, height=40, env=env)
    resumed.start()
    try:
        resumed.wait_for("Resumed where you left off", timeout=120)
        resumed.wait_for(draft, timeout=20)  # in the answer editor: nothing else on this screen holds it
    finally:
        resumed.stop()
