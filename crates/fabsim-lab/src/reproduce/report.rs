//! The human-readable side: report.md, the claims tables, the tallies' text, `--list`, and
//! number formatting.

use std::fmt::Write as _;

use super::model::{tolerances, Experiment, Paper, Source};
use super::runner::Scored;
use super::table::Table;
use super::verdict::{ClaimResult, ControlResult};
use super::{cols, fastroute, ofan};

pub(super) fn claims_table(out: &mut String, claims: &[ClaimResult], id: Option<&str>) {
    let lead = if id.is_some() { "| experiment " } else { "" };
    let _ = writeln!(
        out,
        "{lead}| claim (as the paper states it) | paper | fabsim | tolerance | margin (SE) | \
         verdict | why | note |"
    );
    let _ = writeln!(
        out,
        "{}|---|---|---|---|---|---|---|---|",
        if id.is_some() { "|---" } else { "" }
    );
    for c in claims {
        let margin = fmt_margin(c.margin, c.se);
        let _ = writeln!(
            out,
            "{}| {} | {} {} | {} | {} | {margin} | **{}**{} | {} | {} |",
            id.map_or(String::new(), |i| format!("| {i} ")),
            cell(&c.claim),
            fmt_num(c.paper),
            c.unit,
            c.fabsim.map_or("-".into(), fmt_num),
            cell(&c.tolerance),
            c.verdict,
            if c.basis == "theory" { " (theory)" } else { "" },
            cell(&c.why),
            cell(&c.note)
        );
    }
}

/// Text for a markdown table cell: `|` escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// A margin and, when the noise was estimated, its standard error: `+0.5 (0.1)`.
fn fmt_margin(margin: Option<f64>, se: Option<f64>) -> String {
    match (margin, se) {
        (Some(m), Some(se)) => format!("{} ({})", fmt_signed(m), fmt_sig(se)),
        (Some(m), None) => fmt_signed(m),
        (None, _) => "-".into(),
    }
}

/// The claims judged under other readings too: each reading's number and verdict, below
/// the primary one's (the one the claims table shows and the tally counts).
fn claim_readings_table(out: &mut String, claims: &[ClaimResult]) {
    if claims.iter().all(|c| c.readings.is_empty()) {
        return;
    }
    let _ = writeln!(
        out,
        "\n### Other readings of a claim\n\nWhere the paper leaves a claim's setup open, the \
         claim above is its primary reading (fixed from the paper's words) and these are the \
         others, judged on the same runs with the same tolerance and not tallied.\n\n\
         | claim | reading | fabsim | margin (SE) | verdict |\n|---|---|---|---|---|"
    );
    for c in claims.iter().filter(|c| !c.readings.is_empty()) {
        let claim = cell(&c.claim);
        let _ = writeln!(
            out,
            "| {claim} | primary | {} | {} | **{}** |",
            c.fabsim.map_or("-".into(), fmt_num),
            fmt_margin(c.margin, c.se),
            c.verdict
        );
        for r in &c.readings {
            let _ = writeln!(
                out,
                "| {claim} | {} | {} | {} | {} |",
                r.reading,
                r.fabsim.map_or("-".into(), fmt_num),
                fmt_margin(r.margin, r.se),
                r.verdict
            );
        }
    }
}

/// The claims that have a control: what the control gave, and whether the claim
/// discriminates (its control fails it).
fn controls_table(out: &mut String, claims: &[ClaimResult]) {
    let with: Vec<(&ClaimResult, &ControlResult)> = claims
        .iter()
        .flat_map(|c| {
            c.control
                .iter()
                .chain(&c.reading_controls)
                .map(move |k| (c, k))
        })
        .collect();
    if with.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n### Controls\n\nEach control is a scheme or setting of these runs that must fail \
         the claim, put where the claim reads its subject; a claim whose control holds too \
         does not discriminate (a wrong simulator would pass it too), and where the control \
         is inconclusive or not comparable that is not known.\n\n\
         | claim | control | control's fabsim | control's verdict | the claim discriminates |\n\
         |---|---|---|---|---|"
    );
    for (c, k) in with {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&c.claim),
            k.what,
            k.fabsim.map_or("-".into(), fmt_num),
            k.verdict,
            match k.discriminates {
                Some(true) => "yes",
                Some(false) => "**no**",
                None => "not known",
            }
        );
    }
}

/// What a simulation's runs took, summed over their rows (`perf.wall_s`, one core each):
/// the wall time of a `reproduce` that reused finished runs says nothing about them.
pub(super) fn runs_took(table: &Table) -> String {
    let s: f64 = table.iter().filter_map(|r| r.num(cols::PERF_WALL_S)).sum();
    if s > 0.0 {
        format!(" (runs: {s:.0} s of single-core time in all)")
    } else {
        String::new()
    }
}

pub(super) fn report(exp: &Experiment, provenance: &str, scored: &Scored) -> String {
    let claims = &scored.claims;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {}: {} {}, {}\n\n{provenance}\n",
        exp.id,
        exp.paper.name(),
        exp.figure,
        exp.title
    );
    let common = match exp.paper {
        Paper::Ofan => ofan::COMMON_SETUP,
        Paper::Fastroute => fastroute::COMMON_SETUP,
    };
    let _ = writeln!(
        s,
        "Varies: {}\n\n## Setup\n\n{}\n\n{}\n",
        exp.varies,
        exp.setup.trim(),
        common
    );
    if let Source::Sim(sweeps) = &exp.source {
        for sw in sweeps {
            let _ = writeln!(
                s,
                "Sweep `{}` (full size):\n\n```toml\n{}\n```\n",
                sw.name,
                sw.scenario.trim()
            );
            if sw.full_only {
                let _ = writeln!(s, "Not run with `--quick`.\n");
            } else if !sw.quick.is_empty() {
                let _ = writeln!(s, "`--quick` overrides: `{}`\n", sw.quick.join("`, `"));
            }
        }
    }
    let _ = writeln!(s, "## Plot\n\n![{}](plot.svg)\n\n## Claims\n", exp.id);
    claims_table(&mut s, claims, None);
    claim_readings_table(&mut s, claims);
    controls_table(&mut s, claims);
    for r in &scored.readings {
        readings_section(&mut s, &r.reading, &r.about, claims, &r.claims);
    }
    if !scored.not_run.is_empty() {
        let _ = writeln!(
            s,
            "\nNot run here (`--no-readings`), so not judged: the reading{} `{}`.",
            if scored.not_run.len() > 1 { "s" } else { "" },
            scored.not_run.join("`, `")
        );
    }
    let _ = writeln!(
        s,
        "\n{}\n\nEvery run: `results.csv`; claims as JSON: `claims.json`{}.",
        tolerances(),
        if scored.readings.is_empty() {
            ""
        } else {
            ", under the other readings: `readings.json`"
        }
    );
    s + &scored.by_start
}

/// The report's section on another reading: the claims whose verdict it moves, in full.
pub(super) fn readings_section(
    s: &mut String,
    name: &str,
    about: &str,
    primary: &[ClaimResult],
    claims: &[ClaimResult],
) {
    let moved: Vec<ClaimResult> = claims
        .iter()
        .zip(primary)
        .filter(|(c, p)| c.verdict != p.verdict)
        .map(|(c, p)| ClaimResult {
            claim: format!("{} (primary reading: {})", c.claim, p.verdict),
            ..c.clone()
        })
        .collect();
    let _ = writeln!(
        s,
        "\n### Reading `{name}`\n\n{about} Its runs are the sweeps named `{name}-*` in \
         `results.csv`. It moves {} of {} verdicts{}",
        moved.len(),
        claims.len(),
        if moved.is_empty() { "." } else { ":\n" }
    );
    if !moved.is_empty() {
        claims_table(s, &moved, None);
    }
}

/// The verdicts tallied, in this order (theory claims apart).
pub(super) const VERDICTS: [&str; 4] = ["holds", "differs", "inconclusive", "not comparable"];

/// `N claims: a hold, b differ, c inconclusive, d not comparable (+ t theory)`.
pub(super) fn tally_text(([h, d, i, n], [t, th]): ([usize; 4], [usize; 2])) -> String {
    let theory = if t > 0 {
        format!(" (and {t} theory: {th} hold)")
    } else {
        String::new()
    };
    format!(
        "{} claims: {h} hold, {d} differ, {i} inconclusive, {n} not comparable{theory}",
        h + d + i + n
    )
}

pub(super) fn list(exps: &[Experiment]) {
    for e in exps {
        outln!("{:<22} {} {}: {}", e.id, e.paper.name(), e.figure, e.title);
        outln!("{:<22} varies: {}", "", e.varies);
        for r in &e.readings {
            outln!("{:<22} reading {}: {}", "", r.prefix, r.set.join(", "));
        }
        for c in &e.claims {
            let paper = format!("{} {}", fmt_num(c.paper), c.unit);
            outln!(
                "{:<22}   claim: {} (paper {}, {})",
                "",
                c.text,
                paper.trim_end(),
                c.tol.describe(c.unit)
            );
        }
    }
}

/// A signed number to three significant digits (`+1.23`, `-0.0456`).
pub(super) fn fmt_signed(x: f64) -> String {
    let s = fmt_sig(x);
    if x >= 0.0 {
        format!("+{s}")
    } else {
        s
    }
}

/// Three significant digits.
pub(super) fn fmt_sig(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
    format!("{x:.digits$}")
}

/// Seven significant digits, without trailing zeros.
pub fn fmt_num(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (6 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').into()
    } else {
        s
    }
}
