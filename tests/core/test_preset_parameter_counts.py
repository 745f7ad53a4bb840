"""The parameter-count constants of the named presets equal what the meta-device build counts.

``interviewer.tools.presets.PRESET_PARAMETER_GROUPS`` lets the params calculator (and so the claim
checker) answer for a named model without importing torch; these tests rebuild every preset on
the meta device and compare group by group, and check the agreed totals (CONTEXT: gpt2
124,439,808 ... llama-3-70b 70,553,706,496).
"""

from __future__ import annotations

import pytest

from interviewer.tools.params import _built_groups, parameter_count
from interviewer.tools.presets import MODEL_PRESETS, PRESET_PARAMETER_GROUPS

AGREED_TOTALS = {
    "gpt2": 124_439_808, "gpt2-medium": 354_823_168, "gpt2-large": 774_030_080, "gpt2-xl": 1_557_611_200,
    "bert-base": 109_482_240, "bert-large": 335_141_888, "llama-2-7b": 6_738_415_616, "llama-2-13b": 13_015_864_320,
    "llama-2-70b": 68_976_648_192, "llama-3-8b": 8_030_261_248, "llama-3-70b": 70_553_706_496,
}


def test_every_preset_has_constants() -> None:
    assert set(PRESET_PARAMETER_GROUPS) == set(MODEL_PRESETS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODEL_PRESETS))
def test_constants_match_the_meta_device_build(name: str) -> None:
    assert dict(_built_groups(MODEL_PRESETS[name])) == PRESET_PARAMETER_GROUPS[name]


@pytest.mark.parametrize("name", sorted(AGREED_TOTALS))
def test_totals_are_the_agreed_counts(name: str) -> None:
    assert int(parameter_count(preset=name).value) == AGREED_TOTALS[name]


def test_a_preset_count_needs_no_torch() -> None:
    import subprocess
    import sys

    code = "import sys; from interviewer.tools.params import parameter_count; parameter_count(preset='llama-2-70b'); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
