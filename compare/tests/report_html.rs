//! The report as a reader's browser sees it: `report.html` parsed as HTML (the one made here
//! from the committed records, and the committed `results/report.html`). Each section with
//! figures has a non-empty table, the sections with charts a drawn chart, the first screen
//! one table per core ordered by estimated ms, every Matrix row its hash, parameters and
//! placement; and no file under `results/` names an absolute path of the build machine.

use std::path::{Path, PathBuf};
use std::process::Command;

use scraper::{ElementRef, Html, Selector};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sel(s: &str) -> Selector {
    Selector::parse(s).expect("selector")
}

fn text(e: ElementRef) -> String {
    e.text().collect::<String>().trim().to_string()
}

/// The body rows of a table, as cell texts.
fn rows(t: ElementRef) -> Vec<Vec<String>> {
    t.select(&sel("tbody tr"))
        .map(|r| r.select(&sel("td")).map(text).collect())
        .collect()
}

fn head(t: ElementRef) -> Vec<String> {
    t.select(&sel("thead th")).map(text).collect()
}

fn check(html: &str) {
    let doc = Html::parse_document(html);
    let sections: Vec<ElementRef> = doc.select(&sel("section")).collect();
    let by_id = |id: &str| {
        sections
            .iter()
            .find(|s| s.value().id() == Some(id))
            .copied()
    };
    for s in &sections {
        let id = s.value().id().unwrap_or("?");
        assert!(
            s.select(&sel("h2"))
                .next()
                .is_some_and(|h| !text(h).is_empty()),
            "{id}: no title"
        );
        for t in s.select(&sel("table")) {
            let r = rows(t);
            assert!(
                !r.is_empty() && r.iter().all(|c| c.len() == head(t).len()),
                "{id}: empty or ragged table"
            );
        }
        for f in s.select(&sel("figure")) {
            let svg = f
                .select(&sel("svg"))
                .next()
                .unwrap_or_else(|| panic!("{id}: chart not drawn"));
            assert!(
                svg.select(&sel("rect, polyline, path")).count() > 3,
                "{id}: empty chart"
            );
        }
    }
    // The first screen: one table per core, fastest first, and one chart.
    let answer = by_id("answer").expect("answer section");
    assert_eq!(
        sections[0].value().id(),
        Some("answer"),
        "the answer comes first"
    );
    let tables: Vec<ElementRef> = answer.select(&sel("table")).collect();
    let captions: Vec<String> = answer.select(&sel("caption")).map(text).collect();
    assert_eq!(captions, ["Cortex-M33", "Hazard3 (RV32)"]);
    for t in &tables {
        let h = head(*t);
        let ms = h
            .iter()
            .position(|c| c == "est. ms")
            .expect("est. ms column");
        let v: Vec<f64> = rows(*t)
            .iter()
            .map(|r| r[ms].parse().expect("ms"))
            .collect();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "fastest first: {v:?}");
        for c in [
            "hash",
            "blowup / queries / fold / final / PoW",
            "placement",
            "bits: strictest",
        ] {
            assert!(h.iter().any(|x| x == c), "answer column {c}");
        }
    }
    assert_eq!(
        answer.select(&sel("figure")).count(),
        1,
        "one chart on the first screen"
    );
    // The chart names each configuration once.
    let svg = answer.select(&sel("svg")).next().expect("svg");
    let labels: Vec<String> = svg
        .select(&sel("text"))
        .map(text)
        .filter(|t| t.contains(" [2^"))
        .collect();
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert!(
        !labels.is_empty() && unique.len() == labels.len(),
        "duplicated labels: {labels:?}"
    );
    for id in ["workload", "hash", "proven", "cores", "matrix", "method"] {
        assert!(by_id(id).is_some(), "section {id}");
    }
    assert!(
        by_id("workload")
            .unwrap()
            .select(&sel("figure svg"))
            .next()
            .is_some(),
        "workload chart"
    );
    // The Matrix: sortable, every row names its hash, parameters and placement.
    let m = by_id("matrix")
        .unwrap()
        .select(&sel("table.sortable"))
        .next()
        .expect("sortable matrix");
    let h = head(m);
    let col = |c: &str| {
        h.iter()
            .position(|x| x == c)
            .unwrap_or_else(|| panic!("matrix column {c}"))
    };
    let (hash, params, placement) = (
        col("hash"),
        col("blowup / queries / fold / final / PoW"),
        col("placement"),
    );
    for r in rows(m) {
        assert!(
            ["blake3", "sha256", "sha256-engine"].contains(&r[hash].as_str()),
            "{r:?}"
        );
        let p: Vec<&str> = r[params].split(" / ").collect();
        assert!(
            p.len() == 5 && p[0].starts_with("2^") && p[4].parse::<u8>().is_ok(),
            "{r:?}"
        );
        assert!(!r[placement].is_empty() && r[placement] != "–", "{r:?}");
    }
    assert!(html.contains("<script>") && html.contains("input class=\"filter\""));
}

#[test]
fn report_html_has_every_section_and_names_every_row() {
    let out = std::env::temp_dir().join(format!("compare-html-{}", std::process::id()));
    let r = root();
    let mut inputs = vec![
        "results/raw",
        "results/proven/records",
        "results/hash/best",
        "results/membership/records",
    ];
    for track in [
        "results/baseline/wide-circle",
        "results/placement/one",
        "results/placement/all",
    ] {
        if r.join(track).is_dir() {
            inputs.push(track);
        }
    }
    let status = Command::new(env!("CARGO_BIN_EXE_compare"))
        .current_dir(&r)
        .arg("report")
        .arg("--in")
        .args(&inputs)
        .arg("--out")
        .arg(&out)
        .status()
        .expect("compare runs");
    assert!(status.success());
    check(&std::fs::read_to_string(out.join("report.html")).unwrap());
    let _ = std::fs::remove_dir_all(&out);
    check(&std::fs::read_to_string(r.join("results/report.html")).unwrap());
}

#[test]
fn results_name_no_absolute_path() {
    let mut stack = vec![root().join("results")];
    let mut files = 0;
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let Ok(t) = std::fs::read_to_string(&p) else {
            continue;
        }; // binary (png)
        files += 1;
        for bad in ["/work/", "/root/", "/home/"] {
            assert!(!t.contains(bad), "{} names {bad}", p.display());
        }
    }
    assert!(files > 100, "results/ read ({files} files)");
}
