//! Topology files (`topology.file`): fabsim's own TOML, HPCC's ns-3 `topology.txt` and
//! Netbench's `.topology`, read into a [`Graph`]; and the writers of the first two.
//!
//! Node ids are the graph's (hosts `0..hosts`, switches after) in fabsim's TOML. The other
//! formats number nodes freely: their hosts (servers) in ascending id become graph hosts
//! `0..`, their switches in ascending id the graph's switches; each node's id in the file
//! comes with the graph ([`Numbered`]), so that HPCC's flow files and `fct.txt` name hosts
//! as the topology file does. Errors read `line N: FIELD: got X; allowed: Y`.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Display;

use toml::{Spanned, Value};

use crate::engine::Time;
use crate::net::graph::{Graph, Link};

/// A topology file's format, chosen by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `*.toml`: fabsim's own.
    Toml,
    /// `*.topology`: Netbench's.
    Netbench,
    /// Anything else: HPCC's ns-3 `topology.txt`.
    Hpcc,
}

impl Format {
    /// The format of a file named `path`.
    pub fn of(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => Format::Toml,
            Some("topology") => Format::Netbench,
            _ => Format::Hpcc,
        }
    }
}

/// A graph, and the id its file gives each of its nodes (hosts, then switches; fabsim's TOML:
/// the graph's own).
pub type Numbered = (Graph, Vec<u64>);

/// Reads `text` in `format`; `servers_per_tor` extends a Netbench file whose ToRs stand for
/// their servers.
pub fn read(text: &str, format: Format, servers_per_tor: Option<u32>) -> Result<Numbered, String> {
    if servers_per_tor.is_some() && format != Format::Netbench {
        return Err(
            "topology.servers_per_tor applies to Netbench files (*.topology) only".to_string(),
        );
    }
    match format {
        Format::Toml => read_toml(text).map(|g| {
            let ids = (0..g.nodes() as u64).collect();
            (g, ids)
        }),
        Format::Hpcc => read_hpcc(text),
        Format::Netbench => read_netbench(text, servers_per_tor),
    }
}

fn bad(line: usize, field: &str, got: impl Display, allowed: impl Display) -> String {
    format!("line {line}: {field}: got {got}; allowed: {allowed}")
}

/// The 1-based line of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

const TOML_KEYS: [&str; 5] = ["hosts", "switches", "rate_gbps", "delay_ns", "links"];

/// A count, rate or delay of the TOML file, checked against its range.
fn toml_number(
    text: &str,
    v: &Spanned<Value>,
    field: &str,
    min: f64,
    max: f64,
) -> Result<f64, String> {
    let line = line_of(text, v.span().start);
    let x = super::keys::as_f64(v.get_ref());
    match x {
        Some(x) if (min..=max).contains(&x) => Ok(x),
        _ => Err(bad(
            line,
            field,
            v.get_ref(),
            format!("a number {min} to {max}"),
        )),
    }
}

/// An integer of the TOML file (`what`: a node id or a count) in `range`.
fn toml_int(
    v: &Value,
    line: usize,
    field: &str,
    what: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, String> {
    match v.as_integer() {
        Some(n) if (*range.start() as i64..=*range.end() as i64).contains(&n) => Ok(n as u32),
        _ => Err(bad(
            line,
            field,
            v,
            format!("{what} {} to {}", range.start(), range.end()),
        )),
    }
}

/// A TOML syntax error at its line.
fn toml_syntax(text: &str, e: toml::de::Error) -> String {
    let line = e.span().map_or(1, |s| line_of(text, s.start));
    format!("line {line}: {}", e.message())
}

fn read_toml(text: &str) -> Result<Graph, String> {
    let table: BTreeMap<String, Spanned<Value>> =
        toml::from_str(text).map_err(|e| toml_syntax(text, e))?;
    if let Some((key, v)) = table.iter().find(|(k, _)| !TOML_KEYS.contains(&k.as_str())) {
        let line = line_of(text, v.span().start);
        return Err(bad(line, "key", key, TOML_KEYS.join(", ")));
    }
    let required = |key: &str| {
        table
            .get(key)
            .ok_or_else(|| bad(1, key, "nothing", "a value (required)"))
    };
    let count = |key: &str| -> Result<u32, String> {
        let v = required(key)?;
        let line = line_of(text, v.span().start);
        toml_int(v.get_ref(), line, key, "an integer", 1..=1 << 24)
    };
    let (hosts, switches) = (count("hosts")?, count("switches")?);
    let rate_bps = match table.get("rate_gbps") {
        Some(v) => {
            Some((toml_number(text, v, "rate_gbps", 0.001, 100_000.0)? * 1e9).round() as u64)
        }
        None => None,
    };
    let delay_ps = match table.get("delay_ns") {
        Some(v) => Some(Time::from_ns_f64(toml_number(
            text, v, "delay_ns", 0.0, 1e9,
        )?)),
        None => None,
    };
    let links = required("links")?;
    if !links.get_ref().is_array() {
        let line = line_of(text, links.span().start);
        return Err(bad(
            line,
            "links",
            links.get_ref(),
            "an array of [a, b] pairs",
        ));
    }
    let pairs = toml_links(text, hosts + switches)?;
    Ok(Graph {
        hosts,
        switches,
        links: pairs
            .into_iter()
            .map(|(a, b, rate)| Link {
                a,
                b,
                rate_bps: rate.or(rate_bps),
                delay_ps,
            })
            .collect(),
    })
}

/// The TOML file's `links`, each a pair of node ids below `nodes`, and a rate in Gb/s of
/// its own if it has a third element.
fn toml_links(text: &str, nodes: u32) -> Result<Vec<(u32, u32, Option<u64>)>, String> {
    #[derive(serde::Deserialize)]
    struct Links {
        links: Vec<Spanned<Value>>,
    }
    let entries = toml::from_str::<Links>(text)
        .map_err(|e| toml_syntax(text, e))?
        .links;
    let mut pairs = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let line = line_of(text, entry.span().start);
        let field = format!("links[{i}]");
        let allowed = "a pair [a, b] of node ids, or [a, b, rate_gbps] (0.001 to 100000)";
        let pair = match entry.get_ref().as_array() {
            Some(p) if p.len() == 2 || p.len() == 3 => p,
            _ => return Err(bad(line, &field, entry.get_ref(), allowed)),
        };
        let node = |v| toml_int(v, line, &field, "a node id", 0..=nodes - 1);
        let rate = match pair.get(2) {
            None => None,
            Some(v) => match v.as_float().or(v.as_integer().map(|i| i as f64)) {
                Some(g) if (0.001..=100_000.0).contains(&g) => Some((g * 1e9).round() as u64),
                _ => return Err(bad(line, &field, entry.get_ref(), allowed)),
            },
        };
        pairs.push((node(&pair[0])?, node(&pair[1])?, rate));
    }
    Ok(pairs)
}

/// fabsim's TOML of `graph`, its links at `rate_bps` (those the graph gives another rate
/// with theirs) with `delay_ps`.
pub fn to_toml(graph: &Graph, rate_bps: u64, delay_ps: Time) -> String {
    let mut s = format!(
        "hosts = {}\nswitches = {}\nrate_gbps = {:?}\ndelay_ns = {:?}\nlinks = [\n",
        graph.hosts,
        graph.switches,
        rate_bps as f64 / 1e9,
        delay_ps.ps() as f64 / 1e3,
    );
    for l in &graph.links {
        match l.rate_bps.filter(|&r| r != rate_bps) {
            Some(r) => s += &format!("  [{}, {}, {:?}],\n", l.a, l.b, r as f64 / 1e9),
            None => s += &format!("  [{}, {}],\n", l.a, l.b),
        }
    }
    s + "]\n"
}

/// The whitespace-separated fields of the non-blank lines of `text`, with their line
/// numbers.
fn lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, f)| !f.is_empty())
}

fn parse_int(line: usize, field: &str, s: &str, below: u64) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n < below => Ok(n),
        _ => Err(bad(
            line,
            field,
            s,
            format!("an integer 0 to {}", below - 1),
        )),
    }
}

/// A number with a unit suffix, times the unit's factor (the longest suffix first).
fn with_unit(line: usize, field: &str, s: &str, units: &[(&str, f64)]) -> Result<f64, String> {
    let allowed = || {
        let names: Vec<&str> = units.iter().map(|(u, _)| *u).collect();
        format!(
            "a non-negative number followed by one of {}",
            names.join(", ")
        )
    };
    let (unit, factor) = units
        .iter()
        .find(|(u, _)| s.ends_with(u))
        .ok_or_else(|| bad(line, field, s, allowed()))?;
    match s[..s.len() - unit.len()].parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x * factor),
        _ => Err(bad(line, field, s, allowed())),
    }
}

const RATE_UNITS: [(&str, f64); 4] = [("Gbps", 1e9), ("Mbps", 1e6), ("Kbps", 1e3), ("bps", 1.0)];
const DELAY_UNITS: [(&str, f64); 4] = [("ms", 1e9), ("us", 1e6), ("ns", 1e3), ("s", 1e12)];

/// The graph of `hosts` and `switches` (another format's node ids, each set ascending) and
/// `pairs` between those ids, with those ids.
fn renumber(
    hosts: &BTreeSet<u64>,
    switches: &BTreeSet<u64>,
    pairs: impl IntoIterator<Item = Pair>,
) -> Numbered {
    let ids: Vec<u64> = hosts.iter().chain(switches).copied().collect();
    let number: BTreeMap<u64, u32> = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i as u32))
        .collect();
    let graph = Graph {
        hosts: hosts.len() as u32,
        switches: switches.len() as u32,
        links: pairs
            .into_iter()
            .map(|(a, b, rate_bps, delay_ps)| Link {
                a: number[&a],
                b: number[&b],
                rate_bps,
                delay_ps,
            })
            .collect(),
    };
    (graph, ids)
}

/// `fields` has exactly `n` entries.
fn expect_fields(line: usize, what: &str, fields: &[&str], n: usize) -> Result<(), String> {
    if fields.len() == n {
        return Ok(());
    }
    Err(bad(
        line,
        what,
        format!("{} fields", fields.len()),
        format!("{n} fields"),
    ))
}

fn read_hpcc(text: &str) -> Result<Numbered, String> {
    let mut lines = lines(text);
    let (n1, head) = lines
        .next()
        .ok_or_else(|| bad(1, "header", "an empty file", "node_num switch_num link_num"))?;
    expect_fields(n1, "header (node_num switch_num link_num)", &head, 3)?;
    let nodes = parse_int(n1, "node_num", head[0], u32::MAX as u64)?;
    let switch_num = parse_int(n1, "switch_num", head[1], nodes + 1)?;
    let link_num = parse_int(n1, "link_num", head[2], u32::MAX as u64)?;
    let (n2, ids) = lines
        .next()
        .ok_or_else(|| bad(n1 + 1, "switch ids", "nothing", "the switch_num switch ids"))?;
    expect_fields(n2, "switch ids", &ids, switch_num as usize)?;
    let mut switches = BTreeSet::new();
    for id in ids {
        let id = parse_int(n2, "switch id", id, nodes)?;
        if !switches.insert(id) {
            return Err(bad(n2, "switch id", id, "each switch once"));
        }
    }
    let hosts: BTreeSet<u64> = (0..nodes).filter(|n| !switches.contains(n)).collect();
    let mut pairs = Vec::with_capacity(link_num as usize);
    let mut last = n2;
    for (n, f) in lines.take(link_num as usize) {
        last = n;
        expect_fields(n, "link (src dst rate delay error_rate)", &f, 5)?;
        let a = parse_int(n, "src", f[0], nodes)?;
        let b = parse_int(n, "dst", f[1], nodes)?;
        let rate = with_unit(n, "rate", f[2], &RATE_UNITS)?;
        if !(1e6..=1e14).contains(&rate) {
            return Err(bad(
                n,
                "rate",
                f[2],
                "1Mbps to 100000Gbps (as link.rate_gbps)",
            ));
        }
        let delay = with_unit(n, "delay", f[3], &DELAY_UNITS)?;
        if delay > 1e12 {
            return Err(bad(n, "delay", f[3], "0s to 1s (as link.delay_ns)"));
        }
        let (rate, delay) = (rate.round() as u64, Time::from_ps_f64(delay));
        if f[4].parse::<f64>() != Ok(0.0) {
            let why = "0 (fabsim models no random loss; fail links with failures.* instead)";
            return Err(bad(n, "error_rate", f[4], why));
        }
        pairs.push((a, b, Some(rate), Some(delay)));
    }
    if pairs.len() as u64 != link_num {
        let got = format!("{} link lines", pairs.len());
        return Err(bad(
            last,
            "link_num",
            got,
            format!("{link_num} (the header's)"),
        ));
    }
    // Lines after the header's link_num links are not read, as HPCC reads none (its
    // example's topology.txt declares 65 links, then lists 259 and a note on the format).
    Ok(renumber(&hosts, &switches, pairs))
}

/// HPCC's `topology.txt` of `graph`, its links at `rate_bps` (those the graph gives another
/// rate at theirs) with `delay_ps`.
pub fn to_hpcc(graph: &Graph, rate_bps: u64, delay_ps: Time) -> String {
    let switches: Vec<String> = (graph.hosts..graph.nodes())
        .map(|s| s.to_string())
        .collect();
    let rate = |rate_bps: u64| {
        RATE_UNITS
            .iter()
            .find(|(_, f)| rate_bps.is_multiple_of(*f as u64))
            .map_or(format!("{rate_bps}bps"), |(u, f)| {
                format!("{}{u}", rate_bps / *f as u64)
            })
    };
    let ps = delay_ps.ps();
    let delay = format!("{}.{:03}ns", ps / 1000, ps % 1000);
    let mut s = format!(
        "{} {} {}\n{}\n",
        graph.nodes(),
        graph.switches,
        graph.links.len(),
        switches.join(" ")
    );
    for l in &graph.links {
        let rate = rate(l.rate_bps.unwrap_or(rate_bps));
        s += &format!("{} {} {rate} {delay} 0\n", l.a, l.b);
    }
    s
}

/// A Netbench node set: `set(1,2,3)` (possibly empty) or `incl_range(a,b)`.
fn netbench_set(line: usize, field: &str, s: &str, nodes: u64) -> Result<BTreeSet<u64>, String> {
    let allowed = format!(
        "set(a,b,...) or incl_range(a,b) of node ids 0 to {}",
        nodes.max(1) - 1
    );
    let err = || bad(line, field, s, &allowed);
    let inner = |prefix: &str| s.strip_prefix(prefix).and_then(|r| r.strip_suffix(')'));
    let ids = |list: &str| -> Result<Vec<u64>, String> {
        list.split(',')
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(|x| x.parse::<u64>().ok().filter(|&n| n < nodes).ok_or_else(err))
            .collect()
    };
    if let Some(list) = inner("set(") {
        return Ok(ids(list)?.into_iter().collect());
    }
    match inner("incl_range(").map(ids).transpose()?.as_deref() {
        Some(&[a, b]) if a <= b => Ok((a..=b).collect()),
        _ => Err(err()),
    }
}

const NETBENCH_KEYS: [&str; 5] = ["|V|", "|E|", "ToRs", "Servers", "Switches"];

/// A Netbench header's values by key, each with its line.
type Header<'t> = BTreeMap<&'t str, (usize, &'t str)>;

/// The header of a Netbench file: its values by key, and the line after it.
fn netbench_header<'t>(
    lines: &mut std::iter::Peekable<impl Iterator<Item = (usize, &'t str)>>,
) -> Result<(Header<'t>, usize), String> {
    let mut header = BTreeMap::new();
    let mut end = 1;
    while let Some(&(n, l)) = lines.peek() {
        end = n;
        let Some((key, value)) = l.split_once('=') else {
            break;
        };
        let key = key.trim();
        if !NETBENCH_KEYS.contains(&key) {
            return Err(bad(n, "key", key, NETBENCH_KEYS.join(", ")));
        }
        header.insert(key, (n, value.trim()));
        lines.next();
        end = n + 1;
    }
    if let Some(key) = NETBENCH_KEYS.iter().find(|k| !header.contains_key(*k)) {
        return Err(bad(
            end,
            key,
            "nothing (the header ends here)",
            "a value (required)",
        ));
    }
    Ok((header, end))
}

/// A cable of another format: its two node ids, and its rate and delay where given.
type Pair = (u64, u64, Option<u64>, Option<Time>);

fn read_netbench(text: &str, servers_per_tor: Option<u32>) -> Result<Numbered, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .peekable();
    let (header, end) = netbench_header(&mut lines)?;
    let (vn, v) = header["|V|"];
    let nodes = parse_int(vn, "|V|", v, u32::MAX as u64)?;
    let (en, e) = header["|E|"];
    let edges = parse_int(en, "|E|", e, u32::MAX as u64)?;
    let set = |key: &str| netbench_set(header[key].0, key, header[key].1, nodes);
    let (tors, servers, mut switches) = (set("ToRs")?, set("Servers")?, set("Switches")?);
    let mut pairs = netbench_edges(lines, nodes, edges, en)?;
    switches.extend(&tors);
    let hosts = if servers != tors {
        if let Some(per) = servers_per_tor {
            let why = "no topology.servers_per_tor: the file lists its servers (Servers differs from ToRs)";
            return Err(bad(
                header["Servers"].0,
                "topology.servers_per_tor",
                per,
                why,
            ));
        }
        servers
    } else {
        let per = servers_per_tor.ok_or_else(|| {
            let why = "topology.servers_per_tor = N (Servers equals ToRs: the ToRs stand for their servers)";
            bad(header["Servers"].0, "Servers", header["Servers"].1, why)
        })? as u64;
        // Netbench's extend_with_servers=regular: server |V| + t * per + j under ToR t.
        let mut hosts = BTreeSet::new();
        for (t, &tor) in tors.iter().enumerate() {
            for server in (0..per).map(|j| nodes + t as u64 * per + j) {
                hosts.insert(server);
                pairs.push((server, tor, None, None));
            }
        }
        hosts
    };
    if let Some(id) = (0..nodes).find(|n| hosts.contains(n) == switches.contains(n)) {
        let both = if hosts.contains(&id) {
            "both"
        } else {
            "neither"
        };
        let got = format!("node {id} in {both} of Servers and Switches/ToRs");
        return Err(bad(
            end,
            "nodes",
            got,
            "every node id below |V| a server or a switch, not both",
        ));
    }
    Ok(renumber(&hosts, &switches, pairs))
}

/// The directed edges after the header, `edges` of them (the count given on line
/// `count_line`), each with its reverse: one pair per cable.
fn netbench_edges<'t>(
    lines: impl Iterator<Item = (usize, &'t str)>,
    nodes: u64,
    edges: u64,
    count_line: usize,
) -> Result<Vec<Pair>, String> {
    let mut directed = Vec::new();
    let mut seen = HashSet::new();
    for (n, l) in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        expect_fields(n, "edge (a b)", &f, 2)?;
        let edge = (
            parse_int(n, "a", f[0], nodes)?,
            parse_int(n, "b", f[1], nodes)?,
        );
        if edge.0 == edge.1 {
            return Err(bad(n, "edge", l, "two different nodes"));
        }
        if !seen.insert(edge) {
            return Err(bad(n, "edge", l, "each directed edge once"));
        }
        directed.push((n, edge));
    }
    if directed.len() as u64 != edges {
        let got = format!("{} edges", directed.len());
        return Err(bad(count_line, "|E|", got, "the number of edge lines"));
    }
    let mut pairs = Vec::new();
    for &(n, (a, b)) in &directed {
        if !seen.contains(&(b, a)) {
            let why = format!("edges listed both ways (add `{b} {a}`)");
            return Err(bad(n, "edge", format!("{a} {b}"), why));
        }
        if a < b {
            pairs.push((a, b, None, None));
        }
    }
    Ok(pairs)
}
