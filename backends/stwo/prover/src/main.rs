//! `picostark-stwo-prover`: proves one of our AIRs with stwo's prover and writes the
//! picostark proof file to stdout (`prove`), or prints the selector commitments the verifier
//! trusts (`roots`, the source of `backends/stwo/src/preprocessed_roots.in`).
//!
//! With stwo's own Blake2s channel it proves on stwo's SIMD backend; with our BLAKE3 and
//! SHA-256 channels (`picostark_stwo::channel`) on its CPU backend, which takes any hasher
//! (stwo's SIMD Merkle and grinding code is written for its own hashes only).
//!
//! The constraints are the verifier's own (`picostark_stwo::air::AirEval`), the transcript
//! starts from the same statement (`picostark_stwo::bind_statement`) and the payload is
//! written by the same crate's encoder, so prover and verifier share every convention.

use std::io::Write;
use std::marker::PhantomData;
use std::process::ExitCode;

use picostark_air::AirDef;
use picostark_airs::AirVisitor;
use picostark_core::proof_file::{self, ProofParams};
use picostark_core::{AirId, FieldId, HashId, ProofHeader};
use picostark_stwo::air::{m31_of, reduced, trace_position, AirEval};
use picostark_stwo::channel::{Blake3, ByteHash, ByteMerkleChannel, RawDigest, Sha256};
use picostark_stwo::{
    bind_statement, check_header, lifting_log_size, pcs_config, BACKEND, EXTENSION_DEGREE,
};
use stwo::core::channel::MerkleChannel;
use stwo::core::fields::m31::BaseField;
use stwo::core::pcs::PcsConfig;
use stwo::core::poly::circle::CanonicCoset;
use stwo::core::vcs_lifted::blake2_merkle::Blake2sMerkleChannel;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;
use stwo::prover::backend::simd::SimdBackend;
use stwo::prover::backend::{BackendForChannel, Col, CpuBackend};
use stwo::prover::poly::circle::{CircleEvaluation, PolyOps};
use stwo::prover::poly::twiddles::TwiddleTree;
use stwo::prover::poly::BitReversedOrder;
use stwo::prover::{prove, CommitmentSchemeProver, ComponentProver};

type Column<B> = CircleEvaluation<B, BaseField, BitReversedOrder>;

/// One of our Merkle channels, on stwo's CPU backend: a type of this crate, so that it may
/// declare the backend fit for the channel (stwo's CPU Merkle and grinding code is generic).
#[derive(Default)]
struct OnCpu<M>(PhantomData<M>);

impl<M: MerkleChannel> MerkleChannel for OnCpu<M> {
    type C = M::C;
    type H = M::H;

    fn mix_root(channel: &mut M::C, root: <M::H as MerkleHasherLifted>::Hash) {
        M::mix_root(channel, root)
    }
}

impl<M: MerkleChannel> BackendForChannel<OnCpu<M>> for CpuBackend {}

/// Columns given row by row (`rows[i][c]`), stored in stwo's order.
fn columns<B: PolyOps>(
    log_n: u32,
    width: usize,
    value: impl Fn(usize, usize) -> BaseField,
) -> Vec<Column<B>>
where
    Col<B, BaseField>: FromIterator<BaseField>,
{
    let n = 1usize << log_n;
    let domain = CanonicCoset::new(log_n).circle_domain();
    (0..width)
        .map(|c| {
            let mut stored = vec![BaseField::from(0u32); n];
            for row in 0..n {
                stored[trace_position(row, log_n)] = value(row, c);
            }
            CircleEvaluation::new(domain, stored.into_iter().collect::<Col<B, BaseField>>())
        })
        .collect()
}

/// The selectors `is_first`, `is_last` (in the order the component reads them).
fn selectors<B: PolyOps>(log_n: u32) -> Vec<Column<B>>
where
    Col<B, BaseField>: FromIterator<BaseField>,
{
    let last = (1usize << log_n) - 1;
    columns(log_n, 2, |row, c| {
        let on = if c == 0 { row == 0 } else { row == last };
        BaseField::from(u32::from(on))
    })
}

/// Twiddles for every domain the proof evaluates on.
fn twiddles<B: PolyOps>(log_n: u32, expansion: u32, config: &PcsConfig) -> TwiddleTree<B> {
    let log = log_n + expansion.max(1) + config.fri_config.log_blowup_factor;
    B::precompute_twiddles(CanonicCoset::new(log).circle_domain().half_coset)
}

struct ProveAir {
    header: ProofHeader,
}

impl AirVisitor for ProveAir {
    type Output = Result<Vec<u8>, String>;

    fn visit<A: AirDef>(self, air: &A) -> Result<Vec<u8>, String> {
        match self.header.hash {
            HashId::Blake2s256 => {
                prove_on::<SimdBackend, Blake2sMerkleChannel, A>(&self.header, air)
            }
            HashId::Blake3_256 => {
                prove_on::<CpuBackend, OnCpu<ByteMerkleChannel<Blake3>>, A>(&self.header, air)
            }
            HashId::Sha256 => {
                prove_on::<CpuBackend, OnCpu<ByteMerkleChannel<Sha256>>, A>(&self.header, air)
            }
        }
    }
}

/// Proves `air` for the header `h` on the backend `B` with the Merkle channel `MC`.
fn prove_on<B, MC, A>(h: &ProofHeader, air: &A) -> Result<Vec<u8>, String>
where
    B: BackendForChannel<MC> + PolyOps,
    MC: MerkleChannel,
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
    Col<B, BaseField>: FromIterator<BaseField>,
    A: AirDef,
    for<'a> stwo_constraint_framework::FrameworkComponent<AirEval<'a, A>>: ComponentProver<B>,
{
    let log_n = u32::from(h.log_n);
    // The AIR as this backend proves it: intermediate columns where it passes degree 2.
    let air = &reduced(air);
    let trace = air.generate_trace(1 << log_n, m31_of);
    let public: Vec<BaseField> = trace.public_inputs.clone();
    let eval = AirEval {
        air,
        log_n,
        public_inputs: public.clone(),
    };
    let composition_log =
        stwo_constraint_framework::FrameworkEval::max_constraint_log_degree_bound(&eval);
    let expansion = composition_log - log_n;
    let config = pcs_config(
        &h.params,
        lifting_log_size(composition_log, h.params.log_blowup),
    );
    let twiddles = twiddles::<B>(log_n, expansion, &config);
    let channel = &mut MC::C::default();
    bind_statement(channel, h, &config, &public);
    let mut scheme = CommitmentSchemeProver::<B, MC>::new(config, &twiddles);
    let mut builder = scheme.tree_builder();
    builder.extend_evals(selectors::<B>(log_n));
    builder.commit(channel);
    let mut builder = scheme.tree_builder();
    builder.extend_evals(columns::<B>(log_n, trace.width, |row, c| trace.row(row)[c]));
    builder.commit(channel);
    let component = picostark_stwo::component(eval);
    let proof = prove::<B, MC>(&[&component], channel, scheme)
        .map_err(|e| format!("stwo prover: {e:?}"))?;
    let payload =
        picostark_stwo::payload::encode(&proof).map_err(|e| format!("encoding: {}", e.0))?;
    let public_u64: Vec<u64> = public.iter().map(|v| u64::from(v.0)).collect();
    Ok(proof_file::encode(h, &public_u64, &payload))
}

/// The selectors' root at `2^log_n` rows and blowup `2^log_blowup`, lifted `extra` levels
/// above the trace's evaluation domain, on the backend `B` with the Merkle channel `MC`.
fn selector_root_on<B, MC>(log_n: u32, log_blowup: u32, extra: u32) -> [u8; 32]
where
    B: BackendForChannel<MC> + PolyOps,
    MC: MerkleChannel,
    <MC::H as MerkleHasherLifted>::Hash: RawDigest,
    Col<B, BaseField>: FromIterator<BaseField>,
{
    let mut config = pcs_config(&picostark_stwo::DEFAULT_PARAMS, log_n + log_blowup + extra);
    config.fri_config.log_blowup_factor = log_blowup;
    let twiddles = twiddles::<B>(log_n, extra + 1, &config);
    let channel = &mut MC::C::default();
    let mut scheme = CommitmentSchemeProver::<B, MC>::new(config, &twiddles);
    let mut builder = scheme.tree_builder();
    builder.extend_evals(selectors::<B>(log_n));
    builder.commit(channel);
    scheme.roots()[0].raw()
}

/// [`selector_root_on`] under `hash`.
fn selector_root(hash: HashId, log_n: u32, log_blowup: u32, extra: u32) -> [u8; 32] {
    fn ours<H: ByteHash>(log_n: u32, log_blowup: u32, extra: u32) -> [u8; 32] {
        selector_root_on::<CpuBackend, OnCpu<ByteMerkleChannel<H>>>(log_n, log_blowup, extra)
    }
    match hash {
        HashId::Blake2s256 => {
            selector_root_on::<SimdBackend, Blake2sMerkleChannel>(log_n, log_blowup, extra)
        }
        HashId::Blake3_256 => ours::<Blake3>(log_n, log_blowup, extra),
        HashId::Sha256 => ours::<Sha256>(log_n, log_blowup, extra),
    }
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => {
            let v = args.get(i + 1).ok_or(format!("{name} needs a value"))?;
            v.parse()
                .map(Some)
                .map_err(|_| format!("{name}: cannot parse '{v}'"))
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("prove") => {
            let air: String = arg(args, "--air")?.ok_or("--air is required")?;
            let air = AirId::from_name(&air).ok_or(format!("unknown AIR '{air}'"))?;
            let d = picostark_stwo::DEFAULT_PARAMS;
            let params = ProofParams {
                log_blowup: arg(args, "--log-blowup")?.unwrap_or(d.log_blowup),
                num_queries: arg(args, "--queries")?.unwrap_or(d.num_queries),
                pow_bits: arg(args, "--pow-bits")?.unwrap_or(d.pow_bits),
                log_fold_arity: arg(args, "--fold-step")?.unwrap_or(d.log_fold_arity),
                log_final_poly_len: arg(args, "--log-last-layer")?.unwrap_or(d.log_final_poly_len),
            };
            let hash = match arg::<String>(args, "--hash")? {
                None => HashId::Blake2s256,
                Some(name) => HashId::from_name(&name).ok_or(format!("unknown hash '{name}'"))?,
            };
            let header = ProofHeader {
                backend: BACKEND,
                field: FieldId::Mersenne31,
                extension_degree: EXTENSION_DEGREE,
                hash,
                air,
                log_n: arg(args, "--log-n")?.ok_or("--log-n is required")?,
                params,
            };
            check_header(&header).map_err(|e| e.to_string())?;
            let bytes = picostark_airs::with_air(air, FieldId::Mersenne31, ProveAir { header })
                .ok_or("a custom AIR: this prover has the built-in AIRs only")??;
            std::io::stdout()
                .write_all(&bytes)
                .map_err(|e| e.to_string())
        }
        Some("roots") => {
            let max_log_n: u32 =
                arg(args, "--max-log-n")?.unwrap_or(u32::from(picostark_stwo::MAX_LOG_N));
            let max_blowup: u32 = arg(args, "--max-log-blowup")?.unwrap_or(4);
            println!(
                "// Generated by `picostark-stwo-prover roots`: \
                 (hash byte, log2 n, log blowup, lifting levels above the trace's domain, root)."
            );
            println!("[");
            for hash in [HashId::Blake2s256, HashId::Blake3_256, HashId::Sha256] {
                let top = max_log_n.min(picostark_stwo::max_log_n(hash).into());
                for log_n in u32::from(picostark_stwo::MIN_LOG_N)..=top {
                    for b in 1..=max_blowup {
                        for extra in 0..=2 {
                            let r = selector_root(hash, log_n, b, extra);
                            let bytes: Vec<String> = r.iter().map(|x| format!("{x}")).collect();
                            let h = hash as u8;
                            println!("    ({h}, {log_n}, {b}, {extra}, [{}]),", bytes.join(", "));
                        }
                    }
                }
            }
            println!("]");
            Ok(())
        }
        _ => Err(
            "usage: picostark-stwo-prover prove --air A --log-n L [--log-blowup B \
                  --queries Q --pow-bits G --fold-step S --log-last-layer F \
                  --hash blake2s-256|blake3-256|sha256] | roots \
                  [--max-log-n L --max-log-blowup B]"
                .into(),
        ),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("picostark-stwo-prover: {e}");
            ExitCode::FAILURE
        }
    }
}
