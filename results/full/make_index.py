#!/usr/bin/env python3
"""Writes index.md (the verdicts of the full-size runs in this folder, one row per claim) and
the verdict table of the repository's README.md (between `<!-- verdicts:begin -->` and
`<!-- verdicts:end -->`: per paper and experiment the claims and their verdicts, and the
experiments without a full-size result yet).

usage (from anywhere):
  python3 results/full/make_index.py          # rewrite index.md and the README table
  python3 results/full/make_index.py --check  # exit 1 if either differs from what this
                                              # script would write; nothing is written
Each experiment's build (fabsim version and commit) is read from its report.md; so is the
build that last re-scored its claims, if any: `fabsim reproduce all --rescore --out
results/full` re-evaluates every claim on the committed results.csv with the current claims
and tolerances, without rerunning (report.md then names both builds, and whether the
re-scoring build's simulator sources are the runs').
Each subfolder is one `fabsim reproduce ID` (no --quick) output: claims.json, report.md,
results.csv and plot.svg, copied from `reproduce-out/ID/`. experiments.txt lists every
experiment of `fabsim reproduce --list`, in its order (the test
`reproduce::tests::full_results_list_every_experiment` compares it with the registry). Only
these committed files are read; nothing is run. Python standard library only.

estimates.csv holds, for the experiments too large for a session, the measured cost of a
slice of their runs: for each sweep of `fabsim reproduce ID --plan`, its first and last run
spec timed by `fabsim run SPEC --set run.duration_us=200` (user CPU seconds, peak resident
memory), on the 2-core machine the other results come from, with the simulator named by
its sources' hash (as report.md names it). The cost of a full run is extrapolated linearly
in simulated time (the workloads are time-bounded: flows keep arriving until
run.duration_us), the sweep's cost as the runs' count times the mean of the two. The slices
underestimate (a run's load builds up past 200 µs), so the table also gives the expected
cost: the estimate times the lowest and the highest ratio of true to estimated cost among
the estimated experiments run in full since; those expected within FITS_HOURS_ON_2_CORES at
the highest ratio are the ones to run at full size.

pending/ID/ carries an experiment that did not finish in one session into the next: its
sweep directories as `fabsim reproduce ID` left them under reproduce-out/ID/runs/ (sweep.json,
the run specs, the finished runs' results; nothing half-written). To resume, copy it back and
rerun: `cp -r results/full/pending/ID reproduce-out/ && fabsim reproduce ID` (with the
`--seeds N` the table shows, if any: the sweep directories are named by it); finished runs
are reused when the simulator's sources hash the same (the directory names carry the hash),
and a changed simulator starts afresh. The folder is deleted once the experiment's outputs
are here. The table counts its finished runs and their measured time (perf.wall_s), and
extrapolates the rest from their mean, a better estimate than the slices.
"""
import csv
import json
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
readme_path = root / "README.md"
index_path = here / "index.md"
ids_path = here / "experiments.txt"
BEGIN, END = "<!-- verdicts:begin -->", "<!-- verdicts:end -->"
PAPERS = [("ofan", "Ofan"), ("fastroute", "Fastroute")]
VERDICTS = ["holds", "differs", "inconclusive", "not comparable"]
estimates_path = here / "estimates.csv"
pending_path = here / "pending"
# Experiments that cannot run at full size on such a machine at all, and why.
CANNOT_RUN = {
    "ofan-fsdp": "refused before it starts: one run (126 blocks, 432 hosts) is estimated at "
                 "3.1e12 packet-hops, over `run.max_packet_hops` (1e10), and 15.1 GiB; at the "
                 "5-8 M packet-hops/s of a 432-host run that is 4-7 days of CPU per run, and "
                 "the experiment has 120",
}


def registered():
    """Every experiment id of `fabsim reproduce --list`, in its order."""
    return ids_path.read_text().split()


def load():
    """{experiment: [claim, ...]} of every claims.json here."""
    return {
        c.parent.name: json.loads(c.read_text()) for c in sorted(here.glob("*/claims.json"))
    }


def build(exp):
    """The fabsim build an experiment's report.md names ("fabsim 0.1.0 2181ad14046f")."""
    m = re.search(r"fabsim (\S+) ([0-9a-f]{7,40}\S*)", (here / exp / "report.md").read_text())
    return f"{m.group(1)} {m.group(2)[:7]}" if m else "?"


def simulator(exp):
    """The simulator sources' hash an experiment's report.md names, if any."""
    m = re.search(r"simulator sources ([0-9a-f]{16})", (here / exp / "report.md").read_text())
    return m.group(1) if m else "?"


def rescored(exp):
    """The build that re-scored an experiment's claims ("fabsim 0.1.0 2181ad1"), if any."""
    m = re.search(r"--rescore`, fabsim (\S+) ([0-9a-f]{7,40}\S*) \(simulator sources ([0-9a-f]{16})",
                  (here / exp / "report.md").read_text())
    return f"{m.group(1)} {m.group(2)[:7]} (simulator sources {m.group(3)})" if m else None


def seeds(exp):
    """The " --seeds N" an experiment's full-size run was given (report.md's command), if any:
    the README and index.md show it beside the experiment."""
    m = re.search(r"`fabsim reproduce \S+[^`]*?( --seeds \d+)", (here / exp / "report.md").read_text())
    return m.group(1) if m else ""


def index_md(exps):
    rows, tally = [], {}
    builds = sorted({build(e) for e in exps})
    sims = sorted({simulator(e) for e in exps})
    for exp, claims in exps.items():
        for c in claims:
            v = c["verdict"]
            if c.get("basis") == "theory":
                v += " (theory)"
            tally[v] = tally.get(v, 0) + 1
            f = "n/a" if c["fabsim"] is None else f"{c['fabsim']:.4g}"
            m = "n/a" if c.get("margin") is None else f"{c['margin']:+.3g}"
            if c.get("se") is not None:
                m += f" ({c['se']:.3g})"
            rows.append(f"| {exp}{seeds(exp)} | {build(exp)} | {c['claim']} | {c['paper']:.4g} "
                        f"| {f} | {m} | {v} |")
    rescorers = sorted({r for r in map(rescored, exps) if r})
    out = [
        "# Full-size results",
        "",
        "`fabsim reproduce ID` at the papers' sizes (10 seeds where the papers use them), by "
        "the fabsim build each row names (" + ", ".join(f"`{b}`" for b in builds) + "; "
        "simulator sources " + ", ".join(f"`{x}`" for x in sims) + ", as each report.md "
        "names them); generated by `make_index.py`. Experiments not listed here have no "
        "full-size result yet: the README's verdict section gives each one's cost."
        + ("" if not rescorers else " Claims re-scored from the committed results.csv, "
           "without rerunning, by " + ", ".join(f"`{r}`" for r in rescorers) + ".")
        + " The margin is fabsim's distance inside the tolerance (negative: outside; for a "
        "factor in natural log), with its standard error over seeds in parentheses; a margin "
        "within one standard error is `inconclusive`.",
        "",
        "Tally: " + ", ".join(f"{n} {v}" for v, n in sorted(tally.items())) + ".",
        "",
        "| experiment | build | claim | paper | fabsim | margin (SE) | verdict |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    return "\n".join(out)


def counts(claims):
    """[claims, holds, differs, inconclusive, not comparable, theory]; theory claims count
    only as theory."""
    n = [len(claims)] + [0] * (len(VERDICTS) + 1)
    for c in claims:
        if c.get("basis") == "theory":
            n[-1] += 1
        else:
            n[1 + VERDICTS.index(c["verdict"])] += 1
    return n


def costs():
    """{experiment: (runs, CPU hours, peak MiB)} extrapolated from estimates.csv."""
    by = {}
    for r in csv.DictReader(estimates_path.open()):
        sweep = by.setdefault(r["experiment"], {}).setdefault(r["sweep"], [r, [], 0])
        sweep[1].append(float(r["cpu_s"]) * int(r["run_duration_us"]) / int(r["slice_us"]))
        sweep[2] = max(sweep[2], int(r["peak_mib"]))
    out = {}
    for e, sweeps in by.items():
        runs = sum(int(r["runs"]) for r, _, _ in sweeps.values())
        cpu = sum(int(r["runs"]) * sum(x) / len(x) for r, x, _ in sweeps.values())
        mem = max(m for _, _, m in sweeps.values())
        out[e] = (runs, cpu / 3600, mem)
    return out


def pending():
    """{experiment: (planned runs, finished runs, their summed wall seconds, seeds)} of
    pending/: the planned runs are its run specs (runs/SWEEP/runs/*.toml), seeds the
    " --seeds N" its sweep directories name ("-full-sN-"), if any."""
    out = {}
    for spec in sorted(pending_path.glob("*/runs/*/runs/*.toml")):
        exp, _, sweep = spec.relative_to(pending_path).parts[:3]
        planned, done, wall, _ = out.get(exp, (0, 0, 0.0, ""))
        m = re.search(r"-full-s(\d+)-", sweep)
        given = f" --seeds {m.group(1)}" if m else ""
        res = spec.parent.parent / "results" / (spec.stem + ".json")
        if res.exists():
            done, wall = done + 1, wall + json.loads(res.read_text())["perf"]["wall_s"]
        out[exp] = (planned + 1, done, wall, given)
    return out


# An experiment is run at full size when, at the slowest measured ratio of true to estimated
# cost, it is expected to take at most this many hours on 2 cores ("a few hours").
FITS_HOURS_ON_2_CORES = 3.0


def ratios(exps, ids, cost):
    """[(experiment, CPU hours it took, ratio to its estimate)] of the estimated experiments
    run in full since: their runs' summed wall time (perf.wall_s, one run at a time) against
    the estimate for as many runs (a run with --seeds 1 has a third of the runs)."""
    out = []
    for e in [e for e in ids if e in exps and e in cost]:
        rows = list(csv.DictReader((here / e / "results.csv").open()))
        took = sum(float(r["perf.wall_s"]) for r in rows) / 3600
        runs, hours, _ = cost[e]
        out.append((e, took, took / (hours * len(rows) / runs)))
    return out


def not_run(exps, ids):
    """The experiments without a full-size result: each one's cost, or why it cannot run."""
    missing = [e for e in ids if e not in exps]
    cost = costs()
    measured = ratios(exps, ids, cost)
    lo, hi = min(r for _, _, r in measured), max(r for _, _, r in measured)
    sims = sorted({r["simulator"] for r in csv.DictReader(estimates_path.open())})
    lines = [
        f"No full-size result yet ({len(missing)} of {len(ids)} experiments). Their cost at "
        "full size, extrapolated from 200 µs slices of their first and last run per sweep "
        f"(simulator {', '.join(sims)}; method in results/full/make_index.py), and "
        f"expected: the estimate times the {lo:.1f}-{hi:.1f}x that the experiments run in "
        "full since took over theirs (below). An experiment whose expected time on 2 cores "
        f"is at most {FITS_HOURS_ON_2_CORES:g} h at the upper end fits (a few hours) and is "
        "run at full size; the others are stated here by their cost, and `fabsim reproduce "
        "ID --quick` checks their claims at a smaller size:",
        "",
        "| experiment | runs | extrapolated CPU | on 2 cores | expected on 2 cores "
        "| fits | peak memory (slice) | finished (results/full/pending) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    done = pending()
    for e in missing:
        if e in cost:
            runs, hours, mem = cost[e]
            have = ""
            if e in done and done[e][1]:
                planned, n, wall, given = done[e]
                have = (f"{n} of {planned} runs{given} in {wall / 3600:.1f} CPU h; the "
                        f"other {planned - n} at their mean: "
                        f"{(planned - n) * wall / n / 3600:.1f} CPU h")
            fits = "yes" if hours / 2 * hi <= FITS_HOURS_ON_2_CORES else "no"
            lines.append(f"| `{e}` | {runs} | {hours:.1f} h | {hours / 2:.1f} h "
                         f"| {hours / 2 * lo:.1f}-{hours / 2 * hi:.1f} h | {fits} | {mem} MiB "
                         f"| {have} |")
        else:
            lines.append(f"| `{e}` | {CANNOT_RUN.get(e, 'not measured')} | | | | no | | |")
    total = sum(cost[e][1] for e in missing if e in cost)
    lines += ["", f"Together {total:.0f} CPU hours by the slices ({total / 2:.0f} h on 2 "
              f"cores), {total / 2 * lo:.0f}-{total / 2 * hi:.0f} h on 2 cores expected. "
              "The Fastroute simulations run 3 seeds per point (fabsim's choice: the paper "
              "states none); `fabsim reproduce ID --seeds 1` runs the paper's size at a third "
              "of the cost; an experiment shown with `--seeds 1` above was run so."]
    for e, took, r in measured:
        lines.append(f"`{e}`{seeds(e)}, run in full since, took {took:.1f} CPU hours "
                     f"against {took / r:.1f} estimated ({r:.1f}x).")
    return lines


def readme_table(exps, ids):
    lines = [
        BEGIN,
        "<!-- generated by results/full/make_index.py from results/full/*/claims.json; "
        "edit there -->",
        "",
        "| paper | experiment (full size) | claims | " + " | ".join(VERDICTS) + " | theory |",
        "|---|---|---|---|---|---|---|---|",
    ]
    total = [0] * (len(VERDICTS) + 2)
    for prefix, paper in PAPERS:
        mine = [e for e in ids if e in exps and e.startswith(prefix + "-")]
        sub = [0] * (len(VERDICTS) + 2)
        for e in mine:
            n = counts(exps[e])
            sub = [a + b for a, b in zip(sub, n)]
            lines.append(f"| {paper} | [{e}](results/full/{e}/report.md){seeds(e)} | "
                         + " | ".join(map(str, n)) + " |")
        total = [a + b for a, b in zip(total, sub)]
        lines.append(f"| **{paper}** | **{len(mine)} experiments** | "
                     + " | ".join(f"**{x}**" for x in sub) + " |")
    lines.append(f"| **both** | **{len(exps)} experiments** | "
                 + " | ".join(f"**{x}**" for x in total) + " |")
    lines += ["", *not_run(exps, ids), END]
    return "\n".join(lines)


def with_table(readme, table):
    if readme.count(BEGIN) != 1 or readme.count(END) != 1:
        sys.exit(f"{readme_path}: wants one {BEGIN} and one {END}")
    head, rest = readme.split(BEGIN)
    _, tail = rest.split(END)
    return head + table + tail


def main(argv):
    exps, ids = load(), registered()
    unknown = sorted(set(exps) - set(ids))
    if unknown:
        sys.exit(f"results/full holds experiments {ids_path.name} does not list: {unknown}")
    readme = readme_path.read_text()
    if argv[1:] == ["--check"]:
        want = {
            index_path: index_md(exps),
            readme_path: with_table(readme, readme_table(exps, ids)),
        }
        stale = [p for p, text in want.items() if p.read_text() != text]
        for p in stale:
            print(f"{p.relative_to(root)} differs from what results/full/make_index.py "
                  "writes: run it", file=sys.stderr)
        return 1 if stale else 0
    if len(argv) != 1:
        sys.exit(__doc__)
    index_path.write_text(index_md(exps))
    readme_path.write_text(with_table(readme, readme_table(exps, ids)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
