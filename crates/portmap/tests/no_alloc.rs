//! Once a [`Workspace`] has seen a problem size, solving again allocates
//! nothing (the simulator solves every 100 us).

use portmap::gen::{random_tm, SplitMix64, TmKind};
use portmap::{solve, Constraints, Solver, Workspace};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the allocations of the calling thread only: the test harness's own thread
/// allocates (it registers the running test) concurrently with the test on a loaded
/// machine, and a process-wide counter would charge those to the solver.
struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: no counting (and no panic) while the thread's locals are torn down.
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
}

fn allocs() -> usize {
    ALLOCS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
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
            let before = allocs();
            solve(tm.view(), &c, solver, &mut ws, &mut out).unwrap();
            let n_allocs = allocs() - before;
            assert_eq!(
                n_allocs, 0,
                "{solver} on {p}x{n} allocated {n_allocs} times"
            );
        }
    }
}
