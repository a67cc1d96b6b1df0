//! Constant-time verdicts (issue 46): from the records of `results/constant-time/run.sh`
//! (`records/<core>-<alloc>/*.json`, written by `mcu-run run`), per backend, core and
//! allocator the honest Fib-1024 proof's instructions beside the largest gap between it and a
//! tampered copy (one per class of damage: public input, out-of-domain value, trace opening,
//! Merkle sibling, FRI fold value, final polynomial, proof-of-work nonce), in instructions
//! and in the timing model's estimated cycles, with the class that makes it. The verifiers
//! run to completion by default (no feature); what the mode costs is measured against records
//! of the commit before its index-independent pass (`before/<core>-<alloc>/`, honest proofs).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::doc::{grouped, Section, Table};

/// A record's honest/tampered key: `(backend, core, allocator)` and the class (`None` for
/// the honest proof), from its file name `<backend>-fib-n1024[.<class>].proof.<core>.<alloc>.json`.
fn key(name: &str) -> Option<(Config, Option<String>)> {
    let (proof, rest) = name.split_once(".proof.")?;
    let (core, alloc) = rest.strip_suffix(".json")?.split_once('.')?;
    let (backend, class) = match proof.split_once('.') {
        Some((b, c)) => (b, Some(c.to_string())),
        None => (proof, None),
    };
    let backend = backend.split("-fib-").next()?.to_string();
    Some(((backend, core.into(), alloc.into()), class))
}

/// `(backend, core, allocator)`.
type Config = (String, String, String);

/// Each configuration's records, with their class (`None` for the honest proof).
type Groups = BTreeMap<Config, Vec<(Option<String>, Value)>>;

/// Instructions and estimated cycles of a record.
fn cost(r: &Value) -> Option<(u64, u64)> {
    Some((
        r["instructions"].as_u64()?,
        r["estimate"]["cycles"].as_u64()?,
    ))
}

/// The records under `dir` (`<core>-<alloc>/*.json`), by configuration.
fn read_groups(dir: &Path) -> Groups {
    let mut groups: Groups = BTreeMap::new();
    for sub in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(sub.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = f.file_name().to_string_lossy().into_owned();
            let Some((k, class)) = key(&name) else {
                continue;
            };
            let Some(v) = std::fs::read_to_string(f.path())
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            else {
                continue;
            };
            groups.entry(k).or_default().push((class, v));
        }
    }
    groups
}

/// The honest proof's record of a configuration.
fn honest(recs: &[(Option<String>, Value)]) -> Option<&Value> {
    recs.iter().find(|(c, _)| c.is_none()).map(|(_, v)| v)
}

/// The section, empty (not shown) without records under `dir`.
pub fn section(dir: &Path) -> Section {
    let intro = "Does a rejection take as long as an acceptance? Every verifier of ours runs \
        to completion (issue 46): once the proof's shape is read, every value check runs to \
        the end and the first failure is the reason. Emulator instructions (QEMU, both cores, \
        each allocator) of the honest Fib-1024 proof and of one tampered copy per class \
        (`prover-host tamper`), each rejected with the check it names; the gap is the largest \
        |tampered - honest| / honest over the classes. Commands and the per-class table: \
        `results/constant-time/README.md`.";
    let mut s = Section::new("constant-time", "Constant-time verdicts", intro);
    let groups = read_groups(dir);
    let head = "backend | core | allocator | honest instructions | rejections | largest gap \
        (instructions) | largest gap (est. cycles) | class";
    let mut t = Table::new("Honest proof against its tampered copies", head);
    for ((backend, core, alloc), recs) in &groups {
        let Some(honest) = honest(recs).and_then(cost) else {
            continue;
        };
        let mut worst: Option<(f64, f64, &str)> = None;
        let mut rejected = 0;
        for (class, v) in recs {
            let (Some(class), Some((ins, cyc))) = (class, cost(v)) else {
                continue;
            };
            if v["result"]
                .as_str()
                .is_some_and(|r| r.starts_with("rejected:"))
            {
                rejected += 1;
            }
            let gi = (ins as f64 - honest.0 as f64).abs() / honest.0 as f64 * 100.0;
            let gc = (cyc as f64 - honest.1 as f64).abs() / honest.1 as f64 * 100.0;
            if worst.is_none_or(|w| gi > w.0) {
                worst = Some((gi, gc, class));
            }
        }
        let Some((gi, gc, class)) = worst else {
            continue;
        };
        t.row(&format!(
            "{backend} | {core} | {alloc} | {} | {rejected} of {} | {gi:.3} % | {gc:.3} % | {class}",
            grouped(honest.0),
            recs.len() - 1
        ));
    }
    if !t.rows.is_empty() {
        s.tables.push(t);
    }
    // What the mode costs: the same honest proofs on the same images built from the commit
    // before its second pass (`before/`, commit in each record): its checks already ran to
    // completion (that pass cost -0.26 % to +0.03 % against the commit before it), its work
    // still followed the query indices.
    let before = read_groups(&dir.with_file_name("before"));
    let head = "backend | core | allocator | first pass: commit | first pass: instructions | \
        index-independent: instructions | cost";
    let mut t = Table::new(
        "What index-independent work costs (honest proofs; the first pass cost under 0.3 %)",
        head,
    );
    for (config @ (backend, core, alloc), recs) in &before {
        let Some(old) = honest(recs) else {
            continue;
        };
        let Some(new) = groups.get(config).and_then(|r| honest(r)) else {
            continue;
        };
        let (Some((a, _)), Some((b, _))) = (cost(old), cost(new)) else {
            continue;
        };
        let commit = old["git_commit"].as_str().unwrap_or("?");
        t.row(&format!(
            "{backend} | {core} | {alloc} | {} | {} | {} | {:+.2} %",
            &commit[..commit.len().min(7)],
            grouped(a),
            grouped(b),
            (b as f64 - a as f64) / a as f64 * 100.0
        ));
    }
    if !t.rows.is_empty() {
        s.tables.push(t);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::key;

    #[test]
    fn record_names_give_backend_core_allocator_and_class() {
        let k = |b: &str, c: &str, a: &str| (b.to_string(), c.to_string(), a.to_string());
        assert_eq!(
            key("p3-m31-fib-n1024.proof.rv32.bump.json"),
            Some((k("p3-m31", "rv32", "bump"), None))
        );
        assert_eq!(
            key("wf-goldilocks-fib-n1024.pow-nonce.proof.m33.tlsf.json"),
            Some((k("wf-goldilocks", "m33", "tlsf"), Some("pow-nonce".into())))
        );
        assert_eq!(key("notes.txt"), None);
    }
}
