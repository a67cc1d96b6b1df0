//! `mcu-run field-bench`: the field micro-benchmark's firmware output (`field_bench.rs` in
//! the firmware) and the plugin's regions turned into instructions and estimated cycles per
//! operation, and the JSON record of one core (issue 44 item 2).
//!
//! Every `fbench` line owns three regions, in order: a warm-up (`K` loop iterations, not
//! used: it brings the timing model's XIP cache, disturbed by the output between lines, to
//! the state the next two windows start from), then `K` and `2K` loop iterations of its
//! case, `UNROLL` operations an iteration. Per operation:
//! `((case[2K] - case[K]) - (loop[2K] - loop[K])) / (K * UNROLL)`, where `loop` is the
//! line `case=loop` (the same loop with an empty body), for instructions and for the timing
//! model's cycles alike. Everything constant per window (markers, the call, the inputs, a
//! cold cache line) cancels in the difference.

use serde_json::{json, Value};

use crate::qemu::Region;

/// The `field-bench` head line's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    pub core: String,
    pub k: u64,
    pub unroll: u64,
    pub cases: usize,
}

/// One `fbench` line: a case, or the loop (`case` is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseLine {
    pub case: Option<usize>,
    pub implementation: String,
    pub field: String,
    pub degree: u32,
    pub algorithm: String,
    pub op: String,
}

fn words(line: &str) -> impl Iterator<Item = (&str, &str)> {
    line.split_ascii_whitespace()
        .filter_map(|w| w.split_once('='))
}

fn get<'a>(line: &'a str, key: &str) -> Result<&'a str, String> {
    words(line)
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
        .ok_or_else(|| format!("no {key}= in {line:?}"))
}

fn num<T: std::str::FromStr>(line: &str, key: &str) -> Result<T, String> {
    get(line, key)?
        .parse()
        .map_err(|_| format!("{key}= is not a number in {line:?}"))
}

/// Parses the firmware's output: the head line, the `fbench` lines (loop first) and the
/// closing line, which must say as many cases as the head.
pub fn parse(stdout: &str) -> Result<(Head, Vec<CaseLine>), String> {
    let mut head = None;
    let mut lines = Vec::new();
    let mut done = None;
    for l in stdout.lines().map(str::trim) {
        let mut w = l.split_ascii_whitespace();
        if w.next() != Some("pstk1") {
            continue;
        }
        match w.next() {
            Some("field-bench") => {
                head = Some(Head {
                    core: get(l, "core")?.to_string(),
                    k: num(l, "k")?,
                    unroll: num(l, "unroll")?,
                    cases: num(l, "cases")?,
                })
            }
            Some("fbench") if get(l, "case")? == "loop" => lines.push(CaseLine {
                case: None,
                implementation: String::new(),
                field: String::new(),
                degree: 0,
                algorithm: String::new(),
                op: "loop".into(),
            }),
            Some("fbench") => lines.push(CaseLine {
                case: Some(num(l, "case")?),
                implementation: get(l, "impl")?.to_string(),
                field: get(l, "field")?.to_string(),
                degree: num(l, "degree")?,
                algorithm: get(l, "algorithm")?.to_string(),
                op: get(l, "op")?.to_string(),
            }),
            Some("field-bench-done") => done = Some(num::<usize>(l, "cases")?),
            Some("panic") | Some("fault") => return Err(format!("firmware: {l}")),
            _ => {}
        }
    }
    let head = head.ok_or("no field-bench line: not a field-bench firmware?")?;
    if done != Some(head.cases) {
        return Err(format!(
            "the firmware did not finish: {done:?} of {} cases",
            head.cases
        ));
    }
    if lines.first().map(|l| l.case) != Some(None) || lines.len() != head.cases + 1 {
        return Err(format!(
            "expected the loop and {} cases, got {} lines",
            head.cases,
            lines.len()
        ));
    }
    Ok((head, lines))
}

/// Plugin regions per `fbench` line: warm-up, `K`, `2K`.
pub const WINDOWS: usize = 3;

/// One operation's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub line: CaseLine,
    /// Instructions per operation, the loop subtracted.
    pub instructions: f64,
    /// The timing model's cycles per operation, the loop subtracted.
    pub cycles: f64,
    /// Of those, the XIP cache's miss cycles (the chain's code in flash).
    pub xip_miss_cycles: f64,
    /// The case's two windows: instructions, estimated cycles and XIP miss cycles.
    pub windows: [(u64, u64, u64); 2],
}

/// The per-operation figures of every case (the loop line's own figures, per loop
/// iteration, first, with `instructions` and `cycles` per iteration).
pub fn figures(head: &Head, lines: &[CaseLine], regions: &[Region]) -> Result<Vec<Figure>, String> {
    if regions.len() != WINDOWS * lines.len() {
        return Err(format!(
            "{} plugin regions for {} lines (three each)",
            regions.len(),
            lines.len()
        ));
    }
    let window = |r: &Region| -> Result<(u64, u64, u64), String> {
        let e = r
            .estimate
            .as_ref()
            .ok_or("a region without the timing model's estimate")?;
        Ok((r.insns, e.cycles, e.xip_miss_cycles))
    };
    let diff = |w: &[(u64, u64, u64); 2]| {
        let d = |f: fn(&(u64, u64, u64)) -> u64| f(&w[1]) as f64 - f(&w[0]) as f64;
        (d(|x| x.0), d(|x| x.1), d(|x| x.2))
    };
    let mut out = Vec::new();
    let mut loop_diff = (0.0, 0.0, 0.0);
    for (i, line) in lines.iter().enumerate() {
        let w = [
            window(&regions[WINDOWS * i + 1])?,
            window(&regions[WINDOWS * i + 2])?,
        ];
        let d = diff(&w);
        let (per, minus) = if line.case.is_none() {
            loop_diff = d;
            (head.k as f64, (0.0, 0.0, 0.0))
        } else {
            ((head.k * head.unroll) as f64, loop_diff)
        };
        out.push(Figure {
            line: line.clone(),
            instructions: (d.0 - minus.0) / per,
            cycles: (d.1 - minus.1) / per,
            xip_miss_cycles: (d.2 - minus.2) / per,
            windows: w,
        });
    }
    Ok(out)
}

/// The extension's name with its defining polynomial (`degree` 1: the base field's), as
/// implementation `implementation` (a token) builds it.
pub fn extension_name(field: &str, degree: u32, implementation: &str) -> String {
    match (field, degree, implementation) {
        ("m31", 1, _) => "M31".into(),
        ("m31", 2, _) => "CM31 = M31[i]/(i^2+1)".into(),
        ("m31", 4, _) => "QM31 = CM31[u]/(u^2-2-i)".into(),
        ("m31", 6, _) => "M31^6 = CM31[u]/(u^3-5)".into(),
        ("babybear", 1, _) => "BabyBear".into(),
        ("babybear", 4, _) => "BabyBear^4 = BabyBear[x]/(x^4-11)".into(),
        ("babybear", 5, _) => "BabyBear^5 = BabyBear[x]/(x^5-2)".into(),
        ("goldilocks", 1, _) => "Goldilocks".into(),
        ("goldilocks", 2, "wf") => "Goldilocks^2 = Goldilocks[x]/(x^2-x+2)".into(),
        ("goldilocks", 2, _) => "Goldilocks^2 = Goldilocks[x]/(x^2-7)".into(),
        ("goldilocks", 3, _) => "Goldilocks^3 = Goldilocks[x]/(x^3-x-1)".into(),
        (f, d, _) => format!("{f}^{d}"),
    }
}

/// The implementation's name in records and the report.
pub fn implementation_name(token: &str) -> &str {
    match token {
        "ours" => "ours (picostark-field)",
        "p3" => "p3-field 0.8",
        "wf" => "winterfell 0.13",
        other => other,
    }
}

/// The algorithm's short name (report cells) and its description (records).
pub fn algorithm_name(token: &str) -> (&str, &str) {
    match token {
        "lazy" => (
            "schoolbook, lazy reduction",
            "schoolbook; 32x32-bit partial products summed in u64, one reduction per coefficient",
        ),
        "limbs-lazy" => (
            "schoolbook, 32-bit limbs, lazy reduction",
            "schoolbook; 64-bit words as 32-bit limbs, partial products summed in four 32-bit columns, one reduction per coefficient",
        ),
        "u128" => (
            "schoolbook, 128-bit products",
            "schoolbook; 64x64->128-bit widening products, each coefficient one product plus the other product reduced, two reductions a coefficient",
        ),
        "karatsuba" => (
            "Karatsuba, reduced at once",
            "Karatsuba over BabyBear^2[x]/(x^2 - z), BabyBear^2 = BabyBear[z]/(z^2 - 11): 9 base products and 4 by 11, each Montgomery-reduced at once",
        ),
        "library" => ("library", "the library's own product, as its types compute it"),
        "library-karatsuba" => (
            "library, Karatsuba-style",
            "the library's own product: 3 base products for degree 2, 6 for degree 3 (winter-math 0.13.1's source comments)",
        ),
        other => (other, other),
    }
}

/// How the figures were obtained, for the record and the report.
pub struct Provenance<'a> {
    pub core: &'a str,
    pub isa: &'a str,
    pub emulator: String,
    pub toolchain: &'a str,
    pub profile: &'a str,
    pub git_commit: &'a str,
    pub command: String,
    /// The timing model's name and version, as the plugin printed them.
    pub model: (String, u32),
    /// Where the code runs from (`sram: ...` or `xip: ...`).
    pub placement: &'a str,
}

/// The timing model of the regions (all must name the same one).
pub fn model_of(regions: &[Region]) -> Result<(String, u32), String> {
    let mut models = regions.iter().map(|r| {
        r.estimate
            .as_ref()
            .map(|e| (e.model.clone(), e.model_version))
            .ok_or("a region without the timing model's estimate")
    });
    let first = models.next().ok_or("no regions")??;
    for m in models {
        if m? != first {
            return Err("the regions name different timing models".into());
        }
    }
    Ok(first)
}

/// The record of one core.
pub fn to_record(head: &Head, figures: &[Figure], p: &Provenance<'_>) -> Value {
    let (loop_line, cases) = figures.split_first().expect("the loop line");
    let rows: Vec<Value> = cases
        .iter()
        .map(|f| {
            let l = &f.line;
            json!({
                "implementation": implementation_name(&l.implementation),
                "field": l.field,
                "degree": l.degree,
                "extension": extension_name(&l.field, l.degree, &l.implementation),
                "algorithm": algorithm_name(&l.algorithm).0,
                "algorithm_detail": algorithm_name(&l.algorithm).1,
                "op": l.op,
                "instructions_per_op": round2(f.instructions),
                "est_cycles_per_op": round2(f.cycles),
                "xip_miss_cycles_per_op": round2(f.xip_miss_cycles),
                "windows": f.windows.iter().map(|(i, c, x)| json!({"instructions": i, "est_cycles": c, "xip_miss_cycles": x})).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "kind": "field-bench",
        "source": "emulator",
        "core": p.core,
        "isa": p.isa,
        "placement": p.placement,
        "emulator": p.emulator,
        "timing_model": {"model": p.model.0, "version": p.model.1},
        "toolchain": p.toolchain,
        "profile": p.profile,
        "git_commit": p.git_commit,
        "command": p.command,
        "method": format!(
            "each case runs k={} and 2k loop iterations of {} dependent operations in its own #[inline(never)] chain; per operation = (window(2k) - window(k) - (loop(2k) - loop(k))) / (k*{}), loop = the same loop with an empty body",
            head.k, head.unroll, head.unroll
        ),
        "k": head.k,
        "unroll": head.unroll,
        "loop_per_iteration": {"instructions": round2(loop_line.instructions), "est_cycles": round2(loop_line.cycles)},
        "rows": rows,
    })
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qemu::parse_regions;

    const OUTPUT: &str = "pstk1 field-bench core=m33 board=qemu-m33 k=16 unroll=4 cases=2
pstk1 fbench case=loop
pstk1 fbench case=0 impl=ours field=m31 degree=4 algorithm=lazy op=mul
pstk1 fbench case=1 impl=p3 field=babybear degree=5 algorithm=library op=fold
pstk1 field-bench-done cases=2
";

    fn region(insns: u64, cycles: u64) -> String {
        format!(
            "icount region=0 insns={insns} mul=0 load_store=0 branch=0 other={insns} cycles={cycles} stall=0 xip_accesses=0 xip_misses=0 xip_miss_cycles=0 model=m33 model_version=7\n"
        )
    }

    #[test]
    fn output_parses_and_figures_subtract_the_loop() {
        let (head, lines) = parse(OUTPUT).unwrap();
        assert_eq!(
            head,
            Head {
                core: "m33".into(),
                k: 16,
                unroll: 4,
                cases: 2
            }
        );
        assert_eq!(lines[1].implementation, "ours");
        assert_eq!(lines[2].degree, 5);
        assert_eq!(lines[2].op, "fold");
        // loop: 2 instructions / 3 cycles an iteration; case 0: 100 an operation plus the
        // loop; case 1: 1000.5 cycles an operation.
        let text = [
            region(1, 1000),
            region(50, 60),
            region(82, 108),
            region(1, 1000),
            region(1000 + 64 * 100 + 32, 2000 + 64 * 120 + 48),
            region(1000 + 128 * 100 + 64, 2000 + 128 * 120 + 96),
            region(1, 1000),
            region(7, 9),
            region(7 + 64 * 900 + 32, 9 + 64 * 1000 + 32 + 48),
        ]
        .concat();
        let f = figures(&head, &lines, &parse_regions(&text)).unwrap();
        assert_eq!((f[0].instructions, f[0].cycles), (2.0, 3.0));
        assert_eq!((f[1].instructions, f[1].cycles), (100.0, 120.0));
        assert_eq!((f[2].instructions, f[2].cycles), (900.0, 1000.5));
        let p = Provenance {
            core: "m33",
            isa: "armv8-m.main",
            emulator: "QEMU emulator version 7.2.0".into(),
            toolchain: "rustc 1.95.0",
            profile: "release opt-level=s",
            git_commit: "abc",
            command: "mcu-run field-bench --core m33".into(),
            model: model_of(&parse_regions(&text)).unwrap(),
            placement: "sram: test",
        };
        let r = to_record(&head, &f, &p);
        assert_eq!(r["rows"].as_array().unwrap().len(), 2);
        assert_eq!(r["rows"][0]["implementation"], "ours (picostark-field)");
        assert_eq!(r["rows"][1]["est_cycles_per_op"], 1000.5);
        assert_eq!(r["loop_per_iteration"]["instructions"], 2.0);
        assert_eq!(r["timing_model"]["model"], "m33");
        assert_eq!(r["timing_model"]["version"], 7);
    }

    #[test]
    fn an_unfinished_or_miscounted_run_is_refused() {
        let cut = OUTPUT.replace("pstk1 field-bench-done cases=2\n", "");
        assert!(parse(&cut).is_err());
        let panicked = format!("{OUTPUT}pstk1 panic message=x\n");
        assert!(parse(&panicked).is_err());
        let (head, lines) = parse(OUTPUT).unwrap();
        let text = region(1, 1).repeat(8);
        assert!(figures(&head, &lines, &parse_regions(&text)).is_err());
    }
}
