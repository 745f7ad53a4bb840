"""Each checked claim carries its scope (per GPU or in total, per token, which component) and where every
input of its computation came from (the sentence, an earlier sentence, the scenario, a default, a
convention tried both ways, or nowhere), as ``interviewer check --json`` prints them."""

from __future__ import annotations

import pytest

from interviewer.claims import check_claims


def claim(text: str, facts: dict | None = None, index: int = -1):
    checks = check_claims(text, facts or {})
    assert checks, text
    return checks[index]


def sources(check) -> dict[str, str]:
    return {source.input: source.source for source in check.provenance}


def test_inputs_from_the_sentence_and_the_scenario() -> None:
    check = claim("With ZeRO-2 over 8 GPUs each GPU holds about 25 GB of model states.", {"params": "10e9"})
    assert sources(check) == {"params": "scenario", "zero": "stated", "gpus": "stated", "optimizer": "convention"}
    said = {source.input: source.said for source in check.provenance}
    assert said["zero"] == "ZeRO-2" and said["gpus"] == "8 GPUs"
    assert check.scope.across == "per_gpu"


@pytest.mark.parametrize("text", [
    "The node has 4 GPUs of 24 GB. With ZeRO-2 each one holds 60 GB for a 7B model.",
    "We have 4 GPUs in the box. Under ZeRO-2 a 7B model takes about 60 GB on each of them.",
])
def test_an_input_from_an_earlier_sentence_is_marked_earlier(text: str) -> None:
    check = claim(text)
    assert sources(check)["gpus"] == "earlier"
    assert sources(check)["params"] == "stated"


def test_a_default_is_marked_assumed() -> None:
    check = claim("Decode takes 7 ms per token on an A100-80GB.", {"params": "7e9"})
    assert sources(check) == {"params": "scenario", "gpu": "stated", "dtype": "assumed"}
    assert check.scope.per == "token"


def test_missing_inputs_are_listed_when_there_is_no_verdict() -> None:
    check = claim("Training needs 300 GB of activations.")
    assert check.verdict == "unverifiable"
    assert [s.source for s in check.provenance] == ["missing"]


@pytest.mark.parametrize(("text", "component"), [
    ("That is 40 GB of bf16 params + grads for the 10B model.", "16-bit weights + 16-bit gradients"),
    ("For a 10B model that's 80 GB just for the Adam moments.", "Adam moments"),
])
def test_a_component_of_the_model_states_is_named_in_the_scope(text: str, component: str) -> None:
    check = claim(text)
    assert check.verdict == "correct"
    assert check.scope.component == component


def test_the_whole_quantity_has_no_component() -> None:
    check = claim("10B params with Adam in mixed precision is 160 GB")
    assert check.verdict == "correct"
    assert check.scope.component is None and check.scope.across is None


@pytest.mark.parametrize(("text", "across"), [
    ("Tensor parallel over 4 GPUs puts 7 GB of weights per GPU for Llama-2-14B in bf16.", "per_gpu"),
    ("Across the 8 GPUs the mixed-precision Adam states of the 10B model take 160 GB in total.", "total"),
])
def test_a_stated_split_is_the_scope(text: str, across: str) -> None:
    assert claim(text).scope.across == across
