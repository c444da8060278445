"""Type stubs of the ``fabsim`` package."""

import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union, overload

from ._fabsim import ScenarioError as ScenarioError

class FabsimWarning(UserWarning): ...

Scenario = Union[None, str, os.PathLike[str], Mapping[str, Any]]
Report = Dict[str, Any]

@overload
def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: Literal[False] = False,
    trace: Literal[False] = False,
    jobs: Optional[int] = None,
    threads: Optional[int] = None,
    **overrides: Any,
) -> List[Report]: ...
@overload
def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: Literal[True],
    trace: Literal[False] = False,
    jobs: Optional[int] = None,
    threads: Optional[int] = None,
    **overrides: Any,
) -> Tuple[List[Report], Any]: ...
@overload
def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: Literal[False] = False,
    trace: Literal[True],
    jobs: Optional[int] = None,
    threads: Optional[int] = None,
    **overrides: Any,
) -> Tuple[List[Report], Any]: ...
@overload
def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: Literal[True],
    trace: Literal[True],
    jobs: Optional[int] = None,
    threads: Optional[int] = None,
    **overrides: Any,
) -> Tuple[List[Report], Any, Any]:
    """Runs a scenario; with ``flows=True`` / ``trace=True`` also its per-flow and per-port
    tables (pandas DataFrames if pandas is installed, else dicts of lists)."""
