"""The Textual front end of interviewer: it renders the core's events and never scores or stores."""
