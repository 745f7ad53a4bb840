"""The interview engine: the offline rubric interviewer, scoring, and session wiring."""

from interviewer.engine.protocol import InterviewAgent
from interviewer.engine.session import grade_answers, is_warm, resume_interview, start_interview, warm_up

__all__ = ["InterviewAgent", "export_markdown", "grade_answers", "is_warm", "resume_interview", "start_interview", "warm_up"]


def export_markdown(record, *args, **kwargs):
    from interviewer.engine.export import export_markdown as _export

    return _export(record, *args, **kwargs)
