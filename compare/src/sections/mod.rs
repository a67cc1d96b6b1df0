//! One module per report section, each returning a [`crate::doc::Section`]; the report
//! (`report.rs`) puts them in reading order.

pub mod about;
pub mod answer;
pub mod circle;
pub mod constant_time;
pub mod cores;
pub mod field;
pub mod hash;
pub mod matrix;
pub mod placement;
pub mod proven;
pub mod scaling;
pub mod workload;

#[cfg(test)]
mod tests {
    use crate::table::build_rows;
    use crate::table::tests::{emu, with_estimate, with_security};

    #[test]
    fn sections_pick_and_pair_the_right_rows() {
        let e = |b: &str, ext, core: &str, cycles, bits| {
            let x = with_estimate(emu(b, ext, 1024, core, cycles / 2), cycles);
            with_security(x, bits, 60.0)
        };
        let mut engine = e("p3-m31", 4, "m33", 1_500_000, 96.0);
        engine.record.hash_impl = Some("sha256-engine".into());
        engine.record.placement = Some("all-sram".into());
        let p = engine.record.params.as_mut().unwrap();
        (p.log_blowup, p.num_queries) = (8, 10);
        (p.log_fold_arity, p.log_final_poly_len) = (4, 6);
        let mut proven = e("wf-goldilocks", 3, "m33", 900_000, 100.0);
        proven.record.security.as_mut().unwrap().policy_regime = "proven".into();
        proven.record.security.as_mut().unwrap().proven_list = 101.0;
        let mut member = e("wf-goldilocks", 2, "m33", 6_000_000, 96.0);
        (member.record.air, member.record.n) = ("membership".into(), 16);
        let rows = build_rows(&[
            e("p3-m31", 4, "m33", 3_000_000, 96.0),
            engine,
            e("wf-goldilocks", 2, "m33", 2_000_000, 96.0),
            e("wf-goldilocks", 2, "rv32", 2_400_000, 96.0),
            // Below the floor: faster, never ranked.
            e("p3-babybear", 4, "m33", 1_000_000, 90.0),
            proven,
            member,
        ]);
        let a = super::answer::section(&rows, 95);
        let line = |r: &Vec<String>| format!("{} | {} | {} | {}", r[0], r[1], r[2], r[6]);
        let fastest: Vec<String> = a.tables[0].rows.iter().map(line).collect();
        // Fastest on the M33 first, both cores in a row; p3-m31's engine row beats its BLAKE3
        // row; the proven-policy wf-goldilocks^3 and the below-floor p3-babybear row do not
        // compete.
        let want = [
            "plonky3 × m31^4 | 10.00 | – | all-sram",
            "winterfell × goldilocks^2 | 13.33 | 16.00 | xip",
        ];
        assert_eq!(fastest, want);
        assert_eq!(a.tables[0].rows[0][5], "2^8 / 10 / 2^4 / 2^6 / 20");
        assert!(a.tables[0].rows[0][10].contains("not run on Hazard3"));
        // Equal parameters: the BLAKE3 rows at blowup 2^6, 14 queries, 20 PoW bits.
        assert!(a.tables[1]
            .caption
            .contains("blowup 2^6, 14 queries, 20 PoW bits"));
        let equal: Vec<String> = a.tables[1].rows.iter().map(line).collect();
        let want = [
            "winterfell × goldilocks^2 | 13.33 | 16.00 | xip",
            "plonky3 × m31^4 | 20.00 | – | xip",
        ];
        assert_eq!(equal, want);
        // Per hash: BLAKE3 first, then the engine.
        let hashes: Vec<&str> = a.tables[2].rows.iter().map(|r| r[4].as_str()).collect();
        assert_eq!(hashes, ["blake3", "sha256-engine"]);
        assert_eq!(a.charts.len(), 3, "one chart per answer");
        // The membership workload: M33 only, nothing at the 128-bit point.
        let member = super::answer::fastest_membership(&rows, 95, &[])
            .unwrap()
            .rows;
        assert_eq!(member.len(), 1, "{member:?}");
        assert_eq!(member[0][2..4], ["winterfell × goldilocks^2", "40.00"]);
        // Below the floor: not charted.
        assert!(a.charts.iter().all(|c| !c.svg.contains("babybear")));
        // Hash axis: the engine row has no BLAKE3 row with its parameters and placement.
        let h = super::hash::section(&rows);
        let full = "p3-m31^4 sha256-engine all-sram [2^8 / 10 / 2^4 / 2^6 / 20]";
        assert_eq!(&h.tables[0].rows[0][..4], [full, "m33", "2^10", "–"]);
        // Proven: wf-goldilocks^3 next to the conjectured wf-goldilocks^2.
        let p = super::proven::section(&rows, 95);
        let conj = "wf-goldilocks^2 blake3 xip [2^6 / 14 / 2^3 / 2^5 / 20] (96 bits)";
        assert_eq!(p.tables[0].rows[0][9], conj);
        // Workload: membership against Fibonacci of the same configuration: 6.0 M / 2.0 M cycles.
        let w = super::workload::section(&rows, 95);
        let last = w.tables[0].rows[0].last().cloned();
        assert_eq!(w.tables[0].rows[0][11], "3.00x", "{last:?}");
    }
}
