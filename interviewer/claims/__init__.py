"""Numeric claim checking: find the numbers a candidate asserts, recompute them, give a verdict.

    >>> from interviewer.claims import check_claims
    >>> [c.verdict for c in check_claims("10B params with Adam in mixed precision is 160 GB")]
    ['correct']

Pipeline: ``parser`` splits the answer into sentences and clauses (a wrapped line, a semicolon
inside parentheses and a Markdown table row are handled as such), masks named things
(``entities``: models, GPUs, dtypes, ZeRO stages) and reads every number with its unit
(``units``); ``topics`` decides which numbers are claims and what they are about;
``resolve`` fills each claim's inputs from the sentence, then earlier sentences, then the
scenario's facts, remembering where each came from; ``evaluators`` compute the true value with
``interviewer.tools`` calculators; ``arithmetic`` reads the candidate's own "a × b = c";
``checker`` judges and explains. Nothing here imports torch at import time.

Precision first: a number is called incorrect only when the quantity and every input are certain,
i.e. stated in the claim's sentence or scenario facts the sentence does not contradict. A value
carried over from another sentence (or another option of the same one), a sentence that gives two
values for one input, a quantity the sentence leaves open (weights or model states?), an MoE whose
active size is not stated, tensor or pipeline parallelism next to a ZeRO figure, or the candidate's
own arithmetic agreeing with the number while an input came from elsewhere: each makes a claim
that does not match *unverifiable*, and the explanation says what is uncertain and what the
calculators give under the assumed inputs. A claim whose own written arithmetic gives another
number is incorrect even when its other inputs are unknown. Numbers that assert nothing (a
target, "the 100 ms", "can't happen in 100 ms", a quoted myth, "2 FLOPs per weight", "what four
weeks allow", a setting "by default") are not claims at all.

Accepted conventions (each is tried; the explanation names the one that matched):
- mixed-precision Adam model states: 16 bytes/param (ZeRO, Rajbhandari et al. 2020, §3.1),
  18 with fp32 gradients, 20 in ZeRO-Infinity's accounting (Rajbhandari et al. 2021); "the
  optimizer states" alone are K = 12 bytes/param;
- decimal GB (1e9) and binary GiB (2**30), either way round (they differ by 7.4 %);
- peak FLOP/s are the dense datasheet figures; a claim that matches the 2:4-sparsity figure is
  incorrect and the explanation says so;
- pipeline bubble (p−1)/(m+p−1) of the step (GPipe) or (p−1)/m of the ideal time (Narayanan et al. 2021);
- an unqualified "A100" is the 40 GB part (1,555 GB/s) or the 80 GB part (2,039 GB/s): a claim
  matching either is correct and the explanation says which (so "about 1 ms/token for 2B int8
  on an A100" is correct: 0.98 ms on the 80 GB part, 1.29 ms on the 40 GB one); a versionless
  "Llama 70B" and a bare "GPT-2" likewise accept each model they may mean;
- an unstated MFU for a compute-bound time (prefill, time to train) accepts 30-100 %.
Tolerance: 15 % by default, 25 % after "about"/"roughly"/"~", 2 % after "exactly", a factor of 3
after "on the order of"; "at least"/"under" make a claim a bound.
"""

from interviewer.claims.checker import check_claims
from interviewer.claims.model import ClaimCheck

__all__ = ["ClaimCheck", "check_claims"]
