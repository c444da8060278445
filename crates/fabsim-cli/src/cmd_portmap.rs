//! `fabsim portmap` and `fabsim power`: the Fastroute control plane and the
//! multi-ASIC power/radix model from the `portmap` crate.
//!
//! Self-contained: needs only `fabsim_lab::Error` (`Usage` / `Runtime`) and its `output`.

use fabsim_lab::output::{check_outputs, write_output};
use fabsim_lab::Error;
use portmap::power::{round_to, PowerModel};
use portmap::{
    inter_asic_bytes, solve, static_inter_asic_bytes, Constraints, Solver, TrafficMatrix, Workspace,
};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Mapping algorithm (see the `portmap` crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverArg {
    /// The paper's greedy heuristic, Listing 1 as written (net gains, sort, one pass).
    Greedy,
    /// Listing 1's mapping by linear-time selections instead of the sort (same mapping, faster).
    GreedySelect,
    /// Fast exact solver (transportation problem).
    Exact,
    /// Hungarian algorithm on the p x p matrix (slow reference).
    Hungarian,
    /// RDC-style balanced graph partitioning (Kernighan-Lin, slow baseline).
    Rdc,
}

impl From<SolverArg> for Solver {
    fn from(s: SolverArg) -> Self {
        match s {
            SolverArg::Greedy => Solver::Greedy,
            SolverArg::GreedySelect => Solver::GreedySelect,
            SolverArg::Exact => Solver::Exact,
            SolverArg::Hungarian => Solver::Hungarian,
            SolverArg::Rdc => Solver::Rdc,
        }
    }
}

/// Compute an ingress port-to-ASIC mapping from a traffic matrix.
#[derive(clap::Args, Debug, Clone)]
pub struct PortmapArgs {
    /// Traffic matrix CSV: one row per ingress port, one column per ASIC,
    /// bytes (non-negative integers); an optional first header line of text.
    pub tm: PathBuf,
    /// Number of ASICs (must equal the number of CSV columns and divide the
    /// number of ports).
    #[arg(long)]
    pub asics: usize,
    /// Mapping algorithm.
    #[arg(long, value_enum, default_value_t = SolverArg::Greedy)]
    pub solver: SolverArg,
    /// Ports per bundle (bundles move together).
    #[arg(long, default_value_t = 1)]
    pub bundle: usize,
    /// Number of independent circuit switches (each serves a contiguous
    /// block of ports and balances them over the ASICs on its own).
    #[arg(long = "circuit-switches", default_value_t = 1)]
    pub circuit_switches: usize,
    /// Write the result as JSON to PATH (`-` = stdout, replacing the text
    /// report).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
}

/// Print the paper's Tables 2 and 3 and the radix/host-count gains.
#[derive(clap::Args, Debug, Clone)]
pub struct PowerArgs {
    /// Forwarding capacity of one ASIC, Tb/s.
    #[arg(long = "asic-tbps", default_value_t = 102.4)]
    pub asic_tbps: f64,
    /// Power of one ASIC, W.
    #[arg(long = "asic-watts", default_value_t = 750.0)]
    pub asic_watts: f64,
}

/// Result of `fabsim portmap`, as written with `--json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PortmapReport {
    pub solver: String,
    pub mapping: Vec<usize>,
    pub inter_asic_bytes: u64,
    pub static_inter_asic_bytes: u64,
    pub solve_us: f64,
}

/// Reads and validates a traffic matrix CSV; errors name the file.
pub fn read_tm(path: &Path, asics: usize) -> Result<TrafficMatrix, Error> {
    let text = fabsim::scenario::read_input(path).map_err(|e| {
        Error::Usage(format!(
            "{}: cannot read traffic matrix: {e}",
            path.display()
        ))
    })?;
    TrafficMatrix::from_csv_str(&text, Some(asics))
        .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))
}

/// Solves the mapping problem for `args` (without printing).
pub fn compute_portmap(args: &PortmapArgs) -> Result<PortmapReport, Error> {
    let tm = read_tm(&args.tm, args.asics)?;
    let constraints = Constraints {
        bundle: args.bundle,
        circuit_switches: args.circuit_switches,
    };
    let solver = Solver::from(args.solver);
    let mut ws = Workspace::new();
    let mut mapping = Vec::new();
    let start = Instant::now();
    solve(tm.view(), &constraints, solver, &mut ws, &mut mapping).map_err(|e| {
        Error::Usage(format!(
            "{}: {e} (--bundle {}, --circuit-switches {}, --asics {})",
            args.tm.display(),
            args.bundle,
            args.circuit_switches,
            args.asics
        ))
    })?;
    let solve_us = start.elapsed().as_secs_f64() * 1e6;
    Ok(PortmapReport {
        solver: solver.name().to_string(),
        inter_asic_bytes: inter_asic_bytes(tm.view(), &mapping),
        static_inter_asic_bytes: static_inter_asic_bytes(tm.view()),
        mapping,
        solve_us,
    })
}

/// Text report of a mapping.
pub fn format_portmap(r: &PortmapReport) -> String {
    let mut s = String::new();
    let pct = |x: u64| {
        if r.static_inter_asic_bytes == 0 {
            String::new()
        } else {
            format!(
                " ({:.1}% of static)",
                100.0 * x as f64 / r.static_inter_asic_bytes as f64
            )
        }
    };
    s += &format!("solver: {} ({:.1} us)\n", r.solver, r.solve_us);
    s += &format!("mapping (ASIC of each port, {} ports):\n", r.mapping.len());
    for (k, chunk) in r.mapping.chunks(32).enumerate() {
        let line: Vec<String> = chunk.iter().map(|a| a.to_string()).collect();
        s += &format!("  {:>4}: {}\n", k * 32, line.join(" "));
    }
    s += &format!(
        "inter-ASIC bytes: {}{}\n",
        r.inter_asic_bytes,
        pct(r.inter_asic_bytes)
    );
    s += &format!(
        "static mapping inter-ASIC bytes: {}\n",
        r.static_inter_asic_bytes
    );
    s
}

/// `fabsim portmap`.
pub fn run_portmap(args: &PortmapArgs) -> Result<(), Error> {
    if let Some(path) = &args.json {
        check_outputs(&[("--json", path)], &[("the traffic matrix", &args.tm)])?;
    }
    let report = compute_portmap(args)?;
    match &args.json {
        Some(path) if path.as_os_str() == "-" => {
            let json = serde_json::to_string(&report)
                .map_err(|e| Error::Runtime(format!("cannot encode JSON: {e}")))?;
            outln!("{json}");
        }
        Some(path) => {
            out!("{}", format_portmap(&report));
            let json = serde_json::to_string_pretty(&report)
                .map_err(|e| Error::Runtime(format!("cannot encode JSON: {e}")))?;
            write_output(path, &format!("{json}\n"))?;
        }
        None => out!("{}", format_portmap(&report)),
    }
    Ok(())
}

/// The largest ASIC bandwidth (Tb/s) or power (W) the power model takes: far above any
/// ASIC, far below where its arithmetic overflows.
const MAX_POWER_INPUT: f64 = 1e9;
/// The smallest: far below any ASIC (1 Gb/s, 1 mW), above where the report's numbers run
/// to hundreds of digits.
const MIN_POWER_INPUT: f64 = 1e-3;

/// The power/radix report for `args` (Tables 2 and 3, Fig. 2, section 1).
pub fn format_power(args: &PowerArgs) -> Result<String, Error> {
    for (name, v) in [
        ("--asic-tbps", args.asic_tbps),
        ("--asic-watts", args.asic_watts),
    ] {
        // Bounded so that every derived number stays finite and printable.
        if !(v.is_finite() && (MIN_POWER_INPUT..=MAX_POWER_INPUT).contains(&v)) {
            return Err(Error::Usage(format!(
                "{name} = {v:e}: allowed: a number from {MIN_POWER_INPUT:e} to {MAX_POWER_INPUT:e}"
            )));
        }
    }
    let m = PowerModel {
        asic_tbps: args.asic_tbps,
        asic_watts: args.asic_watts,
        ..PowerModel::default()
    };
    let asics = [2usize, 4, 6, 8];
    let mut s = String::new();
    let row = |label: &str, f: &dyn Fn(usize) -> String| {
        let cells: Vec<String> = asics.iter().map(|&n| format!("{:>9}", f(n))).collect();
        format!("{label:<38}{}\n", cells.join(""))
    };
    let f1 = |x: f64| format!("{:.1}", round_to(x, 1));
    s += &format!(
        "ASIC: {} Tb/s, {} W ({} pJ/bit); inter-ASIC {} pJ/bit, fabric {} pJ/bit (n > 2), buffer {} pJ/bit, indirection {} pJ/bit\n\n",
        m.asic_tbps, m.asic_watts, m.asic_pj(), m.inter_asic_pj, m.fabric_pj, m.buffer_pj, m.indirection_pj
    );
    s += "Table 2: Fastroute power savings vs a non-oversubscribed n-ASIC switch\n";
    s += &row("Number of ASICs", &|n| n.to_string());
    s += &row("Throughput [Tbps]", &|n| f1(m.fastroute_throughput_tbps(n)));
    s += &row("Inter-ASIC link saving [W]", &|n| {
        f1(m.savings(n).inter_asic)
    });
    s += &row("Fabric saving [W]", &|n| f1(m.savings(n).fabric));
    s += &row("Buffer saving [W]", &|n| f1(m.savings(n).buffer));
    s += &row("Indirection layer overhead [W]", &|n| {
        f1(m.savings(n).indirection)
    });
    s += &row("Total savings [W]", &|n| f1(m.savings(n).total));
    s += "\nTable 3: total power of the non-oversubscribed switch\n";
    s += &row("Number of ASICs", &|n| n.to_string());
    s += &row("Throughput [Tbps]", &|n| f1(m.fastroute_throughput_tbps(n)));
    s += &row("Total savings for Fastroute [W]", &|n| {
        f1(m.savings(n).total)
    });
    s += &row("Switch w/o oversubscription [W]", &|n| {
        format!("{:.0}", m.switch_power_without_oversubscription(n))
    });
    s += "\nRadix and fat-tree hosts, Fastroute vs State-of-the-Art (same port speed)\n";
    s += &format!(
        "{:>5} {:>12} {:>12} {:>10} {:>14} {:>14}\n",
        "ASICs", "SotA [Tbps]", "FR [Tbps]", "bandwidth", "2-layer hosts", "3-layer hosts"
    );
    for n in 2..=8 {
        s += &format!(
            "{:>5} {:>12.1} {:>12.1} {:>+9.1}% {:>+13.1}% {:>+13.1}%\n",
            n,
            m.sota_throughput_tbps(n),
            m.fastroute_throughput_tbps(n),
            100.0 * m.bandwidth_gain(n),
            100.0 * m.host_gain(n, 2),
            100.0 * m.host_gain(n, 3)
        );
    }
    let range = |l: u32| {
        let g: Vec<f64> = (2..=4).map(|n| 100.0 * m.host_gain(n, l)).collect();
        let lo = g.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = g.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        format!("+{lo:.0}-{hi:.0}%")
    };
    s += &format!(
        "2-4 ASICs: 2-layer fat tree {} hosts, 3-layer {} hosts (paper: +30-78%, +49-138%)\n",
        range(2),
        range(3)
    );
    Ok(s)
}

/// `fabsim power`.
pub fn run_power(args: &PowerArgs) -> Result<(), Error> {
    out!("{}", format_power(args)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fabsim-portmap-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn args(tm: PathBuf, asics: usize) -> PortmapArgs {
        PortmapArgs {
            tm,
            asics,
            solver: SolverArg::Exact,
            bundle: 1,
            circuit_switches: 1,
            json: None,
        }
    }

    #[test]
    fn portmap_report_and_json() {
        let tm = tmp("ok.csv", "asic0,asic1\n0,10\n0,7\n5,0\n3,1\n");
        let r = compute_portmap(&args(tm.clone(), 2)).unwrap();
        assert_eq!(r.mapping, vec![1, 1, 0, 0]);
        assert_eq!((r.inter_asic_bytes, r.static_inter_asic_bytes), (1, 25));
        let json_path = tm.with_file_name("out.json");
        let mut a = args(tm, 2);
        a.json = Some(json_path.clone());
        run_portmap(&a).unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(json_path).unwrap()).unwrap();
        assert_eq!(v["solver"], "exact");
        assert_eq!(v["mapping"], serde_json::json!([1, 1, 0, 0]));
        assert_eq!(v["inter_asic_bytes"], 1);
        assert_eq!(v["static_inter_asic_bytes"], 25);
        assert!(v["solve_us"].is_number());
    }

    #[test]
    fn portmap_bad_input_is_usage_error_naming_the_file() {
        let cases = [
            ("neg.csv", "1,2\n3,-4\n", 2, "-4"),
            ("shape.csv", "1,2,3\n4,5,6\n", 2, "columns"),
            ("odd.csv", "1,2\n3,4\n5,6\n", 2, "multiple of 2"),
        ];
        for (name, text, asics, needle) in cases {
            let path = tmp(name, text);
            match compute_portmap(&args(path, asics)) {
                Err(Error::Usage(msg)) => {
                    assert!(msg.contains(name) && msg.contains(needle), "{msg}")
                }
                _ => panic!("{name}: expected a usage error"),
            }
        }
        let mut a = args(tmp("b.csv", "1,2\n3,4\n5,6\n7,8\n"), 2);
        a.bundle = 3;
        assert!(matches!(compute_portmap(&a), Err(Error::Usage(m)) if m.contains("bundle")));
        let missing = args(PathBuf::from("/nonexistent/tm.csv"), 2);
        assert!(matches!(compute_portmap(&missing), Err(Error::Usage(m)) if m.contains("tm.csv")));
    }

    #[test]
    fn power_report_prints_tables() {
        let s = format_power(&PowerArgs {
            asic_tbps: 102.4,
            asic_watts: 750.0,
        })
        .unwrap();
        for needle in [
            "136.5", "436.9", "172.7", "444.1", "420.0", "406.9", "1354", "6575",
        ] {
            assert!(s.contains(needle), "missing {needle} in\n{s}");
        }
        assert!(matches!(
            format_power(&PowerArgs {
                asic_tbps: 0.0,
                asic_watts: 750.0
            }),
            Err(Error::Usage(_))
        ));
    }
}
