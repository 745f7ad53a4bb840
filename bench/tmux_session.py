#!/usr/bin/env python
"""Drive the real app in a real terminal: tmux runs it, send-keys types, capture-pane reads.

    python bench/tmux_session.py               # the ``interviewer`` entry point, 120×40
    python bench/tmux_session.py --size 80x24  # the smallest supported terminal

It launches the app in a fresh data folder, searches for the 10B training scenario, types a
two-paragraph answer (Enter for the new line, Ctrl+S to send), takes a hint (F2, Enter), opens the
scratch calculator (F4), ends the interview (F10, Enter), exports the scorecard (e), opens
history (h) and quits (Ctrl+Q); after every step it reads the screen and checks what a person
would look for. Exits 0 when every check passes, 1 otherwise (printing the screen it saw).

tmux runs on a private socket (``-L``), so it never touches anyone's tmux sessions.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CHROMA_CACHE = Path(tempfile.gettempdir()) / "interviewer-bench-chroma"
"""A knowledge index shared between runs, so each run does not rebuild it (INTERVIEWER_CHROMA_DIR)."""


class CheckFailed(AssertionError):
    pass


class TmuxApp:
    """One app in one tmux window on a private tmux server."""

    def __init__(
        self,
        command: list[str],
        *,
        width: int = 120,
        height: int = 40,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ):
        self.command = command
        self.width = width
        self.height = height
        self.env = env or {}
        self.cwd = cwd or REPO
        self.socket = f"interviewer-check-{os.getpid()}-{time.monotonic_ns()}"

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check)

    def start(self) -> float:
        """Start the app; returns the monotonic time just before tmux launched it."""
        env_args = [arg for key, value in self.env.items() for arg in ("-e", f"{key}={value}")]
        started = time.monotonic()
        self._tmux(
            "new-session", "-d", "-s", "app", "-x", str(self.width), "-y", str(self.height), "-c", str(self.cwd),
            *env_args, shlex.join(self.command),
        )
        # Keep the pane after the app exits, so an early crash can still be read.
        self._tmux("set-option", "-t", "app", "remain-on-exit", "on", check=False)
        return started

    def screen(self) -> str:
        result = self._tmux("capture-pane", "-p", "-t", "app", check=False)
        return result.stdout

    def alive(self) -> bool:
        result = self._tmux("display-message", "-p", "-t", "app", "#{pane_dead}", check=False)
        return result.returncode == 0 and result.stdout.strip() == "0"

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "app", *keys)

    def type(self, text: str) -> None:
        """Type text literally; newlines become Enter presses (new lines in the answer editor)."""
        for index, line in enumerate(text.split("\n")):
            if index:
                self.keys("Enter")
            if line:
                self._tmux("send-keys", "-t", "app", "-l", line)

    def wait_for(self, text: str, *, timeout: float = 30.0, poll: float = 0.02) -> float:
        """Seconds until ``text`` is on screen; CheckFailed (with the screen) after ``timeout``."""
        start = time.monotonic()
        while True:
            if text in self.screen():
                return time.monotonic() - start
            if time.monotonic() - start > timeout:
                raise CheckFailed(f"waited {timeout:.0f} s for {text!r}; the screen shows:\n{self.screen()}")
            time.sleep(poll)

    def wait_until(self, predicate, description: str, *, timeout: float = 30.0, poll: float = 0.02) -> float:
        start = time.monotonic()
        while True:
            if predicate(self.screen()):
                return time.monotonic() - start
            if time.monotonic() - start > timeout:
                raise CheckFailed(f"waited {timeout:.0f} s for {description}; the screen shows:\n{self.screen()}")
            time.sleep(poll)

    def app_pid(self) -> int | None:
        """The app's process: the pane's process, or its child when a shell runs the command."""
        result = self._tmux("display-message", "-p", "-t", "app", "#{pane_pid}", check=False)
        try:
            pid = int(result.stdout.strip())
        except ValueError:
            return None
        for _ in range(3):
            try:
                if b"python" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            except OSError:
                return None
            if not children:
                return None
            pid = int(children[0])
        return None

    def peak_rss_mib(self) -> float | None:
        """The app's peak resident memory so far (VmHWM), in MiB."""
        pid = self.app_pid()
        if pid is None:
            return None
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def stop(self) -> None:
        self._tmux("kill-server", check=False)


def app_command(entry: str) -> list[str]:
    module = {"cli": "interviewer", "tui": "tui"}[entry]
    return [sys.executable, "-m", module]


def app_env(home: Path, chroma_dir: Path | None) -> dict[str, str]:
    env = {"INTERVIEWER_HOME": str(home), "PYTHONPATH": str(REPO), "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    if chroma_dir is not None:
        env["INTERVIEWER_CHROMA_DIR"] = str(chroma_dir)
    return env


ANSWER = (
    "Mixed-precision AdamW keeps 16 bytes per parameter, so 10B parameters need 160 GB of model states.\n"
    "That does not fit on one 40 GB GPU, so I would shard with ZeRO-3 over the 8 GPUs: 20 GB each."
)


SEND_HINT = "Ctrl+S send · Enter new line"
"""The answer editor's border while the agent is idle; it says "replying" during a turn."""
PLACEHOLDER = "Type your answer."


def idle(screen: str) -> bool:
    """No agent call in flight: the editor's border offers Ctrl+S again."""
    return SEND_HINT in screen


def editor_text(screen: str) -> str:
    """What the answer editor shows (its lines joined), from the "Your answer" frame."""
    lines = screen.splitlines()
    start = next((i for i, line in enumerate(lines) if "─ Your answer" in line), None)
    if start is None:
        return ""
    shown = []
    for line in lines[start + 1 :]:
        if "╰" in line.split("│")[0] + line[:3]:
            break
        shown.append(line.split("│")[1].strip() if line.count("│") >= 2 else "")
    return " ".join(part for part in shown if part)


def typed(text: str):
    """A predicate: the end of ``text`` is in the answer editor (not just somewhere on screen)."""
    tail = text.split()[-1]
    return lambda screen: tail in editor_text(screen) and PLACEHOLDER not in editor_text(screen)


def transcript_shown(screen: str) -> bool:
    """Some conversation bubble is drawn above the answer editor."""
    above = screen.split("─ Your answer")[0].splitlines()[2:]
    return any(line.lstrip().startswith(("╭", "│", "╰")) for line in above)


def last_bubble_is_the_interviewers(screen: str) -> bool:
    """The newest frame above the answer editor is an interviewer turn (its reply is drawn)."""
    above = screen.split("─ Your answer")[0].splitlines()[:-1]  # the last is the editor's own top border
    tops = [line for line in above if line.lstrip().startswith("╭")]
    return bool(tops) and "─ Interviewer" in tops[-1]


def send_and_wait_for_reply(app: TmuxApp, *, timeout: float) -> tuple[float, float]:
    """Ctrl+S, then (seconds until the interviewer's reply is drawn, seconds until the turn is
    over and the editor is idle again; the engine adds the answer's similarity in between)."""
    sent = time.monotonic()
    app.keys("C-s")
    app.wait_until(lambda s: PLACEHOLDER in editor_text(s), "the answer to leave the editor", timeout=timeout)
    app.wait_until(lambda s: not last_bubble_is_the_interviewers(s), "the answer in the transcript", timeout=timeout)
    app.wait_until(last_bubble_is_the_interviewers, "the interviewer's reply drawn", timeout=timeout)
    shown = time.monotonic() - sent
    app.wait_until(lambda s: idle(s) and PLACEHOLDER in editor_text(s), "the turn to end", timeout=timeout)
    return shown, time.monotonic() - sent


def send_and_wait(app: TmuxApp, *, timeout: float) -> float:
    """Ctrl+S, then seconds until the interviewer's reply is in (the editor is idle again).

    Two phases, so the idle border seen *before* the key is processed does not count: the
    editor empties as the answer is sent (its placeholder shows) and, in the same frame, its
    border says the interviewer is replying; it offers Ctrl+S again when the turn is over.
    """
    sent = time.monotonic()
    app.keys("C-s")
    app.wait_until(lambda s: PLACEHOLDER in editor_text(s), "the answer to leave the editor", timeout=timeout)
    app.wait_until(lambda s: idle(s) and PLACEHOLDER in editor_text(s), "the interviewer's reply", timeout=timeout)
    return time.monotonic() - sent


def run_session(*, entry: str, width: int, height: int, chroma_dir: Path | None, verbose: bool) -> list[tuple[str, float]]:
    """The scripted session; returns (step, seconds) for every check that passed."""
    if shutil.which("tmux") is None:
        raise CheckFailed("tmux is not installed (apt-get install tmux)")
    timings: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="interviewer-tmux-") as folder:
        home = Path(folder) / "home"
        home.mkdir()
        exports = Path(folder) / "exports"
        exports.mkdir()
        app = TmuxApp(app_command(entry), width=width, height=height, env=app_env(home, chroma_dir), cwd=exports)

        def step(name: str, seconds: float) -> None:
            timings.append((name, seconds))
            if verbose:
                print(f"  ok  {name:<46} {seconds:6.2f} s", flush=True)

        try:
            started = app.start()
            app.wait_for("search scenarios", timeout=30)
            step("home screen drawn", time.monotonic() - started)
            step("scenario list loaded", app.wait_for(" scenarios ─", timeout=30))

            app.keys("/")  # typed straight after: the search box must take the very next key
            app.type("10B-parameter")
            app.wait_until(lambda s: "The Transformer" not in s, "the search to filter the list", timeout=10)
            app.keys("Enter")
            step("interview opened from search + Enter", app.wait_for("Your answer", timeout=60))
            step("first question asked", app.wait_until(lambda s: idle(s) and transcript_shown(s), "the first question", timeout=120))
            if "Pre-train a 10B" not in app.screen():
                raise CheckFailed(f"the search opened the wrong scenario:\n{app.screen()}")

            app.type(ANSWER)
            app.wait_until(typed(ANSWER), "the answer in the editor", timeout=20)
            if "─ You ─" in app.screen():
                raise CheckFailed(f"Enter sent the answer instead of adding a line:\n{app.screen()}")
            step("answer sent (Ctrl+S), interviewer replied", send_and_wait(app, timeout=180))
            if not re.search(r"✔\d+ ✘\d+ \?\d+", app.screen()):  # the bar's claim counts ("claims " only when wide)
                raise CheckFailed(f"the numbers in the answer were not checked:\n{app.screen()}")

            app.keys("F2")
            step("hint asks first (F2)", app.wait_for("Take a hint for this question?", timeout=10))
            app.keys("Enter")
            step("hint shown (Enter)", app.wait_for("─ Hint ─", timeout=60))

            app.keys("F4")
            step("scratch calculator opened (F4)", app.wait_for("Scratch calculator", timeout=30))
            app.keys("Escape")
            app.wait_until(lambda s: "Scratch calculator" not in s, "the calculator to close", timeout=10)

            app.keys("F10")
            step("end asks for confirmation (F10)", app.wait_for("End the interview now", timeout=10))
            app.keys("Enter")
            step("scorecard shown", app.wait_for("/ 100", timeout=120))
            if "Criteria" not in app.screen():
                raise CheckFailed(f"no criteria on the scorecard:\n{app.screen()}")

            app.keys("e")
            app.wait_for("Export interview", timeout=10)
            app.keys("Enter")
            app.wait_until(lambda s: any(exports.glob("interview-*.md")), "the exported file", timeout=30)
            exported = next(exports.glob("interview-*.md")).read_text(encoding="utf-8")
            if "160 GB" not in exported:
                raise CheckFailed("the exported Markdown does not contain the answer")
            step("scorecard exported (e, Enter)", 0.0)

            app.keys("h")
            step("history with the score plot (h)", app.wait_for("Scores over time", timeout=30))
            app.keys("Escape")
            app.wait_for("/ 100", timeout=10)
            app.keys("n")
            step("back home, interview listed", app.wait_for("Recent interviews (1)", timeout=30))

            app.keys("C-q")
            app.wait_until(lambda s: not app.alive(), "the app to quit", timeout=15)
            step("quit (Ctrl+Q)", 0.0)
        finally:
            app.stop()
    return timings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entry", choices=["cli", "tui"], default="cli", help="cli: python -m interviewer (default); tui: python -m tui")
    parser.add_argument("--size", default="120x40", help="terminal size, e.g. 80x24")
    parser.add_argument("--chroma-dir", type=Path, default=DEFAULT_CHROMA_CACHE, help="knowledge index cache shared between runs")
    parser.add_argument("--fresh-index", action="store_true", help="build the knowledge index inside the run's data folder")
    args = parser.parse_args(argv)
    width, height = (int(part) for part in args.size.lower().split("x"))
    print(f"tmux session check: {args.entry} entry, {width}×{height}", flush=True)
    try:
        run_session(entry=args.entry, width=width, height=height, chroma_dir=None if args.fresh_index else args.chroma_dir, verbose=True)
    except CheckFailed as failure:
        print(f"FAILED: {failure}", flush=True)
        return 1
    print("all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
