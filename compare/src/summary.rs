//! The generated summary: who wins where, computed from the rows.
//!
//! Only rows that are accepted and reach the security floor compete. Winners are picked
//! within one source, one core and one trace length, so a device cycle count is never
//! ranked against an estimate or an emulator instruction count. The verify-cost ranking
//! that leads is the estimated time (`estimate` rows), with the instruction count beside it;
//! the instruction ranking follows. Ties keep the first row in table order.

use std::collections::BTreeMap;

use crate::human::{kib, pow2, si};
use crate::table::{Row, ESTIMATE};

/// One "best in group" finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Winner {
    /// `verify cost`, `heap peak`, `stack peak`, `proof size` or `prove time`.
    pub metric: &'static str,
    pub source: String,
    /// `m33`, `rv32`, or `any` for per-proof metrics.
    pub core: String,
    pub n: u64,
    /// `backend^ext`.
    pub config: String,
    pub value: f64,
    /// The worst competitor, when there is more than one.
    pub worst: Option<(String, f64)>,
    /// How many configurations competed.
    pub competitors: usize,
}

/// The summary: findings as text lines plus the winners behind them.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub winners: Vec<Winner>,
    pub lines: Vec<String>,
}

/// Rows that may win: accepted and at or above the floor.
pub fn eligible(r: &Row, min_security: u32) -> bool {
    r.accepted() && r.security_bits >= min_security
}

/// Whether a row's proof was verified under the default policy (records without security
/// figures predate policies other than the default) with the default hash (BLAKE3): the
/// other rows are the proven and hash-axis sections'.
fn under_default_policy(r: &Row) -> bool {
    r.hash == crate::table::BLAKE3
        && r.security
            .as_ref()
            .is_none_or(|s| s.policy_regime == picostark_core::Policy::default().regime.name())
}

/// The order sources are summarised in: estimated time leads.
fn source_order(source: &str) -> u8 {
    match source {
        ESTIMATE => 0,
        "device" => 1,
        _ => 2,
    }
}

/// The best configuration, its value, the worst one and how many competed.
type Best = (String, f64, Option<(String, f64)>, usize);

fn best_of<'a>(
    rows: impl Iterator<Item = &'a Row>,
    metric: impl Fn(&Row) -> Option<f64>,
) -> Option<Best> {
    // One value per configuration (first in table order).
    let mut per_config: Vec<(String, f64)> = Vec::new();
    for r in rows {
        if let Some(v) = metric(r) {
            let label = r.config_label();
            if !per_config.iter().any(|(l, _)| *l == label) {
                per_config.push((label, v));
            }
        }
    }
    let best = per_config
        .iter()
        .fold(None::<&(String, f64)>, |acc, x| match acc {
            Some(a) if a.1 <= x.1 => Some(a),
            _ => Some(x),
        })?
        .clone();
    let worst = per_config
        .iter()
        .fold(None::<&(String, f64)>, |acc, x| match acc {
            Some(a) if a.1 >= x.1 => Some(a),
            _ => Some(x),
        })
        .filter(|_| per_config.len() > 1)
        .cloned();
    Some((best.0, best.1, worst, per_config.len()))
}

/// A verify cost in its source's unit, for the text.
fn cost_text(source: &str, v: f64, clock: Option<u64>) -> String {
    match source {
        "emulator" => format!("{} instructions", si(v)),
        ESTIMATE => format!("{v:.2} ms estimated"),
        "host" => format!("{v:.2} ms"),
        _ => match clock {
            Some(hz) if hz > 0 => format!(
                "{} cycles = {:.1} ms at {} MHz",
                si(v),
                v / hz as f64 * 1e3,
                hz / 1_000_000
            ),
            _ => format!("{} cycles", si(v)),
        },
    }
}

/// Computes the winners and the summary text.
pub fn summarize(rows: &[Row], min_security: u32) -> Summary {
    let mut s = Summary::default();
    // Rows verified under another policy (the proven >= 100 track) are their own section's:
    // ranked beside the defaults they would only say that more queries cost more.
    let ok: Vec<&Row> = rows
        .iter()
        .filter(|r| eligible(r, min_security) && under_default_policy(r))
        .collect();

    // Per source, core and n: verify cost, heap peak, stack peak.
    let mut groups: BTreeMap<(u8, String, String, u64), Vec<&Row>> = BTreeMap::new();
    for r in &ok {
        if r.source == "host" {
            continue;
        }
        groups
            .entry((
                source_order(&r.source),
                r.source.clone(),
                r.core.clone(),
                r.n,
            ))
            .or_default()
            .push(r);
    }
    for ((_, source, core, n), g) in &groups {
        type Metric = fn(&Row) -> Option<f64>;
        let metrics: [(&'static str, Metric); 3] = [
            ("verify cost", Row::cost),
            ("heap peak", |r| r.heap_peak.map(|v| v as f64)),
            ("stack peak", |r| r.stack_peak.map(|v| v as f64)),
        ];
        for (metric, f) in metrics {
            if let Some((config, value, worst, competitors)) = best_of(g.iter().copied(), f) {
                s.winners.push(Winner {
                    metric,
                    source: source.clone(),
                    core: core.clone(),
                    n: *n,
                    config,
                    value,
                    worst,
                    competitors,
                });
            }
        }
    }
    // Per n: proof size (any source: the same proof has the same size) and host prove time.
    let mut ns: Vec<u64> = ok.iter().map(|r| r.n).collect();
    ns.sort_unstable();
    ns.dedup();
    for &n in &ns {
        if let Some((config, value, worst, competitors)) =
            best_of(ok.iter().copied().filter(|r| r.n == n), |r| {
                Some(r.proof_bytes as f64)
            })
        {
            s.winners.push(Winner {
                metric: "proof size",
                source: "any".into(),
                core: "any".into(),
                n,
                config,
                value,
                worst,
                competitors,
            });
        }
        if let Some((config, value, worst, competitors)) = best_of(
            ok.iter()
                .copied()
                .filter(|r| r.n == n && r.source == "host"),
            |r| r.host_prove_ms,
        ) {
            s.winners.push(Winner {
                metric: "prove time",
                source: "host".into(),
                core: "host".into(),
                n,
                config,
                value,
                worst,
                competitors,
            });
        }
    }

    // Text.
    let clock = |source: &str| {
        rows.iter()
            .find(|r| r.source == source)
            .and_then(|r| r.clock_hz)
    };
    let mut by_group: BTreeMap<(String, String, u64), Vec<&Winner>> = BTreeMap::new();
    for w in &s.winners {
        by_group
            .entry((w.source.clone(), w.core.clone(), w.n))
            .or_default()
            .push(w);
    }
    for w in s.winners.iter().filter(|w| w.metric == "verify cost") {
        let (lead, more) = match w.source.as_str() {
            ESTIMATE => (
                "Fastest verifier (estimated time)",
                "faster than the slowest",
            ),
            "emulator" => ("Fewest instructions", "fewer than the costliest"),
            _ => ("Fastest verifier (device)", "faster than the slowest"),
        };
        let mut line = format!(
            "**{lead} on {} at n = {}:** {} with {}",
            w.core,
            pow2(w.n),
            w.config,
            cost_text(&w.source, w.value, clock(&w.source))
        );
        if w.source == ESTIMATE {
            let row = ok.iter().find(|r| {
                r.source == ESTIMATE
                    && r.core == w.core
                    && r.n == w.n
                    && r.config_label() == w.config
            });
            if let Some((r, e)) = row.and_then(|r| Some((r, r.estimate.as_ref()?))) {
                line.push_str(&format!(
                    " ({} cycles, model {} v{}; {} instructions)",
                    si(e.cycles as f64),
                    e.model,
                    e.model_version,
                    r.instructions.map_or("–".into(), |i| si(i as f64))
                ));
            }
        }
        if let Some((worst, wv)) = &w.worst {
            line.push_str(&format!(
                "; {:.2}x {more} of {}, {worst}",
                wv / w.value,
                w.competitors
            ));
        } else {
            line.push_str(" (the only configuration measured)");
        }
        let others: Vec<String> = by_group[&(w.source.clone(), w.core.clone(), w.n)]
            .iter()
            .filter(|o| o.metric == "heap peak" || o.metric == "stack peak")
            .map(|o| {
                format!(
                    "smallest {} {} ({})",
                    o.metric,
                    o.config,
                    kib(o.value as u64)
                )
            })
            .collect();
        if !others.is_empty() {
            line.push_str(&format!("; {}", others.join(", ")));
        }
        line.push('.');
        s.lines.push(line);
    }
    for w in s.winners.iter().filter(|w| w.metric == "proof size") {
        let mut line = format!(
            "**Smallest proof at n = {}:** {} with {}",
            pow2(w.n),
            w.config,
            kib(w.value as u64)
        );
        if let Some((worst, wv)) = &w.worst {
            line.push_str(&format!(" (largest: {worst}, {})", kib(*wv as u64)));
        }
        line.push('.');
        s.lines.push(line);
    }
    for w in s.winners.iter().filter(|w| w.metric == "prove time") {
        s.lines.push(format!(
            "**Fastest prover at n = {} (host wall clock):** {} in {:.0} ms.",
            pow2(w.n),
            w.config,
            w.value
        ));
    }
    // Emulator rows the estimated-time ranking cannot include.
    let mut no_estimate: Vec<String> = Vec::new();
    for r in ok.iter().filter(|r| {
        r.source == "emulator"
            && !rows
                .iter()
                .any(|e| e.source == ESTIMATE && e.same_run_as(r))
    }) {
        let l = format!("{} {} n={}", r.config_label(), r.core, pow2(r.n));
        if !no_estimate.contains(&l) {
            no_estimate.push(l);
        }
    }
    if !no_estimate.is_empty() && !rows.iter().any(|r| r.source == ESTIMATE) {
        s.lines.push(
            "**No estimate**: no record has one (they predate the timing model); every ranking is by instructions only.".into(),
        );
    } else if !no_estimate.is_empty() {
        s.lines.push(format!(
            "**No estimate** (the record predates the timing model; ranked by instructions only): {}.",
            no_estimate.join(", ")
        ));
    }
    // Security.
    let mut by_bits: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for r in &ok {
        let v = by_bits.entry(r.security_bits).or_default();
        if !v.contains(&r.config_label()) {
            v.push(r.config_label());
        }
    }
    // The regime those bits are counted in, when every ranked record names the same one.
    let regimes: std::collections::BTreeSet<Option<&str>> = ok
        .iter()
        .map(|r| r.security.as_ref().map(|s| s.policy_regime.as_str()))
        .collect();
    let regime = match regimes.into_iter().collect::<Vec<_>>()[..] {
        [Some(r)] => format!("regime `{r}`"),
        _ => "the records' policy figure".into(),
    };
    match by_bits.len() {
        0 => {}
        1 => {
            let bits = by_bits.keys().next().expect("one");
            s.lines.insert(0, format!(
                "**Security:** every ranked configuration is at {bits} bits ({regime}), so the comparison is at equal security."
            ));
        }
        _ => {
            let parts: Vec<String> = by_bits
                .iter()
                .map(|(bits, cfgs)| format!("{bits} bits: {}", cfgs.join(", ")))
                .collect();
            s.lines.insert(0, format!(
                "**Security** ({regime}, floor {min_security}): {}. Compare winners with this margin in mind.",
                parts.join("; ")
            ));
        }
    }
    // Not ranked: one entry per configuration, with every reason and where it was seen.
    let mut excluded: Vec<(String, Vec<String>)> = Vec::new();
    for r in rows.iter().filter(|r| !eligible(r, min_security)) {
        let why = if !r.accepted() {
            format!("{} on {} ({})", r.result, r.core, r.source)
        } else {
            format!("{} bits at n={} ({})", r.security_bits, pow2(r.n), r.source)
        };
        let label = r.config_label();
        match excluded.iter_mut().find(|(l, _)| *l == label) {
            Some((_, v)) => {
                if !v.contains(&why) {
                    v.push(why);
                }
            }
            None => excluded.push((label, vec![why])),
        }
    }
    if !excluded.is_empty() {
        let parts: Vec<String> = excluded
            .iter()
            .map(|(l, why)| format!("{l}: {}", why.join(", ")))
            .collect();
        s.lines.push(format!(
            "**Not ranked** (below {min_security} bits or not accepted): {}.",
            parts.join("; ")
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::build_rows;
    use crate::table::tests::{dev, emu, with_estimate, with_security};

    #[test]
    fn rows_under_another_policy_are_not_ranked_beside_the_defaults() {
        let mut proven = with_security(emu("p3-m31", 4, 1024, "m33", 9_000_000), 100.0, 64.0);
        let sec = proven.record.security.as_mut().unwrap();
        (sec.policy_regime, sec.policy_min_bits) = ("proven".into(), 100);
        let rows = build_rows(&[
            emu("p3-babybear", 4, 1024, "m33", 2_000_000),
            emu("wf-babybear", 4, 1024, "m33", 1_000_000),
            proven,
        ]);
        let s = summarize(&rows, 95);
        let w = s
            .winners
            .iter()
            .find(|w| w.metric == "verify cost" && w.source == "emulator")
            .unwrap();
        assert_eq!(w.config, "wf-babybear^4");
        assert_eq!(w.worst, Some(("p3-babybear^4".into(), 2_000_000.0)));
        assert_eq!(w.competitors, 2, "the proven-track row is not a competitor");
    }

    #[test]
    fn winners_per_source_core_and_n() {
        let mut low_sec = emu("p3-goldilocks", 2, 1024, "m33", 100);
        low_sec.record.security_bits = 80;
        let mut big = emu("p3-m31", 4, 1024, "m33", 3_000_000);
        big.record.proof_bytes = 30_000;
        let mut m31_dev = dev("p3-m31", 1024, "m33", &[9_000_000, 9_100_000, 8_900_000]);
        m31_dev.record.proof_bytes = 30_000;
        let rows = build_rows(&[
            emu("p3-babybear", 4, 1024, "m33", 2_000_000),
            emu("p3-babybear", 4, 1024, "rv32", 2_600_000),
            big,
            emu("p3-m31", 4, 1024, "rv32", 2_500_000),
            low_sec,
            m31_dev,
            dev(
                "p3-babybear",
                1024,
                "m33",
                &[9_500_000, 9_500_000, 9_500_000],
            ),
        ]);
        let s = summarize(&rows, 95);
        let find = |metric: &str, source: &str, core: &str| {
            s.winners
                .iter()
                .find(|w| w.metric == metric && w.source == source && w.core == core)
                .unwrap_or_else(|| panic!("{metric} {source} {core}: {:?}", s.winners))
        };
        // The 80-bit row is cheaper but below the floor.
        let m33 = find("verify cost", "emulator", "m33");
        assert_eq!(m33.config, "p3-babybear^4");
        assert_eq!(m33.value, 2_000_000.0);
        assert_eq!(m33.worst, Some(("p3-m31^4".into(), 3_000_000.0)));
        assert_eq!(m33.competitors, 2);
        assert_eq!(find("verify cost", "emulator", "rv32").config, "p3-m31^4");
        assert_eq!(find("verify cost", "device", "m33").config, "p3-m31^4");
        assert_eq!(find("proof size", "any", "any").config, "p3-m31^4");
        // Heap peak follows instructions / 100 in the fixture.
        assert_eq!(find("heap peak", "emulator", "m33").config, "p3-babybear^4");
        let text = s.lines.join("\n");
        assert!(text.contains("1.50x fewer"), "{text}");
        assert!(
            text.contains("p3-goldilocks^2: 80 bits at n=2^10 (emulator)"),
            "{text}"
        );
        // None of these records has an estimate, and the summary says so.
        assert!(
            text.contains("**No estimate**: no record has one"),
            "{text}"
        );
    }

    #[test]
    fn estimated_time_leads_and_can_disagree_with_instructions() {
        // wf-goldilocks runs fewer instructions on m33 but more estimated cycles (stalls).
        let rows = build_rows(&[
            with_estimate(emu("wf-goldilocks", 2, 1024, "m33", 2_000_000), 4_500_000),
            with_estimate(emu("wf-goldilocks", 2, 1024, "rv32", 2_600_000), 5_400_000),
            with_estimate(emu("p3-babybear", 4, 1024, "m33", 2_500_000), 3_000_000),
            with_estimate(emu("p3-babybear", 4, 1024, "rv32", 3_000_000), 3_150_000),
            // An old record: in the instruction ranking only, and said to be so.
            emu("p3-m31", 4, 1024, "m33", 9_000_000),
        ]);
        let s = summarize(&rows, 95);
        let est = s
            .winners
            .iter()
            .find(|w| w.metric == "verify cost" && w.source == ESTIMATE && w.core == "m33")
            .unwrap();
        assert_eq!(est.config, "p3-babybear^4");
        assert!((est.value - 20.0).abs() < 1e-9, "3 M cycles at 150 MHz");
        let text = s.lines.join("\n");
        let first_cost = s
            .lines
            .iter()
            .find(|l| l.contains("verifier") || l.contains("Fewest"))
            .unwrap();
        assert!(
            first_cost.starts_with("**Fastest verifier (estimated time) on m33 at n = 2^10:** p3-babybear^4 with 20.00 ms estimated (3.00 M cycles, model rp2350-m33 v1; 2.50 M instructions); 1.50x faster than the slowest of 2, wf-goldilocks^2"),
            "{first_cost}"
        );
        assert!(
            text.contains("**Fewest instructions on m33 at n = 2^10:** wf-goldilocks^2"),
            "{text}"
        );
        assert!(
            text.contains("**No estimate** (the record predates the timing model; ranked by instructions only): p3-m31^4 m33 n=2^10."),
            "{text}"
        );
    }

    #[test]
    fn security_comes_first() {
        let rows = build_rows(&[
            emu("p3-babybear", 4, 1024, "m33", 1),
            emu("p3-m31", 4, 1024, "m33", 3),
        ]);
        let first = &summarize(&rows, 95).lines[0];
        assert!(
            first.starts_with("**Security:**") && first.contains("equal security"),
            "{first}"
        );
        assert!(first.contains("(the records' policy figure)"), "{first}");
        let rows = build_rows(&[
            with_security(emu("p3-babybear", 4, 1024, "m33", 1), 96.0, 50.0),
            with_security(emu("p3-m31", 4, 1024, "m33", 3), 96.0, 50.0),
        ]);
        let first = &summarize(&rows, 95).lines[0];
        assert!(first.contains("96 bits (regime `strictest`)"), "{first}");
    }
}
