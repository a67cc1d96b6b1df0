//! Our encoding of a stwo proof (`StarkProof<H>`, stwo's Blake2s hasher or ours of
//! [`crate::channel`]: the same layout, 32-byte hashes) inside the proof file's payload, and
//! its bounded parser.
//!
//! stwo's own verifier indexes, zips and unwraps the proof's vectors on the assumption that
//! their shape is the one the components imply (about 31 `unwrap`/`assert`/panic sites); a
//! hostile payload decoded by serde would reach them. So the payload is ours, and every count
//! in it is read first and checked against a bound the header and the AIR fix ([`Shape`])
//! before anything is allocated; the fixed counts (trees, columns, samples per column, FRI
//! layers, last-layer coefficients) must equal theirs exactly. Field elements must be
//! canonical (below `2^31 - 1`). A payload that passes holds no shape stwo could panic on.
//!
//! Layout, little-endian, in stwo's field order:
//!
//! | field | encoding |
//! |---|---|
//! | version | `u8` = 1 |
//! | config | `pow_bits u8, log_blowup u8, log_last_layer u8, n_queries u16, fold_step u8, lifting_log_size u8` (must equal the header's) |
//! | commitments | `u8` count (= 3), then 32 bytes each |
//! | sampled values | per tree: `u16` columns; per column: `u8` samples, 16 bytes each (QM31) |
//! | decommitments | per tree: `u16` hashes, 32 bytes each |
//! | queried values | per tree: `u16` columns; per column: `u16` values, 4 bytes each (M31) |
//! | proof of work | `u64` |
//! | FRI first layer | a layer |
//! | FRI inner layers | `u8` count, then each a layer |
//! | FRI last layer | `u16` coefficients (= `2^log_last_layer`), 16 bytes each |
//!
//! A layer is `u16` witness values (16 bytes each), `u16` hashes (32 bytes each) and its
//! 32-byte commitment.

use alloc::vec::Vec;

use picostark_core::VerifyError;
use stwo::core::fields::m31::{BaseField, M31, P};
use stwo::core::fields::qm31::SecureField;
use stwo::core::fri::{FriConfig, FriLayerProof, FriProof};
use stwo::core::pcs::quotients::CommitmentSchemeProof;
use stwo::core::pcs::utils::TreeVec;
use stwo::core::pcs::PcsConfig;
use stwo::core::poly::line::LinePoly;
use stwo::core::proof::StarkProof;
use stwo::core::vcs_lifted::blake2_merkle::Blake2sMerkleHasher;
use stwo::core::vcs_lifted::merkle_hasher::MerkleHasherLifted;
use stwo::core::vcs_lifted::verifier::MerkleDecommitmentLifted;

use crate::channel::RawDigest;

/// The proof type this backend carries, with stwo's Blake2s hasher by default.
pub type Proof<H = Blake2sMerkleHasher> = StarkProof<H>;

/// The payload format version.
pub const VERSION: u8 = 1;

/// Trees in a proof of one component: preprocessed selectors, trace, composition.
pub const TREES: usize = 3;

/// FRI layers beyond any trace this backend takes (log sizes are below 32).
pub const MAX_INNER_LAYERS: usize = 32;

/// What the header and the AIR fix about a proof's shape: exact counts and upper bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The configuration the payload must repeat.
    pub config: PcsConfig,
    /// Per tree, the samples of each column (its length is the tree's column count).
    pub samples: [Vec<u8>; TREES],
    /// The largest committed domain's log size (bounds Merkle paths).
    pub max_log_height: u32,
}

impl Shape {
    /// Distinct query positions: at most the number of queries.
    fn max_queried_values(&self) -> usize {
        self.config.fri_config.n_queries
    }

    /// Merkle siblings a multi-opening can use: one per query and level.
    fn max_hashes(&self) -> usize {
        self.config.fri_config.n_queries * (self.max_log_height as usize + 1)
    }

    /// Values a FRI layer can supply beside the queried ones: the rest of each query's
    /// folding coset.
    fn max_witness(&self) -> usize {
        self.config.fri_config.n_queries << self.config.fri_config.fold_step.min(16)
    }
}

fn malformed(what: &'static str) -> VerifyError {
    VerifyError::MalformedProof(what)
}

/// A cursor over the payload that never reads past its end.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], VerifyError> {
        if self.bytes.len() < n {
            return Err(malformed("stwo payload truncated"));
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, VerifyError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, VerifyError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, VerifyError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, VerifyError> {
        let b = self.take(8)?;
        let mut w = [0u8; 8];
        w.copy_from_slice(b);
        Ok(u64::from_le_bytes(w))
    }

    /// A count, refused above `max` before anything is allocated for it.
    fn count16(&mut self, max: usize, what: &'static str) -> Result<usize, VerifyError> {
        let n = usize::from(self.u16()?);
        if n > max {
            return Err(malformed(what));
        }
        Ok(n)
    }

    fn m31(&mut self) -> Result<BaseField, VerifyError> {
        let v = self.u32()?;
        if v >= P {
            return Err(malformed("stwo payload: field element not canonical"));
        }
        Ok(M31::from_u32_unchecked(v))
    }

    fn qm31(&mut self) -> Result<SecureField, VerifyError> {
        Ok(SecureField::from_m31(
            self.m31()?,
            self.m31()?,
            self.m31()?,
            self.m31()?,
        ))
    }

    fn hash<D: RawDigest>(&mut self) -> Result<D, VerifyError> {
        let mut h = [0u8; 32];
        h.copy_from_slice(self.take(32)?);
        Ok(D::from_raw(h))
    }
}

/// Decodes a payload of the given shape into stwo's proof type (the stock path, the tests):
/// [`decode_view`]'s reads and checks, then the borrowed parts copied out.
pub fn decode<H: MerkleHasherLifted>(bytes: &[u8], shape: &Shape) -> Result<Proof<H>, VerifyError>
where
    H::Hash: RawDigest,
{
    decode_view(bytes, shape).map(ProofView::into_proof)
}

/// `n` hashes of 32 bytes, borrowed from the payload.
#[derive(Clone, Copy, Debug)]
pub struct HashesView<'a>(&'a [u8]);

impl<'a> HashesView<'a> {
    /// How many.
    pub fn len(&self) -> usize {
        self.0.len() / 32
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each hash as the digest type `D`, in order.
    pub fn iter<D: RawDigest>(&self) -> impl Iterator<Item = D> + 'a {
        self.0.chunks_exact(32).map(|c| {
            let mut h = [0u8; 32];
            h.copy_from_slice(c);
            D::from_raw(h)
        })
    }
}

/// Canonical M31 values (checked by the parser), borrowed from the payload.
#[derive(Clone, Copy, Debug)]
pub struct M31sView<'a>(&'a [u8]);

impl M31sView<'_> {
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `i`-th value (`i` below [`M31sView::len`]).
    pub fn get(&self, i: usize) -> BaseField {
        let b = &self.0[4 * i..4 * i + 4];
        M31::from_u32_unchecked(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// QM31 values of canonical coordinates (checked by the parser), borrowed from the payload.
#[derive(Clone, Copy, Debug)]
pub struct QM31sView<'a>(&'a [u8]);

impl<'a> QM31sView<'a> {
    pub fn len(&self) -> usize {
        self.0.len() / 16
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each value, in order.
    pub fn iter(&self) -> impl Iterator<Item = SecureField> + 'a {
        self.0.chunks_exact(16).map(|c| {
            let m = |i: usize| {
                M31::from_u32_unchecked(u32::from_le_bytes([
                    c[4 * i],
                    c[4 * i + 1],
                    c[4 * i + 2],
                    c[4 * i + 3],
                ]))
            };
            SecureField::from_m31(m(0), m(1), m(2), m(3))
        })
    }
}

/// A FRI layer's proof, borrowed from the payload.
#[derive(Clone, Debug)]
pub struct LayerView<'a, H: MerkleHasherLifted> {
    pub fri_witness: QM31sView<'a>,
    pub hash_witness: HashesView<'a>,
    pub commitment: H::Hash,
}

/// A proof as the lean verifier reads it: the same fields as [`Proof`] (the stock path's,
/// [`ProofView::into_proof`]), with the bulk (Merkle hashes,
/// queried values, FRI witnesses) left in the payload instead of copied to the heap; the
/// sampled values and the last layer (a few hundred bytes) are owned, as stwo's point
/// evaluator and line polynomial take them.
#[derive(Clone, Debug)]
pub struct ProofView<'a, H: MerkleHasherLifted> {
    pub config: PcsConfig,
    pub commitments: [H::Hash; TREES],
    pub sampled_values: TreeVec<Vec<Vec<SecureField>>>,
    pub decommitments: [HashesView<'a>; TREES],
    /// Per tree, per column, the queried values.
    pub queried_values: [Vec<M31sView<'a>>; TREES],
    pub proof_of_work: u64,
    pub first_layer: LayerView<'a, H>,
    pub inner_layers: Vec<LayerView<'a, H>>,
    pub last_layer_poly: LinePoly,
}

impl<H: MerkleHasherLifted> ProofView<'_, H>
where
    H::Hash: RawDigest,
{
    /// stwo's proof type, owning copies of the borrowed parts.
    pub fn into_proof(self) -> Proof<H> {
        let layer = |l: &LayerView<'_, H>| FriLayerProof {
            fri_witness: l.fri_witness.iter().collect(),
            decommitment: MerkleDecommitmentLifted {
                hash_witness: l.hash_witness.iter().collect(),
            },
            commitment: l.commitment,
        };
        let values = |c: &M31sView<'_>| (0..c.len()).map(|i| c.get(i)).collect();
        StarkProof(CommitmentSchemeProof {
            config: self.config,
            commitments: TreeVec(self.commitments.to_vec()),
            decommitments: TreeVec(
                self.decommitments
                    .iter()
                    .map(|d| MerkleDecommitmentLifted {
                        hash_witness: d.iter().collect(),
                    })
                    .collect(),
            ),
            queried_values: TreeVec(
                self.queried_values
                    .iter()
                    .map(|tree| tree.iter().map(values).collect())
                    .collect(),
            ),
            proof_of_work: self.proof_of_work,
            fri_proof: FriProof {
                first_layer: layer(&self.first_layer),
                inner_layers: self.inner_layers.iter().map(layer).collect(),
                last_layer_poly: self.last_layer_poly,
            },
            sampled_values: self.sampled_values,
        })
    }
}

impl<'a> Reader<'a> {
    /// `n` items of `size` bytes, borrowed, after `check` on each.
    fn run(
        &mut self,
        n: usize,
        size: usize,
        check: impl Fn(&[u8]) -> bool,
    ) -> Result<&'a [u8], VerifyError> {
        let bytes = self.take(n * size)?;
        if !bytes.chunks_exact(size).all(check) {
            return Err(malformed("stwo payload: field element not canonical"));
        }
        Ok(bytes)
    }

    fn m31s_view(&mut self, n: usize) -> Result<M31sView<'a>, VerifyError> {
        self.run(n, 4, canonical).map(M31sView)
    }

    fn qm31s_view(&mut self, max: usize, what: &'static str) -> Result<QM31sView<'a>, VerifyError> {
        let n = self.count16(max, what)?;
        let all = |c: &[u8]| c.chunks_exact(4).all(canonical);
        self.run(n, 16, all).map(QM31sView)
    }

    fn hashes_view(&mut self, max: usize) -> Result<HashesView<'a>, VerifyError> {
        let n = self.count16(max, "stwo payload: too many Merkle hashes")?;
        self.take(32 * n).map(HashesView)
    }

    fn layer_view<H: MerkleHasherLifted>(
        &mut self,
        shape: &Shape,
    ) -> Result<LayerView<'a, H>, VerifyError>
    where
        H::Hash: RawDigest,
    {
        let fri_witness =
            self.qm31s_view(shape.max_witness(), "stwo payload: FRI witness too long")?;
        let hash_witness = self.hashes_view(shape.max_hashes())?;
        let commitment = self.hash()?;
        Ok(LayerView {
            fri_witness,
            hash_witness,
            commitment,
        })
    }
}

/// Whether 4 little-endian bytes are a canonical M31 value.
fn canonical(b: &[u8]) -> bool {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) < P
}

/// Decodes a payload of the given shape, every count checked before it is used, borrowing
/// the bulk of the proof from `bytes` ([`ProofView`]).
pub fn decode_view<'a, H: MerkleHasherLifted>(
    bytes: &'a [u8],
    shape: &Shape,
) -> Result<ProofView<'a, H>, VerifyError>
where
    H::Hash: RawDigest,
{
    let mut r = Reader { bytes };
    if r.u8()? != VERSION {
        return Err(malformed("stwo payload: unknown version"));
    }
    let pow_bits = u32::from(r.u8()?);
    let log_blowup_factor = u32::from(r.u8()?);
    let log_last_layer_degree_bound = u32::from(r.u8()?);
    let n_queries = usize::from(r.u16()?);
    let fold_step = u32::from(r.u8()?);
    let lifting_log_size = Some(u32::from(r.u8()?));
    let config = PcsConfig {
        pow_bits,
        fri_config: FriConfig {
            log_blowup_factor,
            log_last_layer_degree_bound,
            n_queries,
            fold_step,
        },
        lifting_log_size,
    };
    if config != shape.config {
        return Err(VerifyError::StatementMismatch(
            "stwo payload parameters differ from the header's",
        ));
    }

    if usize::from(r.u8()?) != TREES {
        return Err(malformed("stwo payload: tree count"));
    }
    let commitments = [r.hash()?, r.hash()?, r.hash()?];

    let mut sampled_values = Vec::with_capacity(TREES);
    for samples in &shape.samples {
        if usize::from(r.u16()?) != samples.len() {
            return Err(malformed("stwo payload: sampled column count"));
        }
        let mut tree = Vec::with_capacity(samples.len());
        for &want in samples {
            if r.u8()? != want {
                return Err(malformed("stwo payload: samples per column"));
            }
            tree.push((0..want).map(|_| r.qm31()).collect::<Result<Vec<_>, _>>()?);
        }
        sampled_values.push(tree);
    }

    let decommitments = [
        r.hashes_view(shape.max_hashes())?,
        r.hashes_view(shape.max_hashes())?,
        r.hashes_view(shape.max_hashes())?,
    ];

    let mut queried_values: [Vec<M31sView<'a>>; TREES] = Default::default();
    for (samples, tree) in shape.samples.iter().zip(&mut queried_values) {
        if usize::from(r.u16()?) != samples.len() {
            return Err(malformed("stwo payload: queried column count"));
        }
        tree.reserve_exact(samples.len());
        for _ in samples {
            let n = r.count16(
                shape.max_queried_values(),
                "stwo payload: more queried values than queries",
            )?;
            tree.push(r.m31s_view(n)?);
        }
    }

    let proof_of_work = r.u64()?;
    let first_layer = r.layer_view(shape)?;
    let n_inner = usize::from(r.u8()?);
    if n_inner > MAX_INNER_LAYERS {
        return Err(malformed("stwo payload: too many FRI layers"));
    }
    let inner_layers = (0..n_inner)
        .map(|_| r.layer_view(shape))
        .collect::<Result<Vec<_>, _>>()?;
    let last_len = 1usize << log_last_layer_degree_bound;
    if usize::from(r.u16()?) != last_len {
        return Err(malformed("stwo payload: last layer length"));
    }
    let last = (0..last_len)
        .map(|_| r.qm31())
        .collect::<Result<Vec<_>, _>>()?;
    if !r.bytes.is_empty() {
        return Err(malformed("stwo payload: trailing bytes"));
    }
    Ok(ProofView {
        config,
        commitments,
        sampled_values: TreeVec(sampled_values),
        decommitments,
        queried_values,
        proof_of_work,
        first_layer,
        inner_layers,
        // A power-of-two length, checked above: `LinePoly::new` asserts it.
        last_layer_poly: LinePoly::new(last),
    })
}

/// Why a proof cannot be encoded (a count beyond the format's fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeError(pub &'static str);

struct Writer(Vec<u8>);

impl Writer {
    fn count16(&mut self, n: usize, what: &'static str) -> Result<(), EncodeError> {
        let n = u16::try_from(n).map_err(|_| EncodeError(what))?;
        self.0.extend_from_slice(&n.to_le_bytes());
        Ok(())
    }

    fn u8(&mut self, v: u32, what: &'static str) -> Result<(), EncodeError> {
        self.0.push(u8::try_from(v).map_err(|_| EncodeError(what))?);
        Ok(())
    }

    fn qm31(&mut self, v: SecureField) {
        for c in v.to_m31_array() {
            self.0.extend_from_slice(&c.0.to_le_bytes());
        }
    }

    fn hash<D: RawDigest>(&mut self, h: &D) {
        self.0.extend_from_slice(&h.raw());
    }

    fn layer<H: MerkleHasherLifted>(&mut self, layer: &FriLayerProof<H>) -> Result<(), EncodeError>
    where
        H::Hash: RawDigest,
    {
        self.count16(layer.fri_witness.len(), "FRI witness")?;
        for &v in &layer.fri_witness {
            self.qm31(v);
        }
        self.count16(layer.decommitment.hash_witness.len(), "FRI hashes")?;
        for h in &layer.decommitment.hash_witness {
            self.hash(h);
        }
        self.hash(&layer.commitment);
        Ok(())
    }
}

/// Encodes a proof in the layout above.
pub fn encode<H: MerkleHasherLifted>(proof: &Proof<H>) -> Result<Vec<u8>, EncodeError>
where
    H::Hash: RawDigest,
{
    let p = &proof.0;
    let f = &p.config.fri_config;
    let Some(lifting) = p.config.lifting_log_size else {
        return Err(EncodeError(
            "no lifting log size (this backend always sets one)",
        ));
    };
    let mut w = Writer(Vec::new());
    w.0.push(VERSION);
    w.u8(p.config.pow_bits, "PoW bits")?;
    w.u8(f.log_blowup_factor, "log blowup")?;
    w.u8(f.log_last_layer_degree_bound, "last layer")?;
    w.count16(f.n_queries, "queries")?;
    w.u8(f.fold_step, "fold step")?;
    w.u8(lifting, "lifting log size")?;
    w.u8(p.commitments.len() as u32, "trees")?;
    for h in p.commitments.iter() {
        w.hash(h);
    }
    for tree in p.sampled_values.iter() {
        w.count16(tree.len(), "sampled columns")?;
        for col in tree {
            w.u8(col.len() as u32, "samples")?;
            for &v in col {
                w.qm31(v);
            }
        }
    }
    for d in p.decommitments.iter() {
        w.count16(d.hash_witness.len(), "hashes")?;
        for h in &d.hash_witness {
            w.hash(h);
        }
    }
    for tree in p.queried_values.iter() {
        w.count16(tree.len(), "queried columns")?;
        for col in tree {
            w.count16(col.len(), "queried values")?;
            for v in col {
                w.0.extend_from_slice(&v.0.to_le_bytes());
            }
        }
    }
    w.0.extend_from_slice(&p.proof_of_work.to_le_bytes());
    w.layer(&p.fri_proof.first_layer)?;
    w.u8(p.fri_proof.inner_layers.len() as u32, "FRI layers")?;
    for layer in &p.fri_proof.inner_layers {
        w.layer(layer)?;
    }
    let last: &[SecureField] = &p.fri_proof.last_layer_poly;
    w.count16(last.len(), "last layer")?;
    for &v in last {
        w.qm31(v);
    }
    Ok(w.0)
}
