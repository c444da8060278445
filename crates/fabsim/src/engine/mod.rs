//! The discrete-event core: time, the event queue and RNG streams.
//!
//! Architecture Invariant: nothing in this module knows about networks. It deals in
//! integer picoseconds ([`Time`]), opaque `Copy` events and seeds.
//!
//! Architecture Invariant: it uses no other module of `fabsim`; its one outside name is
//! portmap's `splitmix64`, re-exported so that there is one. It does no I/O and reads no
//! clock.

mod queue;
pub mod rng;
mod time;

pub use queue::{EventQueue, HeapQueue, TimingWheel};
pub use rng::Rng;
pub use time::{Time, BIT_PS_PER_BYTE_S};

/// A text input without the UTF-8 byte-order mark some editors write at its start: every
/// parser of a user's text file (scenarios, htsim matrices, CDFs, `--flows` tables) reads
/// through it, so the mark never reads as part of the first key, field or cell.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
