"""The Python package against the CLI: same reports, same flow rows, same errors."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

import fabsim

REPO = Path(__file__).resolve().parents[2]

# A small lossy sweep: 2 schemes x 2 seeds of Poisson web flows on an 8-host leaf-spine with
# 12 KB drop-tail buffers (retransmits, timeouts, flows unfinished at the stop time).
LOSSY = {
    "topology": {"tiers": 2, "k": 4},
    "link": {"rate_gbps": 100},
    "switch": {"lb": ["ecmp", "ofan"], "buffer_bytes": 12000},
    "workload": {"kind": "web", "load": 0.9},
    "run": {"duration_us": 300, "seeds": 2},
}
LOSSY_SET = [
    "topology.tiers=2",
    "topology.k=4",
    "link.rate_gbps=100",
    "switch.lb=ecmp,ofan",
    "switch.buffer_bytes=12000",
    "workload.kind=web",
    "workload.load=0.9",
    "run.duration_us=300",
    "run.seeds=2",
]


def cli():
    """The fabsim binary: $FABSIM_BIN, else the one cargo built in the target directory."""
    if "FABSIM_BIN" in os.environ:
        return os.environ["FABSIM_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ["debug", "release"]:
        if (target / profile / "fabsim").exists():
            return str(target / profile / "fabsim")
    raise AssertionError("no fabsim binary: run `cargo build` or set FABSIM_BIN")


def cli_run(*args):
    return subprocess.run([cli(), "run", *args], capture_output=True, text=True)


def without_perf(reports):
    return [{k: v for k, v in r.items() if k != "perf"} for r in reports]


def test_reports_equal_the_cli_json():
    sets = [a for s in LOSSY_SET for a in ("--set", s)]
    out = cli_run(*sets, "--json", "-")
    assert out.returncode == 0, out.stderr
    cli_reports = json.loads(out.stdout)["runs"]
    reports = fabsim.run(LOSSY)
    assert len(reports) == 4
    # Each report's own warnings, as a list (the CLI's JSON leaves an empty one out).
    own = [r.pop("warnings") for r in reports]
    assert own == [r.get("warnings", []) for r in cli_reports]
    assert without_perf(reports) == without_perf(cli_reports)


def test_every_scenario_form_gives_the_same_runs(tmp_path):
    toml = "[topology]\ntiers = 2\nk = 4\n[switch]\nlb = [\"ecmp\", \"ofan\"]\n"
    path = tmp_path / "s.toml"
    path.write_text(toml)
    forms = [
        fabsim.run(path),
        fabsim.run(str(path)),
        fabsim.run(toml),
        fabsim.run({"topology": {"tiers": 2, "k": 4}, "switch.lb": ["ecmp", "ofan"]}),
        fabsim.run({"topology.tiers": 2}, set={"topology.k": 4, "switch.lb": "ecmp,ofan"}),
        fabsim.run({"topology.tiers": 2}, **{"topology.k": 4, "switch.lb": ["ecmp", "ofan"]}),
    ]
    first = without_perf(forms[0])
    assert [r["lb"] for r in first] == ["ecmp", "ofan"]
    for f in forms[1:]:
        assert without_perf(f) == first


def test_threads_give_the_same_reports():
    one = without_perf(fabsim.run(set={"topology.k": 8}, threads=1))
    assert without_perf(fabsim.run(set={"topology.k": 8}, threads=2)) == one


def test_flow_rows_reproduce_the_reports_and_the_cli_csv(tmp_path):
    reports, flows = fabsim.run(LOSSY, flows=True, jobs=2)
    pd = pytest.importorskip("pandas")
    assert isinstance(flows, pd.DataFrame)
    assert list(flows.columns[:3]) == ["run", "switch.lb", "seed"]
    for i, r in enumerate(reports):
        f = flows[flows["run"] == i]
        assert len(f) == r["flows_total"]
        assert (f["switch.lb"] == r["lb"]).all()
        fct = sorted(f["fct_us"].dropna().tolist())
        assert len(fct) == r["flows_completed"] < r["flows_total"]
        # Exactly the report's numbers: sequential sum in ascending order, nearest rank.
        assert sum(fct) / len(fct) == r["fct_mean_us"]
        assert fct[-(-len(fct) * 99 // 100) - 1] == r["fct_p99_us"]
        assert int(f["retransmits"].sum()) == r["retransmits"] > 0
        assert int(f["timeouts"].sum()) == r["timeouts"] > 0
    # The same rows as `fabsim run --flows`.
    csv = tmp_path / "flows.csv"
    out = cli_run(*[a for s in LOSSY_SET for a in ("--set", s)], "--flows", str(csv))
    assert out.returncode == 0, out.stderr
    cli_flows = pd.read_csv(csv)
    # Columns with no value at all (collective, step) are None here, NaN from the CSV.
    ours = flows.apply(lambda c: c.astype(float) if c.isna().all() else c)
    pd.testing.assert_frame_equal(ours, cli_flows, check_dtype=False)


def test_trace_equals_the_cli_csv_and_changes_no_report(tmp_path):
    pd = pytest.importorskip("pandas")
    plain = fabsim.run(LOSSY)
    reports, flows, trace = fabsim.run(LOSSY, flows=True, trace=True)
    assert without_perf(reports) == without_perf(plain)
    assert len(flows) == sum(r["flows_total"] for r in reports)
    assert list(trace.columns) == [
        "run", "switch.lb", "seed", "time_us", "port", "stage", "queue_bytes", "utilization",
        "from_node", "to_node", "pfc_paused",
    ]
    assert trace["utilization"].between(0, 1).all()
    csv = tmp_path / "trace.csv"
    out = cli_run(*[a for s in LOSSY_SET for a in ("--set", s)], "--trace", str(csv))
    assert out.returncode == 0, out.stderr
    pd.testing.assert_frame_equal(trace, pd.read_csv(csv), check_dtype=False)


def test_flows_without_pandas_are_a_dict_of_lists(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    reports, flows = fabsim.run(
        set={"topology.k": 4, "switch.lb": "ofan", "workload.kind": "all-gather"},
        flows=True,
    )
    assert isinstance(flows, dict)
    assert len(flows["flow"]) == reports[0]["flows_total"] == 15 * 16
    assert flows["collective"][0] == "all-gather"
    assert flows["step"][-1] == 14
    assert all(isinstance(x, int) for x in flows["size_bytes"])
    assert all(isinstance(x, float) for x in flows["slowdown"])


@pytest.mark.parametrize(
    "sets",
    [
        ["switch.lb=ofna"],
        ["topology.kk=4"],
        ["workload.kind=web"],
        ["workload.cdf=nosuchfile.txt", "workload.kind=web", "run.duration_us=10"],
    ],
)
def test_errors_carry_the_cli_message(sets):
    out = cli_run(*[a for s in sets for a in ("--set", s)])
    assert out.returncode == 2
    message = out.stderr.strip().splitlines()[-1].removeprefix("error: ")
    overrides = dict(s.split("=", 1) for s in sets)
    with pytest.raises(fabsim.ScenarioError) as e:
        fabsim.run(set=overrides)
    assert str(e.value) == message
    assert isinstance(e.value, ValueError)


def test_bad_files_and_values_raise_scenario_errors(tmp_path):
    bad = tmp_path / "bad.cdf"
    bad.write_text("100 0.5\n200 zz\n")
    with pytest.raises(fabsim.ScenarioError, match=r"bad.cdf: line 2: expected `BYTES CDF`"):
        fabsim.run(LOSSY, **{"workload.cdf": str(bad)})
    with pytest.raises(fabsim.ScenarioError, match="cannot read"):
        fabsim.run(tmp_path / "missing.toml")
    with pytest.raises(fabsim.ScenarioError, match="malformed TOML"):
        fabsim.run("[topology\nk = 4")
    with pytest.raises(fabsim.ScenarioError, match="not a scenario value"):
        fabsim.run(set={"topology.k": object()})
    with pytest.raises(fabsim.ScenarioError, match="jobs"):
        fabsim.run(jobs=0)


def test_concurrent_calls_from_threads_agree():
    results = [None, None]

    def work(i):
        results[i] = without_perf(fabsim.run(LOSSY))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[1] and len(results[0]) == 4


def test_ctrl_c_stops_a_sweep_within_a_second_and_returns_nothing():
    # Two permutations of 400 MB messages (the default fabric): about a minute of work each
    # (20 MB take 2.8 s); SIGINT arrives after 0.3 s.
    long = {"switch": {"lb": ["ecmp", "ofan"]}, "workload": {"message_bytes": 400_000_000}}
    # Python's own Ctrl-C handler, even where the test runs with SIGINT ignored (a shell's
    # background job), under which Python installs none.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fabsim.run(long, jobs=2)
        stopped = time.monotonic() - start
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    assert stopped < 0.3 + 1.0, f"stopped {stopped:.2f} s after the call"
    # Nothing is left running: the next call works as usual.
    assert len(fabsim.run(LOSSY)) == 4


def test_deep_nesting_raises_instead_of_crashing():
    deep = 1
    for _ in range(7000):
        deep = [deep]
    with pytest.raises(fabsim.ScenarioError, match="nested more than"):
        fabsim.run(set={"topology.k": deep})
    table = {"k": 4}
    for _ in range(7000):
        table = {"x": table}
    with pytest.raises(fabsim.ScenarioError, match="nested more than"):
        fabsim.run({"topology": table})


def test_a_str_is_a_path_if_the_file_exists_else_toml_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # Looks like TOML (it has '='), but names a file that exists: a path.
    (tmp_path / "k=4").mkdir()
    (tmp_path / "k=4" / "scen.toml").write_text("[topology]\nk = 4\n[run]\nseeds = 1\n")
    assert fabsim.run("k=4/scen.toml")[0]["hosts"] == 16
    # No such file: read as TOML text, and the error says so.
    with pytest.raises(fabsim.ScenarioError, match="read as TOML text: no file of that name"):
        fabsim.run("k=8/scen.toml")
    # No such file and nothing TOML-like in it.
    with pytest.raises(fabsim.ScenarioError, match="no such file .a str is a path when"):
        fabsim.run("missing.toml")


def test_python_drops_warnings():
    # DCTCP with no port marking, and a run the no-progress watchdog stops (a 400 KB flow
    # through 1-packet drop-tail buffers with no retransmission timer loses packets for
    # good): what the CLI prints as warnings, Python emits as FabsimWarning and lists in
    # each report's `warnings`.
    dctcp = {"topology.k": 4, "host.cc": "dctcp", "switch.ecn_default": "none",
             "workload.message_bytes": 65536}
    with pytest.warns(fabsim.FabsimWarning, match="reacts to ECN marks") as caught:
        reports = fabsim.run(set=dctcp)
    assert all(any("reacts to ECN marks" in w for w in r["warnings"]) for r in reports)
    cli = cli_run(*[a for k, v in dctcp.items() for a in ("--set", f"{k}={v}")], "--json", "-")
    cli_lines = [l[len("warning: "):] for l in cli.stderr.splitlines() if l.startswith("warning: ")]
    assert [str(w.message) for w in caught] == cli_lines
    stall = {"topology.k": 4, "switch.buffer_bytes": 4200, "switch.overflow": "drop",
             "host.rto_us": "off", "workload.message_bytes": 400000}
    with pytest.warns(fabsim.FabsimWarning, match="stopped") as caught:
        reports = fabsim.run(set=stall)
    assert any(r.get("stalled") for r in reports)
    assert all(
        any("stopped" in w for w in r["warnings"]) == bool(r.get("stalled")) for r in reports
    )
    # A clean run warns of nothing and lists no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fabsim.run(set={"topology.k": 4})[0]["warnings"] == []


def test_python_ctrl_c_from_a_worker_thread():
    # fabsim.run on a threading.Thread: Python runs the SIGINT handler on the main thread
    # (here waiting in join, where it raises KeyboardInterrupt); the run on the worker
    # thread stops too and raises KeyboardInterrupt there, within a second.
    long = {"switch": {"lb": ["ecmp", "ofan"]}, "workload": {"message_bytes": 400_000_000}}
    outcome = {}

    def work():
        start = time.monotonic()
        try:
            fabsim.run(long, jobs=2)
            outcome["result"] = "finished"
        except KeyboardInterrupt:
            outcome["result"] = "interrupted"
        outcome["took"] = time.monotonic() - start

    worker = threading.Thread(target=work)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    worker.start()
    timer.start()
    try:
        worker.join()
    except KeyboardInterrupt:
        pass
    timer.join()
    # A join interrupted by KeyboardInterrupt may no longer wait (CPython < 3.13): poll.
    deadline = time.monotonic() + 10
    while "took" not in outcome and time.monotonic() < deadline:
        time.sleep(0.01)
    assert outcome.get("result") == "interrupted", outcome
    assert outcome["took"] < 0.3 + 1.0, outcome
    assert len(fabsim.run(LOSSY)) == 4
