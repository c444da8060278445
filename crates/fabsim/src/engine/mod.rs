//! The discrete-event core: time, the event queue and RNG streams.
//!
//! Architecture invariant: nothing in this module knows about networks. It deals in
//! integer picoseconds ([`Time`]), opaque `Copy` events and seeds.

mod queue;
pub mod rng;
mod time;

pub use queue::{EventQueue, HeapQueue, TimingWheel};
pub use rng::Rng;
pub use time::{Time, BIT_PS_PER_BYTE_S};
