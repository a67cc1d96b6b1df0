//! `mcu-run profile-parts`: one verification's profile in issue 28's parts (`parts.rs`).

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::{hot_set, parts};

/// Split one verification's profile into leaf hashing, Merkle paths, FRI folding,
/// constraint evaluation, DEEP quotients, transcript and the rest, and write JSON.
///
/// The profile is `run --profile`'s `*.profile.iteration1.txt`; the parts come from
/// function-name patterns per verifier, hashing split by a documented compression-count
/// model (`parts.rs`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The one-iteration profile (`run --profile`'s `*.profile.iteration1.txt`).
    #[arg(value_name = "PROFILE")]
    pub profile: PathBuf,
    /// The run's record (its backend, hash and estimate).
    #[arg(long, value_name = "RECORD.json", required = true)]
    pub record: String,
    /// The Merkle trees the verifier opens, leaf bytes and depth each.
    #[arg(long, value_name = "BYTES@DEPTH,..", required = true)]
    pub trees: String,
    /// The proof's query count (1..255).
    #[arg(long, value_name = "Q", required = true)]
    pub queries: u64,
    /// Count each tree's leaves as the expected distinct positions of the queries (not one per
    /// query).
    #[arg(long)]
    pub unique_leaves: bool,
    /// The compressions of the verification, when the record has no engine count.
    #[arg(long, value_name = "N")]
    pub compressions: Option<u64>,
    /// Where `--compressions` comes from.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub compressions_source: Option<String>,
    /// The committed record of the same row, set beside (another run, maybe another commit).
    #[arg(long, value_name = "RECORD.json")]
    pub committed_record: Option<String>,
    /// The security level the output names.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub level: Option<String>,
    /// The command the output names.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub command: Option<String>,
    /// Write the JSON here [default: standard output].
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<String>,
}

/// The hash compressions of the verification, where that count comes from, and the SHA-256
/// engine's cycles (0 without the engine).
struct Total {
    compressions: u64,
    source: String,
    engine_cycles: u64,
}

pub fn run(args: Args) -> Result<(), String> {
    let profile_path = args.profile.display();
    let text =
        std::fs::read_to_string(&args.profile).map_err(|e| format!("{profile_path}: {e}"))?;
    let rows = hot_set::parse_profile(&text)?;
    // `# block-profile total T (exact count of the same regions: E)`.
    let exact: u64 = text
        .lines()
        .find_map(|l| l.split_once("exact count of the same regions: "))
        .and_then(|(_, r)| r.trim_end_matches(')').parse().ok())
        .ok_or("the profile has no exact-count header line")?;
    let record_path = &args.record;
    let record = read_json(record_path)?;
    let field = |k: &str| record.get(k).cloned().unwrap_or(Value::Null);
    let backend = record["backend"].as_str().unwrap_or_default();
    let verifier = parts::Verifier::for_backend(backend)
        .ok_or_else(|| format!("{record_path}: no name patterns for backend {backend:?}"))?;
    let hash_impl = record["hash_impl"].as_str().unwrap_or_default();
    let hash = match hash_impl {
        h if h.starts_with("blake3") => parts::Hash::Blake3,
        h if h.starts_with("sha256") => parts::Hash::Sha256,
        h => return Err(format!("{record_path}: unknown hash_impl {h:?}")),
    };
    let trees = args
        .trees
        .split(',')
        .map(parts::Tree::parse)
        .collect::<Result<Vec<_>, _>>()?;
    let queries = args.queries;
    if queries == 0 || queries > 255 {
        return Err("--queries 1..255 is required".into());
    }
    let unique = args.unique_leaves;
    // The total: the engine's calls when the run charged it (measured), else `--compressions`.
    let engine = record
        .pointer("/estimate/sha256_engine")
        .filter(|v| !v.is_null());
    let total = total(&args, engine)?;
    // Under `--sha256-engine` the plugin neither counts nor times the offloaded compression,
    // but its blocks stay in the block profile: they are the engine's work (its cycles), not
    // instructions of the run.
    let (rows, offloaded) = parts::without_offloaded(rows, engine.is_some());
    let split = parts::HashSplit::new(total.compressions, &trees, queries, hash, unique)?;
    let classes = parts::by_class(verifier, &rows);
    let parts = parts::parts(&classes, &split, total.engine_cycles);
    let profile_total: u64 = rows.iter().map(|r| r.0).sum();
    let record_insns = record["instructions"].as_u64();
    print!("{}", parts::render(&parts));
    let doc = json!({
        "schema": "picostark-profile-parts-1",
        "source": "emulator: QEMU instruction counts by function (block profile of the first genuine iteration, mcu-run run --profile) + RP2350 timing model v7 for the engine charge",
        "backend": backend,
        "field": field("field"),
        "extension": field("extension"),
        "hash": if engine.is_some() { "sha256-engine".to_string() } else { hash_impl.to_string() },
        "placement": field("placement"),
        "core": field("core"),
        "level": args.level,
        "proof_bytes": field("proof_bytes"),
        "params": field("params"),
        "security_bits": field("security_bits"),
        "command": args.command,
        "record_instructions": record_insns,
        "record_est_ms": record.pointer("/estimate/ms"),
        "record_commit": field("git_commit"),
        "committed_record": committed_record(args.committed_record.as_deref())?,
        "profile_instructions": profile_total,
        "profile_exact_instructions": exact,
        "profile_equals_record": record_insns == Some(profile_total),
        "profile_equals_exact": exact == profile_total,
        "offloaded_instructions_not_counted": offloaded,
        "parts": parts_json(&parts, profile_total),
        "hash_split": hash_split_json(hash, &total, &split, queries, &trees, unique),
        "classes": classes_json(&classes),
    });
    let json = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())? + "\n";
    match &args.out {
        Some(out) => {
            std::fs::write(out, json).map_err(|e| format!("{out}: {e}"))?;
            println!("wrote {out}");
        }
        None => print!("{json}"),
    }
    Ok(())
}

fn read_json(path: &str) -> Result<Value, String> {
    serde_json::from_str(&std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?)
        .map_err(|e| format!("{path}: {e}"))
}

/// The verification's compressions: the SHA-256 engine's calls in the record when the run
/// charged the engine (measured), else `--compressions` with its source.
fn total(args: &Args, engine: Option<&Value>) -> Result<Total, String> {
    match (engine, args.compressions) {
        (Some(e), _) => {
            let blocks = e["blocks"].as_u64().ok_or("engine record without blocks")?;
            let per = e["cycles_per_block"].as_u64().unwrap_or(0);
            Ok(Total {
                compressions: blocks,
                source:
                    "measured: the SHA-256 engine's calls in the record (timing model offload count)"
                        .to_string(),
                engine_cycles: blocks * per,
            })
        }
        (None, Some(n)) => Ok(Total {
            compressions: n,
            source: args
                .compressions_source
                .clone()
                .ok_or("--compressions needs --compressions-source")?,
            engine_cycles: 0,
        }),
        (None, None) => Err("no engine count in the record: give --compressions N".into()),
    }
}

/// The committed record of the same row (`--committed-record`), its figures beside.
fn committed_record(path: Option<&str>) -> Result<Value, String> {
    let Some(p) = path else {
        return Ok(Value::Null);
    };
    let r = read_json(p)?;
    Ok(json!({
        "file": p,
        "instructions": r["instructions"],
        "est_ms": r.pointer("/estimate/ms"),
        "proof_bytes": r["proof_bytes"],
        "commit": r["git_commit"],
    }))
}

fn parts_json(parts: &[(&'static str, u64, u64, &'static str)], profile_total: u64) -> Value {
    parts
        .iter()
        .map(|(name, n, e, how)| {
            json!({
                "part": name,
                "instructions": n,
                "share": *n as f64 / profile_total.max(1) as f64,
                "engine_cycles": e,
                "how": how,
            })
        })
        .collect()
}

fn hash_split_json(
    hash: parts::Hash,
    total: &Total,
    split: &parts::HashSplit,
    queries: u64,
    trees: &[parts::Tree],
    unique: bool,
) -> Value {
    json!({
        "hash": match hash { parts::Hash::Blake3 => "blake3", parts::Hash::Sha256 => "sha256" },
        "compressions_total": total.compressions,
        "compressions_total_source": total.source,
        "leaf_compressions": split.leaf,
        "node_compressions": split.nodes,
        "transcript_compressions": split.transcript,
        "queries": queries,
        "trees": trees.iter().map(|t| format!("{}@{}", t.leaf_bytes, t.depth)).collect::<Vec<_>>(),
        "leaves_per_tree": if unique { "expected distinct positions of q uniform draws" } else { "q (every query hashes its leaf)" },
        "model": "leaf = leaves x the hash's compressions per leaf; nodes = expected distinct Merkle nodes above q uniform positions per tree; transcript = total - leaf - nodes. The profile cannot tell these apart (one compression function): the measured hashing instructions (and the engine's cycles) are split in these proportions.",
    })
}

fn classes_json(classes: &[parts::ClassTotal]) -> Value {
    classes
        .iter()
        .map(|(c, n, fns)| {
            json!({
                "class": c.name(),
                "instructions": n,
                "top_functions": fns.iter().take(5).map(|(n, s)| json!([n, s])).collect::<Vec<_>>(),
            })
        })
        .collect()
}
