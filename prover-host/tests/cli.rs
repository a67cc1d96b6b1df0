//! End-to-end tests of the `prover-host` binary: prove, verify, inspect, and its exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_prover-host"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("prover-host runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prover-host-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn prove(backend: &str, n: u64, out: &Path) {
    prove_air(backend, "fib", n, out);
}

fn prove_air(backend: &str, air: &str, n: u64, out: &Path) {
    let o = run(&[
        "--backend",
        backend,
        "--air",
        air,
        "--n",
        &n.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "{backend} n={n}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains(&format!("backend:    {backend}")), "{text}");
    assert!(text.contains("bits (strictest)"), "{text}");
}

#[test]
fn every_backend_proves_and_verifies_and_rejects_tampering() {
    let list = run(&["list"]);
    let listed = String::from_utf8_lossy(&list.stdout).to_string();
    let backends: Vec<&str> = listed
        .lines()
        .filter(|l| {
            l.starts_with("  ")
                && !l.contains("not in this build")
                && l.contains("extension degrees")
        })
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert!(backends.len() >= 3, "{listed}");
    for backend in backends {
        let path = tmp(&format!("{backend}.proof"));
        prove(backend, 1024, &path);
        let o = run(&["verify", path.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{backend}: {}",
            String::from_utf8_lossy(&o.stdout)
        );

        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 40;
        bytes[last] ^= 0x10;
        let bad = tmp(&format!("{backend}-tampered.proof"));
        std::fs::write(&bad, &bytes).unwrap();
        let o = run(&["verify", bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{backend} tampered accepted");
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("rejected:"));

        let o = run(&["inspect", "--json", path.to_str().unwrap()]);
        assert!(o.status.success());
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["backend"], backend);
        assert_eq!(v["n"], 1024);
        assert!(v["security_bits"].as_u64().unwrap() >= 95);
        // All five figures; the default parameters are conjectured-secure, not proven.
        let f = &v["security"];
        for k in ["ethstark", "winterfell_conjectured", "plonky3_conjectured"] {
            assert!(f[k].as_u64().unwrap() >= 95, "{backend} {k}: {f}");
        }
        assert_eq!(f["strictest_conjectured"], v["security_bits"]);
        for k in ["proven_unique", "proven_list"] {
            assert!(f[k].as_u64().unwrap() < 95, "{backend} {k}: {f}");
        }

        // The membership AIR (depth 10, n = 16): accepted, a changed root word rejected.
        let path = tmp(&format!("{backend}-membership.proof"));
        prove_air(backend, "membership", 16, &path);
        let o = run(&["verify", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{backend} membership");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[picostark_core::proof_file::FIXED_HEADER_LEN] ^= 1;
        let bad = tmp(&format!("{backend}-membership-root.proof"));
        std::fs::write(&bad, &bytes).unwrap();
        let o = run(&["verify", bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{backend} wrong root accepted");
    }
}

/// Without `--n` membership proves its 16-row benchmark trace, Fibonacci 1024 rows; an
/// explicit `--n` still wins, and a bad one is refused.
#[test]
fn the_default_trace_length_is_the_air_s_own() {
    let n_of = |args: &[&str], name: &str| {
        let path = tmp(name);
        let mut all = args.to_vec();
        all.extend(["--out", path.to_str().unwrap()]);
        let o = run(&all);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let shown = run(&["inspect", path.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&shown.stdout).to_string();
        let line = text.lines().find(|l| l.starts_with("air:")).unwrap_or("");
        line.split("n = ").nth(1).unwrap_or("").trim().to_string()
    };
    let member = ["--backend", "p3-goldilocks", "--air", "membership"];
    assert_eq!(n_of(&member, "member-default.proof"), "16");
    let fib = ["--backend", "p3-goldilocks", "--air", "fib"];
    assert_eq!(n_of(&fib, "fib-default.proof"), "1024");
    let wide = [
        "--backend",
        "p3-goldilocks",
        "--air",
        "membership",
        "--n",
        "32",
    ];
    assert_eq!(n_of(&wide, "member-32.proof"), "32");
    let bad = run(&[
        "--backend",
        "p3-goldilocks",
        "--air",
        "membership",
        "--n",
        "12",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_policy_regime_and_minimum_come_from_the_command_line() {
    let path = tmp("wf-policy.proof");
    prove("wf-goldilocks", 1024, &path);
    let file = path.to_str().unwrap();
    // Conjectured 102-103 bits, proven 61 (list decoding): accepted or rejected by regime.
    let o = run(&["verify", "--regime", "winterfell", file]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("103 bits winterfell"));
    let o = run(&[
        "verify",
        "--regime",
        "proven",
        "--min-security",
        "100",
        file,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&[
        "verify",
        "--regime",
        "proven-list",
        "--min-security",
        "60",
        file,
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["verify", "--regime", "provable", file]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown regime 'provable'"));
    // Parameters below the command line's policy are refused before proving.
    let o = run(&[
        "--backend",
        "wf-goldilocks",
        "--regime",
        "proven",
        "--min-security",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn proven100_preset_reaches_100_proven_bits() {
    let path = tmp("wf-proven100.proof");
    let out = path.to_str().unwrap();
    let o = run(&[
        "--backend",
        "wf-goldilocks",
        "--preset",
        "proven100",
        "--out",
        out,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["inspect", "--json", out]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["extension_degree"], 3);
    assert!(v["security"]["proven_list"].as_u64().unwrap() >= 100, "{v}");
    let o = run(&["verify", "--regime", "proven", "--min-security", "100", out]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["--backend", "wf-goldilocks", "--preset", "proven99"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn large_trace_for_the_circle_backend() {
    let path = tmp("m31-65536.proof");
    prove("p3-m31", 65536, &path);
    let o = run(&["verify", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for args in [
        &["--backend", "p3-m31", "--n", "1000"][..],
        &["--backend", "no-such-backend"],
        &["--backend", "p3-babybear", "--queries", "8"],
        &["--backend", "p3-m31", "--ext", "3"],
        &["--backend", "p3-m31", "--air", "nope"],
        &["--n", "1024"],
        &["verify", "/nonexistent/file.proof"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

/// Issue 29: every argument combination around the limits either proves (exit 0) or is
/// refused before proving with one line (exit 2); never a panic (exit 101) inside a library.
#[test]
fn argument_grid_never_panics() {
    let mut proved = 0;
    for backend in [
        "p3-babybear",
        "p3-goldilocks",
        "p3-m31",
        "wf-goldilocks",
        "wf-babybear",
    ] {
        for queries in ["1", "255", "256"] {
            for blowup in ["0", "1", "8"] {
                for fold in ["0", "4", "5"] {
                    for fin in ["0", "9"] {
                        for pow in ["0", "41"] {
                            let out = tmp(&format!("grid-{backend}.proof"));
                            let args = [
                                "--backend",
                                backend,
                                "--n",
                                "8",
                                "--queries",
                                queries,
                                "--log-blowup",
                                blowup,
                                "--log-fold-arity",
                                fold,
                                "--log-final-poly-len",
                                fin,
                                "--pow-bits",
                                pow,
                                "--min-security",
                                "0",
                                "--out",
                                out.to_str().unwrap(),
                            ];
                            let o = run(&args);
                            let err = String::from_utf8_lossy(&o.stderr);
                            match o.status.code() {
                                Some(0) => proved += 1,
                                Some(2) => {
                                    let line = err.lines().last().unwrap_or("");
                                    assert!(line.starts_with("error: "), "{args:?}: {err}");
                                    assert!(!line.contains("internal error"), "{args:?}: {err}");
                                }
                                code => panic!("{args:?}: exit {code:?}: {err}"),
                            }
                        }
                    }
                }
            }
        }
    }
    // Some of the grid is provable (queries 1 or 255 at blowup 2, folding 16, no PoW...).
    assert!(proved > 0);
}

/// A run that would not fit the host's memory is refused before proving, with the estimate
/// (p3-goldilocks at n = 2^24, blowup 2^6: about 260 GiB by prover-host/src/memory.rs).
#[test]
fn a_run_too_large_for_the_host_is_refused_with_the_estimate() {
    let o = run(&[
        "--backend",
        "p3-goldilocks",
        "--n",
        "16777216",
        "--min-security",
        "80",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("GiB is available"), "{err}");
    assert!(err.contains("--force"), "{err}");
}

#[test]
fn not_a_proof_file_is_rejected_not_a_crash() {
    let path = tmp("garbage.proof");
    std::fs::write(&path, b"PSTK\x01\x00garbage").unwrap();
    let o = run(&["verify", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("bad proof file"));
}
