"""``python -m interviewer``: the same as the ``interviewer`` command (whose composition root is ``tui.entry``)."""

from tui.entry import cli

cli()
