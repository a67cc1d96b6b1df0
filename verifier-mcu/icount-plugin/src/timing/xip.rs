//! The RP2350 XIP cache in front of the QSPI flash, and what a miss costs on the QSPI bus.
//!
//! Geometry (RP2350 datasheet, section 4.4.1 "XIP cache" and 4.4.1.1 "Cache maintenance"):
//! 16 kB, two-way set-associative, 1-cycle hit, 8-byte lines (2048 lines: bit 13 of a
//! set/way address picks the way, bits 12:3 the set). Replacement: "Cache eviction policy is
//! random" (section 4.4.1.3); the model draws the victim way from a fixed-seed xorshift so
//! the counts are identical run to run, and fills an invalid way first. LRU is available for
//! comparison. One cache serves both cores (and instruction fetch and data loads alike).
//!
//! A miss is one QMI read transfer, timed from the QMI registers as the bootrom leaves them
//! (see [`QmiTiming::bootrom_default`] and TIMING.md for the derivation). A miss on the line
//! right after the previous transfer's last line, while the chip select is still asserted
//! (COOLDOWN) and not across a PAGEBREAK boundary, appends data clocks to the ongoing transfer
//! instead of starting a new one (datasheet section 12.14, M0_TIMING.COOLDOWN).

/// Bytes per cache line.
pub const LINE_BYTES: u32 = 8;
/// Sets: 16 kB / 8-byte lines / 2 ways.
pub const SETS: usize = 1024;
const INVALID: u32 = u32::MAX;

/// How a victim way is chosen on a miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// The datasheet's policy (pseudo-random, fixed seed).
    Random,
    /// Least recently used (for comparison).
    Lru,
}

/// QMI read timing in system clock cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QmiTiming {
    /// A miss that starts a new transfer (command, address, mode, dummy, one line of data).
    pub new_transfer: u32,
    /// A miss that appends one line to the ongoing transfer (data clocks only).
    pub append: u32,
    /// Extra cycles when a new transfer must first end the ongoing one (chip select still
    /// asserted): hold, deselect, MIN_DESELECT.
    pub deselect: u32,
    /// How long the chip select stays asserted after a transfer (COOLDOWN).
    pub cooldown: u32,
    /// Transfers never continue across this byte boundary (PAGEBREAK).
    pub pagebreak: u32,
}

impl QmiTiming {
    /// The RP2350 bootrom's XIP setup read back on a Pico 2 (M0_TIMING 0x60007203,
    /// M0_RFMT 0x000492a8, M0_RCMD 0x00eb), at any system clock (CLKDIV is in system clocks):
    /// CLKDIV 3, RXDELAY 2 half cycles, MIN_DESELECT 7, COOLDOWN 1 (64 cycles), PAGEBREAK
    /// 1024; EBh command on one line (8 SCK), 24-bit address on four (6), 8-bit mode suffix on
    /// four (2), 16 dummy bits on four (4), 64 data bits on four (16).
    pub fn bootrom_default() -> Self {
        let clkdiv = 3;
        let half_sck = 2; // CLKDIV / 2 rounded up
        let sck = 8 + 6 + 2 + 4 + 16;
        QmiTiming {
            // chip-select setup (half SCK) + the serial transfer + RXDELAY (1 cycle) + one
            // cycle for the cache to forward the data (an estimate; not documented).
            new_transfer: half_sck + sck * clkdiv + 1 + 1,
            append: 16 * clkdiv,
            // SELECT_HOLD default 1 cycle + half an SCK deselected + MIN_DESELECT 7.
            deselect: 1 + half_sck + 7,
            cooldown: 64 + half_sck,
            pagebreak: 1024,
        }
    }
}

/// The cache with its QMI, and counts of what it did.
pub struct Xip {
    tags: Vec<[u32; 2]>,
    /// Per set: the way to evict next under LRU.
    lru: Vec<u8>,
    rng: u32,
    pub replacement: Replacement,
    pub timing: QmiTiming,
    last_line: u32,
    last_end: Option<u64>,
    pub accesses: u64,
    pub misses: u64,
    pub miss_cycles: u64,
}

impl Xip {
    pub fn new(timing: QmiTiming, replacement: Replacement) -> Self {
        Xip {
            tags: vec![[INVALID; 2]; SETS],
            lru: vec![0; SETS],
            rng: 0x2545_f491,
            replacement,
            timing,
            last_line: INVALID,
            last_end: None,
            accesses: 0,
            misses: 0,
            miss_cycles: 0,
        }
    }

    /// Looks up the line holding byte address `addr` at time `now` (system cycles); returns
    /// the cycles the access stalls the core (0 on a hit).
    pub fn access(&mut self, addr: u32, now: u64) -> u32 {
        let line = addr / LINE_BYTES;
        let set = line as usize % SETS;
        self.accesses += 1;
        let ways = &mut self.tags[set];
        if let Some(way) = ways.iter().position(|&t| t == line) {
            self.lru[set] = 1 - way as u8;
            return 0;
        }
        let victim = if let Some(w) = ways.iter().position(|&t| t == INVALID) {
            w
        } else {
            match self.replacement {
                Replacement::Lru => self.lru[set] as usize,
                Replacement::Random => {
                    // xorshift32: deterministic, so counts repeat run to run.
                    self.rng ^= self.rng << 13;
                    self.rng ^= self.rng >> 17;
                    self.rng ^= self.rng << 5;
                    (self.rng & 1) as usize
                }
            }
        };
        ways[victim] = line;
        self.lru[set] = 1 - victim as u8;
        let t = self.timing;
        let selected = self
            .last_end
            .is_some_and(|end| now <= end + t.cooldown as u64);
        let sequential = self.last_line != INVALID
            && line == self.last_line.wrapping_add(1)
            && !(line * LINE_BYTES).is_multiple_of(t.pagebreak);
        let cost = match (selected, sequential) {
            (true, true) => t.append,
            (true, false) => t.deselect + t.new_transfer,
            (false, _) => t.new_transfer,
        };
        self.last_line = line;
        self.last_end = Some(now + cost as u64);
        self.misses += 1;
        self.miss_cycles += cost as u64;
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lru() -> Xip {
        Xip::new(QmiTiming::bootrom_default(), Replacement::Lru)
    }

    #[test]
    fn bootrom_timing_derivation() {
        let t = QmiTiming::bootrom_default();
        assert_eq!(t.new_transfer, 2 + 36 * 3 + 2);
        assert_eq!(t.append, 48);
        assert_eq!(t.cooldown, 66);
    }

    #[test]
    fn a_line_misses_once_then_hits() {
        let mut x = lru();
        let t = x.timing;
        assert_eq!(x.access(0x1000_0100, 0), t.new_transfer);
        assert_eq!(x.access(0x1000_0104, 1000), 0); // same 8-byte line
        assert_eq!(x.access(0x1000_0100, 2000), 0);
        assert_eq!((x.accesses, x.misses), (3, 1));
        assert_eq!(x.miss_cycles, t.new_transfer as u64);
    }

    #[test]
    fn lru_evicts_the_least_recently_used_of_two_ways() {
        let mut x = lru();
        let stride = 16 * 1024 / 2; // same set, other tag
        let (a, b, c) = (0x1000_0000, 0x1000_0000 + stride, 0x1000_0000 + 2 * stride);
        let mut now = 0;
        let mut miss = |x: &mut Xip, addr| {
            now += 1000; // far apart: no transfer is ever appended to
            x.access(addr, now) != 0
        };
        assert!(miss(&mut x, a));
        assert!(miss(&mut x, b));
        assert!(!miss(&mut x, a)); // both fit: a is now the most recent
        assert!(miss(&mut x, c)); // evicts b
        assert!(!miss(&mut x, a));
        assert!(miss(&mut x, b)); // b was evicted; evicts c
        assert!(miss(&mut x, c));
    }

    #[test]
    fn random_replacement_repeats_and_keeps_two_ways() {
        let run = || {
            let mut x = Xip::new(QmiTiming::bootrom_default(), Replacement::Random);
            let stride = 8 * 1024;
            let mut hits = Vec::new();
            for i in 0..200u32 {
                let addr = 0x1000_0000 + (i % 3) * stride;
                hits.push(x.access(addr, i as u64 * 1000) == 0);
            }
            (hits, x.misses)
        };
        let (first, misses) = run();
        assert_eq!(run(), (first.clone(), misses)); // deterministic
                                                    // three lines in one two-way set: some hits, some misses
        assert!(misses > 3 && misses < 200, "{misses}");
    }

    #[test]
    fn sequential_misses_append_to_the_open_transfer() {
        let mut x = lru();
        let t = x.timing;
        let c0 = x.access(0x1000_0008, 0);
        assert_eq!(c0, t.new_transfer);
        // next line, while the chip select is still asserted: data clocks only
        assert_eq!(x.access(0x1000_0010, c0 as u64 + 5), t.append);
        // a non-sequential line right after: end the transfer, start a new one
        let now = (c0 + t.append) as u64 + 5;
        assert_eq!(x.access(0x1000_4000, now), t.deselect + t.new_transfer);
        // the next line, long after the cooldown: a new transfer
        assert_eq!(x.access(0x1000_4008, now + 10_000), t.new_transfer);
        // sequential but across a 1024-byte PAGEBREAK boundary: a new transfer
        let c = x.access(0x1000_03f8, 30_000);
        assert_eq!(c, t.new_transfer);
        assert_eq!(
            x.access(0x1000_0400, 30_000 + c as u64),
            t.deselect + t.new_transfer
        );
    }
}
