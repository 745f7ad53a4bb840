"""From a candidate's free text to sentences, clauses, entities and number mentions.

A *mention* is a number as typed ("160 GB", "10B params", "at 4k", "8 GPUs", "about 1 ms/token")
with its value in base units, what it measures (``dim``), the input it names if any (``role``:
"gpus", "layers", "seq", ...), and the hedging words around it ("about", "at least", "under")
that set the claim's tolerance and direction. Whether a mention is a *claim* or an *input* is
decided later, by topic (see ``topics``).

Every regex here has bounded repetition and the text is cut into pieces of at most
``MAX_PIECE`` characters, so parsing stays linear in the length of the text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from interviewer.claims.entities import Entity, find_entities
from interviewer.units import (
    MAGNITUDE_LETTERS,
    MAGNITUDE_RE,
    MAGNITUDE_WORDS,
    NUMBER_RE,
    UnitMatch,
    context_length,
    match_unit,
    number_value,
)

MAX_PIECE = 600
"""Longest sentence piece parsed at once; longer run-ons are cut at clause boundaries or spaces."""

DEFAULT_TOLERANCE = 0.15
HEDGED_TOLERANCE = 0.25
EXACT_TOLERANCE = 0.02
ORDER_OF_MAGNITUDE_TOLERANCE = 2.0  # within a factor of 3

_ABBREVIATIONS = {"e.g", "i.e", "vs", "approx", "etc", "cf", "fig", "eq", "ca", "resp", "al", "no", "est"}


@dataclass
class Mention:
    start: int
    end: int
    text: str
    value: float
    """In the base unit of ``dim`` (bytes, seconds, ...); for plain counts the number itself."""
    dim: str
    """From ``units`` ("bytes", "seconds", "s_per_token", "flops?", ...), or "parameters", "tokens",
    "count" (a count noun), or "number" (a bare number)."""
    role: str | None = None
    """The input this number names: params, tokens, seq, gpus, nodes, layers, heads, kv_heads,
    hidden, head_dim, batch, microbatches, stages, tp, vocab, mfu, requests, gpu_memory."""
    magnitude: str | None = None
    used_k: bool = False
    binary_alternative: float | None = None
    is_binary: bool = False
    low: float | None = None
    high: float | None = None
    """A range claim ("150-170 GB", "between 1 and 2 ms"): both ends in base units."""
    direction: str = "approx"
    tolerance: float = DEFAULT_TOLERANCE
    qualifier: str | None = None
    markers: set[str] = field(default_factory=set)
    """"per_gpu", "total", "per_token", "per_sequence", "per_layer", "sent" (bytes a GPU sends)."""
    clause: int = 0
    unit_text: str = ""
    role_from: str | None = None
    """How the role was read: "noun" ("10B params"), "before" ("batch = 8"), "magnitude" (a bare "6.7B")."""


@dataclass
class ParsedSentence:
    text: str
    offset: int
    """Where this sentence starts in the whole text."""
    masked: str
    """``text`` with entity spans blanked out (same length)."""
    entities: list[Entity]
    mentions: list[Mention]
    clauses: list[tuple[int, int]]
    cue_prefix: str = ""
    """The previous piece when this one continues it after a semicolon: its topic cues still apply."""
    previous_text: str = ""
    """The sentence before this one, whose subject ("Ring all-reduce ...") the next one often continues."""
    column_headers: list[str] | None = None
    """For a Markdown table row: the header of each column ("model states per GPU"), which says what its numbers are."""

    def header_of(self, position: int) -> str | None:
        """The table header over the cell holding ``position`` (None outside tables)."""
        if not self.column_headers:
            return None
        column = self.text[:position].count("|") - (1 if self.text.lstrip().startswith("|") else 0)
        return self.column_headers[column] if 0 <= column < len(self.column_headers) else None

    def clause_of(self, position: int) -> int:
        index = bisect_right(self._clause_starts, position) - 1
        return min(max(index, 0), len(self.clauses) - 1)

    def __post_init__(self) -> None:
        self._clause_starts = [start for start, _ in self.clauses]
        first = re.search(r"\bper\s+layer\b(?!\s+and\s+(?:per\s+)?token)", self.masked)  # "K and V per layer and token" is no per-layer figure
        self.first_per_layer = first.start() if first else None
        self.is_question = self.text.rstrip().endswith("?")

    def clause_text(self, index: int) -> str:
        start, end = self.clauses[index]
        return self.text[start:end]


# --- sentences and clauses ---------------------------------------------------------------------

_SENTENCE_END = re.compile(r"[.!?]+(?=[\s\"')\]]|$)|;(?=\s)|\n")
"""Full stops, semicolons (independent clauses: inputs carry over as context) and line breaks."""
_CLAUSE_BOUNDARY = re.compile(
    r";\s*|,\s+|:\s+|\s+[-–—]\s+|\s*(?:→|=>)\s*|\s*\|\s*"
    r"|\s+(?=(?:and|but|while|whereas|so|which|then|because|since|whereas|although|or)\s)",
    re.IGNORECASE,
)


_LINE_START_BLOCK = re.compile(r"[ \t]*(?:[-*•]\s|\+\s(?!\d)|\d{1,3}[.)]\s|\||#|>|```|$)")
"""A line that starts a new block (bullet, numbered item, table row, heading, quote, blank): never a wrap."""
_WRAP_TAIL = re.compile(
    r"(?:[,(=≈×x*·/+\-–—]|\b(?:of|the|a|an|on|at|to|and|or|for|with|is|are|was|by|in|from|than|as|per|vs\.?|each|its|their|that|which|so|but))\s*$",
    re.IGNORECASE,
)


def _is_soft_wrap(text: str, newline: int) -> bool:
    """Whether the line break at ``newline`` only wraps a long line of prose (Markdown's soft break).

    Wrapped prose ("... so 2 GiB for a 4,096-token\nsequence and ...") is one sentence; a new
    bullet, table row, heading or blank line, or a line after one that ended a sentence, is not.
    """
    line_start = text.rfind("\n", 0, newline) + 1
    previous = text[line_start:newline].rstrip()
    if not previous or previous.lstrip().startswith(("|", "#")):
        return False
    following = text[newline + 1:newline + 80]
    if _LINE_START_BLOCK.match(following):
        return False
    tail = previous.rstrip("*_` ")
    if not tail or tail[-1] in ".!?;" or (tail[-1] == ":" and len(previous) < 40):
        return False
    if _WRAP_TAIL.search(tail):
        return True  # "... on an\nA100": a line cut after a word that needs more
    next_line = text[newline + 1:].split("\n", 1)[0].strip()
    if len(previous) < 40 or (len(previous) < 70 and len(next_line) < 40):
        return False  # short lines without a full stop are deliberate lines ("Weights: 14 GB"), not a wrapped paragraph
    first = following.lstrip()[:1]
    if first.islower() or first.isdigit() or first in "(≈~×·=+−-–[":
        return True
    return len(previous) >= 60 and re.search(r"[a-z]{2,}$", tail) is not None  # wrapped prose before a capital


_MAY_HOLD_A_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
    r"|hundred|thousand|million|billion|trillion|half|dozen|doubl\w*|tripl\w*|quadrupl\w*|halv\w*)\b",
    re.IGNORECASE,
)
"""Pieces without a digit or a number word hold no claim and are not parsed."""


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; a full stop after "e.g." or inside "1.5" does not end a sentence,
    and a line break that only wraps prose does not either."""
    pieces: list[tuple[int, str]] = []
    start = 0
    depth = 0
    last = 0
    for m in _SENTENCE_END.finditer(text):
        segment = text[last:m.start()]
        depth = max(0, depth + segment.count("(") - segment.count(")"))
        last = m.start()
        if m.group(0) == "\n" and _is_soft_wrap(text, m.start()):
            continue
        if m.group(0).startswith(";") and depth > 0:
            continue  # "(280B, 300B tokens; the paper's budget is ...)": a semicolon inside parentheses
        if m.group(0) == "\n":
            depth = 0
        if m.group(0) != "\n" and m.group(0) == ".":
            word = re.search(r"([\w.]{1,8})$", text[max(start, m.start() - 8):m.start()])
            if word and word.group(1).lower().rstrip(".") in _ABBREVIATIONS:
                continue
        end = m.end()
        _add_piece(pieces, text, start, end)
        start = end
    _add_piece(pieces, text, start, len(text))
    return pieces


def _add_piece(pieces: list[tuple[int, str]], text: str, start: int, end: int) -> None:
    while end - start > MAX_PIECE:
        window = text[start:start + MAX_PIECE]
        cut = max(window.rfind("; "), window.rfind(", "), window.rfind(" "))
        if cut < MAX_PIECE // 2:
            cut = MAX_PIECE
        _add_piece(pieces, text, start, start + cut + 1 if cut < MAX_PIECE else start + cut)
        start = start + cut + 1 if cut < MAX_PIECE else start + cut
    chunk = text[start:end]
    stripped = chunk.strip()
    if stripped and _MAY_HOLD_A_NUMBER.search(stripped):
        lead = len(chunk) - len(chunk.lstrip())
        pieces.append((start + lead, stripped))


def split_clauses(masked: str) -> list[tuple[int, int]]:
    clauses = []
    start = 0
    depth = _paren_depths(masked)
    for m in _CLAUSE_BOUNDARY.finditer(masked):
        if depth[m.start()] > 0 and "|" not in m.group(0) and not re.match(r"[^,;()]*\d", masked[m.end():m.end() + 80]):
            continue  # "(fp32 master weights, m and v)": a gloss inside parentheses does not end the clause (a list of figures does)
        if m.start() > start:
            clauses.append((start, m.start()))
        start = m.end()
    if start < len(masked) or not clauses:
        clauses.append((start, len(masked)))
    # Make clauses cover the whole sentence so every position belongs to one.
    covered = []
    previous_end = 0
    for index, (s, e) in enumerate(clauses):
        s = previous_end
        e = clauses[index + 1][0] if index + 1 < len(clauses) else len(masked)
        covered.append((s, e))
        previous_end = e
    return covered


def _paren_depths(text: str) -> list[int]:
    """Parenthesis nesting depth at each position (unbalanced closers are ignored)."""
    depths = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        depths.append(depth)
        if char == ")" and depth > 0:
            depth -= 1
    depths.append(0)
    return depths


# --- roles: what a bare number or a count noun names -------------------------------------------

_FILLER = (
    r"(?:(?:training|train|pretraining|pre-training|high-quality|quality|text|input|output|prompt|new|generated|total|unique|"
    r"active|trainable|non-embedding|dense|sparse|more|such|concurrent|parallel|simultaneous|in-flight|outstanding|running|average|"
    r"of|the|nvidia|§+|[a-z]*§+[a-z]*)[\s-]+){0,2}"
)
_NOUNS: list[tuple[str, re.Pattern]] = [
    ("kv_heads", re.compile(r"(?:kv|key[- /]value)[- ]heads?\b", re.I)),
    ("params", re.compile(r"(?:param(?:eter)?s?)\b", re.I)),
    ("params_model", re.compile(r"(?:models?|llms?|networks?|transformers?|lms?|checkpoints?)\b", re.I)),
    ("seq", re.compile(r"(?:tokens?[- ])?(?:context|ctx)(?:[- ](?:length|len|window))?\b|(?:sequence|seq)[- ](?:length|len)\b|tokens?[- ](?:prompt|sequence|context)s?\b", re.I)),
    ("tokens", re.compile(r"(?:tokens?|toks?)\b", re.I)),
    ("seq", re.compile(r"(?:prompt|input)\b", re.I)),  # "a 4k prompt"; "8 prompts" counts sequences (batch, below)
    ("out_tokens", re.compile(r"(?:output|generated|new|completion|response)s?\b", re.I)),
    ("gpus", re.compile(r"(?:gpus?|devices?|cards?|accelerators?|chips?|ranks?|workers?)\b", re.I)),
    ("nodes", re.compile(r"(?:nodes?|machines?|servers?|hosts?)\b", re.I)),
    ("layers", re.compile(r"(?:transformer[- ]|decoder[- ]|encoder[- ])?(?:layers?|blocks?)\b", re.I)),
    ("heads", re.compile(r"(?:attention[- ]|query[- ])?heads?\b", re.I)),
    ("hidden", re.compile(r"(?:hidden(?:[- ](?:size|dim(?:ension)?s?|units))?|d[_ ]?model|dim(?:ension)?(?:al|s)?|wide|width|embedding[- ](?:size|dim(?:ension)?))\b", re.I)),
    ("microbatches", re.compile(r"micro[- ]?batch(?:es)?\b|mbs\b", re.I)),
    ("stages", re.compile(r"(?:pipeline[- ])?stages?\b", re.I)),
    ("requests", re.compile(r"(?:sequences|seqs|prompts|samples)\s+(?:in[- ]flight|concurrently|at\s+once|in\s+the\s+system|outstanding)\b", re.I)),
    ("batch", re.compile(r"(?:sequences|seqs|prompts|samples)\b|(?:sequence|seq|prompt|sample)s?[- ]batch\b", re.I)),
    ("requests", re.compile(r"(?:requests?|reqs?|queries|users|connections|streams|conversations|chats|sessions)\b(?:\s+(?:in[- ]flight|concurrently|at\s+once|in\s+the\s+system|in\s+parallel|outstanding))?|in[- ]flight\b|concurrent(?:ly)?\b|outstanding\b", re.I)),
    ("vocab", re.compile(r"(?:vocab(?:ulary)?(?:[- ]size)?|(?:word)?pieces)\b", re.I)),
    ("mfu", re.compile(r"(?:mfu|hfu|model flops utili[sz]ation|utili[sz]ation|efficiency)\b", re.I)),
    ("way", re.compile(r"way\s+(?P<what>tensor|tp|pipeline|pp|data|dp|model)\b", re.I)),
    ("tp", re.compile(r"(?:-?way\s+)?(?:with\s+|using\s+)?(?:tp|tensor[- ]parallel(?:ism)?)\b", re.I)),
    ("gpu_multiplier", re.compile(r"(?:x|×)?\s?§", re.I)),
]

_EQ = r"\s*(?:of|=|:|is|was|at|to|around|about|~)?\s*(?:about\s+|around\s+|~\s*)?$"
_SINGLE_EQ = r"\s*[=:]\s*$"
_BEFORE: list[tuple[str, re.Pattern]] = [
    ("requests", re.compile(r"(?:concurrency|in[- ]flight(?:\s+requests)?|concurrent\s+requests|requests\s+in\s+flight)\s*(?:is|of|=|:|would\s+be|will\s+be)?\s*(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?$", re.I)),
    ("batch", re.compile(r"(?:micro[- ]?)?batch(?:[- ]?size)?" + _EQ + r"|(?<![\d.]\s)(?<![\w.])(?-i:bs|mbs|b)" + _SINGLE_EQ, re.I)),
    ("seq", re.compile(r"(?:context(?:[- ](?:length|window|len))?|ctx(?:[- ]len)?|seq(?:uence)?(?:[- _]?(?:length|len))?|prompt(?:[- ](?:length|of))?|window)" + _EQ + r"|\bs" + _SINGLE_EQ, re.I)),
    ("kv_heads", re.compile(r"(?:kv[_ -]?heads|n[_ ]kv[_ ]heads|key[- /]value heads)" + _EQ, re.I)),
    ("head_dim", re.compile(r"(?:head[_ -]?dim(?:ension)?|d[_ ]head|head[_ -]size)" + _EQ + r"|heads?\s+(?:of|with|at)\s+(?:a\s+)?(?:dim(?:ension)?|size)\s*(?:of\s+)?$", re.I)),
    ("hidden", re.compile(r"(?:hidden(?:[- _](?:size|dim(?:ension)?))?|d[_ ]?model|width|model dim(?:ension)?|embedding (?:size|dim(?:ension)?))" + _EQ + r"|\b[hd]" + _SINGLE_EQ, re.I)),
    ("layers", re.compile(r"(?:layers|n[_ ]?layers|num[_ ]layers|depth)" + _EQ + r"|\bL" + _SINGLE_EQ)),
    ("heads", re.compile(r"(?:(?:attention )?heads|n[_ ]heads|num[_ ]heads)" + _EQ + r"|\ba" + _SINGLE_EQ, re.I)),
    ("tp", re.compile(r"(?:\btp|tensor[- ]parallel(?:ism)?(?:[- ](?:size|degree))?)" + _EQ, re.I)),
    ("stages", re.compile(r"(?:\bpp|pipeline(?:[- ]parallel(?:ism)?)?(?:[- ](?:size|degree|depth|stages))?|stages)" + _EQ + r"|\bp" + _SINGLE_EQ, re.I)),
    ("microbatches", re.compile(r"(?:micro[- ]?batches|num[_ ]micro[_ ]?batches)" + _EQ + r"|\bm" + _SINGLE_EQ, re.I)),
    ("vocab", re.compile(r"(?:vocab(?:ulary)?(?:[- ]size)?)" + _EQ + r"|\bV" + _SINGLE_EQ)),
    ("gpus", re.compile(r"(?:\bdp|data[- ]parallel(?:ism)?(?:[- ](?:size|degree))?|world[- ]size|gpus)" + _EQ + r"|(?-i:\bN)" + _SINGLE_EQ
                        + r"|\b(?:split|splits|splitting|shard|shards|sharded|sharding|spread|spreads|partitioned|partitions|divided|divides)\s+(?:it|them|that|this|those|everything|the\s+\w+(?:\s+\w+)?)?\s*(?:evenly\s+)?(?:over|across|between|among)\s*$"
                        + r"|(?:§|\bfsdp|\bddp|\bzero)\s+(?:over|across)\s+$", re.I)),
]
_MFU_BEFORE = re.compile(r"(?:mfu|hfu|utili[sz]ation|efficiency)\s*(?:of|=|:|is|at)?\s*(?:about|around|~|roughly)?\s*$", re.I)
_SEQ_AT = re.compile(r"(?:\b(?:at|with|for|of|per)\s+|@\s*)(?:a\s+)?$", re.I)

# --- qualifiers: tolerance and direction --------------------------------------------------------

_QUALIFIERS_BEFORE: list[tuple[str, float, re.Pattern]] = [
    ("at_least", DEFAULT_TOLERANCE, re.compile(r"(?:at\s+least|(?<!\bno\s)(?<!\bnot\s)more\s+than|over|above|upwards\s+of|no\s+less\s+than|not\s+less\s+than|a\s+minimum\s+of|minimum\s+of|north\s+of|in\s+excess\s+of|greater\s+than|≥|>=|>)\s*(?:just\s+)?$", re.I)),
    ("at_most", DEFAULT_TOLERANCE, re.compile(r"(?:at\s+most|less\s+than|fewer\s+than|under|below|no\s+more\s+than|not\s+more\s+than|up\s+to|a\s+maximum\s+of|maximum\s+of|within|just\s+under|south\s+of|as\s+little\s+as|≤|<=|<)\s*(?:just\s+)?$", re.I)),
    ("approx", ORDER_OF_MAGNITUDE_TOLERANCE, re.compile(r"(?:(?:on\s+)?the\s+order\s+of|order\s+of\s+magnitude\s+(?:of\s+)?|ballpark\s+(?:of\s+)?|in\s+the\s+ballpark\s+of)\s*$", re.I)),
    ("approx", EXACT_TOLERANCE, re.compile(r"(?:exactly|precisely|exact)\s*$", re.I)),
    ("approx", HEDGED_TOLERANCE, re.compile(r"(?:about|around|roughly|approximately|approx\.?|circa|ca\.|some|nearly|almost|close\s+to|something\s+like|like|maybe|probably|give\s+or\s+take|~|≈|≃|~=|\u223c)\s*$", re.I)),
]
_QUALIFIERS_AFTER: list[tuple[str, float, re.Pattern]] = [
    ("approx", HEDGED_TOLERANCE, re.compile(r"^\s*(?:-?ish\b|or\s+so\b|give\s+or\s+take\b|or\s+thereabouts\b|ballpark\b|roughly\b|approx(?:imately)?\b)", re.I)),
    ("at_least", DEFAULT_TOLERANCE, re.compile(r"^\s*(?:or\s+more\b|at\s+(?:the\s+)?least\b|minimum\b|min\b|\+(?!\s*\d)|and\s+up\b)", re.I)),
    ("at_most", DEFAULT_TOLERANCE, re.compile(r"^\s*(?:or\s+less\b|or\s+fewer\b|at\s+(?:the\s+)?most\b|max(?:imum)?\b|tops\b|or\s+under\b)", re.I)),
]
_PLUS_MINUS = re.compile(r"^\s*(?:±|\+/-|\+-)\s*(?P<p>\d{1,2}(?:\.\d+)?)\s*%")

_GPU_NAMES = r"a100|h100|h200|a10g?|l4|t4|v100"
"""Accelerators named bare after "each" or "per" ("each A100 holds", "per H100"), when the entity finder
has not masked them (a name it knows is masked as "§§§§")."""
_OF_CACHE = r"(?:of\s+(?:(?:the\s+)?(?:kv|k/v)\s+)?(?:cache|kv|memory|state|hbm)\s+)?"
""""320 KB of cache per token": what the figure is of, between it and its scope."""

_MARKERS_AFTER: list[tuple[str, re.Pattern]] = [
    ("per_gpu", re.compile(r"^\s*(?:each|apiece|per[- ](?:gpu|device|rank|card|worker|accelerator|chip)|per\s+(?:§+|" + _GPU_NAMES + r")(?!\w)|/\s?(?:gpu|device|rank)|a\s+(?:gpu|device)|on\s+(?:each|every)\s+(?:gpu|device|rank|card)|for\s+each\s+(?:gpu|device|rank)|of\s+(?:gpu\s+)?memory\s+(?:per|on\s+each)\s+(?:gpu|device))", re.I)),
    ("total", re.compile(r"^\s*(?:in\s+total|total|overall|altogether|combined|in\s+aggregate|aggregate|across\s+(?:all|the\s+cluster)|(?:of\s+[\w-]+(?:\s+[\w-]+)?\s+)?(?:is\s+|are\s+|gets\s+|get\s+)?(?:spread|split|divided|sharded|partitioned|distributed)\s+(?:evenly\s+)?(?:over|across|among|between))\b", re.I)),
    ("per_token", re.compile(r"^\s*" + _OF_CACHE + r"(?:per|/|a|for\s+each|each|for\s+every)\s*(?:(?:new|generated|output|decoded|additional|cached)\s+)?(?:token|tok)\b", re.I)),
    ("per_sequence", re.compile(r"^\s*" + _OF_CACHE + r"(?:per|/|a|for\s+each|each|for\s+every|for\s+one|for\s+a\s+single|for\s+a)\s*(?:single\s+)?(?:sequence|request|user|sample|seq|prompt|conversation)\b", re.I)),
    ("per_layer", re.compile(r"^\s*(?:per|/|a|for\s+each|each)\s*layer\b", re.I)),
    ("sent", re.compile(r"^\s*(?:(?:is|are|gets?)\s+)?(?:sent|transferred|moved|communicated|exchanged|on\s+the\s+wire)\b", re.I)),
]
_ONE_GPU = r"(?:gpu|device|rank|card|worker|" + _GPU_NAMES + r"|§+(?=\s+(?:holds?|keeps?|stores?|has|gets?|needs?|carries|ends\s+up|then|would|will|only)\b))"
"""What one accelerator is called after "each" or "per": "each A100 holds ...", "per GPU" (a named GPU is
masked as "§§§§", and a masked dtype or model is told apart by the verb after it)."""
_PER_GPU_BEFORE = re.compile(r"(?:\b(?:each|every|per)\s+" + _ONE_GPU + r"(?!\w)|\bper[- ]gpu\b|\beach\s+of\s+(?:the\s+|our\s+|its\s+)?\d+\s+(?:gpus|cards|ranks|devices|workers|a100s|h100s))[^;\d]{0,60}$", re.I)
_TOTAL_BEFORE = re.compile(r"\b(?:total|in\s+total|overall|altogether|combined|aggregate)\b[^;]{0,40}$|\b(?:shard(?:ing|s)?|split(?:ting|s)?|spread(?:ing|s)?|divid(?:e|es|ing)|partition(?:ing|s)?)\s+(?:the\s+|all\s+|those\s+)?(?:about\s+|~\s*)?$", re.I)
_SHARE_OF = re.compile(
    r"\b(?:(?:a|an|one)\s+(?:half|third|quarter|fourth|fifth|sixth|eighth|tenth|sixteenth|[a-z]+ieth|[a-z]+th)|half|\d+\s*/\s*\d+|\d+(?:\.\d+)?\s*%"
    r"|(?:a|its|their|one)\s+(?:slice|share|shard|part|piece|fraction))\s+of\s+(?:the\s+|all\s+|its\s+|those\s+)?(?:about\s+|~\s*|≈\s*)?$",
    re.I,
)
"""A share named before the whole it is taken from ("an eighth of the 140 GB", "1/8 of the 160 GB")."""
_SENT_BEFORE = re.compile(r"\b(?:sends?|sending|sent|transfers?|transferring|transmits?|moves?|moving|receives?|communicates?|traffic|pushes|ships?)\b[^;\d]{0,20}$", re.I)

_RANGE_JOIN = re.compile(r"\s?(?:-|–|—|to)\s?(?=[\d.])|\s+(?:to|and)\s+(?=[\d.])", re.I)
_BETWEEN = re.compile(r"\bbetween\s*$", re.I)


def _mask(text: str, entities: list[Entity]) -> str:
    chars = list(text)
    for entity in entities:
        for i in range(entity.start, entity.end):
            chars[i] = "§"
    return "".join(chars)


def _read_number(masked: str, pos: int) -> tuple[re.Match, float] | None:
    m = NUMBER_RE.match(masked, pos)
    if not m or m.end() == m.start():
        return None
    value = number_value(m)
    if value is None:
        return None
    return m, value


def _read_magnitude(masked: str, pos: int, number_is_word: bool) -> tuple[str | None, float, int]:
    """(magnitude text, factor, end) right after a number."""
    m = MAGNITUDE_RE.match(masked, pos)
    if not m:
        return None, 1.0, pos
    mag = m.group("mag")
    if mag in MAGNITUDE_LETTERS:
        if number_is_word:
            return None, 1.0, pos
        # "10 B" with a space, or "m": only before a count noun; a unit right here ("MB", "TB/s") wins.
        if match_unit(masked, pos) is not None and mag in ("M", "m", "T", "B", "b", "k", "K"):
            unit = match_unit(masked, pos)
            if unit is not None and unit.end > m.end():
                return None, 1.0, pos
        rest = masked[m.end():m.end() + 40]
        count_noun = re.match(r"[\s-]*(?:" + _FILLER + r")(?:param|parameter|token|tok|model|llm|request|user|req|quer|gpu|weight|sample|sequence|row|step|word|image|dollar|\$)", rest, re.I)
        if (m.group("space") or mag == "m") and not count_noun:
            return None, 1.0, pos
        return mag, MAGNITUDE_LETTERS[mag], m.end()
    return mag, MAGNITUDE_WORDS[mag.lower()], m.end()


def _role_after(masked: str, pos: int, entities_at: dict[int, Entity]) -> tuple[str | None, int, dict]:
    rest = masked[pos:pos + 80]
    lead = re.match(r"[\s-]*", rest).end()
    filler = re.match(_FILLER, rest[lead:], re.I)
    skip = lead + (filler.end() if filler else 0)
    for role, pattern in _NOUNS:
        if role == "gpu_multiplier":
            m = re.match(r"\s?(?:x|×)?\s?(?=§)", rest, re.I)
            if m is not None:
                entity = entities_at.get(pos + m.end())
                if entity is not None and entity.kind == "gpu":
                    return "gpus", pos + m.end(), {"gpu_entity": entity}
            continue
        for offset in dict.fromkeys((skip, lead)):
            m = pattern.match(rest, offset)
            if m:
                extra = {"what": m.group("what").lower()} if role == "way" else {}
                return role, pos + m.end(), extra
    return None, pos, {}


_HAS_WORD = re.compile(r"[A-Za-z]")


def _role_before(masked: str, start: int, clause_start: int) -> str | None:
    before = masked[max(clause_start, start - 40):start]
    if not _HAS_WORD.search(before):
        return None  # every role keyword is a word
    for role, pattern in _BEFORE:
        if pattern.search(before):
            return role
    return None


def _qualifier(masked: str, start: int, end: int, clause_start: int) -> tuple[str, float, str | None]:
    before = masked[max(clause_start, start - 30):start]
    after = masked[end:end + 30]
    if not re.search(r"[A-Za-z~≈≃∼<>≥≤±]", before + after):
        return "approx", DEFAULT_TOLERANCE, None
    for direction, tolerance, pattern in _QUALIFIERS_BEFORE:
        m = pattern.search(before)
        if m:
            return direction, tolerance, m.group(0).strip()
    for direction, tolerance, pattern in _QUALIFIERS_AFTER:
        m = pattern.match(after)
        if m:
            return direction, tolerance, m.group(0).strip()
    pm = _PLUS_MINUS.match(after)
    if pm:
        return "approx", float(pm.group("p")) / 100, pm.group(0).strip()
    return "approx", DEFAULT_TOLERANCE, None


MAX_MENTIONS_PER_PIECE = 50
"""A piece of prose never holds more numbers than this; a dump of numbers is read only this far."""


def parse_sentence(text: str, offset: int = 0, max_mentions: int = MAX_MENTIONS_PER_PIECE, column_headers: list[str] | None = None) -> ParsedSentence:
    entities = find_entities(text)
    masked = _mask(text, entities)
    entities_at = {e.start: e for e in entities}
    clauses = split_clauses(masked)
    parsed = ParsedSentence(text=text, offset=offset, masked=masked, entities=entities, mentions=[], clauses=clauses, column_headers=column_headers)

    pos = 0
    while len(parsed.mentions) < max_mentions:
        m = NUMBER_RE.search(masked, pos)
        if not m:
            break
        if m.end() == m.start():
            pos = m.end() + 1
            continue
        mention = _build_mention(parsed, m, entities_at)
        if mention is None:
            pos = m.end()
            continue
        parsed.mentions.append(mention)
        pos = max(mention.end, m.end())
    _six_n_d(parsed)
    _restated_scope_backwards(parsed)
    return parsed


_RESTATED_BY = re.compile(r"\s*,?\s*(?:call\s+it|i\.e\.,?|or\s+about|or\s+roughly|≈|~=)\s*(?:about\s+|~\s*)?", re.I)


def _restated_scope_backwards(parsed: ParsedSentence) -> None:
    """"245,760 bytes, call it 0.25 MB per token": the figure restated with a scope had that scope too."""
    for first, second in zip(parsed.mentions, parsed.mentions[1:], strict=False):
        if first.dim == second.dim and not first.markers & _SCOPE_MARKERS and second.markers & _SCOPE_MARKERS \
                and _RESTATED_BY.fullmatch(parsed.masked[first.end:second.start]):
            first.markers |= second.markers & _SCOPE_MARKERS


_SIX_N_D = re.compile(r"\b6\s*[×x*·]\s*$")
_TIMES = re.compile(r"^\s*[×x*·]\s*$")


def _six_n_d(parsed: ParsedSentence) -> None:
    """"6 × 10B × 200B": the factors of 6·N·D are the parameters and the tokens, even without nouns."""
    mentions = parsed.mentions
    for first, second in zip(mentions, mentions[1:]):
        if not _SIX_N_D.search(parsed.masked[max(0, first.start - 8):first.start]):
            continue
        if not _TIMES.match(parsed.masked[first.end:second.start]):
            continue
        if first.role in (None, "params") and second.role in (None, "params", "tokens"):
            first.role, first.dim = "params", "parameters"
            second.role, second.dim = "tokens", "tokens"


_VAGUE_BEFORE = re.compile(r"\b(?:couple(?:\s+of)?|few|several|many|some|tens\s+of|hundreds\s+of|dozens\s+of)\s+$", re.IGNORECASE)


def _build_mention(parsed: ParsedSentence, m: re.Match, entities_at: dict[int, Entity]) -> Mention | None:
    masked = parsed.masked
    value = number_value(m)
    if value is None:
        return None
    is_word = bool(m.group("word"))
    if is_word and _VAGUE_BEFORE.search(masked[max(0, m.start() - 20):m.start()]):
        return None  # "a couple hundred KB", "a few thousand tokens": not a number anyone can check
    if is_word and m.group("word").lower() in ("a", "an"):
        # "a" is a number only before a magnitude word ("a billion")
        nxt = MAGNITUDE_RE.match(masked, m.end())
        if not nxt or nxt.group("mag").lower() not in MAGNITUDE_WORDS:
            return None
    start = m.start()
    mag_text, factor, pos = _read_magnitude(masked, m.end(), is_word)
    used_k = mag_text in ("k", "K", "thousand")
    number = value * factor
    low = high = None

    # A range: "150-170 GB", "1 to 2 ms", "between 150 and 170 GB".
    join = _RANGE_JOIN.match(masked, pos)
    if join:
        second = _read_number(masked, join.end())
        if second is not None:
            m2, value2 = second
            mag2, factor2, pos2 = _read_magnitude(masked, m2.end(), bool(m2.group("word")))
            unit2 = match_unit(masked, pos2)
            is_and = "and" in masked[pos:join.end()].lower()
            if unit2 is not None and (not is_and or _BETWEEN.search(masked[max(0, start - 12):start])):
                if mag_text is None and mag2 is not None:
                    factor, mag_text = factor2, mag2
                    number = value * factor
                low, high = number, value2 * factor2
                pos = pos2
                if low > high:
                    low, high = high, low

    unit = match_unit(masked, pos)
    bare_bytes = re.match(r"[ \t]?B(?![A-Za-z/])", masked[pos:pos + 3])
    if unit is None and mag_text is None and number >= 100 and bare_bytes:
        unit = UnitMatch("bytes", 1.0, pos + bare_bytes.end(), "B")  # "327,680 B": bytes (a count that large is never "B" for billion)
    clause_index = parsed.clause_of(start)
    clause_start = parsed.clauses[clause_index][0]
    end = pos
    dim = "number"
    base = number
    binary_alt = None
    is_binary = False
    unit_text = ""
    role: str | None = None
    role_from: str | None = None
    extra: dict = {}
    if unit is not None:
        dim = unit.dim
        base = number * unit.factor
        end = unit.end
        unit_text = unit.text
        is_binary = unit.is_binary
        if unit.binary_alternative:
            binary_alt = number * unit.binary_alternative
        if low is not None:
            low, high = low * unit.factor, high * unit.factor
        # "80GB A100": a memory size naming the GPU, not a claim.
        if dim == "bytes" and re.match(r"\s?§", masked[end:end + 2]) and entities_at.get(end + (1 if masked[end:end + 1] == " " else 0)) is not None:
            role = "gpu_memory"
        if dim == "fraction":
            after_role, after_end, _ = _role_after(masked, end, entities_at)
            if after_role == "mfu" or _MFU_BEFORE.search(masked[max(clause_start, start - 40):start]):
                role = "mfu"
                if after_role == "mfu":
                    end = after_end
    else:
        role, noun_end, extra = _role_after(masked, pos, entities_at)
        if role == "gpu_multiplier":
            role = None
        if role is not None:
            end = max(noun_end, pos) if role != "gpus" or "gpu_entity" not in extra else pos
            role_from = "noun"
        else:
            role = _role_before(masked, start, clause_start)
            role_from = "before" if role else None
        batch_by_length = role == "batch" and re.match(r"\s*[×*x]\s*\d[\d,.]*\s*[kK]?\s*(?:-\s*)?tokens?\b", masked[pos:pos + 20])
        if role_from == "before" and not batch_by_length and (re.match(r"\s*[/×*·x]\s*[\d(]", masked[pos:pos + 6]) or re.search(r"[/×*·]\s*$", masked[max(0, start - 3):start])):
            role, role_from = None, None  # "m = 3/8": a fraction being worked out, not the input m ("batch 8 × 4k tokens" is a batch)
        if role == "way":
            role = {"tensor": "tp", "tp": "tp", "model": "tp", "pipeline": "stages", "pp": "stages", "data": "gpus", "dp": "gpus"}[extra["what"]]
        if role == "params_model":
            role = "params" if number >= 1e6 else None
        if role == "mfu":
            role = None  # "40 MFU" without % is not read
        if role is None and mag_text in ("B", "b", "T", "billion", "trillion", "bn", "tn", "M", "million", "mn"):
            role, role_from = "params", "magnitude"
        if role is None and (used_k or (number >= 128 and _is_power_of_two(number))) and _SEQ_AT.search(masked[max(clause_start, start - 12):start]):
            role = "seq"
        if role is None and number >= 100 and re.search(r"@\s*$", masked[max(clause_start, start - 3):start]) and re.match(r"\s*(?:avg|average|mean|ctx|context)\b", masked[pos:pos + 12], re.I):
            role = "seq"  # "≈0.16 GB @ 650 avg": a KV figure at an average length
        if role is None and (used_k or number >= 128) and re.match(r"[\s-]*(?:tokens?[\s-]+)?sequence\b(?!s)", masked[pos:pos + 20], re.IGNORECASE):
            role, role_from = "seq", "noun"  # "1.25 GiB per 4k sequence", "a 4,096-token sequence"
        if role in ("params",):
            dim = "parameters"
        elif role == "tokens":
            dim = "tokens"
        elif role == "requests":
            dim = "count"
        if role == "seq":
            base = context_length(number, used_k)
        if low is not None and dim == "number":
            low = high = None

    if low is not None and dim in ("number",):
        low = high = None
    direction, tolerance, qualifier = _qualifier(masked, start, end, clause_start)
    if low is not None:
        qualifier = qualifier or "range"
    mention = Mention(
        start=start, end=end, text=parsed.text[start:end], value=base, dim=dim, role=role,
        magnitude=mag_text, used_k=used_k, binary_alternative=binary_alt, is_binary=is_binary,
        low=low, high=high, direction=direction, tolerance=tolerance, qualifier=qualifier,
        clause=clause_index, unit_text=unit_text, role_from=role_from,
    )
    _attach_markers(parsed, mention, clause_start)
    if extra.get("gpu_entity") is not None:
        mention.markers.add("gpu_count")
    return mention


_PAIRED = re.compile(r"^\s*(?:vs\.?|versus|and|or|compared\s+(?:to|with)|to|/)\s*(?:about\s+|~\s*)?[\d.,]+\s*[A-Za-z/]{1,8}\b")


def _attach_markers(parsed: ParsedSentence, mention: Mention, clause_start: int) -> None:
    after = parsed.masked[mention.end:mention.end + 60]
    paired = _PAIRED.match(after)
    for text in (after, after[paired.end():] if paired else None):
        # "128 KB vs 512 KB per token": the unit of comparison applies to both numbers
        if text is None:
            continue
        for marker, pattern in _MARKERS_AFTER:
            if pattern.match(text):
                mention.markers.add(marker)
    before = parsed.masked[max(clause_start, mention.start - 80):mention.start]
    if _PER_GPU_BEFORE.search(before):
        mention.markers.add("per_gpu")
    if _TOTAL_BEFORE.search(before):
        mention.markers.add("total")
    if _SHARE_OF.search(parsed.masked[max(clause_start, mention.start - 40):mention.start]):
        mention.markers.discard("per_gpu")  # "each A100 holds an eighth of the 140 GB": the whole the share is of
        mention.markers.add("total")
    per_token = None
    for per_token in re.finditer(r"\bper\s+token\b", before):
        pass
    window_start = max(clause_start, mention.start - 80)
    if per_token is not None and not mention.markers & {"per_sequence", "total"} and not any(
        m.dim == "tokens" and m.start >= window_start + per_token.end() for m in parsed.mentions
    ):
        mention.markers.add("per_token")  # not in "2 FLOPs per token × 500 tokens = 2 TFLOPs": a count came after it
    earlier_same_dim = bool(parsed.mentions) and any(m.dim == mention.dim for m in parsed.mentions[-20:])
    sentence_per_layer = parsed.first_per_layer is not None and parsed.first_per_layer < mention.start
    if re.search(r"\bper\s+layer\b|\b(?:of|for|in)\s+(?:a\s+single|one|each|every|a)\s+(?:transformer\s+|decoder\s+)?layer\b(?![^;\d]{0,30}\band\b)", before, re.I) or (not earlier_same_dim and sentence_per_layer):
        mention.markers.add("per_layer")
    if _SENT_BEFORE.search(parsed.masked[max(clause_start, mention.start - 30):mention.start]):
        mention.markers.add("sent")
    _fronted_scope(parsed, mention)
    _appositive_share(parsed, mention, clause_start)
    _inherit_compared_scope(parsed, mention)
    _whole_after_part(parsed, mention)
    _whole_before_part(parsed, mention)
    header = parsed.header_of(mention.start)
    if header:
        for marker, pattern in _HEADER_MARKERS:
            if pattern.search(header):
                mention.markers.add(marker)


_SCOPE_MARKERS = frozenset({"per_gpu", "per_token", "per_sequence", "per_layer", "total"})
_COMPARED_WITH = re.compile(
    r"\s*(?:/\s*(?:token|tok|gpu|seq(?:uence)?|layer)s?\b)?\s*[,(]?\s*(?:an?\s+[\w.×-]+\s+saving\s*,?\s*)?"
    r"(?:instead\s+of|vs\.?|versus|compared\s+(?:to|with)|rather\s+than|down\s+from|up\s+from|against|call\s+it|i\.e\.,?|or\s+about|or\s+roughly|so\s+about)\s*(?:the\s+)?(?:about\s+|~\s*|≈\s*)?",
    re.I,
)


def _inherit_compared_scope(parsed: ParsedSentence, mention: Mention) -> None:
    """"0.3125 MiB per token instead of 2.5 MiB", "20 GB per GPU vs 160 GB": the number compared with
    a scoped one of the same kind is in the same scope unless it says its own."""
    if mention.markers & _SCOPE_MARKERS:
        return
    previous = parsed.mentions[-1] if parsed.mentions else None
    if previous is None or previous.dim != mention.dim or not previous.markers & _SCOPE_MARKERS:
        return
    between = parsed.masked[previous.end:mention.start]
    if _COMPARED_WITH.fullmatch(between) or _RESTATED_SCOPED.fullmatch(between):
        mention.markers |= previous.markers & _SCOPE_MARKERS


_RESTATED_SCOPED = re.compile(r"\s*(?:/\s*(?:token|tok|gpu|seq(?:uence)?|layer)s?\b|per\s+(?:token|gpu|sequence|layer))?\s*(?:≈|=|~=|~|,\s*i\.e\.,?|,\s*or)\s*(?:about\s+|~\s*)?", re.I)
""""245,760 B/token ≈ 0.25 MB": the same quantity restated in another unit keeps its scope."""


_PART_OF = re.compile(r"\s+(?:out\s+)?of\s+(?:the|all|our|its|their|those|that|a|this)?\s*(?:total\s+(?:of\s+)?)?(?:about\s+|~\s*)?", re.I)


def _whole_after_part(parsed: ParsedSentence, mention: Mention) -> None:
    """"each rank owns 2.5 GB of the 160 GB": the second number is the whole the first is a share of,
    so the per-GPU words before the share do not apply to it."""
    previous = parsed.mentions[-1] if parsed.mentions else None
    if previous is None or previous.dim != mention.dim or not _PART_OF.fullmatch(parsed.masked[previous.end:mention.start]):
        return
    mention.markers -= {"per_gpu", "sent"}
    mention.markers.add("total")


_SHARDED_DOWN_TO = re.compile(
    r"(?:\s+of\s+[\w-]+(?:\s+[\w-]+)?)?\s+(?:(?:is|are|gets?)\s+)?(?:shard(?:s|ed)?|split(?:s)?|divided|spread|partitioned|cut|drops?|comes?|goes)"
    r"(?:\s+(?:over|across)\s+(?:the\s+|all\s+)?(?:\d+\s+)?[\w-]+)?\s+(?:down\s+)?(?:to|into)\s+(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*|just\s+)?",
    re.I,
)


_WHOLE_IS_SHARE = re.compile(
    r"[^;]{0,60}?\b(?:is|are|becomes|become|comes\s+(?:down\s+)?to|works\s+out\s+to|turns\s+into|shrinks\s+to|drops\s+to|means|gives)\s+"
    r"(?:only\s+|just\s+|about\s+|around\s+|roughly\s+|~\s*|≈\s*)*",
    re.I,
)


def _whole_before_part(parsed: ParsedSentence, mention: Mention) -> None:
    """"the 160 GB of model states shards down to about 20 GB per GPU", "the 140 GB of bf16 weights of
    the 70B model is 17.5 GB per GPU": the first number is the whole the per-GPU share is cut from, so
    it is a total, whatever per-GPU words the clause holds."""
    if "per_gpu" not in mention.markers:
        return
    previous = next((m for m in reversed(parsed.mentions) if m.dim == mention.dim), None)
    if previous is None or previous.clause != mention.clause and ";" in parsed.masked[previous.end:mention.start]:
        return
    between = parsed.masked[previous.end:mention.start]
    from_to = re.search(r"\bfrom\s+(?:about\s+|~\s*)?$", parsed.masked[max(0, previous.start - 12):previous.start], re.I) and re.fullmatch(r"\s+(?:down\s+)?to\s+(?:about\s+|~\s*)?", between, re.I)
    if from_to or _SHARDED_DOWN_TO.fullmatch(between) or (_WHOLE_IS_SHARE.fullmatch(between) and "," not in between and "per_gpu" not in previous.markers):
        previous.markers -= {"per_gpu", "sent"}
        previous.markers.add("total")


_FRONTED_SCOPE = [
    ("per_gpu", re.compile(r"^\W*(?:(?:so|then|and|now)\s*,?\s+)?(?:on\s+)?(?:each|every|per|one)\s+(?:" + _ONE_GPU + r"|shard)(?!\w)\s*,?", re.I)),
    ("per_token", re.compile(r"^\W*(?:(?:so|then|and|now)\s*,?\s+)?(?:per|for\s+each|for\s+every|for\s+one|for\s+a\s+single|each|every)\s+(?:new\s+|generated\s+|output\s+)?token\b\s*,?", re.I)),
]
_CLAUSE_TURN = re.compile(r"[,;:]|\b(?:and|but|while|whereas|so|which|because|since|versus|vs|compared|whole|total|all)\b", re.I)


def _fronted_scope(parsed: ParsedSentence, mention: Mention) -> None:
    """"Per token, a forward pass costs about 13.5 GFLOPs", "Each GPU then holds about 47 GB": a scope
    that opens the sentence applies to the numbers of its first clause, however the clauses split."""
    if mention.markers & _SCOPE_MARKERS or mention.dim in ("parameters", "tokens", "number", "count", "fraction"):
        return
    for marker, pattern in _FRONTED_SCOPE:
        opening = pattern.match(parsed.masked)
        if opening and opening.end() <= mention.start and not _CLAUSE_TURN.search(parsed.masked[opening.end():mention.start]):
            mention.markers.add(marker)


_SHARE_CLAUSE = re.compile(
    r"\b(?:each|every|per)\s+" + _ONE_GPU + r"(?!\w)[^;,]{0,30}?\b(?:owns?|holds?|keeps?|stores?|gets?|has)\s+"
    r"(?:\d+\s*/\s*\d+|an?\s+[a-z]+(?:th|half|third|quarter)|its\s+(?:slice|share|shard))\s+of\b[^;,]{0,50},\s*$",
    re.I,
)
_APPOSITIVE_LEAD = re.compile(r"\s*(?:i\.e\.,?\s*|that'?s\s+|that\s+is\s+|which\s+is\s+|so\s+)?(?:about|around|roughly|approximately|~|≈|some)?\s*", re.I)


def _appositive_share(parsed: ParsedSentence, mention: Mention, clause_start: int) -> None:
    """"each GPU owns 1/32 of the 70B weights, roughly 4.4 GB in bf16": the figure in apposition to a
    per-GPU share is that share."""
    if mention.markers & _SCOPE_MARKERS or not _APPOSITIVE_LEAD.fullmatch(parsed.masked[clause_start:mention.start]):
        return
    if _SHARE_CLAUSE.search(parsed.masked[max(0, clause_start - 100):clause_start]):
        mention.markers.add("per_gpu")


_HEADER_MARKERS = [
    ("per_gpu", re.compile(r"\bper[- ]?(?:gpu|device|rank)\b|\beach\b", re.I)),
    ("total", re.compile(r"\btotal\b", re.I)),
    ("per_token", re.compile(r"\bper\s+token\b|/\s?token\b", re.I)),
    ("per_sequence", re.compile(r"\bper\s+(?:sequence|request|user)\b", re.I)),
]


def table_headers(text: str) -> list[tuple[int, int, list[str]]]:
    """(start, end, header cells) of every body row of each Markdown table in ``text``."""
    rows: list[tuple[int, int, list[str]]] = []
    lines = []
    position = 0
    for line in text.split("\n"):
        lines.append((position, position + len(line), line.strip()))
        position += len(line) + 1
    header: list[str] | None = None
    for index, (start, end, line) in enumerate(lines):
        if not line.startswith("|"):
            header = None
            continue
        following = lines[index + 1][2] if index + 1 < len(lines) else ""
        if header is None and _TABLE_SEPARATOR.fullmatch(following):
            header = _cells(line)
            continue
        if header is not None and not _TABLE_SEPARATOR.fullmatch(line):
            rows.append((start, end, header))
    return rows


_TABLE_SEPARATOR = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _is_power_of_two(value: float) -> bool:
    n = int(value)
    return n == value and n > 0 and n & (n - 1) == 0
