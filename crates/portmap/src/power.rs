//! Power and radix model of multi-ASIC switches (paper sections 1, 6.5 and
//! A.6, Fig. 2, Tables 2 and 3).
//!
//! * Every ASIC forwards `C` Tb/s (102.4 Tb/s, a Tomahawk-6-class chip) and
//!   splits it between external ports and inter-ASIC links.
//! * **State-of-the-Art** (non-blocking): every port byte may have to cross
//!   ASICs, so each ASIC needs as much inter-ASIC as port bandwidth: usable
//!   throughput `n C / 2` (for `n = 1`, `C`).
//! * **Fastroute**: at most a fraction `(n-1)/n` of the port traffic has to
//!   cross ASICs (section 6.3), so `x + x (n-1)/n = C` and the usable
//!   throughput is `n x = n^2 C / (2n - 1)`.
//! * Savings (section 6.5): with `alpha = throughput / n` (the inter-ASIC
//!   throughput Fastroute saves per ASIC), inter-ASIC links save
//!   `alpha * 0.6 pJ/bit`, the fabric `alpha * 5.13 pJ/bit` (only for
//!   `n > 2`; two ASICs are connected directly) and buffers
//!   `alpha * 2 pJ/bit`; the indirection layer costs
//!   `throughput * 0.035 pJ/bit`.
//! * Power of a non-oversubscribed switch of the same throughput (eq. 3):
//!   `throughput * (0.6 + 5.13 [n > 2] + 2 + E_asic) pJ/bit`, with
//!   `E_asic = 750 W / 102.4 Tb/s`, used rounded to 0.01 pJ/bit (7.32) as in
//!   the paper.
//! * Radix and fat trees: at a fixed port speed the radix is proportional to
//!   the usable throughput; a fat tree of `l` layers built from radix-`k`
//!   switches has `2 (k/2)^l` hosts (`k^2/2` for 2 layers, `k^3/4` for 3).
//!
//! Units: Tb/s times pJ/bit is W.

/// Energy and capacity parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerModel {
    /// Forwarding capacity of one ASIC, Tb/s.
    pub asic_tbps: f64,
    /// Power of one ASIC, W.
    pub asic_watts: f64,
    /// Inter-ASIC link (UCIe-class die-to-die) energy, pJ/bit.
    pub inter_asic_pj: f64,
    /// Fabric chip energy, pJ/bit (only for more than 2 ASICs).
    pub fabric_pj: f64,
    /// Extra buffer write+read energy, pJ/bit.
    pub buffer_pj: f64,
    /// Electrical circuit-switch indirection layer energy, pJ/bit.
    pub indirection_pj: f64,
}

impl Default for PowerModel {
    /// The paper's parameters (section 6.5).
    fn default() -> Self {
        Self {
            asic_tbps: 102.4,
            asic_watts: 750.0,
            inter_asic_pj: 0.6,
            fabric_pj: 5.13,
            buffer_pj: 2.0,
            indirection_pj: 0.035,
        }
    }
}

/// Power savings of Fastroute against a non-oversubscribed switch (one
/// column of Table 2), W. `indirection` is negative (an overhead).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Savings {
    /// Number of ASICs.
    pub asics: usize,
    /// Fastroute's usable throughput, Tb/s.
    pub throughput_tbps: f64,
    /// Saved inter-ASIC link power.
    pub inter_asic: f64,
    /// Saved fabric power (0 for up to 2 ASICs).
    pub fabric: f64,
    /// Saved buffer power.
    pub buffer: f64,
    /// Indirection layer power (negative).
    pub indirection: f64,
    /// Sum of the above.
    pub total: f64,
}

/// Rounds to `decimals` decimal places (for printing like the paper).
pub fn round_to(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

impl PowerModel {
    /// ASIC energy per bit, pJ/bit, rounded to 0.01 as the paper quotes it
    /// (750 W / 102.4 Tb/s = 7.32 pJ/bit).
    pub fn asic_pj(&self) -> f64 {
        round_to(self.asic_watts / self.asic_tbps, 2)
    }

    /// Usable throughput of a non-blocking (State-of-the-Art) switch of `n`
    /// ASICs, Tb/s.
    pub fn sota_throughput_tbps(&self, n: usize) -> f64 {
        if n <= 1 {
            self.asic_tbps * n as f64
        } else {
            n as f64 * self.asic_tbps / 2.0
        }
    }

    /// Usable throughput of a Fastroute switch of `n` ASICs, Tb/s: inter-ASIC
    /// capacity `(n-1)/n` of the port capacity.
    pub fn fastroute_throughput_tbps(&self, n: usize) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let nf = n as f64;
        let port_share = self.asic_tbps / (1.0 + (nf - 1.0) / nf);
        nf * port_share
    }

    /// Table 2 column for `n` ASICs.
    pub fn savings(&self, n: usize) -> Savings {
        let t = self.fastroute_throughput_tbps(n);
        let alpha = if n == 0 { 0.0 } else { t / n as f64 };
        let inter_asic = alpha * self.inter_asic_pj;
        let fabric = if n > 2 { alpha * self.fabric_pj } else { 0.0 };
        let buffer = alpha * self.buffer_pj;
        let indirection = -t * self.indirection_pj;
        Savings {
            asics: n,
            throughput_tbps: t,
            inter_asic,
            fabric,
            buffer,
            indirection,
            total: inter_asic + fabric + buffer + indirection,
        }
    }

    /// Power of a non-oversubscribed `n`-ASIC switch with Fastroute's
    /// throughput (eq. 3, Table 3), W.
    pub fn switch_power_without_oversubscription(&self, n: usize) -> f64 {
        let fabric = if n > 2 { self.fabric_pj } else { 0.0 };
        self.fastroute_throughput_tbps(n)
            * (self.inter_asic_pj + fabric + self.buffer_pj + self.asic_pj())
    }

    /// Fastroute's bandwidth gain over State-of-the-Art with `n` ASICs
    /// (e.g. 0.333 = +33% for 2 ASICs, Fig. 2).
    pub fn bandwidth_gain(&self, n: usize) -> f64 {
        self.fastroute_throughput_tbps(n) / self.sota_throughput_tbps(n) - 1.0
    }

    /// Fastroute's gain in fat-tree hosts over State-of-the-Art with `n`
    /// ASICs and `layers` layers, at equal port speed (radix proportional to
    /// throughput): `(k_F / k_S)^layers - 1`.
    pub fn host_gain(&self, n: usize, layers: u32) -> f64 {
        (self.bandwidth_gain(n) + 1.0).powi(layers as i32) - 1.0
    }
}

/// Radix of a switch of `throughput_tbps` with ports of `port_gbps`.
pub fn radix(throughput_tbps: f64, port_gbps: f64) -> u64 {
    if port_gbps <= 0.0 || !throughput_tbps.is_finite() || throughput_tbps <= 0.0 {
        return 0;
    }
    (throughput_tbps * 1000.0 / port_gbps + 1e-9).floor() as u64
}

/// Hosts of a fat tree of `layers` layers of radix-`k` switches:
/// `2 (k/2)^layers` (`k^2/2` for 2 layers, `k^3/4` for 3); saturates.
pub fn fat_tree_hosts(k: u64, layers: u32) -> u64 {
    (k / 2).saturating_pow(layers).saturating_mul(2)
}
