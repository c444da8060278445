//! fabsim: a fast, deterministic packet-level simulator for the networks that train AI models.
//!
//! Layers, bottom up: a module may use the modules listed before it, never one listed after
//! it (`tests/layers.rs` reads this list and checks every `crate::` path of `src/`).
//! - [`engine`]: time, the event queue, RNG streams. Knows nothing of networks.
//! - [`hw`]: Ofan in hardware terms: the combining pipeline, pOfan's memory model.
//! - [`flow`]: the flow description ([`flow::FlowSpec`]) shared by everything above.
//! - [`net`]: packets, egress ports, fat-tree topologies and routing, link failures, the
//!   multi-ASIC switch model.
//! - [`lb`]: how a switch picks its egress port (one dispatch over ECMP ... Ofan, pOfan,
//!   CONGA, and source-routed up paths), and the host-side schemes that stamp packets.
//! - [`transport`]: the host transport: senders and receivers as state machines, congestion
//!   control.
//! - [`workload`]: who sends what to whom.
//! - [`theory`]: closed forms (the permutation CCT lower bound).
//! - [`params`]: the config contract ([`params::SimParams`]): everything one run needs.
//! - [`sim`]: one run: the event loop, hosts, switches, multi-ASIC glue.
//! - [`metrics`]: a run's outcome turned into the reported numbers.
//! - [`scenario`]: the TOML schema, validation with clear errors, sweep expansion.
//!
//! Only `scenario` opens files and parses TOML. The text formats of other data are parsed,
//! from a string, in the module that owns that data (`workload`'s flow-size CDFs and htsim
//! matrices; portmap's traffic-matrix CSVs). All randomness flows from the scenario seed
//! through named [`engine::Rng`] streams. Time is integer picoseconds.

/// Declares an enum of named choices with `ALL` (every variant, in declaration order), `name`,
/// `from_name` and `meaning` (the variant's `///` comment on one line), so that each
/// variant's name and meaning are written once, beside it:
/// `named_enum! { pub enum Nic { Pull => "pull", Fifo => "fifo", } }`.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $T:ident {
            $($(#[doc = $doc:literal])* $V:ident => $name:literal,)+
        }
    ) => {
        $(#[$meta])*
        $vis enum $T {
            $($(#[doc = $doc])* $V,)+
        }

        impl $T {
            /// Every variant, in declaration order.
            pub const ALL: [$T; [$($name),+].len()] = [$($T::$V),+];

            /// Its name in scenarios and reports.
            pub fn name(self) -> &'static str {
                match self {
                    $($T::$V => $name,)+
                }
            }

            /// The variant named `name`.
            #[allow(dead_code)]
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.into_iter().find(|k| k.name() == name)
            }

            /// What it is: its doc comment on one line ("" without one).
            #[allow(dead_code)]
            pub fn meaning(self) -> &'static str {
                match self {
                    $($T::$V => concat!($($doc),*).trim_start(),)+
                }
            }
        }
    };
}

pub mod engine;
pub mod flow;
pub mod hw;
pub mod lb;
pub mod metrics;
pub mod net;
pub mod params;
pub mod scenario;
pub mod sim;
pub mod theory;
pub mod transport;
pub mod workload;
