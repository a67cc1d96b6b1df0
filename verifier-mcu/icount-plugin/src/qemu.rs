//! The QEMU side of the plugin: registration, per-instruction inline counters and the
//! marker callbacks that write one line per measured region; optionally a per-block
//! profile of the measured regions (`profile=FILE`) and the RP2350 cycle model
//! (`model=m33|hazard3`, see [`crate::timing`]).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use qemu_plugin::install::{Args, Info, Value};
use qemu_plugin::plugin::{HasCallbacks, Register};
use qemu_plugin::{register, CallbackFlags, MemRW, PluginId, PluginOp, TranslationBlock};

use crate::timing::xip::{QmiTiming, Replacement, Xip};
use crate::timing::{build_block, hazard3, m33, AddrMap, Core, FlashRanges, Model, MODEL_VERSION};
use crate::{
    classify_riscv, classify_thumb, parse_addr, parse_offload, parse_range, Class, Isa, Offload,
};

/// Per-class executed-instruction counters, written by inline TCG ops.
static COUNTERS: [AtomicU64; 4] = [
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
];

/// Entries into the offloaded function (inline add at its first instruction).
static OFFLOAD_CALLS: AtomicU64 = AtomicU64::new(0);
/// Cycles charged per entry; 0 without `offload=`.
static OFFLOAD_CYCLES: AtomicU64 = AtomicU64::new(0);

fn snapshot() -> [u64; 4] {
    [0, 1, 2, 3].map(|i| COUNTERS[i].load(Ordering::Relaxed))
}

/// Measurement state shared by the marker callbacks.
struct Regions {
    started: Option<([u64; 4], ModelTotals, u64)>,
    next: u32,
    out: Option<File>,
}

static REGIONS: Mutex<Regions> = Mutex::new(Regions {
    started: None,
    next: 0,
    out: None,
});

/// The cycle model, when `model=` is given. One vCPU: the callbacks never contend.
static MODEL: Mutex<Option<Model>> = Mutex::new(None);

fn with_model(f: impl FnOnce(&mut Model)) {
    if let Some(m) = MODEL.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        f(m);
    }
}

/// The model's running totals at one moment.
#[derive(Clone, Copy, Default)]
struct ModelTotals {
    stall: i64,
    accesses: u64,
    misses: u64,
    miss_cycles: u64,
}

fn model_totals() -> ModelTotals {
    let mut t = ModelTotals::default();
    with_model(|m| {
        t = ModelTotals {
            stall: m.stall,
            accesses: m.xip.accesses,
            misses: m.xip.misses,
            miss_cycles: m.xip.miss_cycles,
        }
    });
    t
}

/// The model's fields of an `icount` line (empty without a model).
fn model_fields(insns: u64, start: ModelTotals, end: ModelTotals, offload_calls: u64) -> String {
    let Some(core) = MODEL
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map(|m| m.core)
    else {
        return String::new();
    };
    let stall = end.stall - start.stall;
    let miss_cycles = end.miss_cycles - start.miss_cycles;
    let per_call = OFFLOAD_CYCLES.load(Ordering::Relaxed);
    let offload_cycles = offload_calls * per_call;
    let cycles = insns as i64 + stall + miss_cycles as i64 + offload_cycles as i64;
    let offload = if per_call == 0 {
        String::new()
    } else {
        format!(" offload_calls={offload_calls} offload_cycles={offload_cycles}")
    };
    format!(
        " cycles={cycles} stall={stall} xip_accesses={} xip_misses={} xip_miss_cycles={miss_cycles}{offload} model={} model_version={MODEL_VERSION}",
        end.accesses - start.accesses,
        end.misses - start.misses,
        core.name(),
    )
}

/// The optional profile: one executed-instruction counter per translation-block start
/// address (a block retranslated at the same address shares its counter), the counters'
/// values when the current region started, and the totals over all measured regions. With
/// the model, also the XIP miss cycles charged while each block ran (its code lines and its
/// flash loads; [`MISSES`]), the same way. The profile only reads the model's totals.
struct Profile {
    path: Option<String>,
    blocks: BTreeMap<u64, &'static AtomicU64>,
    at_start: BTreeMap<u64, u64>,
    totals: BTreeMap<u64, u64>,
    miss_at_start: BTreeMap<u64, u64>,
    miss_totals: BTreeMap<u64, u64>,
}

static PROFILE: Mutex<Profile> = Mutex::new(Profile {
    path: None,
    blocks: BTreeMap::new(),
    at_start: BTreeMap::new(),
    totals: BTreeMap::new(),
    miss_at_start: BTreeMap::new(),
    miss_totals: BTreeMap::new(),
});

/// Miss cycles per block start address (profile with a model only), and the block the
/// model entered last, which run-time flash loads are charged to.
static MISSES: Mutex<BTreeMap<u64, u64>> = Mutex::new(BTreeMap::new());
static CURRENT_BLOCK: AtomicU64 = AtomicU64::new(0);

/// Charges the miss cycles `f` adds to the model to the block at `addr`.
fn charging(addr: u64, f: impl FnOnce(&mut Model)) {
    with_model(|m| {
        let before = m.xip.miss_cycles;
        f(m);
        let d = m.xip.miss_cycles - before;
        if d > 0 {
            *MISSES
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(addr)
                .or_insert(0) += d;
        }
    });
}

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
    p.miss_at_start = MISSES.lock().unwrap_or_else(|e| e.into_inner()).clone();
}

/// Adds the region that just ended to the totals and rewrites the profile file
/// (`ADDR INSNS` per block, hex address, decimal count); the region's own counts go to
/// `FILE.regionN` (N = the region's index, same line format), so one verification's profile
/// can be read apart from the others in the window (`mcu-run run --profile`'s parts).
fn profile_end(region: u32) {
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
    let misses = MISSES.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let miss_deltas: BTreeMap<u64, u64> = misses
        .iter()
        .map(|(&a, &v)| (a, v - p.miss_at_start.get(&a).copied().unwrap_or(0)))
        .filter(|&(_, d)| d > 0)
        .collect();
    let region_text: String = deltas
        .iter()
        .map(|(a, n)| match miss_deltas.get(a) {
            Some(m) => format!("{a:#x} {n} {m}\n"),
            None => format!("{a:#x} {n}\n"),
        })
        .collect();
    let _ = std::fs::write(format!("{path}.region{region}"), region_text);
    for (a, d) in deltas {
        *p.totals.entry(a).or_insert(0) += d;
    }
    for (a, d) in miss_deltas {
        *p.miss_totals.entry(a).or_insert(0) += d;
    }
    // `ADDR INSNS` per block; with the model a third column, the block's miss cycles.
    let text: String = p
        .totals
        .iter()
        .map(|(a, n)| match p.miss_totals.get(a) {
            Some(m) => format!("{a:#x} {n} {m}\n"),
            None => format!("{a:#x} {n}\n"),
        })
        .collect();
    let _ = std::fs::write(path, text);
}

fn on_start() {
    profile_start();
    let totals = model_totals();
    let mut r = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    r.started = Some((snapshot(), totals, OFFLOAD_CALLS.load(Ordering::Relaxed)));
}

fn on_end() {
    let now = snapshot();
    let totals = model_totals();
    let mut r = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    let calls = OFFLOAD_CALLS.load(Ordering::Relaxed);
    let Some((start, start_totals, start_calls)) = r.started.take() else {
        return;
    };
    profile_end(r.next);
    let d: [u64; 4] = [0, 1, 2, 3].map(|i| now[i] - start[i]);
    let insns = d.iter().sum::<u64>();
    let line = format!(
        "icount region={} insns={} mul={} load_store={} branch={} other={}{}\n",
        r.next,
        insns,
        d[Class::Mul as usize],
        d[Class::LoadStore as usize],
        d[Class::Branch as usize],
        d[Class::Other as usize],
        model_fields(insns, start_totals, totals, calls - start_calls),
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
    /// The model's core and flash ranges (the model itself lives in [`MODEL`]).
    model: Option<(Core, FlashRanges)>,
    /// The function the SHA-256 engine replaces in the model (`offload=`).
    offload: Option<Offload>,
    /// QEMU image addresses to board image addresses (`map=FILE`); the model sees only
    /// board addresses, the markers, profile and offload stay in QEMU addresses.
    map: &'static AddrMap,
    /// QEMU addresses a load may reach flash through (the `flash=` ranges, which hold all
    /// the map moves; a few ranges, cheap to scan): loads elsewhere (SRAM) skip the model.
    image_flash: &'static FlashRanges,
}

/// The new-transfer XIP miss cost (cycles) the model uses unless `xip_miss=` is given: the
/// one calibrated parameter, fixed from the published Cortex-M33 stock-winterfell TLSF run
/// with the model seeing that run's board layout (`map=`, `mcu-run --layout-elf`: symbols,
/// inlined copies from DWARF, the median over placements of the rest, read-only data; the
/// board image built with the published runs' rustc 1.94.1), and used for both cores, whose
/// XIP cache and QMI are one (`verifier-mcu/TIMING.md`, "Calibration"). The figure derived
/// from the QMI setup is `QmiTiming::bootrom_default().new_transfer` (112).
const CALIBRATED_XIP_MISS: u32 = 147;

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
        let core = match (arg_str(args, "model"), self.isa) {
            (None, _) => return Ok(()),
            (Some("m33"), Isa::Thumb) => Core::M33,
            (Some("hazard3"), Isa::RiscV) => Core::Hazard3,
            _ => return Err(fail("model=m33 needs isa=arm, model=hazard3 isa=riscv")),
        };
        // `flash=` may repeat, so read the raw arguments.
        let mut flash = FlashRanges::default();
        for a in &args.raw {
            if let Some(v) = a.strip_prefix("flash=") {
                flash
                    .0
                    .push(parse_range(v).ok_or_else(|| fail("flash=0xLO-0xHI"))?);
            }
        }
        let image_flash = flash.clone();
        if let Some(path) = arg_str(args, "map") {
            let text =
                std::fs::read_to_string(path).map_err(|_| fail("map: cannot read the file"))?;
            let map = AddrMap::parse(&text).map_err(|e| fail(&e))?;
            flash.0.extend(map.targets());
            self.map = Box::leak(Box::new(map));
        }
        self.image_flash = Box::leak(Box::new(image_flash));
        let mut timing = QmiTiming::bootrom_default();
        match args.parsed.get("xip_miss") {
            None => timing.new_transfer = CALIBRATED_XIP_MISS,
            Some(Value::Integer(n)) if (1..=100_000).contains(n) => timing.new_transfer = *n as u32,
            Some(_) => return Err(fail("xip_miss=CYCLES (1..100000)")),
        }
        let replacement = match arg_str(args, "xip_replacement") {
            None | Some("random") => Replacement::Random,
            Some("lru") => Replacement::Lru,
            Some(_) => return Err(fail("xip_replacement=random|lru")),
        };
        if let Some(v) = arg_str(args, "offload") {
            let o = parse_offload(v).ok_or_else(|| fail("offload=0xLO-0xHI:CYCLES"))?;
            OFFLOAD_CYCLES.store(o.cycles as u64, Ordering::Relaxed);
            self.offload = Some(o);
        }
        let xip = Xip::new(timing, replacement);
        *MODEL.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(Model::new(core, flash.clone(), xip));
        self.model = Some((core, flash));
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
        let profiling = block_counter.is_some();
        let mut timed = Vec::new();
        let mut image_span: Option<(u32, u32)> = None;
        for insn in tb.instructions() {
            let data = insn.data();
            if let Some(o) = self.offload.filter(|o| o.contains(insn.vaddr() as u32)) {
                // The engine does this work: count entries, not instructions.
                if insn.vaddr() as u32 == o.lo {
                    qemu_plugin::qemu_plugin_register_vcpu_insn_exec_inline(
                        insn,
                        PluginOp::QEMU_PLUGIN_INLINE_ADD_U64,
                        OFFLOAD_CALLS.as_ptr().cast(),
                        1,
                    );
                }
                continue;
            }
            if let Some((core, flash)) = &self.model {
                let vaddr = self.map.board(insn.vaddr() as u32);
                let t = match core {
                    Core::M33 => m33::decode(vaddr, &data),
                    Core::Hazard3 => hazard3::decode(vaddr, &data),
                };
                // Only loads that may reach flash need their address at run time.
                if t.dyn_load && !flash.is_empty() {
                    let (map, image_flash) = (self.map, self.image_flash);
                    insn.register_memory_access_callback_flags(
                        move |_, info, vaddr| {
                            if !info.is_store() && image_flash.contains(vaddr as u32) {
                                let board = map.board(vaddr as u32);
                                if profiling {
                                    let at = CURRENT_BLOCK.load(Ordering::Relaxed);
                                    charging(at, |m| m.load(board));
                                } else {
                                    with_model(|m| m.load(board))
                                }
                            }
                        },
                        // Registered for reads only (MEM_R), the callback never ran under
                        // QEMU 7.2 (model_version 5 and before: no flash data load reached
                        // the cache); registered for both, it runs for these loads.
                        MemRW::QEMU_PLUGIN_MEM_RW,
                        CallbackFlags::QEMU_PLUGIN_CB_NO_REGS,
                    );
                }
                // Fall-through is decided on the image QEMU runs: the board map may move
                // neighbouring lines apart (a function spread over an inlined copy).
                image_span = Some((
                    image_span.map_or(insn.vaddr() as u32, |s| s.0),
                    insn.vaddr() as u32 + u32::from(t.size),
                ));
                timed.push(t);
            }
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
        if let (Some((core, flash)), false) = (&self.model, timed.is_empty()) {
            // Registered after the instructions' callbacks; QEMU runs block callbacks first.
            let mut block = build_block(*core, &timed, flash);
            if let Some((start, end)) = image_span {
                (block.start, block.end) = (start, end);
            }
            let block: &'static _ = Box::leak(Box::new(block));
            if profiling {
                let at = tb.vaddr();
                tb.register_execute_callback(move |_| {
                    CURRENT_BLOCK.store(at, Ordering::Relaxed);
                    charging(at, |m| m.enter(block))
                });
            } else {
                tb.register_execute_callback(move |_| with_model(|m| m.enter(block)));
            }
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
    model: None,
    offload: None,
    map: &EMPTY_MAP,
    image_flash: &NO_FLASH,
});

static EMPTY_MAP: AddrMap = AddrMap::EMPTY;
static NO_FLASH: FlashRanges = FlashRanges(Vec::new());
