//! Priority flow control's switch MMU (`switch.pfc`): per switch a shared buffer, per
//! ingress port a reserve and a headroom, and the rules that admit or drop a packet and say
//! when an ingress port PAUSEs or RESUMEs its upstream neighbour. The rules are HPCC's ns-3
//! switch MMU's (reference/hpcc/MODEL.md section 5), for the one class fabsim's data and
//! ACKs travel in.
//!
//! Sans IO: the simulator tells it a packet arrived (`admit`) or started leaving its egress
//! port (`release`), and it answers whether to send a PAUSE or a RESUME; it schedules
//! nothing and sends nothing.

use crate::engine::Time;

/// Bytes each ingress port may hold before it draws on the shared buffer.
pub const RESERVE_BYTES: u64 = 4096;
/// A paused ingress port resumes once its shared use is this far under the threshold.
pub const RESUME_OFFSET_BYTES: u64 = 3072;
/// A PAUSE or RESUME frame's bytes on the wire.
pub const FRAME_BYTES: u32 = 43;

/// One ingress port's counters and constants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ingress {
    /// Bytes held in the reserve and the shared buffer.
    pub ingress: u64,
    /// Bytes held in the headroom.
    pub hdrm: u64,
    /// The port's headroom: 3 x rate x delay, in bytes.
    pub headroom: u64,
    /// The dynamic threshold's alpha is `2^-shift`.
    pub shift: u32,
    /// A PAUSE was sent and no RESUME since.
    pub paused: bool,
}

/// One switch's buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Switch {
    /// Its first port's index in [`Mmu::ports`] and its number of ports.
    base: u32,
    ports: u32,
    /// The buffer less every port's headroom and reserve: what the shared pool may use.
    pool: u64,
    /// Bytes of the shared pool in use.
    shared_used: u64,
}

/// What an arriving packet meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Dropped: the port's headroom is exhausted and the shared pool is over its threshold.
    Drop,
    /// Admitted; `pause`: the ingress port now PAUSEs its upstream neighbour.
    Accept { pause: bool },
}

/// The MMUs of every switch of a fabric.
#[derive(Clone, Debug)]
pub struct Mmu {
    switches: Vec<Switch>,
    /// Per switch port (switches' ports in order, as their local ports number them).
    pub ports: Vec<Ingress>,
}

impl Mmu {
    /// Switches of `buffer` bytes each, whose ports are given as `ports` (per switch, each
    /// port's rate in bits/s); every link has `delay`, every NIC runs at `nic_rate`.
    pub fn new(buffer: u64, nic_rate: u64, delay: Time, ports: &[Vec<u64>]) -> Self {
        let mut mmu = Mmu {
            switches: Vec::with_capacity(ports.len()),
            ports: Vec::new(),
        };
        for rates in ports {
            let base = mmu.ports.len() as u32;
            for &rate in rates {
                mmu.ports.push(Ingress {
                    headroom: headroom(rate, delay),
                    shift: shift(rate, nic_rate),
                    ..Ingress::default()
                });
            }
            mmu.switches.push(Switch {
                base,
                ports: rates.len() as u32,
                pool: buffer.saturating_sub(reserved(rates, delay)),
                shared_used: 0,
            });
        }
        mmu
    }

    /// The index in [`Mmu::ports`] of switch `sw`'s local port `local`.
    #[inline]
    pub fn index(&self, sw: u32, local: u32) -> usize {
        let s = &self.switches[sw as usize];
        debug_assert!(local < s.ports, "switch {sw} has no port {local}");
        (s.base + local) as usize
    }

    /// The dynamic threshold of switch `sw`'s port `i` (an index): the shared pool left,
    /// times the port's alpha.
    #[inline]
    pub fn threshold(&self, sw: u32, i: usize) -> u64 {
        let s = &self.switches[sw as usize];
        s.pool.saturating_sub(s.shared_used) >> self.ports[i].shift
    }

    /// Bytes switch `sw`'s shared pool holds.
    pub fn shared_used(&self, sw: u32) -> u64 {
        self.switches[sw as usize].shared_used
    }

    /// A packet of `bytes` arrives at switch `sw`'s local port `local`.
    pub fn admit(&mut self, sw: u32, local: u32, bytes: u32) -> Admit {
        let i = self.index(sw, local);
        let s = bytes as u64;
        let t = self.threshold(sw, i);
        let p = &mut self.ports[i];
        if s + p.hdrm > p.headroom && s + p.ingress.saturating_sub(RESERVE_BYTES) > t {
            return Admit::Drop;
        }
        let n = p.ingress + s;
        if n <= RESERVE_BYTES {
            p.ingress = n;
        } else if n - RESERVE_BYTES > t {
            p.hdrm += s;
        } else {
            p.ingress = n;
            self.switches[sw as usize].shared_used += s.min(n - RESERVE_BYTES);
        }
        let t = self.threshold(sw, i);
        let p = &mut self.ports[i];
        let pause = !p.paused && (p.hdrm > 0 || p.ingress.saturating_sub(RESERVE_BYTES) >= t);
        p.paused |= pause;
        Admit::Accept { pause }
    }

    /// A packet of `bytes` that arrived at switch `sw`'s local port `local` starts leaving
    /// its egress port; returns whether that ingress port now RESUMEs its upstream neighbour.
    pub fn release(&mut self, sw: u32, local: u32, bytes: u32) -> bool {
        let i = self.index(sw, local);
        let p = &mut self.ports[i];
        let s = bytes as u64;
        let from_hdrm = s.min(p.hdrm);
        p.hdrm -= from_hdrm;
        let rest = s - from_hdrm;
        debug_assert!(
            rest <= p.ingress,
            "switch {sw} port {local}: released more than held"
        );
        let from_shared = rest.min(p.ingress.saturating_sub(RESERVE_BYTES));
        p.ingress -= rest;
        self.switches[sw as usize].shared_used -= from_shared;
        let t = self.threshold(sw, i);
        let p = &mut self.ports[i];
        let shared = p.ingress.saturating_sub(RESERVE_BYTES);
        let resume = p.paused && p.hdrm == 0 && (shared == 0 || shared + RESUME_OFFSET_BYTES <= t);
        p.paused &= !resume;
        resume
    }

    /// Takes in switches `theirs` selects from `other` (the same fabric's MMUs, simulated
    /// apart).
    pub fn absorb(&mut self, other: &Mmu, theirs: impl Fn(u32) -> bool) {
        for (sw, s) in other.switches.iter().enumerate() {
            if theirs(sw as u32) {
                self.switches[sw] = *s;
                let ports = s.base as usize..(s.base + s.ports) as usize;
                self.ports[ports.clone()].copy_from_slice(&other.ports[ports]);
            }
        }
    }

    /// Whether every switch's buffers are empty (at a run's end with nothing in flight).
    pub fn is_empty(&self) -> bool {
        self.switches.iter().all(|s| s.shared_used == 0)
            && self.ports.iter().all(|p| p.ingress == 0 && p.hdrm == 0)
    }
}

/// What a switch whose ports run at `rates` sets apart of its buffer: each port's headroom
/// and reserve. Its shared pool is the rest.
pub fn reserved(rates: &[u64], delay: Time) -> u64 {
    rates
        .iter()
        .map(|&r| headroom(r, delay) + RESERVE_BYTES)
        .sum()
}

/// A port's headroom: 3 x rate x delay in bytes, rounded down (100 Gb/s and 1 us: 37,500).
pub fn headroom(rate_bps: u64, delay: Time) -> u64 {
    (3 * rate_bps as u128 * delay.ps() as u128 / 8 / 1_000_000_000_000) as u64
}

/// The dynamic threshold's shift of a port at `rate` with NICs at `nic_rate`: 3 (alpha 1/8)
/// at the NICs' rate, one less for each doubling above it, never below 0.
pub fn shift(rate: u64, nic_rate: u64) -> u32 {
    let mut shift = 3;
    let mut r = rate;
    while r > nic_rate && shift > 0 {
        r /= 2;
        shift -= 1;
    }
    shift
}

#[cfg(test)]
mod tests {
    use super::*;

    const G100: u64 = 100_000_000_000;

    fn us(n: u64) -> Time {
        Time::from_ps(n * 1_000_000)
    }

    #[test]
    fn headroom_and_alpha_by_port_rate() {
        assert_eq!(headroom(G100, us(1)), 37_500);
        assert_eq!(headroom(4 * G100, us(1)), 150_000);
        assert_eq!(shift(G100, G100), 3);
        assert_eq!(shift(2 * G100, G100), 2);
        assert_eq!(shift(4 * G100, G100), 1);
        assert_eq!(shift(16 * G100, G100), 0);
        assert_eq!(shift(G100 / 4, G100), 3);
    }

    /// One switch of 4 ports at 100 Gb/s, 1 us links, a 1 MB buffer: a pool of
    /// 1,000,000 - 4 x (37,500 + 4,096) = 833,616 bytes, alpha 1/8.
    fn one_switch() -> Mmu {
        Mmu::new(1_000_000, G100, us(1), &[vec![G100; 4]])
    }

    #[test]
    fn the_reserve_then_the_shared_pool_then_a_pause() {
        let mut m = one_switch();
        assert_eq!(m.threshold(0, 0), 833_616 >> 3);
        // Four 1,000 B packets fill the reserve (4,000 <= 4,096): no shared use, no PAUSE.
        for _ in 0..4 {
            assert_eq!(m.admit(0, 1, 1000), Admit::Accept { pause: false });
        }
        assert_eq!(m.shared_used(0), 0);
        // The fifth: 5,000 - 4,096 = 904 bytes over the reserve go to the shared pool.
        assert_eq!(m.admit(0, 1, 1000), Admit::Accept { pause: false });
        assert_eq!(m.shared_used(0), 904);
        assert_eq!(m.ports[1].ingress, 5000);
        // Keep adding: packet k goes to the shared pool while k x 1,000 - 4,096 is within the
        // threshold (833,616 - shared before it) >> 3. Packet 96 does (91,904 <= 92,839), and
        // is not yet over the threshold after it (91,904 < 92,714); packet 97 is not
        // (92,904 > 92,714): it goes to the headroom, and the port PAUSEs.
        let mut sent = 5;
        loop {
            let a = m.admit(0, 1, 1000);
            sent += 1;
            if a == (Admit::Accept { pause: true }) {
                break;
            }
            assert_eq!(a, Admit::Accept { pause: false }, "packet {sent}");
        }
        assert_eq!(sent, 97);
        assert_eq!(m.shared_used(0), 91_904);
        assert_eq!(m.ports[1].ingress, 96_000);
        assert_eq!(m.ports[1].hdrm, 1000);
        assert!(m.ports[1].paused);
        // A paused port does not PAUSE again; packets past the threshold go to the headroom.
        assert_eq!(m.admit(0, 1, 1000), Admit::Accept { pause: false });
        assert_eq!(m.ports[1].hdrm, 2000);
        assert_eq!(m.shared_used(0), 91_904);
        // Every port's threshold fell with the shared use.
        assert_eq!(m.threshold(0, 2), (833_616 - 91_904) >> 3);
    }

    #[test]
    fn headroom_exhausted_drops() {
        // A pool of 800 bytes past the headroom and reserves: a threshold of 100.
        let mut m2 = Mmu::new(4 * (37_500 + 4096) + 800, G100, us(1), &[vec![G100; 4]]);
        assert_eq!(m2.threshold(0, 0), 100);
        for _ in 0..4 {
            m2.admit(0, 0, 1024);
        }
        // 4,096 in the reserve; the next 1,000 B: n - R = 1,000 > 100: headroom, and PAUSE.
        assert_eq!(m2.admit(0, 0, 1000), Admit::Accept { pause: true });
        assert_eq!(m2.ports[0].hdrm, 1000);
        // 36 more take the headroom to 37,000; the next would take it past 37,500 (and is
        // over the threshold too): dropped.
        for _ in 0..36 {
            assert_eq!(m2.admit(0, 0, 1000), Admit::Accept { pause: false });
        }
        assert_eq!(m2.ports[0].hdrm, 37_000);
        assert_eq!(m2.admit(0, 0, 1000), Admit::Drop);
        assert_eq!(m2.ports[0].hdrm, 37_000, "a drop holds nothing");
        // A small packet still fits in the headroom.
        assert_eq!(m2.admit(0, 0, 500), Admit::Accept { pause: false });
        // Nothing of it touched the shared pool.
        assert_eq!(m2.shared_used(0), 0);
    }

    #[test]
    fn release_from_the_headroom_first_then_resume_under_the_offset() {
        let mut m = Mmu::new(4 * (37_500 + 4096) + 800, G100, us(1), &[vec![G100; 4]]);
        for _ in 0..4 {
            m.admit(0, 0, 1024);
        }
        // 100 B over the reserve fit the threshold (100): shared. The threshold falls to
        // (800 - 100) >> 3 = 87 and the port's shared use (100) is over it: PAUSE.
        assert_eq!(m.admit(0, 0, 100), Admit::Accept { pause: true });
        assert_eq!(m.shared_used(0), 100);
        assert_eq!(m.ports[0].ingress, 4196);
        assert_eq!(m.threshold(0, 0), (800 - 100) >> 3);
        assert_eq!(m.admit(0, 0, 1000), Admit::Accept { pause: false });
        assert_eq!(m.ports[0].hdrm, 1000);
        // A 1,024 B release: 1,000 from the headroom, 24 from the ingress, of which 24 from
        // the shared pool. The shared use left (76) + 3,072 is over the threshold (90): no
        // RESUME.
        assert!(!m.release(0, 0, 1024));
        assert_eq!(m.ports[0].hdrm, 0);
        assert_eq!(m.ports[0].ingress, 4172);
        assert_eq!(m.shared_used(0), 76);
        // Another 1,024: 76 from the shared pool, shared use 0: RESUME.
        assert!(m.release(0, 0, 1024));
        assert!(!m.ports[0].paused);
        assert_eq!(m.shared_used(0), 0);
        assert_eq!(m.ports[0].ingress, 3148);
        for _ in 0..3 {
            assert!(!m.release(0, 0, 1024), "no RESUME when not paused");
        }
        assert_eq!(m.ports[0].ingress, 76);
        assert!(!m.release(0, 0, 76));
        assert!(m.is_empty());
    }

    #[test]
    fn resume_once_the_shared_use_is_an_offset_under_the_threshold() {
        // A large pool: threshold 833,616 >> 3 = 104,202 at no use.
        let mut m = one_switch();
        let mut sent = 0;
        while m.admit(0, 1, 1000) != (Admit::Accept { pause: true }) {
            sent += 1;
        }
        sent += 1;
        // PAUSE at packet 97: 1,000 B of headroom, 91,904 shared. The first release empties
        // the headroom; RESUME needs shared + 3,072 <= (833,616 - shared) >> 3: not at 91,904
        // (94,976 > 92,714), 90,904 (93,976 > 92,839) or 89,904 (92,976 > 92,964), but at
        // 88,904 (91,976 <= 93,089).
        let mut released = 0;
        while !m.release(0, 1, 1000) {
            released += 1;
        }
        released += 1;
        assert_eq!(sent, 97);
        assert_eq!(released, 4);
        assert_eq!(m.shared_used(0), 88_904);
        assert_eq!(m.ports[1].hdrm, 0);
    }
}
