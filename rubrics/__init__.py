"""Interview scenarios: YAML data, their pydantic schema and the loader."""

from rubrics.loader import RubricError, RubricLoadError, get_scenario, load_scenarios
from rubrics.schema import TIER_WEIGHTS, Criterion, Scenario, Step, Tier

__all__ = ["TIER_WEIGHTS", "Criterion", "RubricError", "RubricLoadError", "Scenario", "Step", "Tier", "get_scenario", "load_scenarios"]
