//! htsim connection matrices (the UEC htsim `-tm` traffic file), so existing htsim
//! workloads run unchanged.
//!
//! Format, one item per line (`#` starts a comment line; tokens are separated by spaces):
//! - header: `Nodes N`, `Connections C`, optionally `Triggers T`;
//! - a connection: `SRC->DST` followed by attributes `id ID` (required when a trigger
//!   refers to the flow; nonzero, unique), `start T` (whole microseconds, as htsim's drivers
//!   read it: `timeFromUs((uint32_t)start)`; picoseconds with [`StartUnit::Ps`]),
//!   `size BYTES`, `trigger TID` (start when trigger TID fires; excludes `start`),
//!   `send_done_trigger TID` (signal TID when the sender has every ACK),
//!   `recv_done_trigger TID` (signal TID when the receiver holds every byte), `prio P`
//!   (accepted, ignored: fabsim has one traffic class);
//! - a trigger: `trigger id TID` followed by `oneshot`, `multishot` or `barrier` with
//!   `count N`.
//!
//! Mapping onto fabsim: connection -> flow (host SRC to host DST, `size` bytes); a trigger ->
//! a gate ([`super::deps`]) that fires on its first signal (oneshot), or after `count`
//! signals (barrier). A multishot trigger fires on every signal in htsim; a fabsim flow
//! runs once, so it starts on the first and later signals change nothing. `Failures` lines
//! are not read (use `failures.links`). Node ids are fabsim host ids, so `Nodes` may not
//! exceed the fabric's hosts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::deps::{DepsBuilder, Signal};
use super::{FlowSpec, Traffic};
use crate::engine::Time;

/// A parse problem: the 1-based line, the offending field, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtsimError {
    pub line: usize,
    pub field: String,
    pub message: String,
}

impl fmt::Display for HtsimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: a problem of the whole file (a header missing or at odds with its body).
        match self.line {
            0 => write!(f, "the file, field `{}`: {}", self.field, self.message),
            n => write!(f, "line {n}, field `{}`: {}", self.field, self.message),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TriggerKind {
    OneShot,
    MultiShot,
    Barrier(u32),
}

impl TriggerKind {
    /// The signals it fires on (its gate's `need`).
    fn need(self) -> u32 {
        match self {
            TriggerKind::OneShot | TriggerKind::MultiShot => 1,
            TriggerKind::Barrier(n) => n,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Conn {
    src: u32,
    dst: u32,
    bytes: u64,
    start_ps: Option<Time>,
    /// Trigger ids as in the file.
    trigger: Option<u32>,
    send_done: Option<u32>,
    recv_done: Option<u32>,
}

/// A parsed connection matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtsimMatrix {
    pub nodes: u32,
    conns: Vec<Conn>,
    triggers: BTreeMap<u32, TriggerKind>,
}

/// The latest start time accepted (10 s, the longest run `run.duration_us` allows).
const MAX_START_PS: f64 = 1e13;

named_enum! {
    /// The unit of a connection's `start` (`workload.start_unit`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum StartUnit {
        /// Whole microseconds, as htsim's drivers read it.
        Us => "us",
        /// Picoseconds (fabsim's own time unit; e.g. Netbench replays at nanosecond precision).
        Ps => "ps",
    }
}

impl StartUnit {
    /// `tok` as a start time, or what the value may be.
    fn read(self, tok: Option<&str>) -> Result<Time, String> {
        let v = tok.and_then(|s| s.parse::<f64>().ok());
        let ps = match self {
            StartUnit::Us => v.filter(|v| v.fract() == 0.0).map(|v| v * 1e6),
            StartUnit::Ps => v,
        };
        match ps.filter(|v| (0.0..=MAX_START_PS).contains(v)) {
            Some(ps) => Ok(Time::from_ps_f64(ps)),
            None => Err(format!(
                "invalid value {:?}; expected {}",
                tok.unwrap_or(""),
                match self {
                    StartUnit::Us => "whole microseconds from 0 to 10^7 (10 s), as htsim reads them; for finer times set workload.start_unit = \"ps\"",
                    StartUnit::Ps => "a time from 0 to 10^13 picoseconds (10 s) (workload.start_unit = \"ps\")",
                }
            )),
        }
    }
}

fn num<T: std::str::FromStr>(line: usize, field: &str, tok: Option<&str>) -> Result<T, HtsimError> {
    let err = |message: String| HtsimError {
        line,
        field: field.to_string(),
        message,
    };
    let tok = tok.ok_or_else(|| err("missing value".into()))?;
    tok.parse().map_err(|_| {
        err(format!(
            "invalid value {tok:?}; expected a non-negative integer"
        ))
    })
}

impl HtsimMatrix {
    /// Parses a connection matrix whose `start` times are in `unit`.
    pub fn parse(text: &str, unit: StartUnit) -> Result<Self, HtsimError> {
        let text = crate::engine::without_bom(text);
        let (mut nodes, mut declared_conns, mut declared_trigs) = (None, None, None);
        let mut conns = Vec::new();
        let mut conn_lines = Vec::new();
        let mut triggers: BTreeMap<u32, TriggerKind> = BTreeMap::new();
        let mut ids: BTreeMap<u32, usize> = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let mut toks = raw.split_whitespace();
            let Some(first) = toks.next() else { continue };
            if first.starts_with('#') {
                continue;
            }
            match first {
                "Nodes" => nodes = Some(num::<u32>(line, "Nodes", toks.next())?),
                "Connections" => declared_conns = Some(num::<usize>(line, "Connections", toks.next())?),
                "Triggers" => declared_trigs = Some(num::<usize>(line, "Triggers", toks.next())?),
                "Failures" => {
                    return Err(err(line, "Failures", "link failures in traffic files are not supported; use the scenario key failures.links".into()))
                }
                "trigger" => {
                    let (id, kind) = parse_trigger(line, toks)?;
                    if triggers.insert(id, kind).is_some() {
                        return Err(err(line, "id", format!("trigger {id} defined twice")));
                    }
                }
                _ if first.contains("->") => {
                    let c = parse_conn(line, first, toks, unit, &mut ids)?;
                    conns.push(c);
                    conn_lines.push(line);
                }
                _ => {
                    return Err(err(line, first, "unknown line; expected Nodes, Connections, Triggers, SRC->DST or trigger".into()))
                }
            }
        }
        let nodes = nodes.ok_or_else(|| err(0, "Nodes", "missing `Nodes N` header".into()))?;
        if let Some(n) = declared_conns.filter(|&n| n != conns.len()) {
            return Err(err(
                0,
                "Connections",
                format!("header says {n} connections, the file has {}", conns.len()),
            ));
        }
        if let Some(n) = declared_trigs.filter(|&n| n != triggers.len()) {
            return Err(err(
                0,
                "Triggers",
                format!("header says {n} triggers, the file has {}", triggers.len()),
            ));
        }
        check_references(nodes, &conns, &conn_lines, &triggers)?;
        if conns.is_empty() {
            return Err(err(0, "Connections", "the file has no connections".into()));
        }
        check_runnable(&conns, &conn_lines, &triggers)?;
        Ok(HtsimMatrix {
            nodes,
            conns,
            triggers,
        })
    }

    /// All connections' bytes (the parser refuses a sum past `u64`).
    pub fn total_bytes(&self) -> u64 {
        self.conns.iter().map(|c| c.bytes).sum()
    }

    /// Connections, their bytes, and the largest one's bytes.
    pub fn size(&self) -> (u64, u64, u64) {
        let max = self.conns.iter().map(|c| c.bytes).max().unwrap_or(0);
        (self.conns.len() as u64, self.total_bytes(), max)
    }

    /// The first trigger that fires before every connection signalling it has (a oneshot
    /// signalled by several, a barrier counting fewer than signal it), as (its id, the
    /// signals it fires on, the signals it gets): its gate is a [`Deps::partial_gate`].
    ///
    /// [`Deps::partial_gate`]: super::deps::Deps::partial_gate
    pub fn partial_trigger(&self) -> Option<(u32, u32, u32)> {
        let mut signals: BTreeMap<u32, u32> = BTreeMap::new();
        for c in &self.conns {
            for t in [c.send_done, c.recv_done].into_iter().flatten() {
                *signals.entry(t).or_default() += 1;
            }
        }
        self.triggers.iter().find_map(|(t, kind)| {
            let got = signals.get(t).copied().unwrap_or(0);
            (kind.need() < got).then_some((*t, kind.need(), got))
        })
    }

    /// Flows and gates: one gate per trigger.
    pub fn traffic(&self) -> Traffic {
        let mut deps = DepsBuilder::default();
        let gate: BTreeMap<u32, u32> = self
            .triggers
            .iter()
            .map(|(&id, &kind)| (id, deps.gate(kind.need(), Time::ZERO)))
            .collect();
        let mut flows = Vec::with_capacity(self.conns.len());
        for (i, c) in self.conns.iter().enumerate() {
            let f = i as u32;
            flows.push(FlowSpec {
                src: c.src,
                dst: c.dst,
                bytes: c.bytes,
                start_ps: c.start_ps.unwrap_or(Time::ZERO),
            });
            if let Some(t) = c.trigger {
                deps.release(gate[&t], f);
            }
            if let Some(t) = c.send_done {
                deps.signal(f, Signal::SendDone, gate[&t]);
            }
            if let Some(t) = c.recv_done {
                deps.signal(f, Signal::RecvDone, gate[&t]);
            }
        }
        Traffic {
            deps: deps.build(flows.len()),
            flows,
            collectives: Vec::new(),
        }
    }
}

/// An error on `line` (0: the whole file) in `field`.
fn err(line: usize, field: &str, message: String) -> HtsimError {
    HtsimError {
        line,
        field: field.to_string(),
        message,
    }
}

/// A `trigger id TID oneshot|multishot|barrier [count N]` line's id and kind (`toks`: after
/// `trigger`).
fn parse_trigger<'a>(
    line: usize,
    mut toks: impl Iterator<Item = &'a str>,
) -> Result<(u32, TriggerKind), HtsimError> {
    let (mut id, mut kind, mut count) = (None, None, None);
    while let Some(t) = toks.next() {
        match t {
            "id" => id = Some(num::<u32>(line, "id", toks.next())?),
            "count" => count = Some(num::<u32>(line, "count", toks.next())?),
            "oneshot" | "multishot" | "barrier" if kind.is_some() => {
                return Err(err(line, t, "a trigger has one type".into()))
            }
            "oneshot" | "multishot" | "barrier" => kind = Some(t),
            _ => {
                return Err(err(
                    line,
                    t,
                    "unknown trigger attribute; allowed: id, oneshot, multishot, barrier, count"
                        .into(),
                ))
            }
        }
    }
    let id = match id {
        Some(0) => return Err(err(line, "id", "trigger id 0 is not allowed".into())),
        Some(id) => id,
        None => return Err(err(line, "id", "a trigger needs an id".into())),
    };
    let kind = match (kind, count) {
        (Some("oneshot"), _) => TriggerKind::OneShot,
        (Some("multishot"), _) => TriggerKind::MultiShot,
        (Some(_), Some(c)) if c >= 1 => TriggerKind::Barrier(c),
        (Some(_), _) => return Err(err(line, "count", "a barrier needs count >= 1".into())),
        (None, _) => {
            return Err(err(
                line,
                "trigger",
                "a trigger needs a type: oneshot, multishot or barrier".into(),
            ))
        }
    };
    Ok((id, kind))
}

/// A `SRC->DST attributes` line's connection (`first`: `SRC->DST`, `toks`: the attributes);
/// `ids` holds the flow ids used so far and the line of each.
fn parse_conn<'a>(
    line: usize,
    first: &str,
    mut toks: impl Iterator<Item = &'a str>,
    unit: StartUnit,
    ids: &mut BTreeMap<u32, usize>,
) -> Result<Conn, HtsimError> {
    let (s, d) = first.split_once("->").unwrap();
    let src = num::<u32>(line, "src", Some(s))?;
    let dst = num::<u32>(line, "dst", Some(d))?;
    if src == dst {
        return Err(err(
            line,
            "dst",
            format!("a connection from host {src} to itself"),
        ));
    }
    let mut c = Conn {
        src,
        dst,
        bytes: 0,
        start_ps: None,
        trigger: None,
        send_done: None,
        recv_done: None,
    };
    // Every token here names a field (values are taken with it): a field
    // given twice would silently keep its last value.
    let mut seen: Vec<&str> = Vec::new();
    while let Some(t) = toks.next() {
        if seen.contains(&t) {
            return Err(err(
                line,
                t,
                format!("`{t}` given twice; allowed: each field once per connection"),
            ));
        }
        seen.push(t);
        conn_attribute(&mut c, line, t, toks.next(), unit, ids)?;
    }
    if !seen.contains(&"size") {
        return Err(err(line, "size", "a connection needs a size".into()));
    }
    match (c.start_ps, c.trigger) {
        (None, None) => {
            return Err(err(
                line,
                "start",
                "a connection needs a start time or a trigger".into(),
            ))
        }
        (Some(_), Some(_)) => {
            return Err(err(
                line,
                "trigger",
                "a connection has either a start time or a trigger, not both".into(),
            ))
        }
        _ => {}
    }
    Ok(c)
}

/// Sets the connection attribute `t` to `value` (`ids`: the flow ids used so far, with the
/// line of each).
fn conn_attribute(
    c: &mut Conn,
    line: usize,
    t: &str,
    value: Option<&str>,
    unit: StartUnit,
    ids: &mut BTreeMap<u32, usize>,
) -> Result<(), HtsimError> {
    let trig = |line, field: &str, tok| -> Result<Option<u32>, HtsimError> {
        match num::<u32>(line, field, tok)? {
            0 => Err(err(line, field, "trigger id 0 is not allowed".into())),
            t => Ok(Some(t)),
        }
    };
    match t {
        "id" => {
            let id = num::<u32>(line, "id", value)?;
            if id == 0 {
                return Err(err(line, "id", "flow id 0 is not allowed".into()));
            }
            if let Some(other) = ids.insert(id, line) {
                return Err(err(line, "id", format!("flow id {id} already used on line {other}")));
            }
        }
        "start" => {
            c.start_ps = Some(unit.read(value).map_err(|m| err(line, "start", m))?);
        }
        "size" => {
            c.bytes = num(line, "size", value)?;
            if c.bytes == 0 {
                return Err(err(line, "size", "a connection of 0 bytes never completes; allowed: at least 1 byte".into()));
            }
        }
        "trigger" => c.trigger = trig(line, "trigger", value)?,
        "send_done_trigger" => c.send_done = trig(line, "send_done_trigger", value)?,
        "recv_done_trigger" => c.recv_done = trig(line, "recv_done_trigger", value)?,
        "prio" => {
            num::<i64>(line, "prio", value)?;
        }
        _ => {
            return Err(err(line, t, "unknown connection attribute; allowed: id, start, size, trigger, send_done_trigger, recv_done_trigger, prio".into()))
        }
    }
    Ok(())
}

/// Every connection's hosts are below `nodes` and every trigger it names is defined.
fn check_references(
    nodes: u32,
    conns: &[Conn],
    conn_lines: &[usize],
    triggers: &BTreeMap<u32, TriggerKind>,
) -> Result<(), HtsimError> {
    for (c, &line) in conns.iter().zip(conn_lines) {
        for (field, v) in [("src", c.src), ("dst", c.dst)] {
            if v >= nodes {
                return Err(err(
                    line,
                    field,
                    format!("host {v} is not below Nodes = {nodes}"),
                ));
            }
        }
        for (field, t) in [
            ("trigger", c.trigger),
            ("send_done_trigger", c.send_done),
            ("recv_done_trigger", c.recv_done),
        ] {
            if let Some(t) = t.filter(|t| !triggers.contains_key(t)) {
                return Err(err(
                    line,
                    field,
                    format!(
                        "trigger {t} is not defined (`trigger id {t} oneshot|multishot|barrier`)"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Every connection can start (its trigger can fire) and the sizes add up within `u64`.
fn check_runnable(
    conns: &[Conn],
    conn_lines: &[usize],
    triggers: &BTreeMap<u32, TriggerKind>,
) -> Result<(), HtsimError> {
    // Every trigger a connection waits on must be able to fire: fired by connections that
    // start on time or after triggers that fire, as often as a barrier counts.
    let fired = fireable(conns, triggers);
    for (c, &line) in conns.iter().zip(conn_lines) {
        if let Some(t) = c.trigger.filter(|t| !fired.contains(t)) {
            return Err(err(
                line,
                "trigger",
                format!(
                    "waits on trigger {t}, which can never fire: no connection that can start signals it often enough (a cycle of triggers, a connection triggering itself, or a barrier counting more signals than it can get)"
                ),
            ));
        }
    }
    if conns
        .iter()
        .try_fold(0u64, |t, c| t.checked_add(c.bytes))
        .is_none()
    {
        return Err(err(
            0,
            "size",
            "the sizes add up to more than 2^64 - 1 bytes".into(),
        ));
    }
    Ok(())
}

/// The triggers that can fire: signalled by connections that start on time or after
/// triggers that fire, as often as a barrier counts.
fn fireable(conns: &[Conn], triggers: &BTreeMap<u32, TriggerKind>) -> BTreeSet<u32> {
    let mut fired = BTreeSet::new();
    loop {
        let before = fired.len();
        for (&t, kind) in triggers {
            let can_start = |c: &Conn| c.trigger.is_none_or(|w| fired.contains(&w));
            let signals = conns
                .iter()
                .filter(|c| can_start(c))
                .map(|c| u32::from(c.send_done == Some(t)) + u32::from(c.recv_done == Some(t)))
                .sum::<u32>();
            if signals >= kind.need() {
                fired.insert(t);
            }
        }
        if fired.len() == before {
            break;
        }
    }
    fired
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAIN: &str = "Nodes 4\nConnections 3\nTriggers 2\n# a chain\n\
        0->1 id 1 start 0 size 8192 send_done_trigger 1\n\
        1->2 id 2 trigger 1 size 4096 recv_done_trigger 2\n\
        2->3 id 3 trigger 2 size 100\n\
        trigger id 1 oneshot\ntrigger id 2 barrier count 1\n";

    #[test]
    fn parses_a_chain_of_triggers() {
        let m = HtsimMatrix::parse(CHAIN, StartUnit::Us).unwrap();
        assert_eq!(m.nodes, 4);
        let t = m.traffic();
        assert_eq!(t.flows.len(), 3);
        assert_eq!(t.deps.waits, vec![0, 1, 1]);
        assert_eq!(t.deps.send_done.row(0), &[0]);
        assert_eq!(t.deps.recv_done.row(1), &[1]);
        assert_eq!(m.total_bytes(), 8192 + 4096 + 100);
        assert_eq!(
            m.partial_trigger(),
            None,
            "each trigger waits for all its signals"
        );
        assert_eq!(t.deps.partial_gate(), None);
    }

    /// A oneshot signalled by two connections fires on the first: a partial gate.
    #[test]
    fn a_trigger_firing_on_some_signals_is_partial() {
        let text = "Nodes 4\n0->1 id 1 start 0 size 8 send_done_trigger 3\n\
            1->2 id 2 start 0 size 8 recv_done_trigger 3\n2->3 id 3 trigger 3 size 8\n\
            trigger id 3 oneshot\n";
        let m = HtsimMatrix::parse(text, StartUnit::Us).unwrap();
        assert_eq!(m.partial_trigger(), Some((3, 1, 2)));
        assert_eq!(m.traffic().deps.partial_gate(), Some(0));
    }

    /// Issue 48: a field twice on a connection line kept its last value (cases 15), and a
    /// byte-order mark made the `Nodes` line unknown (case 14).
    #[test]
    fn a_field_twice_is_refused_and_a_byte_order_mark_skipped() {
        for field in ["size 1", "start 0", "id 1"] {
            let text = format!("Nodes 4\n0->1 id 1 start 0 size 8 {field}\n");
            let e = HtsimMatrix::parse(&text, StartUnit::Us).unwrap_err();
            let name = field.split(' ').next().unwrap();
            assert_eq!((e.line, e.field.as_str()), (2, name), "{e}");
            assert!(e.to_string().contains("given twice"), "{e}");
        }
        let m = HtsimMatrix::parse(&format!("\u{feff}{CHAIN}"), StartUnit::Us).unwrap();
        assert_eq!(m, HtsimMatrix::parse(CHAIN, StartUnit::Us).unwrap());
    }

    #[test]
    fn errors_name_line_and_field() {
        let cases = [
            ("Nodes 4\n0->9 start 0 size 1\n", 2, "dst"),
            ("Nodes 4\n0->1 start 0 size x\n", 2, "size"),
            ("Nodes 4\n0->1 id 1 start 1e300 size 4096\n", 2, "start"),
            ("Nodes 4\n0->1 id 1 start 1.5 size 4096\n", 2, "start"),
            ("Nodes 0\n", 0, "Connections"),
            ("Nodes 4\n0->1 size 1\n", 2, "start"),
            ("Nodes 4\n0->1 start 0 size 1 speed 3\n", 2, "speed"),
            ("Nodes 4\n0->1 id 1 trigger 5 size 1\n", 2, "trigger"),
            (
                "Nodes 4\n0->1 id 1 start 0 trigger 5 size 1\ntrigger id 5 oneshot\n",
                2,
                "trigger",
            ),
            ("Nodes 4\ntrigger id 5 barrier\n", 2, "count"),
            (
                "Nodes 4\nConnections 2\n0->1 start 0 size 1\n",
                0,
                "Connections",
            ),
            (
                "Nodes 4\n0->1 id 1 start 0 size 1\n1->2 id 1 start 0 size 1\n",
                3,
                "id",
            ),
            ("0->1 start 0 size 1\n", 0, "Nodes"),
            ("Nodes 4\n0->1 start 0 size 0\n", 2, "size"),
            // A connection that triggers itself, a cycle, an unfillable barrier.
            (
                "Nodes 4\ntrigger id 1 oneshot\n0->1 id 1 trigger 1 size 1 send_done_trigger 1\n",
                3,
                "trigger",
            ),
            (
                "Nodes 4\ntrigger id 1 oneshot\ntrigger id 2 oneshot\n0->1 id 1 start 0 size 1\n\
                 1->2 id 2 trigger 1 size 1 send_done_trigger 2\n2->3 id 3 trigger 2 size 1 send_done_trigger 1\n",
                5,
                "trigger",
            ),
            (
                "Nodes 4\ntrigger id 1 barrier count 3\n0->1 id 1 start 0 size 1 send_done_trigger 1\n\
                 1->2 id 2 start 0 size 1 send_done_trigger 1\n2->3 id 3 trigger 1 size 1\n",
                5,
                "trigger",
            ),
            (
                "Nodes 4\n0->1 start 0 size 18446744073709551615\n1->2 start 0 size 1\n",
                0,
                "size",
            ),
        ];
        for (text, line, field) in cases {
            let e = HtsimMatrix::parse(text, StartUnit::Us).unwrap_err();
            assert_eq!((e.line, e.field.as_str()), (line, field), "{text:?}: {e}");
        }
    }
}
