//! Flow dependencies at run time: each gate's signals still to come and each flow's gates
//! still to fire (`workload::deps` builds them). A flow that completes (sending or
//! receiving) signals its gates; a gate fires once, when its last signal comes; a flow
//! starts once every gate it waits for has fired, after the gate's delay.
//!
//! Architecture Invariant: a gate fires at most once, and a flow is started at most once,
//! by its last gate or (if it waits for none) at its start time.

use crate::workload::deps::{Csr, Deps};

pub(super) struct Gates<'a> {
    deps: &'a Deps,
    /// Per gate: the signals it still needs.
    left: Vec<u32>,
    /// Per flow: gates still to fire before it may start (empty without gates).
    waiting: Vec<u32>,
}

impl<'a> Gates<'a> {
    pub(super) fn new(deps: &'a Deps) -> Self {
        Gates {
            deps,
            left: deps.need.clone(),
            waiting: if deps.gated() {
                deps.waits.clone()
            } else {
                Vec::new()
            },
        }
    }

    /// Whether `flow` waits for no gate (it starts at its start time).
    #[inline]
    pub(super) fn free(&self, flow: usize) -> bool {
        self.waiting.get(flow).is_none_or(|&w| w == 0)
    }

    /// `flow` completed (sending or receiving, as `list` selects): signals its gates, and
    /// hands `start` each flow whose last gate fired, with that gate's delay.
    #[inline]
    pub(super) fn signal(
        &mut self,
        list: fn(&Deps) -> &Csr,
        flow: u32,
        mut start: impl FnMut(u32, crate::engine::Time),
    ) {
        for &g in list(self.deps).row(flow) {
            let left = &mut self.left[g as usize];
            if *left == 0 {
                // A gate fires once (htsim's multishot triggers restart nothing here).
                continue;
            }
            *left -= 1;
            if *left > 0 {
                continue;
            }
            let delay = self.deps.delay_ps[g as usize];
            for &t in self.deps.targets.row(g) {
                let waiting = &mut self.waiting[t as usize];
                debug_assert!(
                    *waiting > 0,
                    "flow {t}: started by more gates than it waits for"
                );
                *waiting -= 1;
                if *waiting == 0 {
                    start(t, delay);
                }
            }
        }
    }
}
