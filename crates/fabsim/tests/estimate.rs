//! The up-front cost estimate (`SimParams::estimate`, which refuses runs over
//! `run.max_memory_gib`) against what a run allocates: a counting allocator records the peak
//! heap of `metrics::run` (simulation and report). The estimate must cover the peak and
//! overstate it by less than half: on a gated workload whose memory is its flow tables (FSDP,
//! 349,164 flows), one whose memory is its flows in progress (all-to-all) and one whose
//! memory is its fabric (a 1-byte permutation). One test in this file: the counters are
//! global.

use fabsim::scenario::Scenario;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        if size > l.size() {
            grew(size - l.size());
        } else {
            NOW.fetch_sub(l.size() - size, Relaxed);
        }
        unsafe { System.realloc(p, l, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The estimate and the peak heap of the run `sets` describes.
fn estimate_and_peak(scenario: &str, sets: &[&str]) -> (u64, u64) {
    let mut s = Scenario::parse(scenario, "test.toml").unwrap();
    for a in sets {
        s.set(a).unwrap();
    }
    let p = s.expand().unwrap().remove(0).params;
    let estimate = p.estimate().memory_bytes;
    let before = NOW.load(Relaxed);
    PEAK.store(before, Relaxed);
    let r = fabsim::metrics::run(&p);
    assert_eq!(r.flows_completed, r.flows_total, "{sets:?}");
    (estimate, (PEAK.load(Relaxed) - before) as u64)
}

#[test]
fn the_memory_estimate_covers_the_peak_of_a_run() {
    let fsdp = "[topology]\nk = 6\n[switch]\nlb = \"ofan\"\n[workload]\nkind = \"fsdp\"\nmodel = \"llama3-405b\"\nsize_scale = 1e-6\n[run]\nseeds = 1\n";
    for (what, scenario, sets) in [
        ("fsdp", fsdp, &["workload.layers=40"][..]),
        ("fsdp, nscc", fsdp, &["workload.layers=40", "host.cc=nscc"][..]),
        (
            "fsdp striped over 2 planes",
            fsdp,
            &["workload.layers=40", "topology.planes=2", "host.planes=stripe"][..],
        ),
        (
            "all-to-all",
            "[topology]\nk = 8\n[workload]\nkind = \"all-to-all\"\nmessage_bytes = 4194304\n[run]\nseeds = 1\n",
            &[][..],
        ),
        (
            "fabric",
            "[topology]\nk = 24\n[workload]\nkind = \"permutation\"\nmessage_bytes = 1\n[run]\nseeds = 1\n",
            &[][..],
        ),
    ] {
        let (estimate, peak) = estimate_and_peak(scenario, sets);
        let ratio = estimate as f64 / peak as f64;
        eprintln!("{what}: estimate {estimate} bytes, peak {peak} bytes, ratio {ratio:.2}");
        assert!(
            (1.0..1.5).contains(&ratio),
            "{what}: the estimate is {ratio:.2} times the peak"
        );
    }
}
