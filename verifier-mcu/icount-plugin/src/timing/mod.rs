//! The RP2350 cycle model: estimated cycles for the executed instruction stream of one core
//! (Cortex-M33 or Hazard3), with code and read-only data behind the XIP cache.
//!
//! Pure Rust, no QEMU: the plugin hands it translation blocks and load addresses. What is
//! fixed for a block (issue cycles, stalls between its own instructions, the flash lines its
//! code occupies) is computed once by [`build_block`]; [`Model::enter`] does the dynamic
//! part each time a block runs (was the previous block's branch taken, the Hazard3 branch
//! predictor, a load-use stall across the block boundary, the XIP cache). QEMU ends a
//! translation block at every control transfer, so a block's last instruction is its only
//! branch, and the address of the next block executed says whether it was taken.
//!
//! Cycles = instructions + `stall` + XIP miss cycles. `stall` is net: multi-cycle issue
//! (LDM n, LDRD, divides, taken branches, ...) and pipeline stalls add to it; the M33's
//! instruction pairing (IT, not-taken 16-bit branches) subtracts. Parameters and sources:
//! `verifier-mcu/TIMING.md`.

pub mod hazard3;
pub mod m33;
pub mod xip;

use std::sync::atomic::{AtomicU64, Ordering};

use xip::{Replacement, Xip};

/// Which core's rules to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core {
    M33,
    Hazard3,
}

impl Core {
    /// The `model=` name in the plugin's output.
    pub fn name(self) -> &'static str {
        match self {
            Core::M33 => "rp2350-m33",
            Core::Hazard3 => "rp2350-hazard3",
        }
    }
}

/// Bumped whenever a rule or a parameter changes what the model estimates (2: the calibrated
/// XIP miss cost, `qemu.rs` `CALIBRATED_XIP_MISS`; 3: Hazard3 fetches the line past a taken
/// jump or unpredicted branch, [`hazard3::wrong_path_line`]; 4: the board layout map
/// [`AddrMap`] and the miss cost recalibrated with it, 151; 5: taken branches told from the
/// image QEMU runs, not the mapped addresses, for maps that spread a function over an
/// inlined copy in the board image, and the miss cost recalibrated with those maps, 171;
/// 6: loads from flash whose address only the run knows reach the cache, which the
/// plugin's read-only memory callback never did under QEMU 7.2; 7: the miss cost
/// recalibrated on the board layout of the published runs' toolchain, rustc 1.94.1, 147).
pub const MODEL_VERSION: u32 = 7;

/// What an instruction does to control flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Plain,
    /// M33 IT: pairs with a preceding 16-bit instruction.
    It,
    /// Conditional direct branch (B<c>, CBZ/CBNZ, BEQ ...).
    CondBranch {
        target: u32,
    },
    /// Always transfers control: B, BL, BX, JAL, JALR, ...
    Jump,
    /// M33: a load that writes the PC (POP/LDM with PC, LDR PC, TBB/TBH).
    PcLoad,
}

/// What the model needs to know about one instruction, decided from its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insn {
    pub addr: u32,
    /// 2 or 4 bytes.
    pub size: u8,
    /// Issue cycles, not counting branch costs, pairing or stalls.
    pub issue: u32,
    /// Registers read early (operands, addresses), one bit per register.
    pub reads: u32,
    /// Registers written.
    pub writes: u32,
    /// The result is available one cycle late (loads, M33 multiply-accumulates and shifted
    /// operands): the next instruction stalls one cycle if it reads `writes` early.
    pub late: bool,
    /// M33: sets the condition flags (a taken 16-bit branch cannot pair after it).
    pub sets_flags: bool,
    pub kind: Kind,
    /// A load from an address known at translation time (M33 literal pool).
    pub literal: Option<u32>,
    /// A load whose address only the run knows and that may hit flash (not SP-relative).
    pub dyn_load: bool,
}

impl Insn {
    /// A one-cycle instruction that touches no register the model tracks.
    pub fn plain(addr: u32, size: u8) -> Self {
        Insn {
            addr,
            size,
            issue: 1,
            reads: 0,
            writes: 0,
            late: false,
            sets_flags: false,
            kind: Kind::Plain,
            literal: None,
            dyn_load: false,
        }
    }
}

/// How a block's last instruction may add cycles once the next block is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Nothing dynamic (no branch, or its cost is fixed and already in `extra`).
    Static,
    /// M33 conditional branch: these extra cycles if taken.
    M33Cond { taken_extra: i32 },
    /// Hazard3 conditional branch at `addr`.
    Hazard3Cond { addr: u32, backward: bool },
    /// Hazard3 jump: +1 if its target is a misaligned 32-bit instruction.
    Hazard3Jump,
}

/// What is fixed about one translation block.
#[derive(Debug)]
pub struct Block {
    /// Where the block starts and falls through to in the image QEMU runs (not the board
    /// address the map gives: a taken branch is a next block that does not start at `end`).
    pub start: u32,
    pub end: u32,
    pub insns: u32,
    /// Cycles beyond one per instruction on the fall-through path (may be negative).
    pub extra: i32,
    pub exit: Exit,
    /// Registers the last instruction writes late (0 if it transfers control).
    pub late_writes: u32,
    /// Registers the first instruction reads early.
    pub first_reads: u32,
    /// Hazard3: the first instruction is 32-bit and not 4-byte aligned.
    pub first_misaligned32: bool,
    /// Flash lines (addresses) the block reads through the XIP cache: its code, then its
    /// literal loads.
    pub xip_reads: Vec<u32>,
    /// Hazard3: the flash line after the one holding the block's final jump or branch, which
    /// the prefetch queue has already requested when that jump, or a branch taken without
    /// prediction, redirects fetch (see [`hazard3::wrong_path_line`]).
    pub wrong_path: Option<WrongPath>,
    /// The cache's miss count after the block last ran with every line a hit, or
    /// `u64::MAX`: while it is unchanged, its lines are all still in the cache.
    resident_at: AtomicU64,
}

/// A line fetched past a block's final jump or branch (Hazard3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongPath {
    pub line: u32,
    /// Also requested when the block itself began at a redirect (the queue refills one word
    /// per cycle from the target, so a short block may reach its branch before the fetch
    /// reaches this line); always requested when the block was entered sequentially.
    pub after_redirect: bool,
}

/// Byte ranges `[lo, hi)` that are flash behind the XIP cache.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlashRanges(pub Vec<(u32, u32)>);

impl FlashRanges {
    pub fn contains(&self, addr: u32) -> bool {
        self.0.iter().any(|&(lo, hi)| addr >= lo && addr < hi)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Where the QEMU image's code and read-only data sit in the board image (`map=FILE`): the
/// XIP cache's sets and the QSPI transfers depend on the address, and the QEMU image is
/// linked differently from the board image it stands for. Each range `[qlo, qhi)` of the
/// QEMU image moves to `blo..`; addresses in no range stay where they are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddrMap(Vec<(u32, u32, u32)>);

impl AddrMap {
    /// No ranges: every address stays.
    pub const EMPTY: AddrMap = AddrMap(Vec::new());

    /// Parses `QLO QHI BLO` per line (hex, `0x` optional, more fields and `#` lines ignored).
    /// Ranges must not overlap.
    pub fn parse(text: &str) -> Result<Self, String> {
        let hex = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok();
        let mut v = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.is_empty() || f[0].starts_with('#') {
                continue;
            }
            match (
                f.first().and_then(|s| hex(s)),
                f.get(1).and_then(|s| hex(s)),
                f.get(2).and_then(|s| hex(s)),
            ) {
                (Some(lo), Some(hi), Some(b)) if lo < hi && b.checked_add(hi - lo).is_some() => {
                    v.push((lo, hi, b))
                }
                _ => return Err(format!("map line {}: QLO QHI BLO (hex)", n + 1)),
            }
        }
        v.sort_unstable();
        if v.windows(2).any(|w| w[0].1 > w[1].0) {
            return Err("map: overlapping ranges".into());
        }
        Ok(AddrMap(v))
    }

    /// The board address of QEMU address `a`.
    pub fn board(&self, a: u32) -> u32 {
        let i = self.0.partition_point(|&(lo, _, _)| lo <= a);
        match i.checked_sub(1).map(|i| self.0[i]) {
            Some((lo, hi, b)) if a < hi => b + (a - lo),
            _ => a,
        }
    }

    /// The board ranges the map moves code and data to (flash on the board).
    pub fn targets(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.0.iter().map(|&(lo, hi, b)| (b, b + (hi - lo)))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Builds the static part of a block from its decoded instructions.
pub fn build_block(core: Core, insns: &[Insn], flash: &FlashRanges) -> Block {
    let (extra, exit) = match core {
        Core::M33 => m33::block_costs(insns),
        Core::Hazard3 => hazard3::block_costs(insns),
    };
    let mut xip_reads: Vec<u32> = Vec::new();
    let mut push = |addr: u32| {
        let line = addr & !(xip::LINE_BYTES - 1);
        if flash.contains(addr) && xip_reads.last() != Some(&line) {
            xip_reads.push(line);
        }
    };
    // Fetch runs ahead of execution, so the code lines come first.
    for i in insns {
        push(i.addr);
        push(i.addr + i.size as u32 - 1);
    }
    for a in insns.iter().filter_map(|i| i.literal) {
        push(a);
    }
    let first = insns.first();
    let last = insns.last();
    let wrong_path = match (core, exit) {
        (Core::Hazard3, Exit::Hazard3Cond { .. } | Exit::Hazard3Jump) => {
            let cycles = (insns.len() as i32 + extra).max(0) as u32;
            hazard3::wrong_path_line(insns, cycles).filter(|w| flash.contains(w.line))
        }
        _ => None,
    };
    Block {
        start: first.map_or(0, |i| i.addr),
        end: last.map_or(0, |i| i.addr + i.size as u32),
        insns: insns.len() as u32,
        extra,
        exit,
        late_writes: last
            .filter(|i| i.late && i.kind == Kind::Plain)
            .map_or(0, |i| i.writes),
        first_reads: first.map_or(0, |i| i.reads),
        first_misaligned32: first.is_some_and(|i| i.size == 4 && i.addr % 4 != 0),
        xip_reads,
        wrong_path,
        resident_at: AtomicU64::new(u64::MAX),
    }
}

/// The dynamic state of one core and the XIP cache, with running totals.
pub struct Model {
    pub core: Core,
    pub flash: FlashRanges,
    pub xip: Xip,
    /// Net extra cycles (see the module doc).
    pub stall: i64,
    /// Instructions in the blocks entered (the model's clock, with `stall` and the misses).
    pub insns: u64,
    prev: Option<&'static Block>,
    /// Hazard3: address of the last taken backward branch.
    predictor: Option<u32>,
    /// The block being entered starts at a redirect (the previous block's jump or branch
    /// was taken), not sequentially after the previous one.
    redirected: bool,
    /// Skip the lookups of a block whose lines are known resident. Exact only when hits
    /// change nothing in the cache, i.e. with random replacement.
    fast_hits: bool,
}

impl Model {
    pub fn new(core: Core, flash: FlashRanges, xip: Xip) -> Self {
        Model {
            fast_hits: xip.replacement == Replacement::Random,
            core,
            flash,
            xip,
            stall: 0,
            insns: 0,
            prev: None,
            predictor: None,
            redirected: true,
        }
    }

    fn now(&self) -> u64 {
        (self.insns as i64 + self.stall) as u64 + self.xip.miss_cycles
    }

    /// The block `b` starts executing.
    pub fn enter(&mut self, b: &'static Block) {
        let mut redirected = true;
        if let Some(p) = self.prev {
            let taken = b.start != p.end;
            redirected = taken;
            // Hazard3: the prefetch queue ran ahead of a jump, or of a branch taken without
            // prediction, before the redirect; that fetch completes first (AHB cannot
            // abandon it) and may miss.
            let fetched_past = match p.exit {
                Exit::Hazard3Jump => true,
                Exit::Hazard3Cond { addr, .. } => taken && self.predictor != Some(addr),
                _ => false,
            };
            if let Some(w) = p
                .wrong_path
                .filter(|w| fetched_past && (w.after_redirect || !self.redirected))
            {
                let now = self.now();
                self.xip.access(w.line, now);
            }
            match p.exit {
                Exit::Static => {
                    if !taken && p.late_writes & b.first_reads != 0 {
                        self.stall += 1;
                    }
                }
                Exit::M33Cond { taken_extra } => {
                    if taken {
                        self.stall += taken_extra as i64;
                    }
                }
                Exit::Hazard3Cond { addr, backward } => {
                    let predicted = self.predictor == Some(addr);
                    if taken {
                        if !predicted {
                            self.stall += 1;
                        }
                        if backward {
                            self.predictor = Some(addr);
                        }
                        if b.first_misaligned32 {
                            self.stall += 1;
                        }
                    } else if predicted {
                        self.stall += 1;
                        self.predictor = None;
                    }
                }
                Exit::Hazard3Jump => {
                    if b.first_misaligned32 {
                        self.stall += 1;
                    }
                }
            }
        }
        self.insns += b.insns as u64;
        self.stall += b.extra as i64;
        let misses = self.xip.misses;
        if self.fast_hits && b.resident_at.load(Ordering::Relaxed) == misses {
            // No miss anywhere since all these lines hit: they still hit.
            self.xip.accesses += b.xip_reads.len() as u64;
        } else {
            for &addr in &b.xip_reads {
                let now = self.now();
                self.xip.access(addr, now);
            }
            let all_hit = self.xip.misses == misses;
            let mark = if all_hit { misses } else { u64::MAX };
            b.resident_at.store(mark, Ordering::Relaxed);
        }
        self.prev = Some(b);
        self.redirected = redirected;
    }

    /// A load from `addr` whose address was not known at translation time.
    pub fn load(&mut self, addr: u32) {
        if self.flash.contains(addr) {
            let now = self.now();
            self.xip.access(addr, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::xip::QmiTiming;
    use super::*;

    /// Blocks of four 32-bit instructions spread over flash so that sets conflict; every
    /// other one ends in a jump, so that it also fetches the line past it.
    fn blocks() -> Vec<&'static Block> {
        let flash = FlashRanges(vec![(0x1000_0000, 0x1100_0000)]);
        (0..40u32)
            .map(|n| {
                let base = 0x1000_0000 + (n % 7) * 0x2000 + (n / 7) * 0x40;
                let mut insns: Vec<Insn> = (0..4).map(|k| Insn::plain(base + 4 * k, 4)).collect();
                if n % 2 == 1 {
                    insns[3] = hazard3::decode(base + 12, &0x0000_006F_u32.to_le_bytes());
                }
                &*Box::leak(Box::new(build_block(Core::Hazard3, &insns, &flash)))
            })
            .collect()
    }

    fn run(fast: bool) -> (u64, u64, u64, i64) {
        let flash = FlashRanges(vec![(0x1000_0000, 0x1100_0000)]);
        let xip = Xip::new(QmiTiming::bootrom_default(), Replacement::Random);
        let mut m = Model::new(Core::Hazard3, flash, xip);
        m.fast_hits = fast;
        let bs = blocks();
        let mut x = 12345u32;
        for _ in 0..20_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            // mostly a hot loop over a few blocks, sometimes anywhere
            let i = if x >> 28 == 0 {
                (x >> 8) as usize % bs.len()
            } else {
                (x >> 8) as usize % 3
            };
            m.enter(bs[i]);
            m.load(0x1000_0000 + (x >> 4) % 0x40000);
        }
        (m.xip.accesses, m.xip.misses, m.xip.miss_cycles, m.stall)
    }

    #[test]
    fn addr_map_moves_ranges_and_leaves_the_rest() {
        let m = AddrMap::parse("# q_lo q_hi board_lo\n0x80000100 0x80000180 0x10004000 name\n80000000 80000100 10000000\n")
            .unwrap();
        assert_eq!(m.board(0x8000_0000), 0x1000_0000);
        assert_eq!(m.board(0x8000_00ff), 0x1000_00ff);
        assert_eq!(m.board(0x8000_0100), 0x1000_4000);
        assert_eq!(m.board(0x8000_017e), 0x1000_407e);
        assert_eq!(m.board(0x8000_0180), 0x8000_0180); // past every range: unchanged
        assert_eq!(m.board(0x7fff_fffe), 0x7fff_fffe);
        let t: Vec<_> = m.targets().collect();
        assert_eq!(
            t,
            vec![(0x1000_0000, 0x1000_0100), (0x1000_4000, 0x1000_4080)]
        );
        assert!(AddrMap::parse("80000000 80000100 10000000\n800000f0 80000200 10001000").is_err());
        assert!(AddrMap::parse("80000100 80000000 10000000").is_err());
        assert!(AddrMap::parse("80000000 zz 10000000").is_err());
        assert!(AddrMap::parse("").unwrap().is_empty());
    }

    #[test]
    fn skipping_resident_blocks_changes_nothing() {
        assert!(blocks().iter().any(|b| b.wrong_path.is_some()));
        let fast = run(true);
        assert_eq!(fast, run(false));
        assert!(fast.1 > 100, "{fast:?}"); // the sequence does miss
    }
}
