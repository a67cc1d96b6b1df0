//! Where the runner finds the repository it belongs to. A leaf: the command modules and
//! `main` read it, it reads none of them.

use std::path::{Path, PathBuf};

/// The repository root (this crate is at `verifier-mcu/runner`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}
