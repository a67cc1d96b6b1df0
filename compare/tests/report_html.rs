//! The report as a reader's browser sees it: `report.html` parsed as HTML (the one made here
//! from the committed records, and the committed `results/report.html`). Each section with
//! figures has a non-empty table, the sections with charts a drawn chart, the first screen
//! one table per core ordered by estimated ms, every Matrix row its hash, parameters and
//! placement; and no file under `results/` names an absolute path of the build machine.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use scraper::{ElementRef, Html, Selector};

const PARAMS: &str = "blowup / queries / fold / final / PoW";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The elements under `e` that `css` selects.
fn all<'a>(e: ElementRef<'a>, css: &str) -> Vec<ElementRef<'a>> {
    e.select(&Selector::parse(css).expect("selector")).collect()
}

/// The trimmed texts of the elements under `e` that `css` selects.
fn texts(e: ElementRef, css: &str) -> Vec<String> {
    let text = |e: &ElementRef| e.text().collect::<String>().trim().to_string();
    all(e, css).iter().map(text).collect()
}

/// The body rows of a table, as cell texts.
fn rows(t: ElementRef) -> Vec<Vec<String>> {
    let rows = all(t, "tbody tr").into_iter();
    rows.map(|r| texts(r, "td")).collect()
}

/// The position of column `c` in a table's header.
fn col(t: ElementRef, c: &str) -> usize {
    let head = texts(t, "thead th");
    let at = head.iter().position(|h| h == c);
    at.unwrap_or_else(|| panic!("column {c}: {head:?}"))
}

fn check(html: &str) {
    let doc = Html::parse_document(html);
    let sections = all(doc.root_element(), "section");
    let find = |id: &str| sections.iter().find(|s| s.value().id() == Some(id));
    let by_id = |id: &str| *find(id).expect(id);
    for s in &sections {
        let id = s.value().id().unwrap_or("?");
        let titled = texts(*s, "h2").iter().any(|h| !h.is_empty());
        assert!(titled, "{id}: no title");
        for t in all(*s, "table") {
            let (r, width) = (rows(t), texts(t, "thead th").len());
            let full = !r.is_empty() && r.iter().all(|c| c.len() == width);
            assert!(full, "{id}: empty or ragged table");
        }
        for f in all(*s, "figure") {
            let svg = all(f, "svg");
            let svg = *svg.first().expect("chart drawn");
            let drawn = all(svg, "rect, polyline, path").len();
            assert!(drawn > 3, "{id}: empty chart");
        }
    }
    // The first screen: one table per core, fastest first, the membership workload's
    // table, and one chart.
    let first = sections[0].value().id();
    assert_eq!(first, Some("answer"), "the answer comes first");
    let answer = by_id("answer");
    let captions = texts(answer, "caption");
    assert_eq!(captions[..2], ["Cortex-M33", "Hazard3 (RV32)"]);
    assert!(
        captions[2].starts_with("Membership workload"),
        "{captions:?}"
    );
    for t in all(answer, "table").into_iter().take(2) {
        let ms = col(t, "est. ms");
        let v: Vec<f64> = rows(t).iter().map(|r| r[ms].parse().expect("ms")).collect();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "fastest first: {v:?}");
        for c in ["hash", PARAMS, "placement", "bits: strictest"] {
            col(t, c);
        }
    }
    let charts = all(answer, "figure").len();
    assert_eq!(charts, 1, "one chart on the first screen");
    // The chart names each configuration once.
    let labels = texts(answer, "svg text").into_iter();
    let labels: Vec<String> = labels.filter(|t| t.contains(" [2^")).collect();
    let unique: BTreeSet<&String> = labels.iter().collect();
    let once = !labels.is_empty() && unique.len() == labels.len();
    assert!(once, "duplicated labels: {labels:?}");
    for id in ["workload", "hash", "proven", "cores", "matrix", "method"] {
        by_id(id);
    }
    let workload_chart = all(by_id("workload"), "figure svg");
    assert!(!workload_chart.is_empty(), "workload chart");
    // The Matrix: sortable, every row names its hash, parameters and placement.
    let m = all(by_id("matrix"), "table.sortable");
    let m = *m.first().expect("sortable matrix");
    let (hash, params, placement) = (col(m, "hash"), col(m, PARAMS), col(m, "placement"));
    // No two emulator rows share a configuration: placement names the image too (host rows
    // of one configuration on two machines may).
    let key = |r: &Vec<String>| [&r[..10], &r[r.len() - 2..r.len() - 1]].concat();
    let emulated = rows(m).into_iter().filter(|r| r[0] == "emulator");
    let keys: Vec<Vec<String>> = emulated.map(|r| key(&r)).collect();
    let unique: BTreeSet<&Vec<String>> = keys.iter().collect();
    let why = "two Matrix rows name one configuration";
    assert_eq!(unique.len(), keys.len(), "{why}");
    for r in rows(m) {
        let hashed = ["blake3", "sha256", "sha256-engine"].contains(&r[hash].as_str());
        let p: Vec<&str> = r[params].split(" / ").collect();
        let named = p.len() == 5 && p[0].starts_with("2^") && p[4].parse::<u8>().is_ok();
        let placed = !r[placement].is_empty() && r[placement] != "–";
        assert!(hashed && named && placed, "{r:?}");
    }
    assert!(html.contains("<script>") && html.contains("input class=\"filter\""));
}

#[test]
fn report_html_has_every_section_and_names_every_row() {
    let out = std::env::temp_dir().join(format!("compare-html-{}", std::process::id()));
    // The README's input list for re-rendering.
    let tracks = "results/raw results/proven/records results/hash/best results/membership/records results/membership/records-128 results/membership/engine results/baseline/wide-circle results/placement/one results/placement/all results/placement/qemu-image";
    let inputs = tracks.split(' ').filter(|t| root().join(t).is_dir());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_compare"));
    cmd.current_dir(root())
        .args(["report", "--in"])
        .args(inputs);
    cmd.arg("--out").arg(&out);
    assert!(cmd.status().expect("compare runs").success());
    check(&std::fs::read_to_string(out.join("report.html")).unwrap());
    let _ = std::fs::remove_dir_all(&out);
    check(&std::fs::read_to_string(root().join("results/report.html")).unwrap());
}

#[test]
fn results_name_no_absolute_path() {
    let (mut stack, mut files) = (vec![root().join("results")], 0);
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if let Ok(t) = std::fs::read_to_string(&p) {
            files += 1; // a binary file (png) is not read
            for bad in ["/work/", "/root/", "/home/"] {
                assert!(!t.contains(bad), "{} names {bad}", p.display());
            }
        }
    }
    assert!(files > 100, "results/ read ({files} files)");
}
