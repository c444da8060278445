"""Type stubs of the ``fabsim`` package."""

import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Union, overload

from ._fabsim import ScenarioError as ScenarioError

Scenario = Union[None, str, os.PathLike[str], Mapping[str, Any]]
Report = Dict[str, Any]

@overload
def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: Literal[False] = False,
    jobs: Optional[int] = None,
    **overrides: Any,
) -> List[Report]: ...
@overload
def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: Literal[True],
    jobs: Optional[int] = None,
    **overrides: Any,
) -> Tuple[List[Report], Any]:
    """Runs a scenario; with ``flows=True`` also its per-flow table (a pandas DataFrame if
    pandas is installed, else a dict of lists)."""
