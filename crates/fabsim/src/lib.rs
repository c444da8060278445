//! fabsim: a fast, deterministic packet-level simulator for the networks that train AI models.
//!
//! Layers, bottom up (arrows point one way):
//! - [`engine`]: time, the event queue, RNG streams. Knows nothing of networks.
//! - [`hw`]: Ofan in hardware terms: the combining pipeline, pOfan's memory model.
//! - [`net`]: packets, egress ports, fat-tree topologies and routing.
//! - [`lb`]: switch-side load balancers (ECMP ... Ofan, pOfan).
//! - [`transport`]: congestion control (windows) of the senders.
//! - [`workload`]: who sends what to whom.
//! - [`theory`]: closed forms (the permutation CCT lower bound).
//! - [`params`]: the config contract ([`params::SimParams`]): everything one run needs.
//! - [`sim`]: one run: the event loop, hosts and switches.
//! - [`metrics`]: a run's outcome turned into the reported numbers.
//! - [`scenario`]: the TOML schema, validation with clear errors, sweep expansion.
//!
//! Only `scenario` (and the CLI) know about files and formats. All randomness flows from the
//! scenario seed through named [`engine::Rng`] streams. Time is integer picoseconds.

pub mod engine;
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
