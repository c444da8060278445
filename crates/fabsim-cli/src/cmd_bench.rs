//! `fabsim bench`: simulator speed (packet-hops and events per second of wall time, and the
//! CPU time they took) and peak memory, for a scenario or for the suite of reference cases.
//!
//! `--suite` runs each case in a child process of its own (`fabsim bench --case NAME`), so
//! that every case reports its own peak memory, at each thread count of `--threads`
//! (`run.threads`: 1 and 2 by default), and prints one row per case and count; later
//! changes are measured the same way.

use std::path::PathBuf;
use std::process::Command;

use clap::Args;
use fabsim::metrics;
use fabsim::scenario::RunSpec;

use fabsim_lab::runs::{load, scenario};
use fabsim_lab::Error;

#[derive(Args)]
pub struct BenchArgs {
    /// Scenario file (TOML). Without it: the built-in default.
    pub scenario: Option<PathBuf>,
    /// Override a scenario key (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run the benchmark suite: every case (or those given with --case), each in its own
    /// process.
    #[arg(long, conflicts_with = "scenario")]
    pub suite: bool,
    /// A suite case: default, fastroute-2048, htsim-1024, netbench-web, k32, k64 (repeatable).
    #[arg(long = "case", value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(CASES.iter().map(|c| c.name)))]
    pub cases: Vec<String>,
    /// With --suite: the thread counts (`run.threads`) each case runs at.
    #[arg(long, value_name = "N,...", value_delimiter = ',', default_values_t = [1, 2], requires = "suite")]
    pub threads: Vec<u32>,
}

/// One case of the suite: a scenario (`None`: the built-in default) and overrides.
struct Case {
    name: &'static str,
    what: &'static str,
    scenario: Option<&'static str>,
    set: &'static [&'static str],
}

const FASTROUTE_DEFAULT: &str = include_str!("../../../scenarios/fastroute-default.toml");
const HTSIM_UEC: &str = include_str!("../../../reference/htsim/uec.toml");
const NETBENCH_LEAFSPINE: &str = include_str!("../../../reference/netbench/leafspine.toml");

const CASES: &[Case] = &[
    Case {
        name: "default",
        what: "the built-in default: Ofan Fig. 1, 432 hosts, 7 schemes",
        scenario: None,
        set: &[],
    },
    Case {
        name: "fastroute-2048",
        what: "Fastroute default, 2,048 hosts, DCTCP, Fastroute switches, 100 us slice",
        scenario: Some(FASTROUTE_DEFAULT),
        set: &["switch.arch=fastroute", "run.duration_us=100"],
    },
    Case {
        name: "htsim-1024",
        what: "k = 16 (1,024 hosts), 1 MiB permutation, REPS + NSCC, trimming, htsim's host stack",
        scenario: Some(HTSIM_UEC),
        set: &[
            "topology.k=16",
            "host.lb=reps",
            "host.profile=htsim",
            "workload.kind=permutation",
            "workload.message_bytes=1048576",
        ],
    },
    Case {
        name: "netbench-web",
        what: "128-host leaf-spine, Facebook Web at 70%, 1 ms, DCTCP, Netbench's host stack",
        scenario: Some(NETBENCH_LEAFSPINE),
        set: &[
            "topology.leaves=8",
            "topology.hosts_per_leaf=16",
            "topology.uplinks=16",
            "workload.kind=web",
            "workload.load=0.7",
            "run.duration_us=1000",
            "host.profile=netbench",
        ],
    },
    Case {
        name: "k32",
        what: "3-tier k = 32 (8,192 hosts), Ofan, 1 MiB permutation, unbounded, no CC",
        scenario: None,
        set: &["topology.k=32", "switch.lb=ofan"],
    },
    Case {
        name: "k64",
        what: "3-tier k = 64 (65,536 hosts), Ofan, 1 MiB permutation, unbounded, no CC",
        scenario: None,
        set: &["topology.k=64", "switch.lb=ofan"],
    },
];

/// A child's result line: `bench-summary HOSTS PACKET_HOPS EVENTS WALL_S CPU_S PEAK_MIB`.
const SUMMARY: &str = "bench-summary";

pub fn bench(args: &BenchArgs) -> Result<(), Error> {
    if args.suite {
        return suite(&args.cases, &args.threads);
    }
    let specs = match args.cases.as_slice() {
        [] => load(args.scenario.as_ref(), &args.set)?,
        [name] => {
            let case = CASES.iter().find(|c| c.name == name).expect("a case name");
            let set: Vec<String> = case
                .set
                .iter()
                .map(|s| s.to_string())
                .chain(args.set.iter().cloned())
                .collect();
            scenario(case.scenario, case.name, &set)?.expand()?
        }
        _ => return Err(Error::Usage("--case without --suite takes one case".into())),
    };
    // A suite child (`--case`) ends with the summary line its parent reads.
    measure(&specs, !args.cases.is_empty())
}

/// Runs `specs` one after another (each on its `run.threads`), a row each, then the total
/// (and, with `summary`, the line [`suite`] reads).
fn measure(specs: &[RunSpec], summary: bool) -> Result<(), Error> {
    let cpu_at_start = cpu_s();
    outln!(
        "{:>8} {:>12} {:>14} {:>10} {:>16} {:>14}",
        "lb",
        "packet_hops",
        "events",
        "wall_s",
        "packet_hops/s",
        "events/s"
    );
    let (mut hops, mut events, mut wall) = (0u64, 0u64, 0f64);
    for s in specs {
        let r = metrics::run(&s.params);
        outln!(
            "{:>8} {:>12} {:>14} {:>10.3} {:>16.0} {:>14.0}",
            r.lb,
            r.packet_hops,
            r.events,
            r.perf.wall_s,
            r.perf.packet_hops_per_s,
            r.events as f64 / r.perf.wall_s
        );
        hops += r.packet_hops;
        events += r.events;
        wall += r.perf.wall_s;
    }
    let peak = peak_rss_mib();
    let cpu = cpu_s().zip(cpu_at_start).map(|(b, a)| b - a);
    outln!(
        "total: {hops} packet-hops in {wall:.3} s = {:.2} M packet-hops/s; {} s of CPU; peak memory {} MiB",
        hops as f64 / wall / 1e6,
        cpu.map_or("unknown".into(), |c| format!("{c:.2}")),
        peak.map_or("unknown".into(), |m| format!("{m:.1}"))
    );
    if summary {
        let hosts = specs.first().map_or(0, |s| s.params.topology.hosts());
        outln!(
            "{SUMMARY} {hosts} {hops} {events} {wall} {} {}",
            cpu.unwrap_or(f64::NAN),
            peak.unwrap_or(f64::NAN)
        );
    }
    Ok(())
}

/// Every case (or `only`) at each thread count in a child process, one row each.
fn suite(only: &[String], threads: &[u32]) -> Result<(), Error> {
    let exe = std::env::current_exe()
        .map_err(|e| Error::Runtime(format!("cannot find this executable: {e}")))?;
    outln!(
        "{:<15} {:>7} {:>7} {:>12} {:>12} {:>9} {:>8} {:>11} {:>10} {:>9} {:>11}  what",
        "case",
        "threads",
        "hosts",
        "packet_hops",
        "events",
        "wall_s",
        "cpu_s",
        "M_hops/s",
        "M_events/s",
        "peak_MiB",
        "KiB/host"
    );
    let cases = CASES
        .iter()
        .filter(|c| only.is_empty() || only.iter().any(|o| o == c.name));
    for case in cases {
        for &t in threads {
            let out = Command::new(&exe)
                .args(["bench", "--case", case.name, "--set"])
                .arg(format!("run.threads={t}"))
                // The engine at that thread count, however busy the machine is.
                .arg("--set")
                .arg("run.share_cores=false")
                .output()
                .map_err(|e| Error::Runtime(format!("cannot run case {}: {e}", case.name)))?;
            let text = String::from_utf8_lossy(&out.stdout);
            let line = text.lines().find_map(|l| l.strip_prefix(SUMMARY));
            let Some(fields) = line.filter(|_| out.status.success()) else {
                return Err(Error::Runtime(format!(
                    "case {} failed: {}",
                    case.name,
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            };
            let v: Vec<f64> = fields
                .split_whitespace()
                .map(|x| x.parse().unwrap_or(f64::NAN))
                .collect();
            let [hosts, hops, events, wall, cpu, peak] = v[..] else {
                return Err(Error::Runtime(format!(
                    "case {}: bad summary {fields:?}",
                    case.name
                )));
            };
            outln!(
                "{:<15} {:>7} {:>7} {:>12} {:>12} {:>9.2} {:>8.2} {:>11.2} {:>10.2} {:>9.1} {:>11.1}  {}",
                case.name,
                t,
                hosts,
                hops,
                events,
                wall,
                cpu,
                hops / wall / 1e6,
                events / wall / 1e6,
                peak,
                peak * 1024.0 / hosts,
                case.what
            );
        }
    }
    Ok(())
}

/// CPU time (user + system) this process used so far, in seconds (Linux `/proc/self/stat`,
/// in clock ticks of 1/100 s).
fn cpu_s() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (in parentheses, which may hold spaces): utime and
    // stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Peak resident memory of this process (Linux `VmHWM`), in MiB.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
