//! HPCC's ns-3 flow files (the file its `FLOW_FILE` names), so the inputs of HPCC's runs run
//! unchanged.
//!
//! Format: the first line is the number of flows N; then one flow a line, six fields
//! separated by white space: `src dst pg dport size start`, the node ids of the sender and
//! the receiver (as the run's topology file numbers its nodes), the priority group (0 to 7),
//! the destination port, the size in bytes and the start time in seconds (HPCC's traffic
//! generator writes 2 s plus nanoseconds). Only the first N flow lines are read, as HPCC
//! reads them; anything after them is not.
//!
//! Mapping onto fabsim: every flow is an independent flow, ready at its start time, which
//! is kept as given (a flow at 2 s starts at 2 s; FCTs run from each flow's own start). The
//! priority group is checked and dropped: fabsim has one traffic class. The destination port
//! is kept for `fct.txt` (`metrics::FlowTable::hpcc_fct`).

use std::fmt;

use super::FlowSpec;
use crate::engine::Time;

/// The flows of an HPCC flow file, and each one's destination port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HpccFlows {
    pub flows: Vec<FlowSpec>,
    pub dports: Vec<u16>,
}

/// A parse problem: the 1-based line, the field, and what was found against what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HpccError {
    pub line: usize,
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for HpccError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.field, self.message)
    }
}

/// The latest start accepted, in seconds (the longest run `run.duration_us` allows).
const MAX_START_S: f64 = 10.0;

/// The fields of a flow line.
const FIELDS: &str = "src dst pg dport size start";

/// An error on `line` in `field`: `got`, and what is `allowed`.
fn bad(line: usize, field: &'static str, got: impl fmt::Display, allowed: &str) -> HpccError {
    HpccError {
        line,
        field,
        message: format!("got {got}; allowed: {allowed}"),
    }
}

/// `s` as an integer from `min` to `max`.
fn int(line: usize, field: &'static str, s: &str, min: u64, max: u64) -> Result<u64, HpccError> {
    match s.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(bad(line, field, s, &format!("an integer {min} to {max}"))),
    }
}

impl HpccFlows {
    /// Parses a flow file; `host` maps a node id to the fabsim host it names, or says what
    /// is wrong with it (`got ...; allowed: ...`).
    pub fn parse(text: &str, host: impl Fn(u64) -> Result<u32, String>) -> Result<Self, HpccError> {
        let mut lines = crate::engine::without_bom(text)
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
            .filter(|(_, f)| !f.is_empty());
        let (first, head) = lines
            .next()
            .ok_or_else(|| bad(1, "flow count", "an empty file", "the number of flows"))?;
        if head.len() != 1 {
            let got = format!("{} fields", head.len());
            return Err(bad(
                first,
                "flow count",
                got,
                "1 field, the number of flows",
            ));
        }
        let n = int(first, "flow count", head[0], 1, u32::MAX as u64)? as usize;
        let mut parsed = HpccFlows {
            flows: Vec::with_capacity(n.min(1 << 20)),
            dports: Vec::with_capacity(n.min(1 << 20)),
        };
        for (line, f) in lines.take(n) {
            let (flow, dport) = flow(line, &f, &host)?;
            parsed.flows.push(flow);
            parsed.dports.push(dport);
        }
        if parsed.flows.len() < n {
            let got = format!("{n}, and {} flow lines follow", parsed.flows.len());
            return Err(bad(
                first,
                "flow count",
                got,
                "at most the flow lines that follow",
            ));
        }
        Ok(parsed)
    }

    /// All flows' bytes (at most 2^32 - 1 flows of at most 2^32 - 1 bytes: no overflow).
    pub fn total_bytes(&self) -> u64 {
        self.flows.iter().map(|f| f.bytes).sum()
    }

    /// Flows, their bytes, and the largest one's bytes.
    pub fn size(&self) -> (u64, u64, u64) {
        let max = self.flows.iter().map(|f| f.bytes).max().unwrap_or(0);
        (self.flows.len() as u64, self.total_bytes(), max)
    }
}

/// The flow of the fields `f` of line `line`, and its destination port.
fn flow(
    line: usize,
    f: &[&str],
    host: &impl Fn(u64) -> Result<u32, String>,
) -> Result<(FlowSpec, u16), HpccError> {
    if f.len() != 6 {
        let got = format!("{} fields", f.len());
        return Err(bad(line, "flow", got, &format!("6 fields: {FIELDS}")));
    }
    let node = |field, s: &str| {
        let id = int(line, field, s, 0, u32::MAX as u64)?;
        host(id).map_err(|message| HpccError {
            line,
            field,
            message,
        })
    };
    let (src, dst) = (node("src", f[0])?, node("dst", f[1])?);
    if src == dst {
        return Err(bad(line, "dst", f[1], "a host other than src"));
    }
    // HPCC has 8 priority classes; fabsim reads the group and sends on its one class.
    int(line, "pg", f[2], 0, 7)?;
    let dport = int(line, "dport", f[3], 0, u16::MAX as u64)? as u16;
    // HPCC reads the size as a 32-bit count.
    let bytes = int(line, "size", f[4], 1, u32::MAX as u64)?;
    Ok((
        FlowSpec {
            src,
            dst,
            bytes,
            start_ps: start(line, f[5])?,
        },
        dport,
    ))
}

/// A start time in seconds, to the picosecond. Rounding `s * 1e12` to the nearest
/// picosecond gives exactly the decimal written whenever it has at most 12 decimals: below
/// 10 s the product is within 0.01 ps of it.
fn start(line: usize, s: &str) -> Result<Time, HpccError> {
    match s.parse::<f64>() {
        Ok(t) if (0.0..=MAX_START_S).contains(&t) => Ok(Time::from_ps_f64(t * 1e12)),
        _ => Err(bad(line, "start", s, "a time from 0 to 10 seconds")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Node ids 1 to 4 are hosts 0 to 3; 0 is a switch.
    fn host(id: u64) -> Result<u32, String> {
        match id {
            1..=4 => Ok(id as u32 - 1),
            _ => Err(format!("got {id} (not a host); allowed: 1 to 4")),
        }
    }

    #[test]
    fn reads_the_first_n_flows_at_their_times() {
        let text = "2 \n1 2 3 100 1000 2.000000577\n\n3 4 0 7 5 2.5\n4 1 3 100 9 x\n";
        let f = HpccFlows::parse(text, host).unwrap();
        assert_eq!(f.dports, [100, 7]);
        let want = [
            (0, 1, 1000, 2_000_000_577_000),
            (2, 3, 5, 2_500_000_000_000),
        ];
        let got: Vec<_> = (f.flows.iter())
            .map(|f| (f.src, f.dst, f.bytes, f.start_ps.ps()))
            .collect();
        assert_eq!(got, want);
        assert_eq!(f.size(), (2, 1005, 1000));
        // Every start with nanoseconds (as HPCC's generator writes them) is exact.
        for ns in [0, 1, 577, 999_999_999, 8_999_999_999] {
            let text = format!(
                "1\n1 2 3 100 1 {}.{:09}\n",
                ns / 1_000_000_000,
                ns % 1_000_000_000
            );
            let f = HpccFlows::parse(&text, host).unwrap();
            assert_eq!(f.flows[0].start_ps, Time::from_ps(ns * 1000), "{text}");
        }
    }

    /// Each refusal names the line and the field, with what was found and what is allowed.
    #[test]
    fn errors_name_line_field_and_allowed_values() {
        let cases = [
            ("", "line 1: flow count: got an empty file"),
            (
                "x\n",
                "line 1: flow count: got x; allowed: an integer 1 to 4294967295",
            ),
            (
                "3\n1 2 3 100 1 2\n",
                "line 1: flow count: got 3, and 1 flow lines follow",
            ),
            (
                "1\n0 2 3 100 1 2\n",
                "line 2: src: got 0 (not a host); allowed: 1 to 4",
            ),
            (
                "1\n1 1 3 100 1 2\n",
                "line 2: dst: got 1; allowed: a host other than src",
            ),
            (
                "1\n1 2 8 100 1 2\n",
                "line 2: pg: got 8; allowed: an integer 0 to 7",
            ),
            (
                "1\n1 2 3 65536 1 2\n",
                "line 2: dport: got 65536; allowed: an integer 0 to 65535",
            ),
            (
                "1\n1 2 3 100 0 2\n",
                "line 2: size: got 0; allowed: an integer 1 to 4294967295",
            ),
            (
                "1\n1 2 3 100 1 -1\n",
                "line 2: start: got -1; allowed: a time from 0 to 10",
            ),
            ("1\n1 2 3 100 1 nan\n", "line 2: start: got nan; allowed"),
            (
                "1\n\n1 2 3 100 1\n",
                "line 3: flow: got 5 fields; allowed: 6 fields: src dst",
            ),
        ];
        for (text, want) in cases {
            let e = HpccFlows::parse(text, host).unwrap_err().to_string();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }
}
