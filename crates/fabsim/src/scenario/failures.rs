//! `failures.*`: failed links and pacing at rho_max.

use super::keys::{keys, Key, Keys, Kind, ScenarioError};
use crate::net::{FailureSpec, TopologySpec};

fn links(v: &toml::Value) -> bool {
    match v {
        toml::Value::Integer(n) => *n >= 0 && *n <= u32::MAX as i64,
        toml::Value::String(_) => true,
        toml::Value::Array(items) => items.iter().all(|i| i.is_str()),
        _ => false,
    }
}

keys! {
    LINKS: Key {
        name: "failures.links",
        kind: Kind::Other {
            allowed: "an integer >= 0 (random links, seeded) or link names like \"edge0-agg1\", \"agg3-core2\", \"leaf0-spine1\" (a list of names is one failure set; a list of lists sweeps)",
            check: links,
        },
        default: None,
        unit: "",
        meaning: "failed switch-to-switch links; a count draws them at random, skipping a link whose failure would cut two edge switches apart (a draw stuck short of the count draws again keeping up the fewest links that connect every edge switch), and is at most the links less those fewest (20 of 32 at k = 4); names: each link once",
    },
    PACE: Key {
        name: "failures.pace",
        kind: Kind::Bool,
        default: None,
        unit: "",
        meaning: "with failures.links: hosts send data at rho_max (default true)",
    },
}

/// The failure set, checked against the fabric, and whether hosts pace at rho_max.
pub fn parse(
    k: &Keys,
    topology: &TopologySpec,
) -> Result<(Option<FailureSpec>, bool), ScenarioError> {
    let pace = k.opt_bool(PACE).unwrap_or(true);
    let key = LINKS;
    let Some(v) = k.get(key) else {
        return Ok((None, pace));
    };
    let spec = match v {
        toml::Value::Integer(n) => FailureSpec::Count(*n as u32),
        toml::Value::String(s) => FailureSpec::Links(vec![s.clone()]),
        toml::Value::Array(items) => FailureSpec::Links(
            items
                .iter()
                .filter_map(|i| i.as_str().map(String::from))
                .collect(),
        ),
        _ => unreachable!("checked failure set"),
    };
    spec.check(topology).map_err(|m| k.invalid(key, &m))?;
    Ok((Some(spec), pace))
}
