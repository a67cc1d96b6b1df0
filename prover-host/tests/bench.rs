//! `prover-host bench` end to end: every point is proved in a child process, and the record
//! carries the child's prove time and peak resident set size.

use std::process::Command;

use picostark_core::record::RunRecord;

#[test]
fn bench_records_prove_time_and_child_peak_rss() {
    let out = std::env::temp_dir().join(format!("pstk-bench-{}.json", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_prover-host"))
        .args([
            "bench",
            "--backend",
            "wf-goldilocks",
            "--air",
            "fib,chain16",
            "--log-n",
            "6",
            "--repeat",
            "1",
            "--out",
        ])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let records: Vec<RunRecord> = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let _ = std::fs::remove_file(&out);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].air, "fib");
    assert_eq!(records[1].air, "chain16");
    for r in &records {
        assert_eq!((r.source.as_str(), r.n), ("host", 64));
        assert!(r.prove_ms.is_some_and(|ms| ms > 0.0));
        // A child that ran a prover has touched at least a megabyte.
        assert!(r.host_peak_rss.is_some_and(|b| b > 1 << 20), "{r:?}");
    }
    // The wide AIR's proof is larger than Fibonacci's at the same n.
    assert!(records[1].proof_bytes > records[0].proof_bytes);
}

#[test]
fn bench_refuses_an_unknown_air() {
    let out = Command::new(env!("CARGO_BIN_EXE_prover-host"))
        .args(["bench", "--air", "sha256", "--out", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
