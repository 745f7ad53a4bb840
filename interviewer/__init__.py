"""interviewer: the core of a terminal mock interviewer for ML-systems interviews (no UI code here)."""

__version__ = "0.1.0"
