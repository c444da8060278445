//! The schema as documentation: `fabsim keys` and the README's key table.

use super::keys::Key;
use super::profile::Profile;
use super::{host, schema, switch, workload};
use crate::lb::{HostLbKind, SwitchLbKind};
use crate::transport::CcKind;
use crate::workload::WorkloadKind;

/// What each `host.profile` sets, a line per profile.
fn profile_lines() -> impl Iterator<Item = (&'static str, String)> {
    Profile::ALL.iter().map(|p| {
        let set: Vec<String> = p
            .settings()
            .iter()
            .map(|(k, v)| format!("{} = {v}", k.name))
            .collect();
        let set = if set.is_empty() {
            "nothing (every key at its own default)".to_string()
        } else {
            set.join(", ")
        };
        (p.name(), set)
    })
}

/// Every key, a block each: name, type and default, then what it allows and means.
pub fn keys_listing() -> String {
    let mut out = String::new();
    let mut section = "";
    for k in schema() {
        let s = k.name.split('.').next().unwrap_or("");
        if s != section {
            if !section.is_empty() {
                out.push('\n');
            }
            out += &format!("[{s}]\n");
            section = s;
        }
        out += &format!(
            "  {}  ({}, default {})\n      {}\n      allowed: {}\n",
            k.name,
            k.type_name(),
            k.default.unwrap_or("none"),
            k.meaning,
            k.allowed()
        );
    }
    out += "\n[host.profile] sets, where the scenario leaves a key unset:\n";
    for (name, set) in profile_lines() {
        out += &format!("  {name}: {set}\n");
    }
    out
}

/// The README's key table (Markdown), generated from the same rows.
pub fn keys_markdown() -> String {
    let mut out =
        String::from("| key | type | default | allowed | meaning |\n|---|---|---|---|---|\n");
    for k in schema() {
        out += &format!(
            "| `{}` | {} | {} | {} | {} |\n",
            k.name,
            k.type_name(),
            k.default.map_or("-".into(), |d| format!("`{d}`")),
            k.allowed().replace('|', "\\|"),
            k.meaning.replace('|', "\\|")
        );
    }
    out += "\n| `host.profile` | sets, where the scenario leaves a key unset |\n|---|---|\n";
    for (name, set) in profile_lines() {
        out += &format!("| `{name}` | {} |\n", set.replace('|', "\\|"));
    }
    out
}

/// The choices a new scheme, congestion control, profile or workload adds, each as
/// (the key that selects it, its name and meaning per variant), in the variants' order.
pub fn choices() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    fn each<T: Copy>(
        key: &Key,
        all: &[T],
        f: fn(T) -> (&'static str, &'static str),
    ) -> (&'static str, Vec<(&'static str, &'static str)>) {
        (key.name, all.iter().map(|&v| f(v)).collect())
    }
    vec![
        each(switch::LB, &SwitchLbKind::ALL, |v| (v.name(), v.meaning())),
        each(host::LB, &HostLbKind::ALL, |v| (v.name(), v.meaning())),
        each(host::CC, &CcKind::ALL, |v| (v.name(), v.meaning())),
        each(host::PROFILE, &Profile::ALL, |v| (v.name(), v.meaning())),
        each(workload::KIND, &WorkloadKind::ALL, |v| {
            (v.name(), v.meaning())
        }),
    ]
}

/// The README's table of schemes, congestion controls, profiles and workloads (Markdown).
pub fn choices_markdown() -> String {
    let mut out = String::from("| key | value | meaning |\n|---|---|---|\n");
    for (key, values) in choices() {
        for (name, meaning) in values {
            out += &format!("| `{key}` | `{name}` | {} |\n", meaning.replace('|', "\\|"));
        }
    }
    out
}
