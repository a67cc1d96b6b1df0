//! `PICOSTARK_SPANS=1`: prints the wall time and the resident set of every prover phase that
//! the proving libraries mark with a `tracing` span (Plonky3's "commit to trace data",
//! "commit to quotient poly chunks", "open", ...) as the span closes, so a slow or
//! memory-hungry prove can be attributed to its phase without a profiler (issue 25).
//!
//! Spans shorter than 10 ms are not printed. The subscriber keeps one start time per open
//! span; nothing is recorded when the variable is unset.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Start time and name of each open span.
struct PhaseTimer {
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, (&'static str, Instant)>>,
}

/// Resident set size of this process now (`VmRSS`), in MiB; `NaN` without procfs.
fn rss_mib() -> f64 {
    let kib = crate::memory::proc_kib("/proc/self/status", "VmRSS");
    kib.map_or(f64::NAN, |k| k as f64 / 1024.0)
}

impl Subscriber for PhaseTimer {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.is_span() && *metadata.level() <= tracing::Level::DEBUG
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let name = span.metadata().name();
        if let Ok(mut open) = self.open.lock() {
            open.insert(id, (name, Instant::now()));
        }
        Id::from_u64(id)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
    fn try_close(&self, id: Id) -> bool {
        let entry = self
            .open
            .lock()
            .ok()
            .and_then(|mut o| o.remove(&id.into_u64()));
        if let Some((name, began)) = entry {
            let secs = began.elapsed().as_secs_f64();
            if secs >= 0.01 {
                eprintln!("[span] {name}: {secs:.2} s, RSS {:.0} MiB", rss_mib());
            }
        }
        true
    }
}

/// Installs the phase timer when `PICOSTARK_SPANS` is set (to anything but `0`).
pub fn install_from_env() {
    if std::env::var("PICOSTARK_SPANS").is_ok_and(|v| v != "0") {
        let timer = PhaseTimer {
            next_id: AtomicU64::new(1),
            open: Mutex::new(HashMap::new()),
        };
        let _ = tracing::dispatcher::set_global_default(tracing::Dispatch::new(timer));
    }
}
