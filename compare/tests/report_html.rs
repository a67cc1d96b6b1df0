//! The report as a reader's browser sees it: `report.html` parsed as HTML (the one made here
//! from the committed records, and the committed `results/report.html`). Each section with
//! figures has a non-empty table with no column empty in every row, every chart has data
//! points, no sentence ranks a thing against itself, the first screen holds the three
//! answers, every Matrix row names its hash, parameters and placement, and `report.md`'s
//! tables have at most 12 columns. At 1400 px no table is wider than the page and the page
//! with its long sections folded is at most 12 screens: measured in headless Chromium when it
//! is installed (`.ci/install` installs it), else estimated from the cells' text. Rendering
//! twice gives the same bytes, and no file under `results/` names an absolute path of the
//! build machine.

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

/// Whether a cell holds nothing: a column of these tells the reader nothing.
fn empty(c: &str) -> bool {
    c.is_empty() || c == "–"
}

/// The comparisons of a thing with itself in `text`: `tlsf (1) < tlsf (2)`.
fn self_comparisons(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split(" < ").collect();
    let name = |s: &str| s.split_whitespace().next().unwrap_or("").to_string();
    let left = |s: &str| name(s.rsplit([':', ',', ';']).next().unwrap_or(s));
    let pairs = parts.windows(2).filter(|w| left(w[0]) == name(w[1]));
    pairs.map(|w| format!("{} < {}", w[0], w[1])).collect()
}

/// Whether a chart's SVG holds data: a line chart's points or a bar's value label.
fn has_data(svg: ElementRef) -> bool {
    let value = |t: &String| t.contains('.') && t.parse::<f64>().is_ok();
    !all(svg, "circle").is_empty() || texts(svg, "text").iter().any(value)
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
        for t in all(*s, "table[id]") {
            let (r, head) = (rows(t), texts(t, "thead th"));
            let full = !r.is_empty() && r.iter().all(|c| c.len() == head.len());
            assert!(full, "{id}: empty or ragged table");
            for (i, h) in head.iter().enumerate() {
                let valued = r.iter().any(|row| !empty(&row[i]));
                assert!(valued, "{id}: column {h:?} is empty in every row");
            }
        }
        for f in all(*s, "figure") {
            let svg = all(f, "svg");
            let svg = *svg.first().expect("chart drawn");
            let title = texts(f, "figcaption").join("");
            assert!(has_data(svg), "{id}: chart without data: {title}");
        }
        for text in texts(*s, "td, li, p") {
            let same = self_comparisons(&text);
            assert!(
                same.is_empty(),
                "{id}: compares a thing with itself: {same:?}"
            );
        }
    }
    // The first screen: the three answers (default policy, equal parameters, per hash), each
    // row with both cores, its hash, parameters and placement; a chart per answer; then the
    // circle question (issue 44), a row per core and hash with both sides' figures, parameters
    // and bits.
    let first = sections[0].value().id();
    assert_eq!(first, Some("answer"), "the answer comes first");
    let answer = by_id("answer");
    let captions = texts(answer, "caption");
    let starts = [
        "1. Default policy",
        "2. Equal parameters",
        "3. Per hash",
        "4. The circle question",
    ];
    for (c, start) in captions.iter().zip(starts) {
        assert!(c.starts_with(start), "{captions:?}");
    }
    assert_eq!(captions.len(), 4, "{captions:?}");
    let mut tables = all(answer, "table");
    let circle = tables.pop().expect("the circle question's table");
    let ratio = col(circle, "circle / two-adic");
    let cores: BTreeSet<String> = rows(circle).iter().map(|r| r[0].clone()).collect();
    assert_eq!(cores.len(), 2, "both cores: {cores:?}");
    for r in rows(circle) {
        let x: f64 = r[ratio].trim_end_matches('x').parse().expect("a ratio");
        assert!(x > 0.0, "{r:?}");
        for c in [
            "circle",
            "circle: est. ms",
            "two-adic",
            "two-adic: est. ms",
            "hash",
            "placement",
        ] {
            assert!(!r[col(circle, c)].is_empty(), "{c} in {r:?}");
        }
        // Each side names its parameters and bits: they may differ at equal security.
        for c in ["circle", "two-adic"] {
            assert!(r[col(circle, c)].ends_with(" bits"), "{c} in {r:?}");
        }
    }
    for t in &tables {
        let ms = col(*t, "M33 est. ms");
        let v: Vec<f64> = rows(*t).iter().filter_map(|r| r[ms].parse().ok()).collect();
        assert!(!v.is_empty(), "an answer with figures");
        for c in ["Hazard3 est. ms", "hash", PARAMS, "placement"] {
            col(*t, c);
        }
    }
    let m33 = col(tables[0], "M33 est. ms");
    let v: Vec<f64> = rows(tables[0])
        .iter()
        .map(|r| r[m33].parse().expect("ms"))
        .collect();
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "fastest first: {v:?}");
    let hashes: BTreeSet<String> = rows(tables[2])
        .iter()
        .map(|r| r[col(tables[2], "hash")].clone())
        .collect();
    let want = ["blake3", "sha256", "sha256-engine"].map(String::from);
    assert_eq!(hashes, BTreeSet::from(want), "one answer per hash");
    // A chart per answer: a tall one is split in parts (`chart::bars`), each titled after it.
    let charted: BTreeSet<String> = texts(answer, "figure")
        .into_iter()
        .filter_map(|t| t.split_once(". ").map(|(n, _)| n.to_string()))
        .filter(|n| n.len() == 1)
        .collect();
    let want = ["1", "2", "3"].map(String::from);
    assert_eq!(charted, BTreeSet::from(want), "a chart per answer");
    assert!(texts(answer, "li")
        .iter()
        .any(|l| l.starts_with("Proven bits")));
    for id in [
        "workload", "hash", "proven", "cores", "scaling", "matrix", "method",
    ] {
        by_id(id);
    }
    // Scaling: n = 2^10 … 2^18 on the line charts.
    let x = texts(by_id("scaling"), "figure svg text");
    assert!(
        x.contains(&"2^10".into()) && x.contains(&"2^18".into()),
        "{x:?}"
    );
    // The long sections are folded.
    for id in ["matrix", "method", "provenance", "baseline"] {
        if let Some(s) = find(id) {
            assert!(!all(*s, "details").is_empty(), "{id} folded");
        }
    }
    // The Matrix: sortable, every row names its hash, parameters and placement, no two
    // emulator rows one configuration (placement names the image too).
    let m = all(by_id("matrix"), "table.sortable");
    let m = *m.first().expect("sortable matrix");
    let (hash, params, placement) = (col(m, "hash"), col(m, PARAMS), col(m, "placement"));
    let key = |r: &Vec<String>| [&r[..placement + 1], &r[r.len() - 1..]].concat();
    let emulated = rows(m).into_iter().filter(|r| r[0] == "emulator");
    let keys: Vec<Vec<String>> = emulated.map(|r| key(&r)).collect();
    let unique: BTreeSet<&Vec<String>> = keys.iter().collect();
    assert_eq!(
        unique.len(),
        keys.len(),
        "two Matrix rows name one configuration"
    );
    for r in rows(m) {
        let hashed = ["blake3", "sha256", "sha256-engine", "blake2s"].contains(&r[hash].as_str());
        let p: Vec<&str> = r[params].split(" / ").collect();
        let named = p.len() == 5 && p[0].starts_with("2^") && p[4].parse::<u8>().is_ok();
        let placed = !r[placement].is_empty() && r[placement] != "–";
        assert!(hashed && named && placed, "{r:?}");
    }
    assert!(html.contains("<script>") && html.contains("input class=\"filter\""));
}

/// `report.md`: tables of at most 12 columns, prose wrapped.
fn check_md(md: &str) {
    let mut code = false;
    for (i, l) in md.lines().enumerate() {
        code ^= l.starts_with("```");
        if l.starts_with("|---") {
            let columns = l.matches("---|").count();
            assert!(columns <= 12, "report.md:{}: {columns} columns", i + 1);
        }
        let prose = !code && !l.starts_with('|');
        // A single word longer than the line (a path, a URL) is left whole.
        let long = l.chars().count() > 100 && l.trim().contains(' ');
        assert!(
            !(prose && long),
            "report.md:{}: {} characters",
            i + 1,
            l.len()
        );
    }
}

/// The viewport the report is read at: 1400 x 1000, and at most 12 screens with the long
/// sections folded.
const PAGE: (u32, u32) = (1400, 1000);
const MAX_SCREENS: u32 = 12;

/// What a browser measures of `report.html` at [`PAGE`]: `(page width, height folded,
/// (table, right edge) with every section open, bottom of the first screen's last answer)`.
type Measured = (u32, u32, Vec<(String, u32)>, u32);

/// Pixels per character of the 12 px table font, from Chromium at 1400 px: the scaling
/// table (no cell wraps) is estimated at 1,267 px and measured at 1,262.
const CHAR_PX: u32 = 6;

/// Headless Chromium's measurements, when it is installed: a copy of the report with a
/// script that writes them into the page, read back with `--dump-dom`.
fn chromium(html: &str, dir: &Path) -> Option<Measured> {
    let bin = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            let probe = Command::new(b).arg("--version").output();
            probe.is_ok_and(|o| o.status.success())
        })?;
    let probe = r#"<script>addEventListener('load', () => {
  const folded = document.documentElement.scrollHeight;
  const answers = [...document.querySelectorAll('#answer table')];
  const bottom = Math.ceil(answers[answers.length - 1].getBoundingClientRect().bottom);
  document.querySelectorAll('details').forEach(d => d.open = true);
  const tables = [...document.querySelectorAll('table')].map(t =>
    (t.closest('section').id + '/' + t.id) + ' ' + Math.ceil(t.getBoundingClientRect().right));
  const out = document.createElement('pre'); out.id = 'measured';
  out.textContent = [document.documentElement.clientWidth, folded, bottom, ...tables].join('\n');
  document.body.appendChild(out); });</script></body>"#;
    let page = dir.join("measured.html");
    std::fs::write(&page, html.replace("</body>", probe)).unwrap();
    let size = format!("--window-size={},{}", PAGE.0, PAGE.1);
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        &size,
        "--dump-dom",
    ];
    let out = Command::new(bin)
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output();
    let dom = String::from_utf8(out.expect("chromium runs").stdout).unwrap();
    let doc = Html::parse_document(&dom);
    let text = texts(doc.root_element(), "pre#measured").join("");
    let mut lines = text.lines();
    let mut num = || {
        lines
            .next()
            .and_then(|l| l.parse().ok())
            .expect("a measurement")
    };
    let (width, folded, bottom) = (num(), num(), num());
    let tables = text.lines().skip(3).filter_map(|l| {
        let (id, right) = l.rsplit_once(' ')?;
        Some((id.to_string(), right.parse().ok()?))
    });
    Some((width, folded, tables.collect(), bottom))
}

/// Without a browser: each table's narrowest width from its cells' text (a cell that may
/// wrap counts its longest word; [`CHAR_PX`] a character, 11 px of padding and border a
/// column), and no height.
fn estimated(html: &str) -> Vec<(String, u32)> {
    let doc = Html::parse_document(html);
    let mut out = Vec::new();
    for t in all(doc.root_element(), "table[id]") {
        let wraps = t.value().classes().any(|c| c == "sortable");
        let width = |c: ElementRef| {
            let text = c.text().collect::<String>();
            let may_wrap = wraps || c.value().classes().any(|k| k == "long");
            let words = text.split_whitespace().map(|w| w.chars().count());
            let n = if may_wrap {
                words.max().unwrap_or(0)
            } else {
                text.chars().count()
            };
            n as u32 * CHAR_PX + 11
        };
        let mut cols: Vec<u32> = Vec::new();
        for r in all(t, "tbody tr") {
            for (i, c) in all(r, "td").into_iter().enumerate() {
                let w = width(c);
                match cols.get_mut(i) {
                    Some(x) => *x = (*x).max(w),
                    None => cols.push(w),
                }
            }
        }
        out.push((
            t.value().id().unwrap_or("").to_string(),
            cols.iter().sum::<u32>() + 40,
        ));
    }
    out
}

/// No table wider than the page at 1400 px; with Chromium also the page's height folded and
/// the three answers within the first screen.
fn check_width(html: &str, dir: &Path) {
    let (page, tables) = match chromium(html, dir) {
        Some((page, folded, tables, bottom)) => {
            let screens = folded as f64 / PAGE.1 as f64;
            eprintln!("chromium: page {page} px wide, {screens:.1} screens folded, answers end at {bottom} px");
            assert!(screens <= MAX_SCREENS as f64, "{screens:.1} screens");
            assert!(
                bottom <= PAGE.1,
                "the three answers end at {bottom} px, below the first screen"
            );
            (page, tables)
        }
        None => {
            eprintln!("no chromium on PATH: table widths estimated from the cells' text");
            (PAGE.0, estimated(html))
        }
    };
    let wide: Vec<&(String, u32)> = tables.iter().filter(|t| t.1 > page).collect();
    assert!(wide.is_empty(), "wider than the page ({page} px): {wide:?}");
}

/// Renders the report from the committed records into `out`, with the folders it reads
/// beside its output (baselines, scaling series, membership profiles) linked in.
fn render(out: &Path) -> String {
    std::fs::create_dir_all(out).unwrap();
    for beside in ["baseline", "scaling", "membership"] {
        let link = out.join(beside);
        if !link.exists() {
            std::os::unix::fs::symlink(root().join("results").join(beside), link).unwrap();
        }
    }
    // The README's command for re-rendering.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_compare"));
    cmd.current_dir(root())
        .args(["report", "--results", "results"]);
    cmd.arg("--out").arg(out);
    assert!(cmd.status().expect("compare runs").success());
    std::fs::read_to_string(out.join("report.html")).unwrap()
}

#[test]
fn report_html_answers_first_and_fits_the_page() {
    let tmp = std::env::temp_dir().join(format!("compare-html-{}", std::process::id()));
    let html = render(&tmp);
    let md = std::fs::read_to_string(tmp.join("report.md")).unwrap();
    let again =
        render(&tmp) == html && std::fs::read_to_string(tmp.join("report.md")).unwrap() == md;
    assert!(
        again,
        "rendered twice from the same records: not the same bytes"
    );
    check(&html);
    check_md(&md);
    check_width(&html, &tmp);
    let committed = std::fs::read_to_string(root().join("results/report.html")).unwrap();
    check(&committed);
    check_md(&std::fs::read_to_string(root().join("results/report.md")).unwrap());
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn the_checks_catch_what_they_look_for() {
    // A self-comparison, in a note as the timing section wrote it.
    let line = "predicted allocator order, wf-babybear on rv32, fastest first: tlsf (19271607) < tlsf (25052021)";
    assert_eq!(self_comparisons(line).len(), 1);
    assert!(self_comparisons("fastest first: bump (1) < llff (2) < tlsf (3)").is_empty());
    // A table of long unbreakable cells is estimated wider than the page.
    let cell = format!("<td>{}</td>", "x".repeat(60));
    let wide = format!(
        "<table id=\"t\"><tbody><tr>{}</tr></tbody></table>",
        cell.repeat(4)
    );
    assert!(estimated(&wide)[0].1 > PAGE.0);
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
