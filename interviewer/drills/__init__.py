"""Practice drills: short questions per topic with computed keys, mastery per topic and what to practise next.

``bank`` loads and validates the YAML items, ``check`` reads and checks an answer, ``progress``
keeps mastery and the review schedule in the store. Nothing here imports Textual or torch (the
calculators import torch inside the few calls that need it).
"""
