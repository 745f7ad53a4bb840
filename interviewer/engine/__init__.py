"""The interview engine: the session, the offline rubric policy, and scoring.

Starting and resuming an interview (which picks a policy, possibly the LLM's) is
``interviewer.interviews``: the engine never imports the LLM policy.
"""

from interviewer.engine.grading import grade_answers
from interviewer.engine.protocol import InterviewAgent
from interviewer.engine.warmup import is_warm, warm_up

__all__ = ["InterviewAgent", "export_markdown", "grade_answers", "is_warm", "warm_up"]


def export_markdown(record, *args, **kwargs):
    from interviewer.engine.export import export_markdown as _export

    return _export(record, *args, **kwargs)
