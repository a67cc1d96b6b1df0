//! The command lines the repository's scripts and documents run (`verifier-mcu/ci.sh`,
//! `results/**/run.sh`, `examples/vdf/run.sh`, the READMEs, `compare all`, `prover-host
//! tune`), each parsed with the values the hand-made parser before clap gave them, and
//! command lines that must be refused with an error.

use std::path::PathBuf;

use clap::{CommandFactory, Parser};

use super::*;
use crate::board::Patch;

fn parse(line: &str) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("mcu-run").chain(line.split_whitespace()))
}

fn command(line: &str) -> Command {
    parse(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .command
}

/// The arguments of `line`, which must be the subcommand `$variant`.
macro_rules! args {
    ($variant:ident, $line:expr) => {
        match command($line) {
            Command::$variant(a) => a,
            other => panic!("{}: parsed as {other:?}", $line),
        }
    };
}

fn paths(list: &[&str]) -> Vec<PathBuf> {
    list.iter().map(PathBuf::from).collect()
}

#[test]
fn the_command_line_definition_is_consistent() {
    Cli::command().debug_assert();
}

/// Every distinct invocation found in the scripts and documents (shell variables replaced by
/// example values), which must parse.
const INVOCATIONS: &[&str] = &[
    // verifier-mcu/ci.sh
    "run --build-only --core m33 --features p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear,user-air",
    "run --build-only --core rv32 --features wf-goldilocks,code-in-ram --heap 131072",
    "run --build-only --core m33 --window stock-wf --iterations 1",
    "run --build-only --core rv32 --isa rv32imac --features p3-babybear,user-air",
    "tamper --kind flip p/b-fib-1024.proof p/b-fib-1024.flip.tampered",
    "tamper --kind header-sweep p/b-fib-1024.proof p/b-fib-1024",
    "run --core m33 --features a,b --repeat 2 --out o p/a.proof p/b.proof",
    "run --core rv32 --features a,b --expect rejected --out o/tampered p/a.tampered p/b.tampered",
    "run --core m33 --features stwo-m31 --repeat 2 --out o/stwo p/stwo/s.proof",
    "run --core m33 --features a,b --sha256-engine --out o/sha256-engine p/a-sha256.proof",
    "run --core m33 --features wf-goldilocks,code-in-ram --heap 131072 --out o/ram p/w.proof",
    "run --core rv32 --isa rv32imac --features a,b --out o/rv32imac p/a.proof",
    "run --core m33 --window stock-wf --iterations 1 --out o/stock p/w.proof",
    "uf2 fw.elf fw.uf2 --family rp2350-arm",
    "check-image fw.elf fw.uf2 --family rp2350-riscv",
    "board --core m33 --proof p.proof fw.elf",
    "board --core rv32 --proof p.proof --flip-proof --windows 0 fw.elf",
    // examples/vdf/run.sh
    "run --core m33 --features a,b,user-air --expect accepted out/vdf/v.proof",
    "run --core m33 --features wf-goldilocks,code-in-ram --heap 131072 --expect rejected out/vdf/v.proof",
    // results/constant-time/run.sh, results/membership/run.sh, results/scaling/run.sh,
    // results/circle/run.sh
    "run --core rv32 --alloc llff --features a --iterations 1 --repeat 2 --out d h1.proof h2.proof",
    "run --core m33 --features a,code-in-ram-membership,lean-only --out o --heap 131072 --sha256-engine e.proof",
    "run --core m33 --heap 393216 --out o/emulator a.proof b.proof",
    "run --core m33 --features a --heap 65536 --profile --out o/blake3 w/a-blake3.proof",
    "run --core m33 --features a --heap 65536 --profile --sha256-engine --out o/engine w/a-engine.proof",
    // results/baseline/timing/board-image/run.sh
    "board --core rv32 --alloc tlsf --proof g.proof --out here --start 100039b4 --end 10003a04 --return 10001ed4 --accept 100039e8:x10=23 --skip 1000297a --skip 100029aa rv32-tlsf.elf",
    "board --core m33 --windows 0 --expect rejected --patch 10044638=7f --start 10002cf0 --end 10002d2c --return 10001ae8 --patch 1003b80a=4ff00000 --accept 10002d4c:r10=23 --skip 10001dd2 m33-tlsf.elf",
    // results/placement/run.sh and README.md
    "board --core m33 --proof p.proof --image one-backend --out r/one/xip --profile r/profiles/one/b.m33.profile.txt fw.elf",
    "hot-set --budget 30720 --elf x.m33.elf@p3-babybear --elf x.rv32.elf@p3-babybear --out link/hot-set-p3-babybear.txt a.profile.misses.txt b.profile.misses.txt",
    "hot-set --budget 40960 --elf x.m33.elf@p3-babybear,p3-goldilocks,p3-m31,wf-goldilocks,wf-babybear --out link/hot-set-multi.txt a.txt",
    // results/baseline/timing/field-order/reproduce.sh, results/baseline/*.md, TIMING.md
    "run --window stock-wf --repeat 2 --core m33 --elf elf/q.elf --layout-elf elf/b.elf --out o p.proof",
    "run --core m33 --window stock-wf --repeat 2 --alloc bump --heap 393216 --layout-elf l/m33-bump.elf --out o p.proof",
    "run --core m33 --window stock-wf --elf q.elf --layout-elf m33-tlsf.elf --xip-miss 151 p.proof",
    "run --core rv32 --embedded --heap 65536 --features p3-m31 p.proof",
    "run --core rv32 --elf fw.elf p.proof",
    "run --core m33 --image all-backend --out results/placement/qemu-image p.proof",
    "run --core m33 --features hash-cal --iterations 1 --out results/baseline/hash-cal h.proof",
    "run --core rv32 --expect rejected p3bb.tampered p3bb.header-log-n-24.tampered",
    "tamper p3bb.proof p3bb.tampered",
    // compare all, prover-host tune
    "run --core m33 --alloc tlsf --heap 393216 --timeout 900 --expect accepted --features a,b --out raw/s1 a.proof",
    "run --core m33 --iterations 1 --features wf-goldilocks --out d/mcu-m33 a.proof b.proof",
    // verifier-mcu/README.md, README.md, results/field-bench/README.md
    "capture --port /dev/ttyACM0 --out board.log",
    "capture --port /dev/ttyACM0 --runs 3 --out m33-wfg.log",
    "field-bench --core m33 --out results/field-bench",
    "field-bench --core rv32 --isa rv32imac --placement xip --elf fw.elf --timeout 60",
    "profile-parts p.profile.iteration1.txt --record r.json --trees 64@10,32@9 --queries 27",
    "bringup-proof b.proof --backend wf-goldilocks --bytes 300",
    "board --core m33 --xip-data-only --xip-miss 160 --timeout 100 fw.elf",
];

#[test]
fn every_invocation_in_the_scripts_parses() {
    for line in INVOCATIONS {
        if let Err(e) = parse(line) {
            panic!("{line}: {e}");
        }
    }
}

#[test]
fn run_flags_keep_their_values() {
    let a = args!(
        Run,
        "run --core m33 --features a,b --repeat 2 --out o p/a.proof p/b.proof"
    );
    assert_eq!(a.core, Core::M33);
    assert_eq!(a.features.as_deref(), Some("a,b"));
    assert_eq!(
        (a.repeat, a.heap, a.iterations, a.timeout),
        (2, 262_144, 3, 600)
    );
    assert_eq!(a.out, Some(PathBuf::from("o")));
    assert_eq!(a.proofs, paths(&["p/a.proof", "p/b.proof"]));
    assert_eq!((a.alloc.as_str(), a.expect), ("tlsf", Expect::Accepted));
    assert_eq!((a.isa, a.window), (None, cmd::run::Window::Full));
    assert!(!a.build_only && !a.embedded && !a.profile && !a.sha256_engine);

    let a = args!(
        Run,
        "run --core rv32 --features a,b --expect rejected --out o/t p/a.tampered p/b.tampered"
    );
    assert_eq!((a.core, a.expect), (Core::Rv32, Expect::Rejected));
    assert_eq!(a.proofs, paths(&["p/a.tampered", "p/b.tampered"]));

    let a = args!(
        Run,
        "run --build-only --core rv32 --isa rv32imac --features a,user-air"
    );
    assert!(a.build_only && a.proofs.is_empty());
    assert_eq!(a.isa, Some(Isa::Rv32imac));

    let a = args!(
        Run,
        "run --build-only --core m33 --window stock-wf --iterations 1"
    );
    assert_eq!((a.window, a.iterations), (cmd::run::Window::StockWf, 1));
    assert_eq!(a.features, None);

    let a = args!(
        Run,
        "run --core m33 --features a --heap 65536 --profile --sha256-engine --out o w/e.proof"
    );
    assert!(a.profile && a.sha256_engine);
    assert_eq!(a.heap, 65_536);

    let a = args!(
        Run,
        "run --core m33 --window stock-wf --repeat 2 --alloc bump --heap 393216 --layout-elf l/b.elf --elf q.elf --xip-miss 151 --timeout 900 --image all-backend p.proof"
    );
    assert_eq!(
        (a.alloc.as_str(), a.heap, a.timeout),
        ("bump", 393_216, 900)
    );
    assert_eq!(a.layout_elf, Some(PathBuf::from("l/b.elf")));
    assert_eq!(a.elf, Some(PathBuf::from("q.elf")));
    assert_eq!(
        (a.xip_miss, a.image.as_deref()),
        (Some(151), Some("all-backend"))
    );

    let a = args!(
        Run,
        "run --core rv32 --embedded --heap 65536 --features p3-m31 p.proof"
    );
    assert!(a.embedded);

    // Options after the proofs, and a flag given twice keeps its last value, as before.
    let a = args!(
        Run,
        "run --core m33 a.proof --heap 1 b.proof --heap 2 --out x"
    );
    assert_eq!(a.proofs, paths(&["a.proof", "b.proof"]));
    assert_eq!((a.heap, a.out), (2, Some(PathBuf::from("x"))));
}

#[test]
fn board_flags_keep_their_values_and_order() {
    let a = args!(
        Board,
        "board --core m33 --windows 0 --expect rejected --patch 10044638=7f --start 10002cf0 --end 0x10002d2c --return 10001ae8 --patch 1003b80a=4ff00000 --accept 10002d4c:r10=23 --skip 10001dd2 --skip 10001e0e m33-tlsf.elf"
    );
    assert_eq!(a.elf, PathBuf::from("m33-tlsf.elf"));
    assert_eq!(
        (a.core, a.windows, a.expect),
        (Core::M33, Some(0), Some(Expect::Rejected))
    );
    assert_eq!((a.start, a.end), (Some(0x1000_2cf0), Some(0x1000_2d2c)));
    assert_eq!(a.skips, [0x1000_1dd2, 0x1000_1e0e]);
    assert_eq!(a.returns, [0x1000_1ae8]);
    assert_eq!(
        a.patches,
        [
            Patch::Bytes(0x1004_4638, vec![0x7f]),
            Patch::Bytes(0x1003_b80a, vec![0x4f, 0xf0, 0x00, 0x00])
        ]
    );
    assert_eq!(a.accept.as_deref(), Some("10002d4c:r10=23"));
    assert_eq!((a.alloc.as_str(), a.timeout), ("tlsf", 300));

    let a = args!(
        Board,
        "board --core rv32 --proof p.proof --flip-proof --windows 0 fw.elf"
    );
    assert!(a.flip_proof && !a.xip_data_only);
    assert_eq!(
        (a.proof, a.windows, a.expect),
        (Some(PathBuf::from("p.proof")), Some(0), None)
    );

    let a = args!(
        Board,
        "board --core m33 --proof p.proof --image one-backend --out r --profile f.txt --alloc llff fw.elf"
    );
    assert_eq!(a.image.as_deref(), Some("one-backend"));
    assert_eq!(a.profile.as_deref(), Some("f.txt"));
    assert_eq!(a.out, Some(PathBuf::from("r")));
    assert_eq!(a.alloc, "llff");
}

#[test]
fn the_other_subcommands_keep_their_values() {
    let a = args!(
        HotSet,
        "hot-set --budget 30720 --elf x.m33.elf@p3-babybear --elf x.rv32.elf@p3-babybear,wf-goldilocks --out l.txt a.txt b.txt"
    );
    assert_eq!(a.budget, 30_720);
    assert_eq!(
        a.images,
        [
            "x.m33.elf@p3-babybear",
            "x.rv32.elf@p3-babybear,wf-goldilocks"
        ]
    );
    assert_eq!(a.profiles, paths(&["a.txt", "b.txt"]));
    assert_eq!(a.out, Some(PathBuf::from("l.txt")));

    let a = args!(Uf2, "uf2 fw.elf fw.uf2 --family rp2350-riscv");
    assert_eq!(
        (a.elf, a.out),
        (PathBuf::from("fw.elf"), PathBuf::from("fw.uf2"))
    );
    assert_eq!(a.family, Some(Family::Riscv));
    assert_eq!(args!(Uf2, "uf2 fw.elf fw.uf2").family, None);

    let a = args!(CheckImage, "check-image fw.elf fw.uf2 --family rp2350-arm");
    assert_eq!(
        (a.uf2, a.family),
        (Some(PathBuf::from("fw.uf2")), Family::Arm)
    );
    assert_eq!(
        args!(CheckImage, "check-image fw.elf --family rp2350-arm").uf2,
        None
    );

    let a = args!(Tamper, "tamper --kind header-sweep p.proof prefix");
    assert_eq!(
        (a.input, a.out.as_str()),
        (PathBuf::from("p.proof"), "prefix")
    );
    assert_eq!(a.kind, "header-sweep");
    assert_eq!(args!(Tamper, "tamper p.proof p.tampered").kind, "flip");
    for kind in cmd::tamper::TAMPER_KINDS {
        let a = args!(Tamper, &format!("tamper --kind {kind} p.proof t"));
        assert_eq!(a.kind, *kind);
    }

    let a = args!(BringupProof, "bringup-proof b.proof");
    assert_eq!(
        (a.out, a.backend.as_str(), a.bytes),
        (PathBuf::from("b.proof"), "p3-babybear", 4096)
    );

    let a = args!(
        Capture,
        "capture --port /dev/ttyACM0 --runs 3 --out m33.log"
    );
    assert_eq!(
        (a.port.as_str(), a.runs, a.baud, a.timeout),
        ("/dev/ttyACM0", 3, 115_200, 600)
    );
    assert_eq!(a.out, Some(PathBuf::from("m33.log")));

    let a = args!(
        FieldBench,
        "field-bench --core rv32 --isa rv32imac --placement xip --out d"
    );
    assert_eq!((a.core, a.isa), (Core::Rv32, Some(Isa::Rv32imac)));
    assert_eq!(a.placement, cmd::field_bench::Placement::Xip);
    assert_eq!((a.out, a.timeout), (Some(PathBuf::from("d")), 600));
    let a = args!(FieldBench, "field-bench --core m33");
    assert_eq!(
        (a.isa, a.placement),
        (None, cmd::field_bench::Placement::Sram)
    );

    let a = args!(
        ProfileParts,
        "profile-parts p.txt --record r.json --trees 64@10,32@9 --queries 27 --unique-leaves --compressions 900 --compressions-source counted --level 100 --command -x --committed-record c.json --out o.json"
    );
    assert_eq!(a.profile, PathBuf::from("p.txt"));
    assert_eq!(
        (a.record.as_str(), a.trees.as_str(), a.queries),
        ("r.json", "64@10,32@9", 27)
    );
    assert!(a.unique_leaves);
    assert_eq!(
        (a.compressions, a.compressions_source.as_deref()),
        (Some(900), Some("counted"))
    );
    assert_eq!(
        (a.level.as_deref(), a.command.as_deref()),
        (Some("100"), Some("-x"))
    );
    assert_eq!(a.committed_record.as_deref(), Some("c.json"));
    assert_eq!(a.out.as_deref(), Some("o.json"));
}

/// Command lines that must give a parse error (never a panic, never a run).
#[test]
fn bad_command_lines_are_errors() {
    for line in [
        "",
        "nope",
        "run --core m33 --nope p.proof",
        "run --core",
        "run p.proof",
        "run --core m34 p.proof",
        "run --core m33 --expect maybe p.proof",
        "run --core m33 --alloc mimalloc p.proof",
        "run --core m33 --window half p.proof",
        "run --core rv32 --isa rv64gc p.proof",
        "run --core m33 --repeat two p.proof",
        "run --core m33 --heap -1 p.proof",
        "run --core m33 p.proof --profile=yes",
        "board --core m33 --skip zz fw.elf",
        "board --core m33 --patch 10000000=abc fw.elf",
        "board --core m33 --windows",
        "board --core m33 a.elf b.elf",
        "hot-set --budget 1 a.txt",
        "hot-set --elf a.elf@p3-babybear a.txt",
        "uf2 fw.elf",
        "uf2 fw.elf fw.uf2 --family rp2040",
        "check-image fw.elf",
        "check-image fw.elf a.uf2 b.uf2 --family rp2350-arm",
        "tamper --kind nope p.proof t",
        "tamper p.proof",
        "bringup-proof",
        "profile-parts p.txt --record r.json --trees 64@10",
        "field-bench --core m33 --placement flash",
        // What the hand-made parser's own test refused for `capture`.
        "capture --out x.log",
        "capture --port /dev/x --speed 9600",
        "capture --port /dev/x --baud fast",
        "capture --port /dev/x --baud 4294967296",
        "capture --port /dev/x --timeout -1",
        "capture --port /dev/x stray",
    ] {
        assert!(parse(line).is_err(), "{line:?} parsed");
    }
    let kind = |line: &str| parse(line).err().map(|e| e.kind());
    use clap::error::ErrorKind;
    assert_eq!(
        kind("run --core m33 --nope p.proof"),
        Some(ErrorKind::UnknownArgument)
    );
    assert_eq!(kind("run --core"), Some(ErrorKind::InvalidValue));
    assert_eq!(
        kind("run --core m34 p.proof"),
        Some(ErrorKind::InvalidValue)
    );
    assert_eq!(
        kind("run --core m33 --repeat two"),
        Some(ErrorKind::ValueValidation)
    );
    assert_eq!(
        kind("capture --out x.log"),
        Some(ErrorKind::MissingRequiredArgument)
    );
}

#[test]
fn help_names_every_subcommand_and_the_run_flags() {
    let help = Cli::command().render_long_help().to_string();
    for name in [
        "run",
        "board",
        "hot-set",
        "uf2",
        "check-image",
        "tamper",
        "bringup-proof",
        "capture",
        "profile-parts",
        "field-bench",
    ] {
        assert!(help.contains(&format!("  {name} ")), "{name} in\n{help}");
    }
    let mut cli = Cli::command();
    let run = cli.find_subcommand_mut("run").expect("run");
    let help = run.render_long_help().to_string();
    for flag in [
        "--build-only",
        "--sha256-engine",
        "--layout-elf",
        "stock-wf",
        "rv32imac",
    ] {
        assert!(help.contains(flag), "{flag} in\n{help}");
    }
}
