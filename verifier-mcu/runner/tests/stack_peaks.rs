//! The firmware's stack budgets (`verifier-mcu/firmware/stack-peaks.txt`, read by its
//! build.rs) against the run records they were measured in: every backend has one line, and
//! each figure is the `stack_peak` of the record the line names, for that backend.

use std::path::Path;

use picostark_core::BackendId;

#[test]
fn every_stack_peak_is_its_records() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("verifier-mcu/firmware/stack-peaks.txt"))
        .expect("the stack-peaks record");
    let mut seen = Vec::new();
    for line in text.lines().map(|l| l.split('#').next().unwrap_or("")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, bytes, record] = words[..] else {
            assert!(words.is_empty(), "malformed line: {line:?}");
            continue;
        };
        let backend = BackendId::from_name(name).unwrap_or_else(|| panic!("backend {name}"));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(root.join(record)).expect(record))
                .expect(record);
        assert_eq!(json["backend"], name, "{record}");
        assert_eq!(
            json["stack_peak"].as_u64(),
            Some(bytes.parse().expect("bytes")),
            "{record}"
        );
        assert!(!seen.contains(&backend), "{name} twice");
        seen.push(backend);
    }
    seen.sort();
    assert_eq!(seen, BackendId::ALL, "one line per declared backend");
}
