"""The real terminal check: ``bench/tmux_session.py`` types a short interview into the real app in tmux."""

from __future__ import annotations

import shutil
import subprocess
import sys
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
