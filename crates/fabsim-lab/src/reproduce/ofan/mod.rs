//! The Ofan paper's experiments that today's simulator can run. Every modelling choice the
//! paper leaves open is stated in the entry's `setup` (and nowhere else).

use super::cols::{self as col, key, Col};
use super::scen::Scen;
use super::table::{grid, Filter};
use super::{premise, Experiment, Plot, Row, Table};

/// Settings shared by every Ofan experiment (link delay, packet sizes, buffers, pointers).
pub const COMMON_SETUP: &str = "\
Links 800 Gb/s with 500 ns propagation delay each (the paper does not state the delay), \
4,096 B payload + 64 B header, 64 B ACKs, one ACK per data packet. No congestion control and \
unbounded buffers unless stated: the paper's analysis setting ('large buffers', hosts at line \
rate); its evaluation default of 800 KB per port is used where congestion control runs. Ofan/pOfan keep separate pointers for data and ACK size classes; pOfan = 4-port pipes \
(4OFAN) unless varied. REPS and DRB run at the hosts over switch ECMP. CCT = first packet sent \
to last ACK received; inflation = CCT over the appendix-A permutation lower bound (the naive \
per-NIC bound for all-to-all). Seeds: 10 per point at full size unless stated (the paper: \
at least ten runs), fewer with --quick.";

/// Seeds per point at full size (the paper: at least ten runs).
const SEEDS: u32 = 10;

/// The order of a scenario's sections.
const SECTIONS: &[&str] = &[
    "topology", "packet", "switch", "host", "workload", "failures", "run",
];

/// The base of every Ofan sweep: Fig. 1's 432-host fat tree (k = 12), a permutation of
/// 1 MiB per host, [`SEEDS`] seeds; the common setup's other settings are the defaults.
fn base() -> Scen {
    Scen::new(SECTIONS)
        .set("topology.k", 12)
        .set("workload.message_bytes", 1048576)
        .set("run.seeds", SEEDS)
}

/// [`base`] over the fabric sizes of Figs. 5 and 6 (16 to 1,024 hosts).
fn sized() -> Scen {
    base().set("topology.k", "[4, 8, 12, 16]")
}

/// Fig. 12's congestion-control setting: 800 KB buffers with trimming, ECN at 30 KB.
fn with_cc(s: Scen) -> Scen {
    s.set("switch.buffer_bytes", 800000)
        .text("switch.overflow", &["trim"])
        .set("switch.ecn_kmin_bytes", 30000)
        .set("switch.ecn_kmax_bytes", 30000)
}

/// The message sizes of Sec. 3.5 and Fig. 7: 64 to 4,096 packets.
const MESSAGES: &str = "[262144, 1048576, 4194304, 16777216]";

/// The switch schemes most figures compare: AR, 4OFAN (`pofan`), OFAN.
const SWITCH: &[&str] = &["ar", "pofan", "ofan"];

/// [`SWITCH`] and REPS (at the hosts).
const MAIN: &[&str] = &["ar", "pofan", "ofan", "reps"];

/// The FSDP2 figures' plot: CCT increase beyond the bound per congestion control, one
/// series per row as `series` names it.
fn cc_plot(series: fn(&Row) -> String) -> Plot {
    Plot {
        x: col::CC,
        x_label: "congestion control",
        x_log: false,
        y: inflation_pct,
        y_label: "CCT increase beyond the lower bound [%]",
        y_log: false,
        y_span: None,
        x_scale: 1.0,
        series,
    }
}

/// A scheme as the paper writes it (`4ofan` -> 4OFAN).
fn paper_name(scheme: &str) -> String {
    scheme.to_uppercase()
}

fn inflation_pct(r: &Row) -> Option<f64> {
    Some(100.0 * r.num(col::CCT_INFLATION)?)
}

fn cct_us(r: &Row) -> Option<f64> {
    r.num(col::CCT_US)
}

/// Fraction of the ideal rate achieved: lower bound / CCT (Fig. 1's 'utilization').
fn utilization_pct(r: &Row) -> Option<f64> {
    Some(100.0 * r.num(col::LOWER_BOUND_US)? / r.num(col::CCT_US)?)
}

fn max_queue_kb(r: &Row) -> Option<f64> {
    Some(r.num(col::MAX_QUEUE_BYTES.at(col::stage::ALL))? / 1e3)
}

fn max_of(r: &Row, cols: &[col::StageCol]) -> Option<f64> {
    cols.iter().filter_map(|&c| r.num(c)).reduce(f64::max)
}

fn max_queue_down_kb(r: &Row) -> Option<f64> {
    let cols = [
        col::MAX_QUEUE_BYTES.at(col::stage::EDGE_DOWN),
        col::MAX_QUEUE_BYTES.at(col::stage::AGG_DOWN),
        col::MAX_QUEUE_BYTES.at(col::stage::CORE_DOWN),
    ];
    Some(max_of(r, &cols)? / 1e3)
}

fn max_queue_up_kb(r: &Row) -> Option<f64> {
    Some(
        max_of(
            r,
            &[
                col::MAX_QUEUE_BYTES.at(col::stage::EDGE_UP),
                col::MAX_QUEUE_BYTES.at(col::stage::AGG_UP),
            ],
        )? / 1e3,
    )
}

fn scheme(r: &Row) -> String {
    r.get(col::SCHEME).unwrap_or("?").to_string()
}

fn scheme_and_sweep(r: &Row) -> String {
    format!("{} ({})", scheme(r), r.get(col::SWEEP).unwrap_or("?"))
}

/// The host counts present, ascending.
fn host_counts(t: &Table) -> Vec<String> {
    let mut v: Vec<(f64, String)> = t
        .iter()
        .filter_map(|r| Some((r.num(col::HOSTS)?, r.get(col::HOSTS)?.to_string())))
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v.dedup_by(|a, b| a.1 == b.1);
    v.into_iter().map(|x| x.1).collect()
}

/// Mean CCT gap in percent of `of`'s CCT: (best of `others` - `of`) / `of`, at `extra` filter.
fn cct_gap_pct(t: &Table, of: &str, others: &[&str], extra: &Filter) -> Result<f64, String> {
    let f = |s: &str| {
        let mut filter = vec![(col::SCHEME, s)];
        filter.extend_from_slice(extra);
        t.mean(&filter, cct_us)
    };
    let base = f(of)?;
    let best = others.iter().map(|s| f(s)).collect::<Result<Vec<_>, _>>()?;
    let best = best.into_iter().fold(f64::INFINITY, f64::min);
    Ok(100.0 * (best - base) / base)
}

fn at_hosts<T>(
    t: &Table,
    pick: fn(&[String]) -> Option<&String>,
    f: impl Fn(&str) -> Result<T, String>,
) -> Result<T, String> {
    let hosts = host_counts(t);
    let h = pick(&hosts).ok_or("no runs")?;
    f(h)
}

/// 4OFAN's CCT gap to the best of AR and REPS on permutations at `hosts` hosts.
fn fig5_gap(t: &Table, hosts: &str) -> Result<f64, String> {
    cct_gap_pct(
        t,
        "4ofan",
        &["ar", "reps"],
        &[(col::WORKLOAD, "permutation"), (col::HOSTS, hosts)],
    )
}

/// The growth exponent of `metric` against message size for `scheme` on workload `wl`.
fn slope(t: &Table, scheme: &str, wl: &str, metric: super::Metric) -> Result<f64, String> {
    let f = [(col::SCHEME, scheme), (col::WORKLOAD, wl)];
    t.growth_exponent(&f, col::MESSAGE_BYTES, metric)
}

/// How much lower `of`'s mean CCT is than `vs`'s, in percent of `vs`'s.
fn cct_cut_pct(t: &Table, of: &str, vs: &str) -> Result<f64, String> {
    Ok(100.0
        * (1.0 - t.mean(&[(col::SCHEME, of)], cct_us)? / t.mean(&[(col::SCHEME, vs)], cct_us)?))
}

/// How much `f` (of a host count) grows from the smallest fabric to the largest.
fn growth(t: &Table, f: impl Fn(&str) -> Result<f64, String>) -> Result<f64, String> {
    Ok(at_hosts(t, |h| h.last(), &f)? - at_hosts(t, |h| h.first(), &f)?)
}

/// How much the inflation gap of `a` over `b` (pp) grows from the smallest fabric to the
/// largest.
fn gap_growth(t: &Table, a: &str, b: &str) -> Result<f64, String> {
    growth(t, |h| infl_diff(t, a, b, &[(col::HOSTS, h)]))
}

/// DRB's mean max queue over OFAN's at `hosts` hosts.
fn drb_queue_ratio(t: &Table, hosts: &str) -> Result<f64, String> {
    Ok(
        t.mean(&[(col::SCHEME, "drb"), (col::HOSTS, hosts)], max_queue_kb)?
            / t.mean(&[(col::SCHEME, "ofan"), (col::HOSTS, hosts)], max_queue_kb)?,
    )
}

/// Mean inflation (pp) of `a` minus that of `b`, with `extra` filter.
fn infl_diff(t: &Table, a: &str, b: &str, extra: &Filter) -> Result<f64, String> {
    Ok(infl(t, a, extra)? - infl(t, b, extra)?)
}

/// CCT of `scheme` under `cc` over its CCT without congestion control.
fn cc_ratio(t: &Table, scheme: &str, cc: &str) -> Result<f64, String> {
    Ok(t.mean(&[(col::SCHEME, scheme), (col::CC, cc)], cct_us)?
        / t.mean(&[(col::SCHEME, scheme), (col::CC, "none")], cct_us)?)
}

/// The smallest change (%) of AR's or REPS's mean CCT that counts as congestion control
/// acting (stated in the tolerances of every report).
pub const CC_ACTS_PCT: f64 = 10.0;

/// The premise of every congestion-control claim: congestion control `cc` acted, i.e. it
/// changed AR's or REPS's mean CCT in `t` by at least [`CC_ACTS_PCT`] against the runs
/// without congestion control (`cc` = none) of `t` (pass a table filtered to the runs the
/// claim reads). The measured changes and the margin, with its standard error over seeds,
/// become the claim's note whether it holds or not; a claim whose control clearly did not act
/// is not comparable, one within a standard error of the threshold inconclusive (see
/// [`premise`]).
pub fn cc_acts(t: &Table, cc: &str) -> Result<(), String> {
    let change =
        |t: &Table, s: &str| -> Result<f64, String> { Ok(100.0 * (cc_ratio(t, s, cc)? - 1.0)) };
    premise(
        t,
        "pp",
        |t| Ok(change(t, "ar")?.abs().max(change(t, "reps")?.abs()) - CC_ACTS_PCT),
        || {
            Ok(format!(
                "{cc} changed AR's mean CCT by {:+.1}% and REPS's by {:+.1}% (it acted if \
                 either changed by at least {CC_ACTS_PCT}%)",
                change(t, "ar")?,
                change(t, "reps")?
            ))
        },
    )
}

/// `of`'s inflation minus the larger of OFAN's and 4OFAN's (pp), under `cc`.
fn cc_gap(t: &Table, of: &str, cc: &str) -> Result<f64, String> {
    let f = [(col::CC, cc)];
    Ok(infl_diff(t, of, "ofan", &f)?.min(infl_diff(t, of, "4ofan", &f)?))
}

/// The best interior payload's mean CCT relative to the better of the two extreme payloads,
/// in percent (negative: a sweet spot between the extremes).
fn sweet_spot(t: &Table, scheme: &str) -> Result<f64, String> {
    let pts = t.mean_by(&[(col::SCHEME, scheme)], key::PAYLOAD_BYTES, cct_us)?;
    if pts.len() < 3 {
        return Err("a sweet spot needs three or more packet sizes".into());
    }
    let ends = pts[0].1.min(pts[pts.len() - 1].1);
    let inner = pts[1..pts.len() - 1]
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    Ok(100.0 * (inner - ends) / ends)
}

/// The share (%) of the values of column `x` at which the slowest of `winners` has a lower
/// mean CCT than the fastest of `losers`.
fn win_share(t: &Table, x: Col, winners: &[&str], losers: &[&str]) -> Result<f64, String> {
    let xs = t.mean_by(&[(col::SCHEME, winners[0])], x, cct_us)?;
    let mut wins = 0;
    for (v, _) in &xs {
        let v = format!("{v}");
        let c = |s: &str| t.mean(&[(col::SCHEME, s), (x, &v)], cct_us);
        let worst = winners
            .iter()
            .map(|s| c(s))
            .collect::<Result<Vec<_>, _>>()?;
        let best = losers.iter().map(|s| c(s)).collect::<Result<Vec<_>, _>>()?;
        if worst.into_iter().fold(0.0, f64::max) < best.into_iter().fold(f64::INFINITY, f64::min) {
            wins += 1;
        }
    }
    Ok(100.0 * wins as f64 / xs.len() as f64)
}

/// Mean CCT inflation (%) of `scheme` with `extra` filter.
fn infl(t: &Table, scheme: &str, extra: &Filter) -> Result<f64, String> {
    let mut filter = vec![(col::SCHEME, scheme)];
    filter.extend_from_slice(extra);
    t.mean(&filter, inflation_pct)
}

/// Sec. 6.7's reduction factor: the smaller CCT inflation of AR and REPS over `of`'s, under
/// congestion control `cc` (which must have acted: the paper's mechanism is AR and REPS
/// being throttled).
fn fsdp_factor(t: &Table, of: &str, cc: &str) -> Result<f64, String> {
    cc_acts(t, cc)?;
    let f = [(col::CC, cc)];
    Ok(infl(t, "ar", &f)?.min(infl(t, "reps", &f)?) / infl(t, of, &f)?)
}

/// Thm. 6 as fig8 applies it: header and ACK bytes per packet, and alpha = the packets a
/// packet queues behind (the 5 store-and-forward copies of a 6-hop path).
const THM6_HEADER: f64 = 64.0;
const THM6_ACK: f64 = 64.0;
const THM6_ALPHA: f64 = 5.0;

/// OFAN's mean CCT at the swept payload nearest (in ratio) Thm. 6's optimal payload for the
/// swept message size, over its best swept payload's, minus 1 (%).
fn thm6_gap(t: &Table) -> Result<f64, String> {
    let pts = t.mean_by(&[(col::SCHEME, "ofan")], key::PAYLOAD_BYTES, cct_us)?;
    let m = t.mean(&[(col::SCHEME, "ofan")], |r| r.num(col::MESSAGE_BYTES))?;
    let opt =
        fabsim::theory::optimal_packet_bytes(m, THM6_HEADER, THM6_ACK, THM6_ALPHA) - THM6_HEADER;
    let off = |p: &(f64, f64)| (p.0 / opt).ln().abs();
    let near = pts
        .iter()
        .min_by(|a, b| off(a).total_cmp(&off(b)))
        .ok_or("no runs")?;
    let best = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    Ok(100.0 * (near.1 / best - 1.0))
}

/// The largest host count present.
fn largest(t: &Table) -> Result<String, String> {
    host_counts(t).pop().ok_or_else(|| "no runs".into())
}

/// MoE: the best of AR's and REPS's mean CCT over OFAN's, minus 1 (%), with congestion
/// control `cc` and expert balancing `bal`, at the largest size; `cc` must have acted on
/// those runs ([`cc_acts`]).
fn moe_gap(t: &Table, cc: &str, bal: &str) -> Result<f64, String> {
    let h = largest(t)?;
    let same = [(key::BALANCE, bal), (col::HOSTS, h.as_str())];
    cc_acts(&t.filtered(|r| r.matches(&same)), cc)?;
    let f = [(col::CC, cc), (key::BALANCE, bal), (col::HOSTS, h.as_str())];
    cct_gap_pct(t, "ofan", &["ar", "reps"], &f)
}

/// A data packet on the wire: 4,096 B of payload and 64 B of header (the common setup).
const PACKET_BYTES: f64 = 4160.0;

/// The largest edge-uplink max queue over App. F.4's bound of w + 1 packets (w = k/2
/// uplinks per edge switch of a k-ary fat tree of k^3/4 hosts), over OFAN's runs.
fn edge_up_over_bound(t: &Table) -> Result<f64, String> {
    let v = t.values(&[(col::SCHEME, "ofan")], |r| {
        let k = (4.0 * r.num(col::HOSTS)?).cbrt().round();
        Some(
            r.num(col::MAX_QUEUE_BYTES.at(col::stage::EDGE_UP))? / ((k / 2.0 + 1.0) * PACKET_BYTES),
        )
    })?;
    Ok(v.into_iter().fold(0.0, f64::max))
}

/// Fig. 18's other panels: the mean queue of the edge uplinks and of the edge downlinks
/// (the first and last layer), in packets.
fn fig18_panels() -> Vec<Plot> {
    let p = |y: super::Metric, y_label| Plot {
        x: col::MESSAGE_BYTES,
        x_label: "message size [bytes]",
        x_log: true,
        y,
        y_label,
        y_log: false,
        y_span: None,
        x_scale: 1.0,
        series: |r| format!("OFAN, {} hosts", r.get(col::HOSTS).unwrap_or("?")),
    };
    vec![
        p(
            |r| Some(r.num(col::MEAN_QUEUE_BYTES.at(col::stage::EDGE_UP))? / PACKET_BYTES),
            "mean edge-uplink queue [packets]",
        ),
        p(
            |r| Some(r.num(col::MEAN_QUEUE_BYTES.at(col::stage::EDGE_DOWN))? / PACKET_BYTES),
            "mean edge-downlink queue [packets]",
        ),
    ]
}

/// Fig. 1's queue and CCT panels (beside the utilization).
fn fig1_panels() -> Vec<Plot> {
    let p = |y: super::Metric, y_label, y_log| Plot {
        x: col::SCHEME,
        x_label: "load-balancing scheme",
        x_log: false,
        y,
        y_label,
        y_log,
        y_span: None,
        x_scale: 1.0,
        series: |_| "mean ± sd over seeds".into(),
    };
    vec![
        p(max_queue_kb, "max queue, all switch ports [KB]", true),
        p(cct_us, "CCT [µs]", false),
    ]
}

/// Fig. 11's half-upgrades (sweep names), edge first.
const UPGRADES: [&str; 4] = ["edge", "agg", "pods", "random"];

/// Why sec. 6.7's factors differ where they do (measured at the --quick size).
const FSDP_DIFFERS: &str = "the --quick iteration (2 blocks at 1/1000 size) has 50 KB ring \
                            steps that fit NSCC's and MSwift's initial windows, so congestion \
                            control never throttles AR and REPS (NSCC and MSwift give identical \
                            runs), and that throttling is where the paper's gain comes from; \
                            every scheme's remaining increase is dominated by the lockstep of \
                            two collectives issued at the same instant (docs/decisions.md, FSDP2 \
                            model), which 4-port pipes make worse. The full size has not been \
                            run";

/// The stages of a queue metric (for the synthetic tables of the slope claims).
const DOWN: &[col::StageName] = &[
    col::stage::EDGE_DOWN,
    col::stage::AGG_DOWN,
    col::stage::CORE_DOWN,
];
const UP: &[col::StageName] = &[col::stage::EDGE_UP, col::stage::AGG_UP];
const ALL: &[col::StageName] = &[col::stage::ALL];

/// A claimed asymptotic class: the growth exponent of `metric` (over the `stages` columns)
/// against the message size for `scheme`; contradicted by growing those columns by another
/// half power of the message size.
macro_rules! slope_claim {
    ($text:expr, $paper:expr, $scheme:expr, $metric:expr, $stages:expr) => {
        slope_claim!($text, $paper, $scheme, $metric, $stages, "permutation")
    };
    ($text:expr, $paper:expr, $scheme:expr, $metric:expr, $stages:expr, $wl:expr) => {
        Claim {
            text: $text,
            paper: $paper,
            unit: "",
            tol: SLOPE,
            fabsim: |t| slope(t, $scheme, $wl, $metric),
            differs: "",
            contra: Contra::Table(|t| tilt(t, $scheme, $wl, $stages)),
        }
    };
}

/// Multiplies `scheme`'s max-queue columns of `stages` on workload `wl` by
/// sqrt(message / smallest message).
fn tilt(t: &mut Table, scheme: &str, wl: &str, stages: &[col::StageName]) {
    let mut sizes: Vec<String> = t
        .iter()
        .filter_map(|r| Some(r.get(col::MESSAGE_BYTES)?.to_string()))
        .collect();
    sizes.sort();
    sizes.dedup();
    let m0 = sizes
        .iter()
        .filter_map(|m| m.parse::<f64>().ok())
        .fold(f64::INFINITY, f64::min);
    for ms in &sizes {
        let m: f64 = ms.parse().unwrap_or(m0);
        for &st in stages {
            let f = [
                (col::SCHEME, scheme),
                (col::WORKLOAD, wl),
                (col::MESSAGE_BYTES, ms.as_str()),
            ];
            t.map(&f, col::MAX_QUEUE_BYTES.at(st), |q| q * (m / m0).sqrt());
        }
    }
}

/// Synthetic tables: `axes` x 2 seeds.
fn world(axes: &[(Col, &[&str])]) -> Table {
    let mut a = axes.to_vec();
    a.push((col::SEED, &["1", "2"]));
    grid(&a)
}

/// Sets a synthetic table's CCT from an inflation in percent over a 100 µs lower bound.
fn with_infl(t: Table, pct: impl Fn(&Row) -> f64) -> Table {
    t.with(col::LOWER_BOUND_US, |_| 100.0)
        .with(col::CCT_INFLATION, |r| pct(r) / 100.0)
        .with(col::CCT_US, |r| {
            100.0 * (1.0 + r.num(col::CCT_INFLATION).unwrap())
        })
}

/// Multiplies the CCT of the rows matching `filter` by `by` (and updates their inflation).
fn slow(t: &mut Table, filter: &Filter, by: f64) {
    t.map(filter, col::CCT_US, |x| x * by);
    t.map(filter, col::CCT_INFLATION, |x| (1.0 + x) * by - 1.0);
}

/// Sets the inflation (%) of the rows matching `filter` (over the 100 µs bound).
fn set_infl(t: &mut Table, filter: &Filter, pct: f64) {
    t.map(filter, col::CCT_US, |_| 100.0 + pct);
    t.map(filter, col::CCT_INFLATION, |_| pct / 100.0);
}

/// `value` of the first `(name, value)` whose name is the row's `c` cell, else `other`.
fn pick(r: &Row, c: Col, values: &[(&str, f64)], other: f64) -> f64 {
    let v = r.get(c).unwrap_or_default();
    values.iter().find(|x| x.0 == v).map_or(other, |x| x.1)
}

mod cc;
mod figs1_8;
mod figs9_13;
mod synth;

/// Every Ofan experiment, in the paper's order.
pub fn experiments() -> Vec<Experiment> {
    let mut v = figs1_8::experiments();
    v.extend(figs9_13::experiments());
    v
}

/// log10 of OFAN's smallest CCT over its lower bound, minus 1, at `hosts` hosts.
fn min_over_bound(t: &Table, hosts: &str) -> Result<f64, String> {
    let f = [(col::SCHEME, "ofan"), (col::HOSTS, hosts)];
    let m = t.min(&f, |r| {
        Some(r.num(col::CCT_US)? / r.num(col::LOWER_BOUND_US)? - 1.0)
    })?;
    Ok(m.log10())
}
