"""fabsim from Python: run scenarios, get the reports and per-flow tables.

>>> import fabsim
>>> reports, flows = fabsim.run(set={"switch.lb": "ofan", "topology.k": 4}, flows=True)
>>> reports[0]["cct_us"], len(flows)

The simulator is the same code as the ``fabsim`` command: ``run`` returns what
``fabsim run --json`` and ``fabsim run --flows`` write, and bad input raises
:class:`ScenarioError` with the message ``fabsim run`` prints.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import warnings as _warnings
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._fabsim import ScenarioError
from ._fabsim import interrupt as _interrupt
from ._fabsim import run as _run

__all__ = ["run", "ScenarioError", "FabsimWarning"]


class FabsimWarning(UserWarning):
    """What ``fabsim run`` warns of on stderr: a run stopped by the no-progress watchdog,
    settings that defeat their purpose (e.g. DCTCP with no ECN marking)."""


def _install_interrupt_handler() -> None:
    """Ctrl-C stops ``run`` on whatever thread it was called: Python runs SIGINT handlers
    on the main thread only, so the handler installed here (at import, on the main thread,
    before the one it replaces, which it then calls) tells every ``run`` in progress to
    stop. Not installed where SIGINT is ignored or handled outside Python; a handler a
    program installs later replaces it (then Ctrl-C stops only runs on the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        return

    def handler(signum, frame):  # type: ignore[no-untyped-def]
        _interrupt()
        return previous(signum, frame)

    signal.signal(signal.SIGINT, handler)


_install_interrupt_handler()

Scenario = Union[None, str, "os.PathLike[str]", Mapping[str, Any]]


_STR_RULE = (
    "a str is a path when a file of that name exists, else TOML text when it holds "
    "'=', '[' or a line break"
)


def _is_toml_text(s: str) -> bool:
    """A string that looks like TOML (a key assignment, a section or several lines)."""
    return "\n" in s or "=" in s or s.lstrip().startswith("[")


def run(
    scenario: Scenario = None,
    *,
    set: Optional[Mapping[str, Any]] = None,
    flows: bool = False,
    trace: bool = False,
    jobs: Optional[int] = None,
    threads: Optional[int] = None,
    **overrides: Any,
) -> Union[List[Dict[str, Any]], Tuple[Any, ...]]:
    """Runs a scenario (every run of its sweep, in parallel) and returns the run reports.

    ``scenario``: a TOML file (a path; a ``str`` naming a file that exists), TOML text (any
    other ``str`` with ``=``, ``[`` or a line break; errors say which rule applied), a dict (sections of keys, ``{"switch": {"lb": "ofan"}}``, or dotted keys,
    ``{"switch.lb": "ofan"}``), or ``None`` for the built-in default (Ofan Fig. 1).

    Overrides apply on top, like ``fabsim run --set KEY=VALUE``: ``set={"switch.lb":
    "ofan"}`` or keyword arguments (``**{"switch.lb": "ofan"}``). A ``str`` value is read as
    the command line reads it (``"ofan,ecmp"`` sweeps both, ``"8"`` is the integer 8);
    other values as TOML (a list sweeps).

    ``jobs``: worker threads (default: one per core); the runs release the GIL.
    ``threads``: threads of each run (``run.threads``: the fabric is cut into that many
    partitions simulated in parallel; the reports are identical for every count).

    Returns the reports, one dict per run in sweep order, the objects of ``fabsim run
    --json``'s ``runs``. With ``flows=True`` and/or ``trace=True``, returns a tuple:
    ``(reports, flows)``, ``(reports, trace)`` or ``(reports, flows, trace)``, each table
    every run's rows with the columns of ``fabsim run --flows`` / ``--trace`` (``run``
    indexes ``reports``; the trace samples every ``trace.interval_us``), a
    ``pandas.DataFrame`` if pandas is installed, else a dict of lists (``None`` where the
    CSV has an empty cell).

    Each report has ``warnings``: the run's warnings (a list, empty if none). What ``fabsim
    run`` warns of on stderr is emitted as :class:`FabsimWarning` (``warnings.warn``).

    Raises :class:`ScenarioError` (a ``ValueError``) on bad input. Ctrl-C stops the runs
    within milliseconds, whatever thread called ``run``, and raises ``KeyboardInterrupt``
    there; nothing is returned or kept.
    """
    sets: Dict[str, Any] = dict(set or {})
    sets.update(overrides)
    if threads is not None:
        sets["run.threads"] = threads
    path = text = table = source = None
    if isinstance(scenario, Mapping):
        table = dict(scenario)
    elif isinstance(scenario, str) and not os.path.exists(scenario):
        if not _is_toml_text(scenario):
            raise ScenarioError(f"{scenario}: no such file ({_STR_RULE})")
        text = scenario
        source = f"<str read as TOML text: no file of that name exists; {_STR_RULE}>"
    elif scenario is not None:
        path = os.fspath(scenario)
    reports_json, (flow_columns, trace_columns), (lines, per_run) = _run(
        path=path,
        text=text,
        source=source,
        table=table,
        sets=sets,
        flows=flows,
        trace=trace,
        jobs=jobs,
    )
    reports = json.loads(reports_json)
    for report, own in zip(reports, per_run):
        report["warnings"] = own
    for line in lines:
        _warnings.warn(line, FabsimWarning, stacklevel=2)
    tables = [t for t in (flow_columns, trace_columns) if t is not None]
    if not tables:
        return reports
    try:
        import pandas
    except ImportError:
        return (reports, *tables)
    return (reports, *(pandas.DataFrame(t) for t in tables))
