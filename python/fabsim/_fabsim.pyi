"""Type stubs of the native module (see ``fabsim.run`` for the API)."""

from typing import Any, Dict, List, Mapping, Optional, Tuple

class ScenarioError(ValueError):
    """Bad input (scenario, key, value, file): the message ``fabsim run`` prints for it."""

def run(
    path: Optional[str] = None,
    text: Optional[str] = None,
    source: Optional[str] = None,
    table: Optional[Mapping[str, Any]] = None,
    sets: Optional[Mapping[str, Any]] = None,
    flows: bool = False,
    trace: bool = False,
    jobs: Optional[int] = None,
) -> Tuple[
    str,
    Tuple[Optional[Dict[str, List[Any]]], Optional[Dict[str, List[Any]]]],
    Tuple[List[str], List[List[str]]],
]:
    """Runs a scenario: (the reports as JSON, (flow columns or None, trace columns or None),
    (the warnings ``fabsim run`` prints, each run's own warnings)).

    ``source`` names ``text`` in error messages. Ctrl-C (a signal handler that raises, or
    :func:`interrupt` from any thread) stops the runs within milliseconds and raises,
    returning nothing."""

def interrupt() -> None:
    """Stops every ``run`` in progress, on any thread (they raise ``KeyboardInterrupt``):
    what the package's SIGINT handler calls."""
