//! Code placement on the image a user flashes (issue 26): our rp2350 board images run as
//! they are by `mcu-run board`, one row per backend, image, core and placement, with the
//! QEMU image's figures beside each backend's `xip` row (the two layouts' difference, once)
//! and the targets checked per row.

use crate::doc::{grouped, ms, pct, signed_pct, Section, Table};
use crate::sections::answer::CORES;
use crate::table::{Row, BLAKE3, XIP};

/// The backends in the order the section lists them.
const BACKENDS: [&str; 5] = [
    "wf-goldilocks",
    "wf-babybear",
    "p3-babybear",
    "p3-goldilocks",
    "p3-m31",
];

/// The placements a board record names, flash first (`verifier-mcu/README.md`, "Code
/// placement"; `+proof-sram`: the embedded proof copied to SRAM at reset).
const PLACEMENTS: [&str; 6] = [
    "xip",
    "xip-ordered",
    "xip+proof-sram",
    "hot-sram",
    "hot-sram+proof-sram",
    "all-sram",
];

/// Issue 26's bounds: code in SRAM at most 32 KiB; XIP miss cycles below 15 % of the
/// estimate; one-backend rows at least 35 % and the five-backend image 30 % faster than `xip`.
const SRAM_CODE_MAX: u64 = 32 * 1024;
const MISS_SHARE_MAX: f64 = 0.15;

const INTRO: &str = "Estimates of the image a user flashes: the rp2350 firmware (`verifier-mcu/firmware`, feature `rp2350`) with a Fibonacci n = 2^10 proof embedded (BLAKE3, default parameters), run as it is, at its own addresses, by `mcu-run board` (QEMU 7.2 instruction counts and the RP2350 timing model, `verifier-mcu/TIMING.md`; ms at 150 MHz; the median-cycles window of three verifications); release build (opt-level s, fat LTO), TLSF heap; the same image with one proof byte flipped was rejected. *One backend per image* is what a user of that backend flashes, *five backends* the image that verifies them all. Placements: `xip` code in flash through the 16 KB XIP cache; `xip-ordered` the hot set first in flash; `hot-sram` the hot set (`verifier-mcu/firmware/link/hot-set*.txt`, made by `mcu-run hot-set` from profiles) copied to SRAM at reset; `all-sram` all code in SRAM; `+proof-sram` the proof in SRAM as a device that received it holds it. The QEMU image (the `mps2-an505` / `virt` build the rest of the report measures) is set beside each backend's `xip` row: the two layouts' difference, shown once. Commands, hot-set derivation and earlier records: `results/placement/README.md`.";

/// A count the board record's profile states (`flash-code-bytes=282452`).
fn stated(r: &Row, key: &str) -> Option<u64> {
    let words = r.profile.split_whitespace();
    let mut values = words.filter_map(|w| w.strip_prefix(key)?.strip_prefix('='));
    values.next()?.parse().ok()
}

/// The estimate's XIP miss cycles over its cycles.
fn miss_share(r: &Row) -> Option<f64> {
    let e = r.estimate.as_ref()?;
    (e.cycles > 0).then(|| e.xip_miss_cycles as f64 / e.cycles as f64)
}

fn change(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a? / b.filter(|b| *b > 0.0)? - 1.0)
}

/// A board row of the default BLAKE3 Fibonacci proof (any parameters: those the backend's
/// default gave when the record was made).
fn board(r: &Row) -> bool {
    let ok = r.source == "emulator" && r.board == "qemu-board-image" && r.image.is_some();
    ok && r.air == "fib" && r.n == 1024 && r.hash == BLAKE3 && r.accepted()
}

/// The QEMU image's row of `b`'s configuration: same backend, core, parameters, code in
/// flash; the five-backend image measured for this comparison (`image` `all-backend`, the
/// board images' code: `results/placement/README.md`) when there is one, else the first
/// without an image name (the main job's).
fn qemu<'a>(rows: &'a [Row], b: &Row) -> Option<&'a Row> {
    let same = |r: &&Row| r.backend == b.backend && r.core == b.core && r.params == b.params;
    let ok = |r: &&Row| r.source == "emulator" && r.board != "qemu-board-image" && same(r);
    let ok = |r: &&Row| ok(r) && r.air == "fib" && r.n == b.n && r.hash == BLAKE3;
    let ok = |r: &&Row| ok(r) && r.rec.placement.as_deref().unwrap_or(XIP) == XIP;
    let ok = |r: &&Row| ok(r) && r.accepted() && r.default_policy();
    let beside = |r: &&Row| ok(r) && r.image.as_deref() == Some("all-backend");
    let main = |r: &&Row| ok(r) && r.image.is_none();
    rows.iter().find(beside).or_else(|| rows.iter().find(main))
}

/// Whether `r` meets the targets against `xip` (`faster`: the fraction required).
fn targets(r: &Row, xip: Option<&Row>, faster: f64, with_miss: bool) -> String {
    let sram = stated(r, "sram-code-bytes").unwrap_or(0);
    let gain = change(r.est_ms(), xip.and_then(Row::est_ms));
    let fast = gain.map(|g| g <= -faster);
    let miss = miss_share(r).map(|m| m < MISS_SHARE_MAX);
    let mut out = Vec::new();
    if with_miss {
        let ok = miss.map(|m| m && sram <= SRAM_CODE_MAX);
        out.push(format!("miss < 15 %: {}", yes(ok)));
    }
    out.push(format!("≥ {:.0} % faster: {}", faster * 100.0, yes(fast)));
    out.join("; ")
}

fn yes(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "met",
        Some(false) => "not met",
        None => "–",
    }
}

pub fn section(rows: &[Row]) -> Section {
    let title = "Code placement on the image a user flashes";
    let mut s = Section::new("placement", title, INTRO);
    let images = [
        ("one-backend", "one backend per image", 0.35, true),
        ("all-backend", "five backends in one image", 0.30, false),
    ];
    let head = "backend | placement | instructions | est. ms | XIP miss share | vs xip | QEMU image: instructions | QEMU image: est. ms | board xip vs QEMU image | flash code+ro B | SRAM code B | SRAM proof B | targets (issue 26) | commit";
    for (image, what, faster, with_miss) in images {
        for (core, name) in CORES {
            let here = |r: &&Row| board(r) && r.image.as_deref() == Some(image) && r.core == core;
            let here: Vec<&Row> = rows.iter().filter(here).collect();
            let mut t = Table::new(&format!("{name}, {what}"), head);
            for b in BACKENDS {
                let placed =
                    |r: &Row, p: &str| r.backend == b && r.rec.placement.as_deref() == Some(p);
                let xip = here.iter().find(|r| placed(r, XIP)).copied();
                // Every placement of the xip row's proof: rows at other parameters
                // (`results/placement/tuned/`) answer another question (the report's answers).
                let of = |p: &str| {
                    let same = |r: &Row| xip.is_none_or(|x| x.params == r.params);
                    here.iter().find(|r| placed(r, p) && same(r)).copied()
                };
                for p in PLACEMENTS {
                    let Some(r) = of(p) else { continue };
                    let q = (p == XIP).then(|| qemu(rows, r)).flatten();
                    let vs_xip = (p != XIP).then(|| change(r.est_ms(), xip.and_then(Row::est_ms)));
                    let vs_qemu = q.and_then(|q| change(r.est_ms(), q.est_ms()));
                    let bytes = |k| stated(r, k).map_or("–".into(), grouped);
                    let goal = (p != XIP).then(|| targets(r, xip, faster, with_miss));
                    t.row(&format!(
                        "{b} | {p} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}",
                        r.instructions.map_or("–".into(), grouped),
                        r.est_ms().map_or("–".into(), ms),
                        miss_share(r).map_or("–".into(), pct),
                        vs_xip.flatten().map_or("–".into(), signed_pct),
                        q.and_then(|q| q.instructions).map_or("–".into(), grouped),
                        q.and_then(Row::est_ms).map_or("–".into(), ms),
                        vs_qemu.map_or("–".into(), signed_pct),
                        bytes("flash-code-bytes"),
                        bytes("sram-code-bytes"),
                        bytes("sram-proof-bytes"),
                        goal.unwrap_or_else(|| "–".into()),
                        r.git_commit.get(..7).unwrap_or("–"),
                    ));
                }
            }
            if !t.rows.is_empty() {
                s.tables.push(t);
            }
        }
    }
    if !s.tables.is_empty() {
        s.notes.push("`vs xip`: estimated ms against the same image's `xip` row; a row of another commit (last column) also runs other code. `XIP miss share`: the estimate's XIP-miss cycles over its cycles. `flash code+ro B`: code and read-only data the image runs from flash (vector table and embedded proof included); `SRAM code B`: code and read-only data copied to SRAM at reset; `SRAM proof B`: the proof copied there. Targets: XIP miss share below 15 % with at most 32 KiB of code in SRAM and at least 35 % faster than `xip` (one backend per image), at least 30 % faster (five backends).".into());
    }
    s
}

#[cfg(test)]
mod tests {
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate};

    #[test]
    fn board_rows_pair_with_their_xip_row_and_the_qemu_image() {
        let board = |placement: &str, cycles: u64, miss: u64, sram: u64| {
            let mut e = with_estimate(emu("wf-goldilocks", 2, 1024, "m33", cycles / 2), cycles);
            e.record.board = "qemu-board-image".into();
            e.record.image = Some("one-backend".into());
            e.record.placement = Some(placement.into());
            e.record.estimate.as_mut().unwrap().xip_miss_cycles = miss;
            e.record.profile = format!("flash-code-bytes=1000 sram-code-bytes={sram}");
            e
        };
        // Two QEMU-image rows: the one measured for this comparison is preferred.
        let mut beside = with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 1_000_000), 3_000_000);
        beside.record.image = Some("all-backend".into());
        let rows = build_rows(&[
            with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 900_000), 2_500_000),
            beside,
            board(super::XIP, 2_000_000, 800_000, 0),
            board("hot-sram", 1_200_000, 120_000, 30_000),
            board("hot-sram+proof-sram", 1_400_000, 100_000, 40_000),
        ]);
        let s = super::section(&rows);
        assert_eq!(s.tables.len(), 1, "one image kind, one core");
        let t = &s.tables[0].rows;
        let cell = |r: usize, c: &str| {
            let i = s.tables[0]
                .head
                .iter()
                .position(|h| h.starts_with(c))
                .unwrap();
            t[r][i].clone()
        };
        assert_eq!(t.len(), 3);
        // The QEMU image beside xip only: 2.0 M board cycles against 3.0 M.
        assert_eq!(cell(0, "board xip vs QEMU"), "-33.3%");
        assert_eq!(cell(1, "board xip vs QEMU"), "–");
        assert_eq!(cell(0, "XIP miss share"), "40.0%");
        // hot-sram: -40 % and 10 % misses in 30 000 B of SRAM code, both targets met.
        assert_eq!(cell(1, "vs xip"), "-40.0%");
        assert_eq!(cell(1, "targets"), "miss < 15 %: met; ≥ 35 % faster: met");
        // +proof-sram: -30 % (not 35), and 40 000 B of code is over the 32 KiB bound.
        assert_eq!(
            cell(2, "targets"),
            "miss < 15 %: not met; ≥ 35 % faster: not met"
        );
        assert_eq!(cell(2, "SRAM code B"), "40\u{202f}000");
    }
}
