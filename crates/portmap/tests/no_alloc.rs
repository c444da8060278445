//! Once a [`Workspace`] has seen a problem size, solving again allocates
//! nothing (the simulator solves every 100 us).

use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{solve, Constraints, Solver, Workspace};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn warm_workspace_does_not_allocate() {
    let mut rng = SplitMix64::new(12);
    let cases = [
        (512, 8, TmKind::Uniform, Constraints::default()),
        (512, 2, TmKind::Skewed, Constraints::default()),
        (64, 8, TmKind::Uniform, Constraints::default()),
        (
            256,
            4,
            TmKind::Skewed,
            Constraints {
                bundle: 2,
                circuit_switches: 2,
            },
        ),
    ];
    for (p, n, kind, c) in cases {
        let tm = random_tm(&mut rng, p, n, kind, 1 << 24);
        for solver in Solver::ALL {
            if p > 256 && matches!(solver, Solver::Hungarian | Solver::Rdc) {
                continue; // slow in debug builds; same code paths as smaller sizes
            }
            let mut ws = Workspace::new();
            let mut out = Vec::new();
            solve(tm.view(), &c, solver, &mut ws, &mut out).unwrap();
            let before = ALLOCS.load(Ordering::Relaxed);
            solve(tm.view(), &c, solver, &mut ws, &mut out).unwrap();
            let allocs = ALLOCS.load(Ordering::Relaxed) - before;
            assert_eq!(allocs, 0, "{solver} on {p}x{n} allocated {allocs} times");
        }
    }
}
