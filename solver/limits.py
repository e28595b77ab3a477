"""The limits every search runs under (docs/robustness.md lists them with
their defaults; the command line can change each)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_TIME = 300.0  # seconds for one answer (ask) or one case (cases); --time-limit 0: none
DEFAULT_MAX_MODELS = 100_000  # models one enumeration may produce before stopping
DEFAULT_GROUND_TIME = 30.0  # seconds for the grounding probe (killed after)
DEFAULT_MEMORY_MB = 2048  # address space of the grounding probe
PROBE_STEPS = 4  # steps the probe grounds
LARGE_POSITION = 60  # cards + history events from which a position is probe-ground first


@dataclass(frozen=True)
class Limits:
    time: float | None = DEFAULT_TIME
    max_models: int | None = DEFAULT_MAX_MODELS
    ground_time: float = DEFAULT_GROUND_TIME
    memory_mb: int = DEFAULT_MEMORY_MB
    probe_steps: int = PROBE_STEPS
    large_position: int = LARGE_POSITION
