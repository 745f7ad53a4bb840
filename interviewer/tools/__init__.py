"""Torch calculators: plain functions with typed inputs returning a ``CalcResult`` (value, unit, working, source).

``CALCULATORS`` maps each CLI name to its function; ``run_calculator(name, **inputs)`` validates the
input names and calls it. Importing this package does not import torch: only ``params``,
``forward-flops`` and ``microbench`` import it, inside the call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from interviewer.tools.dtypes import BYTES_PER_ELEMENT, normalize_dtype
from interviewer.tools.errors import CalculatorInputError
from interviewer.tools.flops import compute_optimal, forward_flops, time_to_train, training_flops
from interviewer.tools.hardware import GPUS, GPUSpec, get_gpu
from interviewer.tools.latency import allreduce_time, decode_latency, littles_law, pipeline_bubble, prefill_latency
from interviewer.tools.memory import activation_memory, kv_cache_size, model_state_memory
from interviewer.tools.microbench import run_microbench
from interviewer.tools.params import parameter_count
from interviewer.tools.presets import MODEL_PRESETS, ModelConfig, get_preset
from interviewer.tools.result import CalcResult

CALCULATORS: dict[str, Callable[..., CalcResult]] = {
    "model-states": model_state_memory,
    "activations": activation_memory,
    "kv-cache": kv_cache_size,
    "params": parameter_count,
    "forward-flops": forward_flops,
    "train-flops": training_flops,
    "chinchilla": compute_optimal,
    "time-to-train": time_to_train,
    "decode-latency": decode_latency,
    "prefill-latency": prefill_latency,
    "allreduce": allreduce_time,
    "bubble": pipeline_bubble,
    "littles-law": littles_law,
    "microbench": run_microbench,
}


def run_calculator(name: str, **inputs: Any) -> CalcResult:
    """Run calculator ``name`` with keyword ``inputs`` (dashes in input names are accepted: ``micro-batch``).

    Raises ``CalculatorInputError`` for an unknown calculator (field ``name``), an input the
    calculator does not take, or an invalid value.
    """
    key = str(name).strip().lower().replace("_", "-")
    function = CALCULATORS.get(key)
    if function is None:
        raise CalculatorInputError("name", f"unknown calculator {name!r}; known: {', '.join(CALCULATORS)}")
    accepted = inspect.signature(function).parameters
    arguments: dict[str, Any] = {}
    for input_name, value in inputs.items():
        argument = input_name.replace("-", "_")
        if argument not in accepted:
            raise CalculatorInputError(argument, f"is not an input of {key} (inputs: {', '.join(accepted)})")
        arguments[argument] = value
    try:
        return function(**arguments)
    except TypeError as error:  # a required input is missing
        missing = [p.name for p in accepted.values() if p.default is inspect.Parameter.empty and p.name not in arguments]
        if missing:
            raise CalculatorInputError(missing[0], "is required") from error
        raise


__all__ = [
    "BYTES_PER_ELEMENT",
    "CALCULATORS",
    "GPUS",
    "MODEL_PRESETS",
    "CalcResult",
    "CalculatorInputError",
    "GPUSpec",
    "ModelConfig",
    "get_gpu",
    "get_preset",
    "normalize_dtype",
    "run_calculator",
]
