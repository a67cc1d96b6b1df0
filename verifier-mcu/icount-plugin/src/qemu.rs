//! The QEMU side of the plugin: registration, per-instruction inline counters and the
//! marker callbacks that write one line per measured region; optionally a per-block
//! profile of the measured regions (`profile=FILE`).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use qemu_plugin::install::{Args, Info, Value};
use qemu_plugin::plugin::{HasCallbacks, Register};
use qemu_plugin::{register, PluginId, PluginOp, TranslationBlock};

use crate::{classify_riscv, classify_thumb, parse_addr, Class, Isa};

/// Per-class executed-instruction counters, written by inline TCG ops.
static COUNTERS: [AtomicU64; 4] = [
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
];

fn snapshot() -> [u64; 4] {
    [0, 1, 2, 3].map(|i| COUNTERS[i].load(Ordering::Relaxed))
}

/// Measurement state shared by the marker callbacks.
struct Regions {
    started: Option<[u64; 4]>,
    next: u32,
    out: Option<File>,
}

static REGIONS: Mutex<Regions> = Mutex::new(Regions {
    started: None,
    next: 0,
    out: None,
});

/// The optional profile: one executed-instruction counter per translation-block start
/// address (a block retranslated at the same address shares its counter), the counters'
/// values when the current region started, and the totals over all measured regions.
struct Profile {
    path: Option<String>,
    blocks: BTreeMap<u64, &'static AtomicU64>,
    at_start: BTreeMap<u64, u64>,
    totals: BTreeMap<u64, u64>,
}

static PROFILE: Mutex<Profile> = Mutex::new(Profile {
    path: None,
    blocks: BTreeMap::new(),
    at_start: BTreeMap::new(),
    totals: BTreeMap::new(),
});

fn profile_start() {
    let mut p = PROFILE.lock().unwrap_or_else(|e| e.into_inner());
    if p.path.is_none() {
        return;
    }
    let now = p
        .blocks
        .iter()
        .map(|(&a, c)| (a, c.load(Ordering::Relaxed)))
        .collect();
    p.at_start = now;
}

/// Adds the region that just ended to the totals and rewrites the profile file
/// (`ADDR INSNS` per block, hex address, decimal count).
fn profile_end() {
    let mut p = PROFILE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(path) = p.path.clone() else {
        return;
    };
    let deltas: Vec<(u64, u64)> = p
        .blocks
        .iter()
        .map(|(&a, c)| (a, c.load(Ordering::Relaxed)))
        .map(|(a, v)| (a, v - p.at_start.get(&a).copied().unwrap_or(0)))
        .filter(|&(_, d)| d > 0)
        .collect();
    for (a, d) in deltas {
        *p.totals.entry(a).or_insert(0) += d;
    }
    let text: String = p
        .totals
        .iter()
        .map(|(a, n)| format!("{a:#x} {n}\n"))
        .collect();
    let _ = std::fs::write(path, text);
}

fn on_start() {
    profile_start();
    let mut r = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    r.started = Some(snapshot());
}

fn on_end() {
    let now = snapshot();
    let mut r = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    let Some(start) = r.started.take() else {
        return;
    };
    profile_end();
    let d: [u64; 4] = [0, 1, 2, 3].map(|i| now[i] - start[i]);
    let line = format!(
        "icount region={} insns={} mul={} load_store={} branch={} other={}\n",
        r.next,
        d.iter().sum::<u64>(),
        d[Class::Mul as usize],
        d[Class::LoadStore as usize],
        d[Class::Branch as usize],
        d[Class::Other as usize],
    );
    r.next += 1;
    match r.out.as_mut() {
        Some(f) => {
            let _ = f.write_all(line.as_bytes());
            let _ = f.flush();
        }
        None => eprint!("{line}"),
    }
}

struct ICount {
    isa: Isa,
    start: u64,
    end: u64,
}

fn arg_str<'a>(args: &'a Args, key: &str) -> Option<&'a str> {
    match args.parsed.get(key)? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

impl Register for ICount {
    fn register(&mut self, _id: PluginId, args: &Args, _info: &Info) -> qemu_plugin::Result<()> {
        let fail = |what: &str| {
            eprintln!("picostark icount plugin: {what}");
            qemu_plugin::Error::MissingArgValue {
                argument: what.to_string(),
            }
        };
        self.isa = match arg_str(args, "isa") {
            Some("arm") => Isa::Thumb,
            Some("riscv") => Isa::RiscV,
            _ => return Err(fail("isa=arm|riscv is required")),
        };
        let addr = |key: &str| -> Option<u64> {
            match args.parsed.get(key)? {
                Value::String(s) => parse_addr(s),
                Value::Integer(i) => u64::try_from(*i).ok().map(|v| v & !1),
                Value::Bool(_) => None,
            }
        };
        self.start = addr("start").ok_or_else(|| fail("start=ADDR is required"))?;
        self.end = addr("end").ok_or_else(|| fail("end=ADDR is required"))?;
        if let Some(path) = arg_str(args, "out") {
            let f = File::create(path).map_err(|_| fail("out: cannot create the file"))?;
            REGIONS.lock().unwrap_or_else(|e| e.into_inner()).out = Some(f);
        }
        if let Some(path) = arg_str(args, "profile") {
            PROFILE.lock().unwrap_or_else(|e| e.into_inner()).path = Some(path.to_string());
        }
        Ok(())
    }
}

impl HasCallbacks for ICount {
    fn on_translation_block_translate(
        &mut self,
        _id: PluginId,
        tb: TranslationBlock,
    ) -> qemu_plugin::Result<()> {
        // Block granularity: a block left early (an exception) counts whole, so the profile
        // is a close approximation; the per-class counters stay exact.
        let block_counter: Option<&'static AtomicU64> = {
            let mut profile = PROFILE.lock().unwrap_or_else(|e| e.into_inner());
            match profile.path {
                Some(_) => Some(
                    *profile
                        .blocks
                        .entry(tb.vaddr())
                        .or_insert_with(|| Box::leak(Box::new(AtomicU64::new(0)))),
                ),
                None => None,
            }
        };
        let block_insns = tb.size() as u64;
        for insn in tb.instructions() {
            let data = insn.data();
            let class = match self.isa {
                Isa::Thumb => classify_thumb(&data),
                Isa::RiscV => classify_riscv(&data),
            };
            // Marker callbacks run before the instruction's own count is added.
            let vaddr = insn.vaddr();
            if vaddr == self.start {
                insn.register_execute_callback(|_| on_start());
            } else if vaddr == self.end {
                insn.register_execute_callback(|_| on_end());
            }
            qemu_plugin::qemu_plugin_register_vcpu_insn_exec_inline(
                insn,
                PluginOp::QEMU_PLUGIN_INLINE_ADD_U64,
                COUNTERS[class as usize].as_ptr().cast(),
                1,
            );
        }
        if let Some(counter) = block_counter {
            qemu_plugin::qemu_plugin_register_vcpu_tb_exec_inline(
                tb,
                PluginOp::QEMU_PLUGIN_INLINE_ADD_U64,
                counter.as_ptr().cast(),
                block_insns,
            );
        }
        Ok(())
    }
}

register!(ICount {
    isa: Isa::Thumb,
    start: 0,
    end: 0,
});
