//! The QEMU side of the plugin: registration, per-instruction inline counters and the
//! marker callbacks that write one line per measured region.

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

fn on_start() {
    let mut r = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    r.started = Some(snapshot());
}

fn on_end() {
    let now = snapshot();
    let mut r = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    let Some(start) = r.started.take() else {
        return;
    };
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
        Ok(())
    }
}

impl HasCallbacks for ICount {
    fn on_translation_block_translate(
        &mut self,
        _id: PluginId,
        tb: TranslationBlock,
    ) -> qemu_plugin::Result<()> {
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
        Ok(())
    }
}

register!(ICount {
    isa: Isa::Thumb,
    start: 0,
    end: 0,
});
