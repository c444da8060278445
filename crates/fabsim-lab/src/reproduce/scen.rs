//! Sweeps as data: a scenario is built from a paper's base by setting keys (TOML values),
//! and the load-balancing scheme is an axis ([`by_scheme`]) instead of a twin sweep per side.
//! The text a [`Scen`] renders is the sweep's definition (hashed into its cache directory
//! and quoted in report.md), so its layout is fixed: sections in the paper's order, keys in
//! [`KEY_ORDER`].

use super::Sweep;

/// Every key a reproduced scenario sets, in the order it is written within its section.
const KEY_ORDER: &[&str] = &[
    "topology.tiers",
    "topology.k",
    "topology.leaves",
    "topology.hosts_per_leaf",
    "topology.uplinks",
    "link.rate_gbps",
    "link.delay_ns",
    "packet.payload_bytes",
    "switch.lb",
    "switch.pipe_ports",
    "switch.buffer_bytes",
    "switch.overflow",
    "switch.ecn_kmin_bytes",
    "switch.ecn_kmax_bytes",
    "switch.upgrade",
    "switch.upgrade_lb",
    "switch.arch",
    "switch.asics",
    "switch.bundle",
    "switch.inter_asic_oversub",
    "switch.circuit_switches",
    "switch.util_sample_us",
    "switch.reconfig_interval_us",
    "switch.inter_asic_buffer_bytes",
    "switch.host_count",
    "switch.downtime_us",
    "host.lb",
    "host.cc",
    "host.dctcp_rules",
    "host.dctcp_first_window",
    "host.profile",
    "host.max_window_bytes",
    "workload.kind",
    "workload.load",
    "workload.intra_rack",
    "workload.message_bytes",
    "workload.flow_bytes",
    "workload.phase_us",
    "workload.phase_fill",
    "workload.skew",
    "workload.experts_per_host",
    "workload.balance",
    "workload.model",
    "workload.layers",
    "workload.size_scale",
    "workload.algorithm",
    "workload.order",
    "workload.fsdp_part",
    "workload.steps",
    "failures.links",
    "failures.pace",
    "run.seeds",
    "run.duration_us",
    "run.start_bins_us",
];

/// Whether a load-balancing scheme runs at the hosts (`host.lb`, over switch ECMP); all
/// others are switch schemes (`switch.lb`).
fn host_scheme(name: &str) -> bool {
    fabsim::lb::HostLbKind::from_name(name).is_some()
}

/// A scenario under construction: `section.key = TOML value` pairs.
#[derive(Clone, Debug)]
pub struct Scen {
    /// The order its sections are written in.
    sections: &'static [&'static str],
    keys: Vec<(&'static str, String)>,
}

/// `["a", "b"]`, or `"a"` for one value.
fn strings(xs: &[&str]) -> String {
    let quoted: Vec<String> = xs.iter().map(|x| format!("\"{x}\"")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        _ => format!("[{}]", quoted.join(", ")),
    }
}

impl Scen {
    pub fn new(sections: &'static [&'static str]) -> Self {
        Scen {
            sections,
            keys: vec![],
        }
    }

    /// Sets `key` to the TOML value `value` (a number, a list, `true`; strings via
    /// [`Scen::text`]).
    pub fn set(mut self, key: &'static str, value: impl ToString) -> Self {
        let value = value.to_string();
        match self.keys.iter_mut().find(|(k, _)| *k == key) {
            Some(kv) => kv.1 = value,
            None => self.keys.push((key, value)),
        }
        self
    }

    /// Sets `key` to one string, or to a list of strings (a sweep axis).
    pub fn text(self, key: &'static str, values: &[&str]) -> Self {
        self.set(key, strings(values))
    }

    pub fn unset(mut self, key: &'static str) -> Self {
        self.keys.retain(|(k, _)| *k != key);
        self
    }

    /// Runs `schemes`, all on one side: switch schemes as `switch.lb`, host schemes as
    /// `host.lb` over switch ECMP.
    pub fn schemes(self, schemes: &[&str]) -> Self {
        let host = schemes.iter().filter(|s| host_scheme(s)).count();
        assert!(
            host == 0 || host == schemes.len(),
            "{schemes:?}: host and switch schemes need separate sweeps (`by_scheme`)"
        );
        if host == 0 {
            self.text("switch.lb", schemes)
        } else {
            self.text("switch.lb", &["ecmp"]).text("host.lb", schemes)
        }
    }

    /// The scenario text.
    pub fn render(&self) -> String {
        let rank = |k: &str| {
            KEY_ORDER
                .iter()
                .position(|x| *x == k)
                .unwrap_or_else(|| panic!("{k}: add it to reproduce::scen::KEY_ORDER"))
        };
        let mut keys: Vec<&(&str, String)> = self.keys.iter().collect();
        keys.sort_by_key(|(k, _)| rank(k));
        let mut parts = vec![];
        for sec in self.sections {
            let mut part = format!("[{sec}]\n");
            for (k, v) in &keys {
                if let Some(name) = k.strip_prefix(sec).and_then(|r| r.strip_prefix('.')) {
                    part.push_str(&format!("{name} = {v}\n"));
                }
            }
            if part.contains('=') {
                parts.push(part);
            }
        }
        for (k, _) in &keys {
            let sec = k.split('.').next().unwrap_or_default();
            assert!(
                self.sections.contains(&sec),
                "{k}: section not in {:?}",
                self.sections
            );
        }
        parts.join("\n")
    }
}

/// One sweep: `scen` at full size, `quick` the `--set` overrides of `--quick`.
pub fn sweep(name: &str, scen: Scen, quick: &[impl AsRef<str>]) -> Sweep {
    Sweep {
        name: name.into(),
        scenario: scen.render(),
        quick: quick.iter().map(|q| q.as_ref().to_string()).collect(),
        set: vec![],
        full_only: false,
    }
}

/// A sweep that `--quick` leaves out.
pub fn full_only(name: &str, scen: Scen) -> Sweep {
    Sweep {
        full_only: true,
        ..sweep(name, scen, &[] as &[&str])
    }
}

/// `schemes` as an axis of `base`: sweep `names[0]` runs the switch schemes (as
/// `switch.lb`), sweep `names[1]` the host schemes (over switch ECMP); a side without
/// schemes has no sweep.
pub fn by_scheme_named(
    names: [&str; 2],
    base: &Scen,
    schemes: &[&str],
    quick: &[impl AsRef<str>],
) -> Vec<Sweep> {
    let (host, switch): (Vec<&str>, Vec<&str>) = schemes.iter().partition(|s| host_scheme(s));
    [(names[0], switch), (names[1], host)]
        .into_iter()
        .filter(|(_, s)| !s.is_empty())
        .map(|(name, s)| sweep(name, base.clone().schemes(&s), quick))
        .collect()
}

/// [`by_scheme_named`] with the sweeps named `switch` and `host`.
pub fn by_scheme(base: &Scen, schemes: &[&str], quick: &[impl AsRef<str>]) -> Vec<Sweep> {
    by_scheme_named(["switch", "host"], base, schemes, quick)
}

/// One sweep per scheme, named by it.
pub fn per_scheme(base: &Scen, schemes: &[&str], quick: &[impl AsRef<str>]) -> Vec<Sweep> {
    let one = |s: &&str| sweep(s, base.clone().schemes(&[s]), quick);
    schemes.iter().map(one).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_render_in_section_and_key_order() {
        let s = Scen::new(&["topology", "switch", "host", "workload", "run"])
            .set("run.seeds", 10)
            .set("workload.message_bytes", 1048576)
            .set("workload.kind", "\"moe\"")
            .set("topology.k", 12)
            .set("topology.k", "[4, 8]");
        let [sw, host] =
            <[Sweep; 2]>::try_from(by_scheme(&s, &["ar", "pofan", "reps"], &["run.seeds=1"]))
                .unwrap_or_else(|_| panic!("two sweeps"));
        assert_eq!(
            sw.scenario,
            "[topology]\nk = [4, 8]\n\n[switch]\nlb = [\"ar\", \"pofan\"]\n\n[workload]\n\
             kind = \"moe\"\nmessage_bytes = 1048576\n\n[run]\nseeds = 10\n"
        );
        assert_eq!((sw.name.as_str(), host.name.as_str()), ("switch", "host"));
        assert!(host
            .scenario
            .contains("[switch]\nlb = \"ecmp\"\n\n[host]\nlb = \"reps\"\n"));
        assert_eq!(host.quick, ["run.seeds=1"]);
    }
}
