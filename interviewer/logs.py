"""Logging to a file in the data dir (never to the terminal the TUI draws on), with secrets redacted."""

from __future__ import annotations

import logging
import re

_SECRET = re.compile(r"(sk-[A-Za-z0-9_\-]{6,}|Bearer\s+\S+)")


class RedactSecrets(logging.Filter):
    """Belt and braces: keys are SecretStr everywhere, but a library may still log a header."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _SECRET.search(message):
            record.msg = _SECRET.sub("[redacted]", message)
            record.args = ()
        return True


def setup_logging(level: int = logging.INFO) -> None:
    from interviewer import locations

    root = logging.getLogger()
    if any(getattr(h, "_interviewer", False) for h in root.handlers):
        return
    try:
        handler: logging.Handler = logging.FileHandler(locations.log_file(), encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler._interviewer = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets())
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("httpx", "httpcore", "chromadb", "urllib3", "openai", "markdown_it"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
