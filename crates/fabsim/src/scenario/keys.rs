//! The key schema and one point's values.
//!
//! Every scenario key is a [`Key`] row owned by its domain's file (`topology.rs`, `link.rs`,
//! ...), declared in its `keys!` table, which also names it with a handle (`host::CC` for
//! `host.cc`). A row says the key's type and range ([`Kind`]), its default and what it means;
//! the allowed-values text of errors, `fabsim keys` and the README's key table are all
//! generated from it. [`Keys`] is one sweep point: every key with its one value and where the
//! value came from, with typed getters that domain parsers call with the handles (a misspelt
//! key does not compile).

use std::fmt;

use toml::Value;

use crate::engine::Time;

/// A scenario problem, naming where it came from and which key.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    pub source: String,
    pub key: String,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.source, self.message)
        } else {
            write!(
                f,
                "{}: `{}`: {}",
                self.source,
                echo(&self.key),
                self.message
            )
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A configuration enum whose scenario names come from one list.
pub trait Named: Copy + Sized + 'static {
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
}

/// Implements [`Named`] for enums that carry their own `ALL` list and `name` (those of
/// `named_enum!`); each domain's file lists the enums its keys choose from.
macro_rules! named {
    ($($t:ty),*) => {$(
        impl Named for $t {
            const ALL: &'static [Self] = &<$t>::ALL;
            fn name(self) -> &'static str {
                <$t>::name(self)
            }
        }
    )*};
}
pub(super) use named;

/// The allowed names of a [`Named`] enum, in its list's order.
pub fn names<T: Named>() -> Vec<&'static str> {
    T::ALL.iter().map(|v| v.name()).collect()
}

/// What a key's values may be, checked on every value given whether or not the run reads it.
#[derive(Clone, Copy)]
pub enum Kind {
    /// An integer in `min..=max`; `even`: a multiple of 2.
    Int {
        min: u64,
        max: u64,
        even: bool,
    },
    /// A number in `[min, max]`, or `(min, max]` when `open` (> min).
    Float {
        min: f64,
        max: f64,
        open: bool,
    },
    Bool,
    /// One of the names the function lists.
    Choice(fn() -> Vec<&'static str>),
    /// A shape the check accepts, described by the text.
    Other {
        allowed: &'static str,
        check: fn(&Value) -> bool,
    },
}

/// One scenario key: its dotted name, type, default (TOML text; `None`: absent by default),
/// unit and one-line meaning.
pub struct Key {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Option<&'static str>,
    /// Unit of a number ("" for none), shown in the allowed range.
    pub unit: &'static str,
    pub meaning: &'static str,
}

/// Keys are the same key when their names are (names are unique in the schema).
impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// A key shows as its name.
impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.name)
    }
}

/// `keys! { HANDLE: Key { name: "domain.key", .. }, .. }`: each row as a handle (`pub const
/// HANDLE: &Key`) that parsers read the key through, so a misspelt key does not compile,
/// and the domain's `KEYS`, in the order written (the schema's order).
macro_rules! keys {
    ($($handle:ident: Key $row:tt,)*) => {
        $(pub const $handle: &Key = &Key $row;)*
        /// The domain's keys, in schema order.
        pub const KEYS: &[&Key] = &[$($handle),*];
    };
}
pub(super) use keys;

impl Key {
    /// The type column of `fabsim keys`.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            Kind::Int { .. } => "integer",
            Kind::Float { .. } => "number",
            Kind::Bool => "bool",
            Kind::Choice(_) => "string",
            Kind::Other { .. } => "mixed",
        }
    }

    /// What the key allows, as errors and docs say it.
    pub fn allowed(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        match self.kind {
            Kind::Int { min, max, even } => {
                let even = if even { "an even " } else { "an " };
                format!("{even}integer from {min} to {}{unit}", fmt_int(max))
            }
            Kind::Float { min, max, open } => {
                let lo = if open { "> " } else { ">= " };
                format!(
                    "a number {lo}{} and <= {}{unit}",
                    fmt_num(min),
                    fmt_num(max)
                )
            }
            Kind::Bool => "true or false".into(),
            Kind::Choice(list) => format!("one of {}", list().join(", ")),
            Kind::Other { allowed, .. } => allowed.into(),
        }
    }

    /// Checks one value against the key's type and range.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        let ok = match self.kind {
            Kind::Int { min, max, even } => match v {
                Value::Integer(i) => {
                    *i >= 0 && (*i as u64) >= min && (*i as u64) <= max && (!even || i % 2 == 0)
                }
                _ => false,
            },
            Kind::Float { min, max, open } => match as_f64(v) {
                Some(x) => x.is_finite() && (if open { x > min } else { x >= min }) && x <= max,
                None => false,
            },
            Kind::Bool => v.is_bool(),
            Kind::Choice(list) => v.as_str().is_some_and(|s| list().contains(&s)),
            Kind::Other { check, .. } => check(v),
        };
        if ok {
            return Ok(());
        }
        let allowed = self.allowed();
        let mut message = format!("invalid value {}; allowed: {allowed}", shown(v, &allowed));
        if let (Kind::Choice(list), Some(s)) = (self.kind, v.as_str()) {
            if let Some(best) = suggest(s, list()) {
                message += &format!("; did you mean `{best}`?");
            }
        }
        Err(message)
    }
}

/// A number as TOML gives it (integers too).
pub fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn fmt_int(x: u64) -> String {
    if x >= 1 << 20 && x.is_power_of_two() {
        format!("2^{}", x.trailing_zeros())
    } else {
        x.to_string()
    }
}

/// A number as errors write it: very large or small ones in exponent form.
pub fn fmt_num(x: f64) -> String {
    if x != 0.0 && !(1e-3..1e7).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

/// A value as errors quote it (strings bare).
pub fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value as errors quote it: strings bare, very large or small numbers in exponent form.
/// A value as an error shows it against the `allowed` text: quoted, and named when it is a
/// number of the wrong type (a float or a string where an integer is allowed), which would
/// otherwise read like a valid value.
fn shown(v: &Value, allowed: &str) -> String {
    match v {
        Value::Float(x) if allowed.contains("integer") => format!(
            "{} (a float: write an integer, without a decimal point or exponent)",
            if x.fract() == 0.0 && x.abs() < 1e15 {
                format!("{x:.1}")
            } else {
                x.to_string()
            }
        ),
        // An integer too large for TOML's 64 bits reaches here as `--set`'s bare word.
        Value::String(t)
            if allowed.contains("integer")
                && t.trim().parse::<u128>().is_ok()
                && t.trim().parse::<i64>().is_err() =>
        {
            format!(
                "{} (beyond the largest integer a scenario holds, {})",
                quote(v),
                i64::MAX
            )
        }
        Value::String(t) if t.trim().parse::<f64>().is_ok() => {
            format!("{} (a string: write the number without quotes)", quote(v))
        }
        _ => quote(v),
    }
}

pub fn quote(v: &Value) -> String {
    match v {
        Value::Float(x) => fmt_num(*x),
        Value::Datetime(d) => format!("{d} (a datetime)"),
        other => echo(&display(other)),
    }
}

/// The most characters of a user's text an error echoes.
pub const ECHO_CHARS: usize = 80;

/// A user's text as an error echoes it: invisible characters (controls, zero-width and
/// direction marks, a byte-order mark) escaped, and cut to [`ECHO_CHARS`] characters with an
/// ellipsis and the full length.
pub fn echo(s: &str) -> String {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == ECHO_CHARS {
            out += &format!("... ({} characters)", s.chars().count());
            break;
        }
        match c {
            c if c.is_control() => out.extend(c.escape_debug()),
            '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}' => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

/// The closest of `candidates` to `s`, if close enough to be a likely typo.
pub fn suggest<'c>(s: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = (s.len() / 4 + 1).min(3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(s, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over bytes.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// One value of one key at a sweep point.
#[derive(Clone, Copy)]
struct Entry<'a> {
    value: &'a Value,
    /// Where it was given (a file, `--set`, the built-in default); `None`: the schema default.
    source: Option<&'a str>,
}

/// One sweep point: every key that has a value (given or schema default), with typed getters.
/// Getters on keys with a schema default never miss; `opt_*` getters return `None` for keys
/// that are absent.
pub struct Keys<'a> {
    entries: Vec<(&'static Key, Entry<'a>)>,
    /// Blamed for problems with keys that were not given (the scenario's own source).
    origin: &'a str,
}

impl<'a> Keys<'a> {
    pub(super) fn new(origin: &'a str) -> Self {
        Self {
            entries: Vec::new(),
            origin,
        }
    }

    /// Adds `key`'s value here; `source`: where it was given, `None` for its schema default.
    pub(super) fn push(&mut self, key: &'static Key, value: &'a Value, source: Option<&'a str>) {
        self.entries.push((key, Entry { value, source }));
    }

    /// Gives `key` the value `value` from `source` unless the scenario set it (a profile's
    /// defaults).
    pub(super) fn default_to(&mut self, key: &'static Key, value: &'a Value, source: &'a str) {
        let entry = Entry {
            value,
            source: Some(source),
        };
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some((_, e)) if e.source.is_none() => *e = entry,
            Some(_) => {}
            None => self.entries.push((key, entry)),
        }
    }

    fn entry(&self, key: &Key) -> Option<&(&'static Key, Entry<'a>)> {
        self.entries.iter().find(|(k, _)| *k == key)
    }

    /// The key's value, if it has one here.
    pub fn get(&self, key: &Key) -> Option<&'a Value> {
        self.entry(key).map(|(_, e)| e.value)
    }

    /// Whether the scenario set the key (not just its schema default).
    pub fn given(&self, key: &Key) -> bool {
        self.entry(key).is_some_and(|(_, e)| e.source.is_some())
    }

    /// Whether the scenario set the key other than by the built-in default scenario (whose
    /// fat tree yields to another shape's keys or a topology file, where a user's value
    /// would conflict).
    pub fn explicit(&self, key: &Key) -> bool {
        self.entry(key)
            .is_some_and(|(_, e)| e.source.is_some_and(|s| s != super::BUILT_IN))
    }

    fn value(&self, key: &Key) -> &'a Value {
        self.get(key)
            .unwrap_or_else(|| panic!("schema key `{}` has a default", key.name))
    }

    /// An error about `key`, blaming where its value came from.
    pub fn err(&self, key: &Key, message: impl Into<String>) -> ScenarioError {
        let source = self
            .entry(key)
            .and_then(|(_, e)| e.source)
            .unwrap_or(self.origin);
        ScenarioError {
            source: source.to_string(),
            key: key.name.to_string(),
            message: message.into(),
        }
    }

    /// "invalid value V; allowed: ..." for `key`'s value, with `why` in place of the schema's
    /// allowed text when given.
    pub fn invalid(&self, key: &Key, why: &str) -> ScenarioError {
        let allowed = self.entry(key).map_or(String::new(), |(k, _)| k.allowed());
        let shown = self
            .get(key)
            .map_or("(none)".into(), |v| shown(v, &allowed));
        let why = if why.is_empty() { &allowed } else { why };
        self.err(key, format!("invalid value {shown}; allowed: {why}"))
    }

    /// An integer key with a default (range already checked).
    pub fn int(&self, key: &Key) -> u64 {
        self.value(key).as_integer().expect("checked integer") as u64
    }

    pub fn opt_int(&self, key: &Key) -> Option<u64> {
        self.get(key).map(|_| self.int(key))
    }

    /// An integer key whose range fits a u32.
    pub fn u32(&self, key: &Key) -> u32 {
        u32::try_from(self.int(key)).expect("schema range fits u32")
    }

    pub fn opt_u32(&self, key: &Key) -> Option<u32> {
        self.get(key).map(|_| self.u32(key))
    }

    pub fn float(&self, key: &Key) -> f64 {
        as_f64(self.value(key)).expect("checked number")
    }

    pub fn opt_float(&self, key: &Key) -> Option<f64> {
        self.get(key).map(|_| self.float(key))
    }

    pub fn bool(&self, key: &Key) -> bool {
        self.value(key).as_bool().expect("checked bool")
    }

    pub fn opt_bool(&self, key: &Key) -> Option<bool> {
        self.get(key).map(|_| self.bool(key))
    }

    /// A choice key as its enum.
    pub fn choice<T: Named>(&self, key: &Key) -> T {
        let name = self.value(key).as_str().expect("checked choice");
        *T::ALL
            .iter()
            .find(|v| v.name() == name)
            .expect("checked against the enum's list")
    }

    pub fn opt_choice<T: Named>(&self, key: &Key) -> Option<T> {
        self.get(key).map(|_| self.choice(key))
    }

    /// A duration in microseconds as picoseconds (the range keeps it in `Time`).
    pub fn us(&self, key: &Key) -> Time {
        Time::from_us_f64(self.float(key))
    }

    pub fn opt_us(&self, key: &Key) -> Option<Time> {
        self.get(key).map(|_| self.us(key))
    }

    /// A duration in nanoseconds as picoseconds (the range keeps it in `Time`).
    pub fn opt_ns(&self, key: &Key) -> Option<Time> {
        self.get(key).map(|_| Time::from_ns_f64(self.float(key)))
    }
}

/// Shorthands for schema rows.
pub const fn int(min: u64, max: u64) -> Kind {
    Kind::Int {
        min,
        max,
        even: false,
    }
}

/// A number in `(min, max]`.
pub const fn positive(max: f64) -> Kind {
    Kind::Float {
        min: 0.0,
        max,
        open: true,
    }
}

/// A number in `[min, max]`.
pub const fn number(min: f64, max: f64) -> Kind {
    Kind::Float {
        min,
        max,
        open: false,
    }
}

/// The largest byte count any size key takes (1 TiB): products with packet and host counts
/// stay far from `u64` overflow.
pub const MAX_BYTES: u64 = 1 << 40;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_catch_typos_only() {
        assert_eq!(suggest("ofna", ["ofan", "pofan", "ecmp"]), Some("ofan"));
        assert_eq!(
            suggest("topology.kk", ["topology.k", "topology.tiers"]),
            Some("topology.k")
        );
        assert_eq!(suggest("banana", ["ofan", "ecmp"]), None);
    }

    #[test]
    fn ranges_are_checked_with_their_text() {
        let key = Key {
            name: "x.y",
            kind: Kind::Int {
                min: 2,
                max: 8,
                even: true,
            },
            default: None,
            unit: "ports",
            meaning: "",
        };
        assert!(key.check(&Value::Integer(4)).is_ok());
        for bad in [Value::Integer(3), Value::Integer(10), Value::Float(4.0)] {
            let e = key.check(&bad).unwrap_err();
            assert!(e.contains("an even integer from 2 to 8 ports"), "{e}");
        }
        let key = Key {
            name: "x.z",
            kind: positive(10.0),
            default: None,
            unit: "us",
            meaning: "",
        };
        assert!(key.check(&Value::Integer(10)).is_ok());
        for bad in [0.0, 1e300, f64::NAN, -1.0] {
            assert!(key.check(&Value::Float(bad)).is_err(), "{bad}");
        }
    }
}
