//! The burst-scale delay of ON/OFF real-time streams whose bursts meet at
//! a link at their peak rate (issue 22, "Bursts that come back to back" in
//! docs/reproduction.md): a Markov-modulated fluid queue (Anick, Mitra and
//! Sondhi, Bell Syst. Tech. J. 61(8), 1982) of n homogeneous exponential
//! ON/OFF sources.
//!
//! **Assumptions.** (1) A stream (000_… §3: a source–destination pair with
//! a fixed destination, `workload::stream_destinations`) is a fluid source:
//! ON for a burst, exponential with mean N·g cycles (N messages, g cycles
//! apart), sending M/g flits per cycle (its peak rate r), then OFF for an
//! exponential time of mean I. (2) A link serves its real-time fluid at
//! c flits per cycle, work conserving (real time goes first at the NI per
//! flit and at the router's output by its Vtick, so c = 1 for the class at
//! the top). (3) The streams are independent. (4) The delay a flit sees is
//! the link's fluid backlog ahead of it served at c, and all streams at a
//! link share it alike, so a tagged stream's mean delay is the link's mean
//! delay per flit, E[Q]/Λ with Λ = n·p·r (p = N·g/(N·g + I), Little).
//! (5) The two links a stream meets at its peak rate, its source's
//! injection link (its own K streams) and its destination's output link
//! (itself and the m other streams that drew the same destination, m
//! binomial over the 15·K − 1 other streams of a 16-port router with
//! success 1/15), add their delays (first order: the source link smooths
//! what reaches the destination, which this leaves out — except on two
//! ports, where the destination link carries only what one source link
//! sent, at most c, and so adds nothing). `BurstClass::tandem_delay`
//! keeps them in tandem on any number of ports, with the router's VC
//! turnaround in both links' capacities; `BurstClass::coupled_delay`
//! slows the source link's other streams by the blocking their messages
//! meet at their destinations while holding the source's one VC. The packet-scale
//! part (messages of M flits, Poisson-like) stays with `onoff_source.rs`;
//! the burst-scale part here is zero wherever n·r ≤ c, e.g. 000_… Fig. 12's
//! own sources (r = 32/850 or less, 14 streams: 0.53 ≤ 1).
//!
//! **The fluid queue.** States i = 0..=n sources ON: birth rate (n − i)α,
//! α = 1/I; death rate iβ, β = 1/(N g); drift d_i = i·r − c. The joint
//! distribution F_i(x) = P(i ON, Q ≤ x) solves F'(x) D = F(x) Q_gen, so
//! F(x) = π + Σ_k a_k φ_k e^{z_k x} over the eigenvalues z_k < 0 of
//! φ (Q_gen − z D) = 0 (real for a birth–death generator; one per state of
//! positive drift), with F_i(0) = 0 for every state of positive drift
//! (the queue cannot be empty while it grows). Then
//! P(Q > x) = −Σ_k a_k (Σ_i φ_{k,i}) e^{z_k x} and
//! E[Q] = Σ_k a_k (Σ_i φ_{k,i}) / z_k.
//!
//! **Numerics.** det(Q_gen − zD) by its three-term recurrence (rescaled at
//! every step; only its sign is used), roots bracketed on a logarithmic
//! grid of negative z (refined ×4 up to 4 times until the count equals the
//! number of positive-drift states) and bisected to 200 steps; φ_k by
//! Gaussian elimination with partial pivoting on the transposed matrix
//! with one component fixed; a state of zero drift is moved off zero by
//! 10⁻⁹ of c. A mean load n·p·r ≥ c is `Saturated` (Anick–Mitra–Sondhi's
//! stability condition; for one source it is exactly where the negative
//! root α/c − β/(r − c) reaches 0); a root count that does not match, more
//! than `MAX_SOURCES` sources, or a delay that comes out negative or not
//! finite is `NotSolved`; a solution whose boundary probabilities miss
//! their exact constraints (`check_boundary`: the system is ill-conditioned,
//! e.g. 14 sources with r > c, where every state with a source ON
//! overloads) is solved again without eigenvalues when only the all-OFF
//! state drains (`direct_mean_backlog`: E[Q] from two integrated forms of
//! the fluid equation, a linear system of n + 1 unknowns), else
//! `IllConditioned` — never a number.

use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FluidLink {
    /// n, the ON/OFF sources at the link.
    pub sources: usize,
    /// Mean ON time (a burst), cycles.
    pub on_mean: f64,
    /// Mean OFF time, cycles.
    pub off_mean: f64,
    /// r, flits per cycle while ON.
    pub peak: f64,
    /// c, flits per cycle the link serves.
    pub capacity: f64,
}

#[derive(Clone, Debug, Error, PartialEq)]
pub enum FluidError {
    #[error("saturated: mean load {load:.4} ≥ capacity {capacity:.4}")]
    Saturated { load: f64, capacity: f64 },
    #[error("fluid queue not solved: {0}")]
    NotSolved(String),
    /// The spectral solution fails its own consistency check
    /// (`check_boundary`): its number would be meaningless.
    #[error("fluid queue ill-conditioned: {0}")]
    IllConditioned(String),
}

/// How far the boundary probabilities may miss their exact constraints
/// (absolute, in probability; `check_boundary`). Well-conditioned links of
/// `fig12_000_onoff_bursts.toml` meet them to about 1e-12.
pub const BOUNDARY_TOLERANCE: f64 = 1e-6;

/// The most binomial weight of destination counts `BurstClass::delay`
/// leaves out (saturated or not solved) before it gives no number.
pub const MAX_EXCLUDED_WEIGHT: f64 = 0.01;

/// Most sources a link is solved for: beyond about 27 the spectral
/// system loses its precision in f64 (measured: 26 and 27 sources of
/// `fig12_000_onoff_bursts.toml`'s K = 14 streams continue the smooth
/// rise, 28 jumps from 98 to 207 cycles and 30 comes out negative).
pub const MAX_SOURCES: usize = 24;

/// The key of a solved link: n and the bits of (on, off, r, c, B).
type LinkKey = (usize, [u64; 5]);

/// Solved links a thread remembers before it starts afresh (a bound on
/// the memo's memory, about 100 bytes an entry).
const MEMO_LIMIT: usize = 100_000;

thread_local! {
    /// `FluidLink::mean_delay_within`'s results by link (see there).
    static SOLVED: std::cell::RefCell<std::collections::HashMap<LinkKey, Result<f64, FluidError>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

impl FluidLink {
    fn drift(&self, i: usize, capacity: f64) -> f64 {
        i as f64 * self.peak - capacity
    }

    /// The mean delay per flit at the link, cycles: E[Q]/Λ.
    pub fn mean_delay(&self) -> Result<f64, FluidError> {
        self.mean_delay_within(f64::INFINITY)
    }

    /// E[min(Q, B)]/Λ: the part of `mean_delay` that a buffer of B flits
    /// holds, the backlog beyond B counted elsewhere (`cube_held.rs`).
    /// From the spectral solution, P(Q > x) = −Σ_k a_k (Σ_i φ_{k,i}) e^{z_k x}
    /// integrated over [0, B]: Σ_k a_k (Σ_i φ_{k,i}) (1 − e^{z_k B})/z_k
    /// (B = ∞ gives E[Q]). A finite B where only the direct method solves
    /// the link (no distribution) is `IllConditioned`.
    pub fn mean_delay_within(&self, buffer: f64) -> Result<f64, FluidError> {
        // The rows of one model run solve the same links again and again
        // (fig12b_000_onoff_cube6_bursts.toml: 3,768 solutions of 458
        // distinct links); the solution is a pure function of the link and
        // B, so a memo returns the identical result.
        let key = (self.sources, [self.on_mean, self.off_mean, self.peak, self.capacity, buffer].map(f64::to_bits));
        if let Some(hit) = SOLVED.with(|memo| memo.borrow().get(&key).cloned()) {
            return hit;
        }
        let solved = self.solve_mean_delay_within(buffer);
        SOLVED.with(|memo| {
            let mut memo = memo.borrow_mut();
            if memo.len() >= MEMO_LIMIT {
                memo.clear();
            }
            memo.insert(key, solved.clone());
        });
        solved
    }

    fn solve_mean_delay_within(&self, buffer: f64) -> Result<f64, FluidError> {
        let n = self.sources;
        let p = self.on_mean / (self.on_mean + self.off_mean);
        let load = n as f64 * p * self.peak;
        if !(load < self.capacity) {
            return Err(FluidError::Saturated { load, capacity: self.capacity });
        }
        // No state overloads the link (all n ON at most c): it never
        // queues, however many sources (checked before the size limit).
        if self.drift(n, self.capacity) <= 0.0 {
            return Ok(0.0);
        }
        if n > MAX_SOURCES {
            return Err(FluidError::NotSolved(format!("{n} sources, more than {MAX_SOURCES}")));
        }
        // A state of zero drift would leave a singular D: move c off it.
        let c = if (0..=n).any(|i| self.drift(i, self.capacity).abs() < 1e-12) { self.capacity * (1.0 + 1e-9) } else { self.capacity };
        let positive: Vec<usize> = (0..=n).filter(|&i| self.drift(i, c) > 0.0).collect();
        let (alpha, beta) = (1.0 / self.off_mean, 1.0 / self.on_mean);
        let binom = |i: usize| (0..i).fold(1.0, |acc, j| acc * (n - j) as f64 / (j + 1) as f64);
        let pi: Vec<f64> = (0..=n).map(|i| binom(i) * p.powi(i as i32) * (1.0 - p).powi((n - i) as i32)).collect();
        let diag = |i: usize, z: f64| -((n - i) as f64 * alpha + i as f64 * beta) - z * self.drift(i, c);
        let det = |z: f64| {
            let (mut prev, mut cur) = (1.0f64, diag(0, z));
            for j in 1..=n {
                let next = diag(j, z) * cur - (n - j + 1) as f64 * alpha * j as f64 * beta * prev;
                let s = next.abs().max(cur.abs()).max(1e-300);
                prev = cur / s;
                cur = next / s;
            }
            cur
        };
        // Gershgorin: |z| ≤ max_i 2|q_ii| / |d_i|.
        let zmax = 2.0 * (0..=n).map(|i| 2.0 * ((n - i) as f64 * alpha + i as f64 * beta) / self.drift(i, c).abs()).fold(0.0, f64::max);
        let zmin = zmax * 1e-14;
        let mut roots = Vec::new();
        let mut grid = 4000usize;
        for _ in 0..5 {
            roots.clear();
            let at = |k: usize| -zmax * (zmin / zmax).powf(k as f64 / grid as f64);
            let (mut a, mut fa) = (at(0), det(at(0)));
            for k in 1..=grid {
                let b = at(k);
                let fb = det(b);
                if (fa > 0.0) != (fb > 0.0) {
                    let (mut lo, mut hi, mut flo) = (a, b, fa);
                    for _ in 0..200 {
                        let mid = 0.5 * (lo + hi);
                        // lo and hi adjacent doubles: the remaining
                        // iterations could not move either (same root).
                        if mid == lo || mid == hi {
                            break;
                        }
                        let fm = det(mid);
                        if (fm > 0.0) == (flo > 0.0) {
                            (lo, flo) = (mid, fm);
                        } else {
                            hi = mid;
                        }
                    }
                    roots.push(0.5 * (lo + hi));
                }
                (a, fa) = (b, fb);
            }
            if roots.len() == positive.len() {
                break;
            }
            grid *= 4;
        }
        if roots.len() != positive.len() {
            return Err(FluidError::NotSolved(format!("{} negative eigenvalues for {} overload states", roots.len(), positive.len())));
        }
        let phis: Vec<Vec<f64>> = roots.iter().map(|&z| self.left_null_vector(z, c, alpha, beta)).collect();
        // Σ_k a_k φ_{k,i} = −π_i for every state i of positive drift.
        let m = positive.len();
        let mut sys: Vec<Vec<f64>> = positive.iter().map(|&i| phis.iter().map(|ph| ph[i]).chain([-pi[i]]).collect()).collect();
        let a = solve(&mut sys, m).ok_or_else(|| FluidError::NotSolved("singular boundary system".into()))?;
        let eq = match self.check_boundary(&pi, &phis, &a, c, load) {
            Ok(()) => (0..m).map(|k| a[k] * phis[k].iter().sum::<f64>() * (1.0 - (roots[k] * buffer).exp()) / roots[k]).sum(),
            // Every state with a source ON overloads the link: the mean
            // needs no eigenvalues (`direct_mean_backlog`).
            Err(e) if positive.len() == n && buffer == f64::INFINITY => self.direct_mean_backlog(&pi, c, alpha, beta).ok_or(e)?,
            Err(e) => return Err(e),
        };
        let delay = eq / load;
        if !delay.is_finite() || delay < -1e-9 {
            return Err(FluidError::NotSolved(format!("mean backlog {eq} flits")));
        }
        Ok(delay.max(0.0))
    }

    /// E[Q] without the spectral solution, for a link where only state 0
    /// (all OFF) drains (r > c): the ill-conditioned case of
    /// `check_boundary`. Then F_i(0) = 0 for i ≥ 1 and F_0(0) = (c − Λ)/c
    /// (`check_boundary`'s identity). With G_i = ∫_0^∞ (π_i − F_i(x)) dx,
    /// E[Q] = Σ_i G_i; integrating F'D = FQ over x gives
    /// (π − F(0)) D = ∫ (F − π) Q dx = −G Q, and integrating x·F'D = x·FQ
    /// by parts gives G D = −(∫ x (π − F) dx) Q, whose product with the
    /// all-ones vector (Q's rows sum to 0) is Σ_i G_i d_i = 0. So G solves
    /// the columns 0..n − 1 of G Q = (F(0) − π) D (column n is their
    /// sum's negative) and Σ_i G_i d_i = 0: n + 1 linear equations,
    /// solved by `solve`. `None` when singular or not finite and ≥ 0.
    fn direct_mean_backlog(&self, pi: &[f64], c: f64, alpha: f64, beta: f64) -> Option<f64> {
        let n = self.sources;
        let load = pi.iter().enumerate().map(|(i, p)| p * i as f64 * self.peak).sum::<f64>();
        let f0 = (c - load) / c;
        // Column j of G Q: G_{j−1}(n − j + 1)α + G_j q_jj + G_{j+1}(j + 1)β
        // = ((F(0) − π) D)_j.
        let mut sys: Vec<Vec<f64>> = (0..n)
            .map(|j| {
                let mut r = vec![0.0; n + 2];
                if j > 0 {
                    r[j - 1] = (n - j + 1) as f64 * alpha;
                }
                r[j] = -((n - j) as f64 * alpha + j as f64 * beta);
                r[j + 1] = (j + 1) as f64 * beta;
                r[n + 1] = (if j == 0 { f0 } else { 0.0 } - pi[j]) * self.drift(j, c);
                r
            })
            .collect();
        sys.push((0..=n).map(|i| self.drift(i, c)).chain([0.0]).collect());
        let g = solve(&mut sys, n + 1)?;
        let eq: f64 = g.iter().sum();
        (eq.is_finite() && eq >= 0.0).then_some(eq)
    }

    /// The solution's own consistency, which an ill-conditioned spectral
    /// system loses first (it then gives huge or negative delays that look
    /// like numbers). At x = 0, F_i(0) = π_i + Σ_k a_k φ_{k,i} must be a
    /// probability no larger than π_i in every state, and summing
    /// F'(x) D = F(x) Q_gen over the states (Q_gen's rows sum to 0) makes
    /// Σ_i F_i(x) d_i constant, equal at x = ∞ to Σ_i π_i d_i = Λ − c:
    /// the link's lost capacity c − Λ is Σ_i F_i(0)(−d_i), the capacity it
    /// leaves unused while empty (with one underloaded state 0,
    /// P(Q = 0) = (c − Λ)/c exactly). Both within `BOUNDARY_TOLERANCE`.
    fn check_boundary(&self, pi: &[f64], phis: &[Vec<f64>], a: &[f64], c: f64, load: f64) -> Result<(), FluidError> {
        let f0: Vec<f64> = (0..pi.len()).map(|i| pi[i] + a.iter().zip(phis).map(|(ak, ph)| ak * ph[i]).sum::<f64>()).collect();
        let tol = BOUNDARY_TOLERANCE;
        if let Some(i) = (0..pi.len()).find(|&i| !(f0[i] >= -tol && f0[i] <= pi[i] + tol)) {
            return Err(FluidError::IllConditioned(format!("P({i} ON, empty) = {:.3e} outside [0, π = {:.3e}]", f0[i], pi[i])));
        }
        let unused: f64 = f0.iter().enumerate().map(|(i, f)| -f * self.drift(i, c)).sum();
        if !((unused - (c - load)).abs() <= tol * c) {
            return Err(FluidError::IllConditioned(format!("unused capacity {unused:.6e} where c − Λ = {:.6e}", c - load)));
        }
        Ok(())
    }

    /// φ with φ (Q_gen − zD) = 0, φ_n = 1 … by elimination on the
    /// transposed tridiagonal matrix with its last equation dropped.
    fn left_null_vector(&self, z: f64, c: f64, alpha: f64, beta: f64) -> Vec<f64> {
        let n = self.sources;
        // Columns of (Q_gen − zD) are the equations for φ: column j reads
        // φ_{j−1}(n−j+1)α + φ_j (q_jj − z d_j) + φ_{j+1}(j+1)β = 0.
        let mut rows: Vec<Vec<f64>> = (0..n)
            .map(|j| {
                let mut r = vec![0.0; n + 2];
                if j > 0 {
                    r[j - 1] = (n - j + 1) as f64 * alpha;
                }
                r[j] = -((n - j) as f64 * alpha + j as f64 * beta) - z * self.drift(j, c);
                r[j + 1] = (j + 1) as f64 * beta;
                r
            })
            .collect();
        // Fix φ_n = 1: move its column to the right-hand side.
        for r in rows.iter_mut() {
            r[n + 1] = -r[n];
            r[n] = 0.0;
        }
        let mut sys: Vec<Vec<f64>> = rows.into_iter().map(|r| r[..n].iter().copied().chain([r[n + 1]]).collect()).collect();
        let mut phi = solve(&mut sys, n).unwrap_or_else(|| vec![f64::NAN; n]);
        phi.push(1.0);
        phi
    }
}

/// Gaussian elimination with partial pivoting on an m × (m + 1) augmented
/// matrix; `None` when singular.
fn solve(a: &mut [Vec<f64>], m: usize) -> Option<Vec<f64>> {
    for col in 0..m {
        let piv = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[piv][col] == 0.0 || !a[piv][col].is_finite() {
            return None;
        }
        a.swap(col, piv);
        for r in 0..m {
            if r != col {
                let f = a[r][col] / a[col][col];
                if f != 0.0 {
                    for k in col..=m {
                        a[r][k] -= f * a[col][k];
                    }
                }
            }
        }
    }
    Some((0..m).map(|k| a[k][m] / a[k][k]).collect())
}

/// T, the cycles a VC adds between two messages that follow each other on
/// it (docs/microarchitecture.md §7, "Back-to-back messages on one input
/// VC": the next header does RC in the cycle after the previous tail's ST,
/// then VA): a VC passes a message of M flits per M + T cycles.
pub const VC_TURNAROUND: f64 = 2.0;

/// The cycles an output link adds between two messages of different input
/// ports for its one VC of the class: the waiting header did RC already
/// and does VA in the cycle after the previous tail's ST (§7's stages;
/// measured on fig12_000_onoff_bursts.toml: such messages delivered
/// M + 1 = 33 cycles apart, docs/reproduction.md "Tandem links on 16
/// ports").
pub const OUTPUT_TURNAROUND: f64 = 1.0;

/// One ON/OFF real-time class on a single router of `ports` ports, K
/// `streams` per port with fixed uniform destinations (assumption 5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurstClass {
    pub ports: usize,
    pub streams: usize,
    /// N, messages per burst.
    pub mean_burst: f64,
    /// g, cycles between a burst's messages.
    pub gap: f64,
    /// I, mean OFF time, cycles.
    pub off_mean: f64,
    /// M, flits per message.
    pub flits: f64,
    /// c, flits per cycle a link gives the class: 1 for the top class;
    /// for a lower one 1 less the mean flit load of the real-time classes
    /// above it (a reduced-capacity approximation: they preempt it per flit
    /// at the NI and by their smaller Vtick at the output).
    pub capacity: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BurstDelay {
    /// At the source's injection link (the own K streams).
    pub source_link: f64,
    /// At the destination's output link, averaged over the stable
    /// destination counts m.
    pub destination_link: f64,
    /// The binomial weight of the counts m whose link is saturated or not
    /// solved, left out of `destination_link` (which is renormalized).
    pub excluded_weight: f64,
}

impl BurstClass {
    fn link(&self, sources: usize) -> FluidLink {
        FluidLink { sources, on_mean: self.mean_burst * self.gap, off_mean: self.off_mean, peak: self.flits / self.gap, capacity: self.capacity }
    }

    /// The flits per cycle the class's one VC at the source's router input
    /// passes: a message per M + `VC_TURNAROUND` cycles of the class's
    /// capacity c, c·M/(M + 2).
    pub fn source_vc_capacity(&self) -> f64 {
        self.capacity * self.flits / (self.flits + VC_TURNAROUND)
    }

    /// The source link with the turnaround (docs/reproduction.md, "The
    /// K ≥ 2 source link, message by message"): the K streams' messages
    /// take the class's one VC in FIFO order, one per M + 2 cycles whatever
    /// stream each is of (measured: every back-to-back pair delivered
    /// M + 2 apart, and the FIFO replay of constant service M + 2
    /// reproduces 99.98 % of the simulated deliveries), so the link is the
    /// fluid queue of the K superposed streams served at
    /// `source_vc_capacity`.
    pub fn source_link_with_turnaround(&self) -> Result<f64, FluidError> {
        FluidLink { capacity: self.source_vc_capacity(), ..self.link(self.streams) }.mean_delay()
    }

    /// A stream as the destination link sees it, after its source link:
    /// the fluid the source link lets through, at most its capacity c_s
    /// per cycle. A burst of mean N·M flits sent at r > c_s leaves it at
    /// c_s, so its ON time stretches to T_on·r/c_s and the OFF time shrinks
    /// by as much (the cycle T_on + I, hence the mean rate p·r, is kept);
    /// at r ≤ c_s it passes unchanged. This takes the source link's output
    /// as the one stream's own (exact for K = 1 while the link empties
    /// between bursts; for K ≥ 2 the streams of one source share c_s, which
    /// only caps them further).
    pub(crate) fn after_source_link(&self, sources: usize) -> Result<FluidLink, FluidError> {
        let at_source = self.link(sources);
        let out = at_source.peak.min(self.source_vc_capacity());
        let on_mean = at_source.on_mean * at_source.peak / out;
        let off_mean = at_source.off_mean - (on_mean - at_source.on_mean);
        if !(off_mean > 0.0) {
            return Err(FluidError::Saturated { load: at_source.on_mean * at_source.peak / (at_source.on_mean + at_source.off_mean), capacity: self.source_vc_capacity() });
        }
        Ok(FluidLink { on_mean, off_mean, peak: out, capacity: self.destination_capacity(), ..at_source })
    }

    /// The destination link of `tandem_delay` with `sources` streams at it
    /// (the tagged one and m = sources − 1 others), each after its source
    /// link: for a given draw of the streams' destinations.
    pub fn tandem_destination_link(&self, sources: usize) -> Result<f64, FluidError> {
        self.after_source_link(sources)?.mean_delay()
    }

    /// The flits per cycle the destination's output link passes when the
    /// messages come from different input ports: c·M/(M + 1) (a waiting
    /// header has done RC and does VA in the cycle after the previous
    /// tail's ST: `OUTPUT_TURNAROUND`).
    pub fn destination_capacity(&self) -> f64 {
        self.capacity * self.flits / (self.flits + OUTPUT_TURNAROUND)
    }

    /// B̄, the mean cycles a message's header waits at its destination's
    /// output for messages of other input ports while it holds its source's
    /// one VC (docs/reproduction.md, "The source link coupled backwards").
    /// The other inputs send the tagged stream's destination
    /// λ_o = (P − 2)K/(P − 1) streams' worth of p·r flits per cycle (every
    /// stream of the P − 2 other inputs picks it with probability
    /// 1/(P − 1); the own source's streams share its VC and never block it
    /// at the output), each message holding the output M/c_d cycles, so a
    /// header finds it taken with probability ρ_o = λ_o/c_d and then, taking
    /// every handover as a new look with the same chance, waits for a
    /// geometric number of them, mean ρ_o/(1 − ρ_o): B̄ = ρ_o/(1 − ρ_o)·M/c_d.
    /// Two ports: no other input, 0. ρ_o ≥ 1 is `Saturated`.
    pub fn destination_blocking(&self) -> Result<f64, FluidError> {
        if self.ports < 3 {
            return Ok(0.0);
        }
        let others = ((self.ports - 2) * self.streams) as f64 / (self.ports - 1) as f64 * self.stream_rate();
        self.blocking_behind(others)
    }

    /// p·r, the mean flits per cycle one stream sends.
    fn stream_rate(&self) -> f64 {
        let l = self.link(1);
        l.on_mean / (l.on_mean + l.off_mean) * l.peak
    }

    /// The mean cycles a header waits for an output that `others` flits
    /// per cycle of other input ports' messages take, each holding it
    /// M/c_d cycles (`destination_capacity`): ρ_o = others/c_d, and a
    /// geometric number of messages ahead, B = ρ_o/(1 − ρ_o)·M/c_d.
    /// ρ_o ≥ 1 is `Saturated`.
    fn blocking_behind(&self, others: f64) -> Result<f64, FluidError> {
        self.blocking_behind_holds(others, self.flits / self.destination_capacity())
    }

    /// `blocking_behind` when each of the other messages holds the output
    /// `hold` cycles (M/c_d there): they take it a fraction
    /// ρ = (others/M)·hold of the cycles, and a header waits for a
    /// geometric number of them, ρ/(1 − ρ)·hold. ρ ≥ 1 is `Saturated`.
    fn blocking_behind_holds(&self, others: f64, hold: f64) -> Result<f64, FluidError> {
        let rho = others * hold / self.flits;
        if !(rho < 1.0) {
            return Err(FluidError::Saturated { load: others, capacity: self.flits / hold });
        }
        Ok(rho / (1.0 - rho) * hold)
    }

    /// The class's one source VC with every message's blocking B̄ in its
    /// service time: a message per (M + `VC_TURNAROUND`)/c + B̄ cycles,
    /// c·M/(M + 2 + c·B̄) flits per cycle.
    pub fn coupled_source_capacity(&self) -> Result<f64, FluidError> {
        Ok(self.capacity_with_blocking(self.destination_blocking()?))
    }

    /// c·M/(M + 2 + c·B̄) for a mean blocking B̄ per message.
    fn capacity_with_blocking(&self, blocking: f64) -> f64 {
        self.capacity * self.flits / (self.flits + VC_TURNAROUND + self.capacity * blocking)
    }

    /// The source link coupled backwards to a mean blocking B̄ that every
    /// message meets downstream while it holds the source's one VC: the
    /// tagged stream's own backlog (the one-stream link at c_s,
    /// `source_vc_capacity`), since its own messages' blocking is the
    /// queue of the links it crosses, counted there; the other K − 1
    /// streams' part (the K-stream link less the one-stream link) at
    /// c_b = `capacity_with_blocking`(B̄). K = 1: the K-stream link at c_s.
    fn coupled_source_link(&self, blocking: f64) -> Result<f64, FluidError> {
        let (own, others) = self.coupled_source_parts(blocking)?;
        Ok(own + others)
    }

    /// `coupled_source_link`'s two parts for a mean blocking B̄: the own
    /// stream's (the one-stream link at c_s) and the other K − 1 streams'
    /// (the K-stream link less the one-stream link, both at c_b; 0 at
    /// K = 1, where the K-stream link is the own one at c_s). Public so the
    /// trace (`onoff_k1_trace`) can set them beside the measured waits and
    /// evaluate them at a measured B̄.
    pub fn coupled_source_parts(&self, blocking: f64) -> Result<(f64, f64), FluidError> {
        if self.streams == 1 {
            return Ok((self.source_link_with_turnaround()?, 0.0));
        }
        let (c_s, c_b) = (self.source_vc_capacity(), self.capacity_with_blocking(blocking));
        let own = FluidLink { capacity: c_s, ..self.link(1) }.mean_delay()?;
        let all = FluidLink { capacity: c_b, ..self.link(self.streams) }.mean_delay()?;
        let own_blocked = FluidLink { capacity: c_b, ..self.link(1) }.mean_delay()?;
        Ok((own, all - own_blocked))
    }

    /// `tandem_delay` with the source link coupled backwards to the
    /// destination links (`coupled_source_link` with B̄ =
    /// `destination_blocking`): the other K − 1 streams' messages block at
    /// other destinations while holding the VC. K = 1: `tandem_delay`.
    pub fn coupled_delay(&self) -> Result<BurstDelay, FluidError> {
        let forward = self.tandem_delay()?;
        if self.streams == 1 {
            return Ok(forward);
        }
        Ok(BurstDelay { source_link: self.coupled_source_link(self.destination_blocking()?)?, ..forward })
    }

    /// B_o, the blocking the other streams' messages wait behind on the
    /// source's one VC (docs/reproduction.md, "The blocking split by
    /// stream"): the packet-scale part of B̄ alone. A header that finds
    /// its output taken waits the residual of one hold of exactly M/c_d
    /// cycles (an output passes one message of another input per M + 1
    /// cycles, `OUTPUT_TURNAROUND`), so Pollaczek–Khinchine's mean wait
    /// λE[H²]/(2(1 − ρ_o)) with H = M/c_d fixed is ρ_o/(1 − ρ_o)·M/(2c_d):
    /// half of `destination_blocking`, whose geometric chain of fresh
    /// looks is the same formula with exponential holds (E[H²] = 2(M/c_d)²).
    /// The burst-scale rest, where another input's burst meets the own
    /// stream's at one output (two streams at g < 2(M + 1) overload it),
    /// holds the VC while the own stream's burst lasts, for the own
    /// stream's next messages: the destination link counts it already.
    /// Two ports: 0.
    pub fn packet_blocking(&self) -> Result<f64, FluidError> {
        Ok(self.destination_blocking()? / 2.0)
    }

    /// A packet-scale correction candidate for the destination link's
    /// fluid queue (docs/reproduction.md, "The blocking split by stream"):
    /// the fluid sends each ON stream's messages as a flow of r = M/g
    /// flits per cycle, where each comes whole, M flits holding the output
    /// M/c_d cycles. A tagged message lands inside one of another ON
    /// stream's holds with probability (M/c_d)/g and then waits its
    /// residual, M/(2c_d) on average; summed over the other streams that
    /// drew its destination, (P − 1)K − 1 of them each with probability
    /// 1/(P − 1) and ON a fraction p of the time, that is
    /// ρ_d·M/(2c_d) with ρ_d = λ_d/c_d, λ_d = ((P − 1)K − 1)/(P − 1)·p·r
    /// (first order: no queue of such waits). Two ports: 0, as the
    /// destination link there.
    pub fn destination_packet_residual(&self) -> f64 {
        if self.ports < 3 {
            return 0.0;
        }
        let others = ((self.ports - 1) * self.streams - 1) as f64 / (self.ports - 1) as f64 * self.stream_rate();
        let hold = self.flits / self.destination_capacity();
        others * hold / self.flits * hold / 2.0
    }

    /// `coupled_delay` with the blocking split by stream: the other K − 1
    /// streams' part of the source link at c_o = `capacity_with_blocking`
    /// (`packet_blocking`), the own stream's at c_s with its blocking in
    /// the destination link (as in `coupled_delay`). K = 1: `tandem_delay`.
    /// A variant beside `coupled_delay`, which `kim2005_tandem` keeps.
    pub fn split_blocking_delay(&self) -> Result<BurstDelay, FluidError> {
        let forward = self.tandem_delay()?;
        if self.streams == 1 {
            return Ok(forward);
        }
        Ok(BurstDelay { source_link: self.coupled_source_link(self.packet_blocking()?)?, ..forward })
    }

    /// The class's burst-scale delays with the two links in tandem on any
    /// number of ports: the source link with the turnaround
    /// (`source_link_with_turnaround`), and the destination link fed by
    /// the upstream source links' outputs (`after_source_link`) instead of
    /// the streams at their peak, served at `destination_capacity` (its
    /// messages come from different input ports). Two ports: the
    /// destination link carries one source link's output, at most
    /// c_s < c·M/(M + 1), and never queues.
    pub fn tandem_delay(&self) -> Result<BurstDelay, FluidError> {
        if self.ports < 2 || self.streams == 0 {
            return Err(FluidError::NotSolved(format!("{} ports, {} streams per port: no other endpoint to send to", self.ports, self.streams)));
        }
        let source_link = self.source_link_with_turnaround()?;
        if self.ports == 2 {
            return Ok(BurstDelay { source_link, destination_link: 0.0, excluded_weight: 0.0 });
        }
        let (destination_link, excluded_weight) = self.shared_link_of((self.ports - 1) * self.streams - 1, 1.0 / (self.ports - 1) as f64, |n| self.after_source_link(n))?;
        Ok(BurstDelay { source_link, destination_link, excluded_weight })
    }

    pub fn delay(&self) -> Result<BurstDelay, FluidError> {
        if self.ports < 2 || self.streams == 0 {
            return Err(FluidError::NotSolved(format!("{} ports, {} streams per port: no other endpoint to send to", self.ports, self.streams)));
        }
        let source_link = self.link(self.streams).mean_delay()?;
        // In tandem on two ports: the destination's output link carries
        // exactly the streams of the other port's injection link, whose
        // output the fluid queue there has already limited to c, so it
        // never queues (adding the two links counted that backlog twice:
        // +67.4 % on the total at K = 2, g = 40 where this gives +28.5 %).
        if self.ports == 2 {
            return Ok(BurstDelay { source_link, destination_link: 0.0, excluded_weight: 0.0 });
        }
        // m other streams at the tagged one's destination: each of the
        // (ports − 1)·K − 1 other streams that may pick it does so with
        // probability 1/(ports − 1).
        let (destination_link, excluded_weight) = self.shared_link((self.ports - 1) * self.streams - 1, 1.0 / (self.ports - 1) as f64)?;
        Ok(BurstDelay { source_link, destination_link, excluded_weight })
    }

    /// The mean delay at a link the tagged stream shares with m others,
    /// m binomial over `trials` other streams each there with probability
    /// `q`, averaged over the m whose link is stable (renormalized), and
    /// the binomial weight left out.
    fn shared_link(&self, trials: usize, q: f64) -> Result<(f64, f64), FluidError> {
        self.shared_link_of(trials, q, |n| Ok(self.link(n)))
    }

    /// `shared_link` with the link of n sources given by `link_of`.
    fn shared_link_of(&self, trials: usize, q: f64, link_of: impl Fn(usize) -> Result<FluidLink, FluidError>) -> Result<(f64, f64), FluidError> {
        self.shared_delay_of(trials, q, |n| link_of(n).and_then(|l| l.mean_delay()))
    }

    /// `shared_link` with the delay at a link of n sources given by `delay_of`.
    pub(crate) fn shared_delay_of(&self, trials: usize, q: f64, delay_of: impl Fn(usize) -> Result<f64, FluidError>) -> Result<(f64, f64), FluidError> {
        let (mut sum, mut weight, mut excluded) = (0.0, 0.0, 0.0);
        // The saturated part of `excluded`, and the first saturated count's error.
        let (mut saturated, mut first_saturated) = (0.0, None);
        // The binomial weight in logarithms (C(trials, m) overflows f64 for
        // thousands of streams), k·ln x taken as 0 for k = 0 (with two ports
        // q = 1 and every other stream picks the tagged one's destination).
        let ln_pow = |x: f64, k: usize| if k == 0 { 0.0 } else { k as f64 * x.ln() };
        let mut ln_choose = 0.0f64;
        for m in 0..=trials {
            if m > 0 {
                ln_choose += ((trials - m + 1) as f64 / m as f64).ln();
            }
            let w = (ln_choose + ln_pow(q, m) + ln_pow(1.0 - q, trials - m)).exp();
            if w < 1e-12 && m as f64 > trials as f64 * q {
                excluded += w; // the tail beyond, bounded by this term's order
                break;
            }
            match delay_of(m + 1) {
                Ok(d) => {
                    sum += w * d;
                    weight += w;
                }
                Err(e) => {
                    excluded += w;
                    if let FluidError::Saturated { .. } = e {
                        saturated += w;
                        first_saturated.get_or_insert(e);
                    }
                }
            }
        }
        // Renormalizing over the solved counts is a small correction only
        // while the left-out weight is small (0.68 % at K = 14, g = 33, the
        // most of fig12_000_onoff_bursts.toml); beyond 1 % the average
        // would describe another destination link.
        // Saturated destination links of more than the allowed weight make
        // the class's mean delay infinite: saturated, not unsolved.
        if saturated > MAX_EXCLUDED_WEIGHT {
            return Err(first_saturated.expect("a saturated count was seen"));
        }
        if weight <= 0.0 || excluded > MAX_EXCLUDED_WEIGHT {
            return Err(FluidError::NotSolved(format!("shared links of weight {excluded:.4} saturated or not solved (at most {MAX_EXCLUDED_WEIGHT} left out)")));
        }
        Ok((sum / weight, excluded))
    }
}

/// The other streams that may cross one hop link of a binary n-cube under
/// e-cube routing (dimensions corrected from 0 up), for a tagged stream
/// that crosses it, and the probability each does: (trials, q). At the hop
/// that corrects dimension d a message sits at a node x whose bits below d
/// are already its destination's and whose bits from d up are still its
/// source's. So the link (x, d) carries the streams of the 2^d sources
/// that agree with x from bit d up, K each, to the 2^(n − d − 1)
/// destinations that agree with x below d and differ in bit d (any bits
/// above), each of a source's 2^n − 1 destinations equally likely.
pub fn cube_hop_link_streams(n: usize, d: usize, streams: usize) -> (usize, f64) {
    ((1usize << d) * streams - 1, (1usize << (n - d - 1)) as f64 / ((1usize << n) - 1) as f64)
}

/// One ON/OFF real-time class in a binary n-cube (000_… §3.2, one
/// endpoint per node, K streams each with a fixed uniform destination,
/// e-cube routing): the burst-scale fluid delays of its source's
/// injection link (the own K streams), of every hop link it crosses (the
/// streams that cross it too, `cube_hop_link_streams`) and of its
/// destination's ejection link (the streams that drew the same
/// destination). Added, not in tandem, like the single router's links on
/// more than two ports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeBurstClass {
    /// n, the cube's dimension (2^n nodes).
    pub n: usize,
    /// The streams' parameters; `ports` is ignored (the cube has 2^n
    /// endpoints).
    pub class: BurstClass,
}

impl CubeBurstClass {
    /// The network's links a tagged stream may cross, as (probability it
    /// crosses one, other streams that may share it, probability each
    /// does): the hop link of each dimension d, crossed when a uniform
    /// destination differs in bit d (2^(n − 1) of the 2^n − 1), then the
    /// destination's ejection link, always crossed, shared by each of the
    /// (2^n − 1)·K − 1 other streams with probability 1/(2^n − 1).
    pub fn network_links(&self) -> Vec<(f64, usize, f64)> {
        let (n, k) = (self.n, self.class.streams);
        let nodes = 1usize << n;
        let crossed = (nodes / 2) as f64 / (nodes - 1) as f64;
        let hops = (0..n).map(|d| {
            let (trials, q) = cube_hop_link_streams(n, d, k);
            (crossed, trials, q)
        });
        hops.chain([(1.0, (nodes - 1) * k - 1, 1.0 / (nodes - 1) as f64)]).collect()
    }

    /// `source_link` the injection link; `destination_link` the network
    /// part, each of `network_links` weighted by the probability the
    /// stream crosses it; `excluded_weight` the most any one link left out.
    pub fn delay(&self) -> Result<BurstDelay, FluidError> {
        self.check_shape()?;
        let source_link = self.class.link(self.class.streams).mean_delay()?;
        let (parts, excluded_weight) = self.network_parts(false, |m| Ok(self.class.link(m)))?;
        Ok(BurstDelay { source_link, destination_link: parts.iter().sum(), excluded_weight })
    }

    pub(crate) fn check_shape(&self) -> Result<(), FluidError> {
        let k = self.class.streams;
        if self.n == 0 || self.n > 16 || k == 0 {
            return Err(FluidError::NotSolved(format!("{}-cube with {k} streams per node: no other endpoint to send to", self.n)));
        }
        Ok(())
    }

    /// Each of `network_links`' delays, its link of m sources given by
    /// `link_of`, weighted by the probability the stream crosses it (the
    /// dimension-0 hop link 0 with `merged_dim0`), and the most binomial
    /// weight any one link left out.
    fn network_parts(&self, merged_dim0: bool, link_of: impl Fn(usize) -> Result<FluidLink, FluidError>) -> Result<(Vec<f64>, f64), FluidError> {
        self.network_parts_of(merged_dim0, |_, m| link_of(m).and_then(|l| l.mean_delay()))
    }

    /// `network_parts` with the delay at network link `link` (its index in
    /// `network_links`) of m sources given by `delay_of(link, m)`.
    pub(crate) fn network_parts_of(&self, merged_dim0: bool, delay_of: impl Fn(usize, usize) -> Result<f64, FluidError>) -> Result<(Vec<f64>, f64), FluidError> {
        let (mut parts, mut excluded) = (Vec::new(), 0.0f64);
        for (d, (crossed, trials, q)) in self.network_links().into_iter().enumerate() {
            if merged_dim0 && d == 0 {
                parts.push(0.0);
                continue;
            }
            let (delay, left) = self.class.shared_delay_of(trials, q, |m| delay_of(d, m))?;
            parts.push(crossed * delay);
            excluded = excluded.max(left);
        }
        Ok((parts, excluded))
    }

    /// B̄, the mean cycles a message's header waits at its first hop's
    /// output (x, d) for messages of the router's other input ports while
    /// its source's one VC holds it (docs/reproduction.md, "The hypercube's
    /// fluid row in tandem"). The first hop corrects the lowest bit in
    /// which the destination differs: d with probability
    /// q_d = 2^(n − d − 1)/(2^n − 1). The link (x, d) carries the streams
    /// of the 2^d sources that agree with x from bit d up, each there with
    /// probability q_d (`cube_hop_link_streams`); all but the own source's
    /// K come in on other input ports: λ_d = (2^d − 1)·K·q_d·p·r, each
    /// message holding the output M/c_d cycles (the router's
    /// `blocking_behind`). B̄ = Σ_d q_d·B(λ_d); d = 0 has no other input.
    /// First order: a message that holds (x, d) is not itself held there by
    /// the blocking it meets at its next hop (one 32-flit message per VC
    /// buffer would carry that back too; 000_…'s Eq. (5) recursion, in
    /// `chained_first_hop_blocking`).
    pub fn first_hop_blocking(&self) -> Result<f64, FluidError> {
        let one_message = self.class.flits / self.class.destination_capacity();
        self.first_hop_blocking_with(&vec![one_message; self.n])
    }

    /// `first_hop_blocking` with the messages that hold hop link (x, d)
    /// holding it `holds[d]` cycles each.
    fn first_hop_blocking_with(&self, holds: &[f64]) -> Result<f64, FluidError> {
        let mut blocking = 0.0;
        for d in 0..self.n {
            let q = self.first_hop_probability(d);
            blocking += q * self.class.blocking_behind_holds(self.hop_link_rate_from(d, None), holds[d])?;
        }
        Ok(blocking)
    }

    /// q_d = 2^(n − d − 1)/(2^n − 1): a uniform destination differs from
    /// the source first in bit d, so the message's first hop is (x, d).
    fn first_hop_probability(&self, d: usize) -> f64 {
        (1usize << (self.n - d - 1)) as f64 / ((1usize << self.n) - 1) as f64
    }

    /// Flits per cycle into hop link (y, d) from every input of y's router
    /// but `from` (the input port of dimension e, or y's injection VC for
    /// `None`), whose messages queue behind the tagged one in its input VC
    /// rather than ahead of it at the output. (y, d) carries the streams of
    /// the 2^d sources that agree with y from bit d up, each there with
    /// probability q_d (`cube_hop_link_streams`); of them, those that
    /// arrive on input e last corrected bit e: they agree with y in bits
    /// e + 1 to d − 1 and from d up, differ in bit e, any bits below e —
    /// 2^e sources; the injection VC carries y's own source alone (1).
    fn hop_link_rate_from(&self, d: usize, from: Option<usize>) -> f64 {
        let own = from.map_or(1usize, |e| 1 << e);
        ((1usize << d) - own) as f64 * self.class.streams as f64 * self.first_hop_probability(d) * self.class.stream_rate()
    }

    /// Flits per cycle into the ejection link of z from every input but
    /// the port of dimension e: each of the (2^n − 1)·K streams of the
    /// other sources picks z with probability 1/(2^n − 1), and those that
    /// arrive on port e are the 2^e sources that agree with z above e and
    /// differ in bit e.
    fn ejection_rate_from(&self, e: usize) -> f64 {
        let others = ((1usize << self.n) - 1) as f64;
        (others - (1usize << e) as f64) * self.class.streams as f64 / others * self.class.stream_rate()
    }

    /// H_d, the cycles a message holds hop link (x, d) for the messages
    /// behind it, when it is held there by the blocking it meets at its own
    /// next hop (docs/reproduction.md, "The coupled source row with the
    /// blocking chained, and g = 64, K = 4 over 40 seeds").
    ///
    /// **Derivation.** 000_…'s Eq. (5) gives a header's blocking at a
    /// router as the probability the resource it needs is taken times the
    /// length that holds it; its cube model (Eq. (10), Appendix A.2)
    /// carries that hop by hop: the blocking a message meets in the middle
    /// routers, B_middle, sums over the later channels j the blocking
    /// there, P_b^j·(max(b_s, M) + d_{c,j}), where d_{c,j}, the time a
    /// message holds channel j, is itself half the message plus the
    /// blocking it meets at the channels after j — a recursion that ends
    /// at the ejection channel. Here, with this model's geometric blocking
    /// (`blocking_behind_holds`): a message that holds (x, d) has its
    /// M flits in the next router's input VC, one message deep (b_s = M),
    /// so the link passes the next message only once this one's header has
    /// won its next output: H_d = M/c_d + the mean blocking there. Its next
    /// output, for a destination uniform over those that agree with x
    /// below d and differ in bit d, is the hop link of the lowest higher
    /// bit in which the destination still differs, (y, d′) with
    /// probability 2^−(d′ − d) for d < d′ < n, or else (all higher bits
    /// equal, probability 2^−(n − 1 − d)) the destination's ejection
    /// link. At (y, d′) the other inputs (`hop_link_rate_from`(d′, d))
    /// hold it H_d′ each; the ejection link's holders hold it M/c_d (the
    /// endpoint never holds a message back: every ejection allocation
    /// lasts M cycles, "The hypercube's tandem row link by link"). So
    ///
    ///   H_d = M/c_d + Σ_{d′ = d+1}^{n−1} 2^−(d′ − d)·B(λ_{d→d′}, H_d′)
    ///         + 2^−(n − 1 − d)·B(λ_{d→ej}, M/c_d),
    ///
    /// with B(λ, H) = ρ/(1 − ρ)·H, ρ = λH/M, solved from d = n − 1 down.
    /// The ejection link ends it, so on one router (its output is the
    /// last hop) nothing changes: `BurstClass::destination_blocking`.
    pub fn chained_hop_holds(&self) -> Result<Vec<f64>, FluidError> {
        let one_message = self.class.flits / self.class.destination_capacity();
        let mut holds = vec![0.0; self.n];
        for d in (0..self.n).rev() {
            let mut hold = one_message;
            for next in d + 1..self.n {
                let chance = 0.5f64.powi((next - d) as i32);
                hold += chance * self.class.blocking_behind_holds(self.hop_link_rate_from(next, Some(d)), holds[next])?;
            }
            let ejected = 0.5f64.powi((self.n - 1 - d) as i32);
            hold += ejected * self.class.blocking_behind_holds(self.ejection_rate_from(d), one_message)?;
            holds[d] = hold;
        }
        Ok(holds)
    }

    /// `first_hop_blocking` with the first hop's holders holding it
    /// `chained_hop_holds` cycles each (000_…'s Eq. (5) recursion).
    pub fn chained_first_hop_blocking(&self) -> Result<f64, FluidError> {
        self.first_hop_blocking_with(&self.chained_hop_holds()?)
    }

    /// The class's burst-scale delays in tandem, as the single router's
    /// `BurstClass::coupled_delay`: the injection link with the VC
    /// turnaround and its other streams' part slowed by the first hop's
    /// blocking (`coupled_source_link` with `first_hop_blocking`); every
    /// hop and ejection link fed by the upstream input VCs' outputs (each
    /// stream's peak at most c_s = c·M/(M + 2), its burst stretched,
    /// `after_source_link`) and served at c_d = c·M/(M + 1), weighted by
    /// the probability the stream crosses it (`network_links`), but the
    /// dimension-0 hop link, which never queues (`coupled_network_parts`).
    pub fn coupled_delay(&self) -> Result<BurstDelay, FluidError> {
        self.coupled_delay_with(self.first_hop_blocking()?)
    }

    /// `coupled_delay` with B̄ = `chained_first_hop_blocking` (an option
    /// beside the row, which keeps the first-order B̄).
    pub fn chained_coupled_delay(&self) -> Result<BurstDelay, FluidError> {
        self.coupled_delay_with(self.chained_first_hop_blocking()?)
    }

    /// `coupled_delay` for a first-hop blocking B̄.
    fn coupled_delay_with(&self, blocking: f64) -> Result<BurstDelay, FluidError> {
        let source_link = self.class.coupled_source_link(blocking)?;
        let (parts, excluded_weight) = self.coupled_network_parts()?;
        Ok(BurstDelay { source_link, destination_link: parts.iter().sum(), excluded_weight })
    }

    /// `coupled_delay`'s network part link by link, in `network_links`'
    /// order (hop links d = 0..n, then the ejection link), each weighted
    /// by the probability the stream crosses it, and the most binomial
    /// weight any link left out. The dimension-0 hop link (x, 0) is 0: it
    /// carries only the streams of x's own injection link (2^0 sources,
    /// `cube_hop_link_streams`), whose one VC has already limited them
    /// together to c_s < c_d, so it never queues — the 2-port router's
    /// destination link in `tandem_delay`.
    pub fn coupled_network_parts(&self) -> Result<(Vec<f64>, f64), FluidError> {
        self.check_shape()?;
        self.network_parts(true, |m| self.class.after_source_link(m))
    }

    /// The class's burst-scale delays with the network's backlog waiting
    /// at the source (docs/reproduction.md, "The backlog at the source"):
    /// `coupled_delay`'s injection link S (the own K streams' queue) and
    /// network links N, merged as the larger of two independent waits that
    /// both run from the message's arrival at its source. With one M-flit
    /// message per VC buffer a network link holds no backlog of its own:
    /// the messages queued for it wait in the upstream buffers and, beyond
    /// them, at their sources, so a message leaves its source when both
    /// its own source's earlier messages have left (S) and the network
    /// ahead of it has drained (N) — after max(S, N), where the links in
    /// tandem (`coupled_delay`) add S + N, the network's wait starting
    /// only once S has passed. Each wait taken as exponential
    /// (`expected_max_of_exponentials`). The network part stays N (the
    /// links the message crosses); the source part is what the merge adds
    /// to it, E[max(S, N)] − N = S²/(S + N).
    pub fn backlog_at_source_delay(&self) -> Result<BurstDelay, FluidError> {
        let tandem = self.coupled_delay()?;
        let merged = expected_max_of_exponentials(tandem.source_link, tandem.destination_link);
        Ok(BurstDelay { source_link: merged - tandem.destination_link, ..tandem })
    }
}

/// E[max(S, N)] for independent exponential waits of means `s` and `n`
/// (either may be 0, a wait that never occurs): max = S + N − min(S, N),
/// and min(S, N) is exponential with the rates added, mean
/// 1/(1/s + 1/n) = s·n/(s + n); so E[max] = s + n − s·n/(s + n). It lies
/// between the larger mean (one wait certain to cover the other) and the
/// sum (the two never overlap).
pub fn expected_max_of_exponentials(s: f64, n: f64) -> f64 {
    if s <= 0.0 || n <= 0.0 {
        return s.max(n).max(0.0);
    }
    s + n - s * n / (s + n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_source_by_hand() {
        // One source, α = 1/I, β = 1/T_on, peak r > c. States OFF (d = −c),
        // ON (d = r − c). det = z(α(r − c) − βc − z c(r − c)) → the one
        // negative root z = α/c − β/(r − c); φ = (φ_0, 1) with
        // φ_0(−α + zc) + β = 0; F_ON(0) = 0: π_ON + a = 0.
        // T_on = 100, I = 300, r = 1, c = 0.5: α = 1/300, β = 0.01,
        // z = 0.0066667 − 0.02 = −0.0133333, φ_0 = −β/(−α + zc)
        // = −0.01/(−0.0033333 − 0.0066667) = 1, π_ON = 0.25, a = −0.25,
        // E[Q] = a(φ_0 + 1)/z = −0.5/−0.0133333 = 37.5 flits,
        // Λ = 0.25 flits/cycle: 150 cycles.
        let l = FluidLink { sources: 1, on_mean: 100.0, off_mean: 300.0, peak: 1.0, capacity: 0.5 };
        let d = l.mean_delay().unwrap();
        assert!((d - 150.0).abs() < 1e-6, "{d}");
    }

    #[test]
    fn the_direct_mean_backlog_by_hand() {
        // one_source_by_hand's link (T_on = 100, I = 300, r = 1, c = 0.5:
        // π = (0.75, 0.25), Λ = 0.25, drifts (−0.5, 0.5), α = 1/300,
        // β = 0.01) without eigenvalues: F_0(0) = (c − Λ)/c = 0.5;
        // (F(0) − π)D = (−0.25·−0.5, −0.25·0.5) = (0.125, −0.125);
        // column 0 of G Q: −αG_0 + βG_1 = 0.125; Σ G_i d_i = 0: G_0 = G_1;
        // G = 0.125/(0.01 − 1/300) = 18.75, E[Q] = 37.5 flits.
        let l = FluidLink { sources: 1, on_mean: 100.0, off_mean: 300.0, peak: 1.0, capacity: 0.5 };
        let eq = l.direct_mean_backlog(&[0.75, 0.25], 0.5, 1.0 / 300.0, 0.01).unwrap();
        assert!((eq - 37.5).abs() < 1e-9, "{eq}");
        // Where the spectral solution passes its check and only state 0
        // drains (three sources, r = 1 > c = 0.9, p = 0.2), both agree.
        let three = FluidLink { sources: 3, on_mean: 100.0, off_mean: 400.0, peak: 1.0, capacity: 0.9 };
        let pi = [0.512, 0.384, 0.096, 0.008];
        let direct = three.direct_mean_backlog(&pi, 0.9, 1.0 / 400.0, 0.01).unwrap() / 0.6;
        let spectral = three.mean_delay().unwrap();
        assert!((direct - spectral).abs() <= 1e-9 * spectral, "{direct} {spectral}");
    }

    #[test]
    fn a_burst_alone_below_the_capacity_never_waits() {
        // One source at r = 32/33 < c = 1, and two at g = 64 (2r = c: no
        // state overloads the link).
        let one = FluidLink { sources: 1, on_mean: 330.0, off_mean: 2170.0, peak: 32.0 / 33.0, capacity: 1.0 };
        assert_eq!(one.mean_delay().unwrap(), 0.0);
        let two = FluidLink { sources: 2, on_mean: 640.0, off_mean: 1860.0, peak: 0.5, capacity: 1.0 };
        assert_eq!(two.mean_delay().unwrap(), 0.0);
    }

    #[test]
    fn two_sources_of_known_peak_by_hand() {
        // Two sources, r = 1, c = 1.5 (only "both ON" overloads, drift 0.5),
        // symmetric: T_on = I = 100, α = β = 0.01, p = 1/2. States 0, 1, 2
        // ON: drifts −1.5, −0.5, +0.5; π = (1/4, 1/2, 1/4). The generator
        // rows: (−0.02, 0.02, 0), (0.01, −0.02, 0.01), (0, 0.02, −0.02).
        // det(Q − zD) = 0 by hand: expanding the continuant,
        // (−0.02 + 1.5z)[(−0.02 + 0.5z)(−0.02 − 0.5z) − 0.0002]
        //   − 0.0002(−0.02 − 0.5z) = 0,
        // where the bracket is 0.0004 − 0.25z² − 0.0002 = 0.0002 − 0.25z²,
        // so the whole is (−0.02 + 1.5z)(0.0002 − 0.25z²) + 0.000004 + 0.0001z
        //   = −0.375z³ + 0.005z² + 0.0004z = −z(0.375z² − 0.005z − 0.0004),
        // negative root z = (0.005 − √(0.000025 + 0.0006))/0.75
        //   = (0.005 − 0.025)/0.75 = −0.0266667.
        // φ: column 0 (d_0 = −1.5): φ0(−0.02 + 1.5z) + 0.01φ1 = 0; column 2: 0.01φ1 + φ2(−0.02 − 0.5z) = 0. With
        // φ2 = 1: φ1 = (0.02 + 0.5z)/0.01 = 0.6667, φ0 = −0.01φ1/(−0.02 +
        // 1.5z) = −0.0066667/(−0.06) = 0.11111. F_2(0) = 0: a = −π_2/φ2 =
        // −0.25. Σφ = 1.77778; E[Q] = a·Σφ/z = 0.444444/0.0266667 = 16.6667
        // flits; Λ = 2·0.5·1 = 1: 16.6667 cycles.
        let l = FluidLink { sources: 2, on_mean: 100.0, off_mean: 100.0, peak: 1.0, capacity: 1.5 };
        let d = l.mean_delay().unwrap();
        assert!((d - 16.666_666_7).abs() < 1e-5, "{d}");
    }

    #[test]
    fn saturated_beyond_the_mean_load() {
        // Two sources ON half the time at r = 1: mean load 1 ≥ c = 1.
        let l = FluidLink { sources: 2, on_mean: 100.0, off_mean: 100.0, peak: 1.0, capacity: 1.0 };
        assert!(matches!(l.mean_delay(), Err(FluidError::Saturated { .. })), "{:?}", l.mean_delay());
    }

    #[test]
    fn the_burst_scale_delay_scales_with_the_burst_length() {
        // All rates ×1/T scale the fluid backlog by T: at a fixed mean load
        // (p = 0.2, three sources, r = c = 1) the delay of T_on = 100 is
        // 100 times that of T_on = 1, so it vanishes in the Poisson limit of
        // short bursts (T_on → 0) and grows with the burst.
        let at = |on: f64| FluidLink { sources: 3, on_mean: on, off_mean: on * 4.0, peak: 1.0, capacity: 1.0 }.mean_delay().unwrap();
        let (short, long) = (at(1.0), at(100.0));
        assert!(short > 0.0 && (long / short - 100.0).abs() < 1e-6 * 100.0, "{short} {long}");
    }

    #[test]
    fn stable_just_below_the_mean_load_and_saturated_at_and_beyond_it() {
        // One source (the one_source_by_hand algebra): the one negative
        // root z = α/c − β/(r − c) exists iff α(r − c) < βc, i.e.
        // r/c < 1 + I/T_on = 1/p: Anick–Mitra–Sondhi's p·r < c. Then
        // φ_0 = (r − c)/c, E[Q] = p r (r − c)/(βc − α(r − c)) and the delay
        // E[Q]/(p r) = (r − c)/(βc − α(r − c)). r = 1, c = 0.5, T_on = 100:
        // the boundary is p = 1/2, I = 100. I = 101 (p r = 100/201 < 0.5):
        // βc − α(r − c) = 0.005 − 0.5/101 = 0.005/101, delay
        // 0.5 · 101/0.005 = 10,100 cycles. I = 100 (p r = c) and I = 99
        // (p r = 100/199 > c): saturated.
        let at = |off: f64| FluidLink { sources: 1, on_mean: 100.0, off_mean: off, peak: 1.0, capacity: 0.5 }.mean_delay();
        let d = at(101.0).unwrap();
        assert!((d - 10_100.0).abs() < 1e-6 * 10_100.0, "{d}");
        for off in [100.0, 99.0] {
            assert!(matches!(at(off), Err(FluidError::Saturated { .. })), "I = {off}: {:?}", at(off));
        }
    }

    #[test]
    fn a_class_whose_destination_links_saturate_is_saturated() {
        // 2 ports, K = 2: the tagged stream's destination link carries it
        // and the other port's 2 streams, all of them (trials = 1·2 − 1 = 1
        // with success 1/(2 − 1) = 1): m = 1 with weight 1, two sources.
        // Each ON p = T_on/(T_on + I) = 100/200 at r = 1: mean load 1 = c.
        // The source link is the same two sources: saturated first.
        let class = BurstClass { ports: 2, streams: 2, mean_burst: 10.0, gap: 10.0, off_mean: 100.0, flits: 10.0, capacity: 1.0 };
        assert!(matches!(class.delay(), Err(FluidError::Saturated { .. })), "{:?}", class.delay());
        // K = 1, c = 1, r = 1, 3 ports: the source link has one source
        // (drift 0: never queues), the destination m + 1 of 1 or 2 sources
        // (trials 1, success 1/2): m = 1 (weight 1/2) has mean load
        // 2 p = 2 · 0.6 > 1, saturated, over the 1 % bound.
        let half = BurstClass { ports: 3, streams: 1, mean_burst: 15.0, gap: 10.0, off_mean: 100.0, flits: 10.0, capacity: 1.0 };
        assert!(matches!(half.delay(), Err(FluidError::Saturated { .. })), "{:?}", half.delay());
    }

    #[test]
    fn two_ports_in_tandem_leave_the_destination_link_empty() {
        // two_sources_of_known_peak_by_hand's link (16.6667 cycles) as the
        // source link of a 2-port router with K = 2 (r = 1 = M/g with
        // M = 10, g = 10; T_on = N g = 100 with N = 10; I = 100; c = 1.5):
        // the other port's destination link carries these two streams
        // after this link, at most 1.5 flits/cycle: 0 cycles there.
        let two = BurstClass { ports: 2, streams: 2, mean_burst: 10.0, gap: 10.0, off_mean: 100.0, flits: 10.0, capacity: 1.5 };
        let d = two.delay().unwrap();
        assert!((d.source_link - 16.666_666_7).abs() < 1e-5, "{d:?}");
        assert_eq!((d.destination_link, d.excluded_weight), (0.0, 0.0));
        // With three ports the destination link meets streams of two
        // source links, which can overload it together: up to 4 sources
        // (trials 2·2 − 1 = 3), mean load ≤ 2 < c = 2.5, but 3 ON overload
        // it: not empty.
        let three = BurstClass { ports: 3, capacity: 2.5, ..two }.delay().unwrap();
        assert!(three.destination_link > 0.0, "{three:?}");
    }

    #[test]
    fn the_source_link_with_the_turnaround_by_hand() {
        // M = 2, g = 2: r = M/g = 1 = c, so without the turnaround one
        // stream never queues (`delay`: 0). With it the class's VC passes
        // c·M/(M + 2) = 0.5 flits per cycle: one_source_by_hand's link
        // (T_on = N·g = 100, I = 300, r = 1, c = 0.5): 150 cycles. Two
        // ports: the destination link gets at most 0.5 < c, 0 there.
        let one = BurstClass { ports: 2, streams: 1, mean_burst: 50.0, gap: 2.0, off_mean: 300.0, flits: 2.0, capacity: 1.0 };
        assert_eq!(one.delay().unwrap().source_link, 0.0);
        assert!((one.source_vc_capacity() - 0.5).abs() < 1e-15);
        let d = one.tandem_delay().unwrap();
        assert!((d.source_link - 150.0).abs() < 1e-6 && d.destination_link == 0.0, "{d:?}");
    }

    #[test]
    fn the_destination_link_in_tandem_by_hand() {
        // 3 ports, K = 1, M = 1, c = 3: the source VC passes
        // c_s = 3·1/(1 + 2) = 1, the output c_d = 3·1/(1 + 1) = 1.5.
        // g = 0.5 (r = 2), N = 100 (T_on = 50), I = 150. Source link: one
        // source, r > c_s: delay (r − c_s)/(β c_s − α(r − c_s)) with
        // β = 1/50, α = 1/150 (stable_just_below_the_mean_load's algebra)
        // = 1/(0.02 − 0.0066667) = 75 cycles. What leaves it: peak c_s = 1,
        // ON 50·2/1 = 100, OFF 150 − 50 = 100. Destination link: the other
        // port's one stream picks it with q = 1/2 (trials 2·1 − 1 = 1):
        // m = 0 (1/2) one source of peak 1 < c_d = 1.5: 0; m = 1 (1/2) two
        // sources r = 1, T_on = I = 100, c = 1.5:
        // two_sources_of_known_peak_by_hand's 16.6667 cycles. Mean 8.3333.
        let class = BurstClass { ports: 3, streams: 1, mean_burst: 100.0, gap: 0.5, off_mean: 150.0, flits: 1.0, capacity: 3.0 };
        assert!((class.destination_capacity() - 1.5).abs() < 1e-15);
        let d = class.tandem_delay().unwrap();
        assert!((d.source_link - 75.0).abs() < 1e-6, "{d:?}");
        assert!((d.destination_link - 8.333_333_3).abs() < 1e-5 && d.excluded_weight == 0.0, "{d:?}");
    }

    #[test]
    fn the_destination_blocking_by_hand() {
        // fig12_000_onoff_bursts.toml's K = 1, g = 33 point: T_on = N g =
        // 330, I = 2,170, p = 330/2,500 = 0.132, r = 32/33: a stream sends
        // p·r = 0.128 flits per cycle. The tagged stream's output gets the
        // 14 other inputs' streams with probability 1/15 each:
        // λ_o = 14/15 · 0.128 = 0.1194667; c_d = 32/33, so
        // ρ_o = 0.1194667 · 33/32 = 0.1232, ρ_o/(1 − ρ_o) = 0.1232/0.8768
        // = 0.1405109, times M/c_d = 33 cycles: B̄ = 4.6368613 cycles.
        // K = 4 (I = 10·(1000 − 33) = 9,670, p = 330/10,000 = 0.033, a
        // stream 0.032 flits per cycle, 14·4/15 of them): the same λ_o, B̄.
        let one = BurstClass { ports: 16, streams: 1, mean_burst: 10.0, gap: 33.0, off_mean: 2170.0, flits: 32.0, capacity: 1.0 };
        let b = one.destination_blocking().unwrap();
        assert!((b - 4.636_861_3).abs() < 1e-6, "{b}");
        let four = BurstClass { streams: 4, off_mean: 9670.0, ..one }.destination_blocking().unwrap();
        assert!((four - 4.636_861_3).abs() < 1e-6, "{four}");
        // Two ports: the output carries the one other input's streams
        // only, which all come from the tagged one's own VC: no blocking.
        assert_eq!(BurstClass { ports: 2, ..one }.destination_blocking().unwrap(), 0.0);
        // 3 ports, K = 2, p = 1/2, r = 1, M = 2, c = 1: the other input's
        // 2 streams, each here with probability 1/2, send 0.5 flits per
        // cycle into c_d = 2/3: ρ_o = 0.75 < 1, B̄ = 3 · M/c_d = 9 cycles;
        // with K = 3 ρ_o = 1.125: saturated.
        let tight = BurstClass { ports: 3, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 1.0 };
        assert!((tight.destination_blocking().unwrap() - 9.0).abs() < 1e-9, "{:?}", tight.destination_blocking());
        let over = BurstClass { streams: 3, ..tight };
        assert!(matches!(over.destination_blocking(), Err(FluidError::Saturated { .. })), "{:?}", over.destination_blocking());
    }

    #[test]
    fn the_source_link_coupled_backwards_by_hand() {
        // 3 ports, K = 2, M = 2, g = 2 (r = 1), N = 50 (T_on = 100),
        // I = 100 (p = 1/2), c = 4. Source VC c_s = 4·2/4 = 2 = 2r: the two
        // streams never overload it, so `tandem_delay`'s source link is 0.
        // Blocking: the other input's 2 streams, each with probability
        // 1/2, send 0.5 flits per cycle into c_d = 4·2/3 = 8/3:
        // ρ_o = 3/16, ρ_o/(1 − ρ_o) = 3/13, B̄ = 3/13 · M/c_d = 9/52 cycles;
        // coupled capacity c·M/(M + 2 + c·B̄) = 8/(4 + 9/13) = 104/61 =
        // 1.7049. Own part: one stream at r = 1 < c_s and < 104/61: 0 at
        // both capacities. The K-stream link at 104/61: two sources, r = 1,
        // α = β = 0.01, drifts (−c, 1 − c, 2 − c) = (−1.7049, −0.7049,
        // +0.2951), only "both ON" overloads. det(Q − zD) = m0 m1 m2 −
        // 2α²(m0 + m2), m_i = q_ii − z d_i, q = (−0.02, −0.02, −0.02):
        // m0 = −0.02 + 1.7049z, m1 = −0.02 + 0.7049z, m2 = −0.02 − 0.2951z;
        // expanded, z(5.6393e-4 − 9.8146e-3 z − 0.354638 z²), whose negative
        // root is z = −0.0560470. φ with φ2 = 1: column 2 (0.01φ1 + m2 = 0)
        // φ1 = −m2/0.01 = 0.346154 (m2 = −0.0034615); column 0
        // (φ0 m0 + 0.01φ1 = 0, m0 = −0.115556) φ0 = 0.0299556; F_2(0) = 0:
        // a = −π2 = −1/4; E[Q] = a(φ0 + φ1 + 1)/z = −0.25 · 1.376109 /
        // −0.0560470 = 6.138193 flits; Λ = 2 · 0.5 · 1 = 1: 6.138193
        // cycles. The destination link is `tandem_delay`'s.
        let class = BurstClass { ports: 3, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 4.0 };
        assert!((class.destination_blocking().unwrap() - 9.0 / 52.0).abs() < 1e-12);
        assert!((class.coupled_source_capacity().unwrap() - 104.0 / 61.0).abs() < 1e-12);
        let forward = class.tandem_delay().unwrap();
        assert_eq!(forward.source_link, 0.0);
        let d = class.coupled_delay().unwrap();
        assert!((d.source_link - 6.138_193).abs() < 1e-5, "{d:?}");
        assert_eq!((d.destination_link, d.excluded_weight), (forward.destination_link, forward.excluded_weight));
        // K = 1: the own stream's blocking is its destination link's queue
        // already: the forward tandem unchanged.
        let one = BurstClass { streams: 1, ..class };
        assert_eq!(one.coupled_delay(), one.tandem_delay());
    }

    #[test]
    fn the_blocking_split_by_stream_by_hand() {
        // `the_source_link_coupled_backwards_by_hand`'s router (3 ports,
        // K = 2, M = 2, r = 1, α = β = 0.01, c = 4): B̄ = 9/52, so the
        // packet-scale blocking with holds of exactly M/c_d = 3/4 cycle is
        // B_o = ρ_o/(1 − ρ_o)·(3/4)/2 = (3/13)(3/8) = 9/104; the other
        // streams' capacity c·M/(M + 2 + c·B_o) = 8/(4 + 9/26) = 208/113 =
        // 1.840708. The two-stream link there: drifts (−1.840708,
        // −0.840708, +0.159292); det(Q − zD) = m0 m1 m2 − 2α²(m0 + m2)
        // has its negative root at z = −0.1146902 (bisected in a separate
        // script from the determinant, not from this file), where m0 =
        // −0.2311111, m2 = −0.0017308: φ2 = 1, φ1 = −m2/α = 0.1730769,
        // φ0 = −αφ1/m0 = 0.0074889; a = −π2 = −1/4; E[Q] = a(φ0 + φ1 +
        // 1)/z = 2.573381 flits, Λ = 1: 2.573381 cycles. The own stream
        // (r = 1 below every capacity) adds 0. Destination link: the
        // tandem's. K = 1 and two ports: unchanged.
        let class = BurstClass { ports: 3, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 4.0 };
        assert!((class.packet_blocking().unwrap() - 9.0 / 104.0).abs() < 1e-12);
        let forward = class.tandem_delay().unwrap();
        let d = class.split_blocking_delay().unwrap();
        assert!((d.source_link - 2.573_381).abs() < 1e-5, "{d:?}");
        assert_eq!((d.destination_link, d.excluded_weight), (forward.destination_link, forward.excluded_weight));
        let one = BurstClass { streams: 1, ..class };
        assert_eq!(one.split_blocking_delay(), one.tandem_delay());
        let two_ports = BurstClass { ports: 2, ..class };
        assert_eq!(two_ports.packet_blocking(), Ok(0.0));
        assert_eq!(two_ports.split_blocking_delay(), two_ports.coupled_delay());
    }

    #[test]
    fn the_destination_packet_residual_by_hand() {
        // 3 ports, K = 2, M = 2, c = 4, T_on = 100, I = 100, r = 1: each
        // stream sends p·r = 1/2 flit per cycle; the (2·2 − 1)/2 = 3/2
        // other streams expected at the destination 3/4 flit per cycle;
        // c_d = 8/3, a hold M/c_d = 3/4 cycle: ρ_d = (3/4)(3/4)/2 = 9/32,
        // ρ_d·(3/4)/2 = 27/256. Two ports: 0.
        let class = BurstClass { ports: 3, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 4.0 };
        assert!((class.destination_packet_residual() - 27.0 / 256.0).abs() < 1e-12, "{}", class.destination_packet_residual());
        assert_eq!(BurstClass { ports: 2, ..class }.destination_packet_residual(), 0.0);
    }

    #[test]
    fn a_source_link_beyond_the_vc_capacity_is_saturated() {
        // M = 2, g = 2 (r = 1), T_on = 100, I = 100: mean load p·r = 0.5,
        // below c = 1 (and r ≤ c: `delay` gives 0) but equal to the VC's
        // c_s = 1·2/(2 + 2) = 0.5: saturated, not a number.
        let class = BurstClass { ports: 2, streams: 1, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 1.0 };
        assert_eq!(class.delay().unwrap().source_link, 0.0);
        assert!(matches!(class.tandem_delay(), Err(FluidError::Saturated { .. })), "{:?}", class.tandem_delay());
    }

    #[test]
    fn an_ill_conditioned_link_is_solved_without_eigenvalues() {
        // fig12_000_onoff_bursts.toml's K = 14, g = 33 streams (T_on = 330,
        // I = 34,670 cycles, r = 32/33) at c = 0.94 < r: every state with a
        // source ON overloads the link, 14 exponential terms, and the f64
        // spectral system returns 27,956 cycles (issue 22's scratch run) at
        // a mean load of 0.128; its boundary check refuses that, and the
        // link is solved by `direct_mean_backlog` instead. The delay must
        // fall with the capacity, from c = 0.94 to 1 where the spectral
        // solution passes (40–50 cycles, the committed K = 14 point).
        let class = |c: f64| BurstClass { ports: 16, streams: 14, mean_burst: 10.0, gap: 33.0, off_mean: 34_670.0, flits: 32.0, capacity: c };
        let at: Vec<f64> = [0.94, 0.95, 0.96, 0.97, 1.0].iter().map(|&c| class(c).link(14).mean_delay().unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] > w[1]) && at[0] < 100.0, "{at:?}");
        let good = class(1.0).delay().unwrap();
        assert!((40.0..50.0).contains(&good.source_link) && (40.0..50.0).contains(&good.destination_link), "{good:?}");
    }

    #[test]
    fn three_sources_with_one_overload_state_by_hand() {
        // Three sources, r = 1, c = 2.5 (only "all three ON" overloads,
        // drift 0.5), T_on = I = 100: α = β = a = 0.01, p = 1/2,
        // π_3 = 1/8, Λ = 1.5. Q − zD = a(Q' − uD'), u = z/(2a), with
        // Q' = [−3 3 0 0; 1 −3 2 0; 0 2 −3 1; 0 0 3 −3] and
        // D' = 2D = diag(−5, −3, −1, 1). The continuant: f1 = −3 + 5u,
        // f2 = (−3 + 3u) f1 − 3 = 15u² − 24u + 6,
        // f3 = (−3 + u) f2 − 4 f1 = 15u³ − 69u² + 58u − 6,
        // f4 = (−3 − u) f3 − 3 f2 = −u(15u³ − 24u² − 104u + 96)
        //    = −u(5u + 12)(3u² − 12u + 8): the one negative root
        // u = −12/5 (the quadratic's are 2 ± 1.1547), z = 2a·u = −0.048.
        // φ(Q' − uD') = 0 with diagonal (−15, −10.2, −5.4, −0.6), φ_3 = 1:
        // column 3: φ_2 − 0.6 = 0 → 0.6; column 2: 2φ_1 − 5.4·0.6 + 3 = 0
        // → 0.12; column 1: 3φ_0 − 10.2·0.12 + 2·0.6 = 0 → 0.008
        // (column 0: −15·0.008 + 0.12 = 0). F_3(0) = 0: a_1 = −π_3 =
        // −0.125; E[Q] = a_1 Σφ / z = −0.125 · 1.728 / −0.048 = 4.5 flits,
        // delay 4.5 / 1.5 = 3 cycles.
        let l = FluidLink { sources: 3, on_mean: 100.0, off_mean: 100.0, peak: 1.0, capacity: 2.5 };
        let d = l.mean_delay().unwrap();
        assert!((d - 3.0).abs() < 1e-6, "{d}");
    }

    /// Streams crossing each hop link of an n-cube, counted by walking the
    /// e-cube route (lowest differing dimension first) of every
    /// source–destination pair: per link (node, d), the sources with some
    /// destination through it and, per such source, how many.
    fn cube_links_by_walking(n: usize) -> Vec<(usize, usize, Vec<usize>)> {
        let nodes = 1usize << n;
        let mut through = vec![vec![vec![0usize; nodes]; n]; nodes];
        for s in 0..nodes {
            for t in (0..nodes).filter(|&t| t != s) {
                let mut x = s;
                for d in 0..n {
                    if (x ^ t) >> d & 1 == 1 {
                        through[x][d][s] += 1;
                        x ^= 1 << d;
                    }
                }
                assert_eq!(x, t);
            }
        }
        let mut out = Vec::new();
        for (x, dims) in through.into_iter().enumerate() {
            for (d, per_source) in dims.into_iter().enumerate() {
                out.push((x, d, per_source.into_iter().filter(|&c| c > 0).collect()));
            }
        }
        out
    }

    #[test]
    fn cube_hop_links_match_the_walked_e_cube_routes() {
        for n in [2, 3, 4] {
            let others = ((1usize << n) - 1) as f64;
            for (x, d, per_source) in cube_links_by_walking(n) {
                // Every source through the link has the same number of
                // destinations through it.
                assert!(per_source.iter().all(|&c| c == per_source[0]), "n {n} node {x} d {d}: {per_source:?}");
                for k in [1, 3] {
                    let (trials, q) = cube_hop_link_streams(n, d, k);
                    assert_eq!(trials, per_source.len() * k - 1, "n {n} node {x} d {d} K {k}");
                    assert!((q - per_source[0] as f64 / others).abs() < 1e-15, "n {n} node {x} d {d}: {q}");
                }
            }
        }
    }

    #[test]
    fn a_two_cube_by_hand() {
        // 2-cube (4 nodes, 3 destinations each), K = 1: the walked routes
        // (cube_links_by_walking) put 1 source on a dimension-0 link (its
        // own 2 destinations of the 3 flip bit 0) and 2 sources on a
        // dimension-1 link (1 destination each); a uniform destination
        // differs in a given bit with probability 2/3. So the links are
        // d = 0 crossed 2/3, 0 others; d = 1 crossed 2/3, 1 other with
        // q = 1/3; the ejection link always, 2 others with q = 1/3.
        let class = BurstClass { ports: 0, streams: 1, mean_burst: 10.0, gap: 10.0, off_mean: 100.0, flits: 10.0, capacity: 2.5 };
        let cube = CubeBurstClass { n: 2, class };
        let links = cube.network_links();
        let expect = [(2.0 / 3.0, 0, 2.0 / 3.0), (2.0 / 3.0, 1, 1.0 / 3.0), (1.0, 2, 1.0 / 3.0)];
        assert_eq!(links.len(), expect.len(), "{links:?}");
        for (got, want) in links.iter().zip(expect) {
            assert!(got.1 == want.1 && (got.0 - want.0).abs() < 1e-15 && (got.2 - want.2).abs() < 1e-15, "{links:?}");
        }
        // r = M/g = 1, T_on = N g = 100, I = 100, c = 2.5: one or two
        // sources never overload the link (2r < c), three give 3 cycles
        // (three_sources_with_one_overload_state_by_hand). The source link
        // has one source, the hop links at most two: 0; the ejection link
        // has three with probability (1/3)² = 1/9: 3/9 cycles.
        let d = cube.delay().unwrap();
        assert_eq!((d.source_link, d.excluded_weight), (0.0, 0.0), "{d:?}");
        assert!((d.destination_link - 1.0 / 3.0).abs() < 1e-6, "{d:?}");
        // At c = 1.5 (two ON overload) the ejection link's three sources
        // carry 1.5 = c with weight 1/9, over the 1 % bound: saturated.
        let tight = CubeBurstClass { n: 2, class: BurstClass { capacity: 1.5, ..class } };
        assert!(matches!(tight.delay(), Err(FluidError::Saturated { .. })), "{:?}", tight.delay());
    }

    #[test]
    fn a_two_cube_in_tandem_by_hand() {
        // a_two_cube_by_hand's links (d = 0 crossed 2/3, no other stream;
        // d = 1 crossed 2/3, 1 other with q = 1/3; the ejection link
        // always, 2 others with q = 1/3), K = 1, r = M/g = 1 (M = 1,
        // g = 1), T_on = N g = 100, I = 100, c = 5. The input VCs pass
        // c_s = 5·1/(1 + 2) = 5/3 ≥ r, so every stream reaches the network
        // links unchanged; those serve c_d = 5·1/(1 + 1) = 2.5: one or two
        // sources never overload them, three give 3 cycles
        // (three_sources_with_one_overload_state_by_hand). The ejection
        // link has three with probability (1/3)² = 1/9: 1/3 cycle; the
        // injection link one source below c_s: 0. Links added at c = 5
        // (`delay`): no state of three sources overloads, 0.
        let class = BurstClass { ports: 0, streams: 1, mean_burst: 100.0, gap: 1.0, off_mean: 100.0, flits: 1.0, capacity: 5.0 };
        let cube = CubeBurstClass { n: 2, class };
        let d = cube.coupled_delay().unwrap();
        assert_eq!((d.source_link, d.excluded_weight), (0.0, 0.0), "{d:?}");
        assert!((d.destination_link - 1.0 / 3.0).abs() < 1e-6, "{d:?}");
        assert!(cube.delay().unwrap().destination_link < 1e-12, "{:?}", cube.delay());
        // Link by link: the two hop links 0, the ejection link 1/3.
        let (parts, _) = cube.coupled_network_parts().unwrap();
        assert!(parts.len() == 3 && parts[0] == 0.0 && parts[1] == 0.0 && (parts[2] - 1.0 / 3.0).abs() < 1e-6, "{parts:?}");
    }

    #[test]
    fn the_first_hop_blocking_by_hand() {
        // 3-cube, K = 1, fig12_000_onoff_bursts.toml's g = 33 stream
        // (p·r = 0.128 flits per cycle), c = 1, c_d = 32/33, M/c_d = 33.
        // First hop d with q_d = 2^(2 − d)/7: d = 0 (4/7) has no other
        // input; d = 1 (2/7): 1 other source, λ = 1·(2/7)·0.128 =
        // 0.0365714, ρ = λ·33/32 = 0.0377143, B = ρ/(1 − ρ)·33 = 1.293349;
        // d = 2 (1/7): 3 other sources, λ = 3·(1/7)·0.128 = 0.0548571,
        // ρ = 0.0565714, B = 1.978801. B̄ = (2/7)·1.293349 + (1/7)·1.978801
        // = 0.652214 cycles. K = 4 at a quarter of the rate per stream
        // (I = 9,670): the same λ, the same B̄.
        let class = BurstClass { ports: 0, streams: 1, mean_burst: 10.0, gap: 33.0, off_mean: 2170.0, flits: 32.0, capacity: 1.0 };
        let b = CubeBurstClass { n: 3, class }.first_hop_blocking().unwrap();
        assert!((b - 0.652_214).abs() < 1e-6, "{b}");
        let four = CubeBurstClass { n: 3, class: BurstClass { streams: 4, off_mean: 9670.0, ..class } }.first_hop_blocking().unwrap();
        assert!((four - 0.652_214).abs() < 1e-6, "{four}");
        // A 1-cube: the one hop is d = 0, never another input: 0.
        assert_eq!(CubeBurstClass { n: 1, class }.first_hop_blocking().unwrap(), 0.0);
    }

    #[test]
    fn the_first_hop_blocking_chained_by_hand() {
        // the_first_hop_blocking_by_hand's 3-cube (K = 1, p·r = 0.128,
        // M = 32, M/c_d = 33), each hop link's holders held there by the
        // blocking at their own next hop. From (x, d) the next output is
        // (y, d′) with probability 2^−(d′ − d), else the ejection link.
        // The ejection link from port e: the other inputs send
        // (7 − 2^e)/7·0.128 flits per cycle, its holders hold it 33.
        // H_2 (next always the ejection link, e = 2): λ = 3/7·0.128 =
        // 0.0548571, ρ = λ·33/32 = 0.0565714, B = ρ/(1 − ρ)·33 = 1.978801:
        // H_2 = 34.978801.
        // H_1: ½ to (y, 2), whose other inputs (the 4 sources of (y, 2)
        // less the 2 that come on port 1) send 2·(1/7)·0.128 = 0.0365714,
        // ρ = 0.0365714·34.978801/32 = 0.0399758, B = 1.456531; ½ to the
        // ejection link (e = 1): λ = 5/7·0.128 = 0.0914286, ρ = 0.0942857,
        // B = 3.435331. H_1 = 33 + ½·1.456531 + ½·3.435331 = 35.445931.
        // H_0: ½ to (y, 1) (2 − 1 other sources, λ = (2/7)·0.128 at
        // H_1: ρ = 0.0405096, B = 1.496525), ¼ to (y, 2) (4 − 1, λ =
        // 0.0548571 at H_2: ρ = 0.0599637, B = 2.231251), ¼ to the
        // ejection link (λ = 6/7·0.128, ρ = 0.1131429, B = 4.210052):
        // H_0 = 35.358588.
        // The first hop (from the injection VC, the first-order test's
        // λ): d = 1 at H_1, B = 1.496525; d = 2 at H_2, B = 2.231251;
        // B̄ = (2/7)·1.496525 + (1/7)·2.231251 = 0.746329 cycles, where
        // the first order's is 0.652214.
        let class = BurstClass { ports: 0, streams: 1, mean_burst: 10.0, gap: 33.0, off_mean: 2170.0, flits: 32.0, capacity: 1.0 };
        let cube = CubeBurstClass { n: 3, class };
        let holds = cube.chained_hop_holds().unwrap();
        for (h, want) in holds.iter().zip([35.358_588, 35.445_931, 34.978_801]) {
            assert!((h - want).abs() < 1e-6, "{holds:?}");
        }
        let b = cube.chained_first_hop_blocking().unwrap();
        assert!((b - 0.746_329).abs() < 1e-6, "{b}");
        // A 1-cube: its one hop link leads to the ejection link, which no
        // other input feeds ((2^1 − 1) − 2^0 = 0 other sources): H_0 = 33,
        // B̄ = 0.
        let one = CubeBurstClass { n: 1, class };
        assert_eq!((one.chained_hop_holds().unwrap(), one.chained_first_hop_blocking().unwrap()), (vec![33.0], 0.0));
        // a_two_cube_injection_link_coupled_backwards_by_hand's 2-cube
        // (K = 2, p·r = 1/2 per stream, M = 2, c_d = 8/3, M/c_d = 3/4):
        // H_1: the ejection link from port 1, (3 − 2)/3·2·½ = 1/3 flit per
        // cycle, ρ = (1/3)(3/4)/2 = 1/8, B = (1/7)(3/4) = 3/28, H_1 = 6/7.
        // First hop d = 1 (q = 1/3): 1/3 flit per cycle at H_1, ρ = 1/7,
        // B = (1/6)(6/7) = 1/7: B̄ = 1/21 (first order 1/28), so
        // c_b = 8/(4 + 4/21) = 21/11 below the first order's 56/29, and
        // the injection link is longer than its 0.958995.
        let two = CubeBurstClass { n: 2, class: BurstClass { ports: 0, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 4.0 } };
        assert!((two.chained_first_hop_blocking().unwrap() - 1.0 / 21.0).abs() < 1e-12);
        assert!((two.class.capacity_with_blocking(1.0 / 21.0) - 21.0 / 11.0).abs() < 1e-12);
        assert!(two.chained_coupled_delay().unwrap().source_link > 0.958_995 + 1e-3);
    }

    #[test]
    fn a_two_cube_injection_link_coupled_backwards_by_hand() {
        // 2-cube, K = 2, M = 2, g = 2 (r = 1), N = 50 (T_on = 100), I = 100
        // (p = 1/2), c = 4: c_s = 2 = 2r, so the two streams never
        // overload the injection link's VC without the coupling. First-hop
        // blocking: d = 0 (q = 2/3) no other input; d = 1 (q = 1/3): the
        // one other source's 2 streams, each there with 1/3: λ = 1/3 flits
        // per cycle into c_d = 8/3, ρ = 1/8, B = (1/7)·(2/(8/3)) = 3/28;
        // B̄ = (1/3)(3/28) = 1/28. c_b = c·M/(M + 2 + c·B̄) = 8/(4 + 1/7)
        // = 56/29. Own part: one stream at r = 1 below c_s and c_b: 0.
        // The two-stream link at c_b (the_source_link_coupled_backwards's
        // algebra): m_i = −0.02 + (c_b − i) z; det(Q − zD) = m0 m1 m2 −
        // 2·10⁻⁴(m0 + m2) = z(k0 + k1 z + k2 z²) with k0 = 4·10⁻⁴(3c_b − 3)
        // − 2·10⁻⁴(2c_b − 2) = 7.448276e-4, k1 = −0.02(3c_b² − 6c_b + 2) =
        // −0.0320095, k2 = c_b(c_b − 1)(c_b − 2) = −0.1239903: the negative
        // root z = −783/2800 = −0.2796429. m0 = −0.02 + c_b z = −0.56,
        // m2 = −0.02 + (c_b − 2)z = −1/1400; φ2 = 1, φ1 = −m2/0.01 = 1/14,
        // φ0 = −0.01 φ1/m0 = 1/784; a = −π2 = −1/4; E[Q] = a·(841/784)/z
        // = 0.958995 flits, Λ = 1: 0.958995 cycles.
        let class = BurstClass { ports: 0, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 4.0 };
        let cube = CubeBurstClass { n: 2, class };
        assert!((cube.first_hop_blocking().unwrap() - 1.0 / 28.0).abs() < 1e-12);
        let d = cube.coupled_delay().unwrap();
        assert!((d.source_link - 0.958_995).abs() < 1e-5, "{d:?}");
        assert_eq!(class.source_link_with_turnaround(), Ok(0.0));
    }

    #[test]
    fn the_expected_max_of_two_exponential_waits_by_hand() {
        // Two waits of mean 1: max = 1 + 1 − min, min of rate 2, mean 1/2:
        // 1.5 (the expected maximum of two Exp(1), 1 + 1/2). Means 10 and
        // 30: min of rate 1/10 + 1/30 = 4/30, mean 7.5; 40 − 7.5 = 32.5.
        // A wait that never occurs (mean 0) leaves the other.
        assert!((expected_max_of_exponentials(1.0, 1.0) - 1.5).abs() < 1e-12);
        assert!((expected_max_of_exponentials(10.0, 30.0) - 32.5).abs() < 1e-12);
        assert!((expected_max_of_exponentials(30.0, 10.0) - 32.5).abs() < 1e-12);
        assert_eq!(expected_max_of_exponentials(0.0, 4.0), 4.0);
        assert_eq!(expected_max_of_exponentials(4.0, 0.0), 4.0);
        assert_eq!(expected_max_of_exponentials(0.0, 0.0), 0.0);
    }

    #[test]
    fn the_backlog_at_source_merges_the_two_cube_links() {
        // a_two_cube_injection_link_coupled_backwards_by_hand's class: the
        // injection link S = 0.958995 cycles (by hand there); with the
        // network part N of `coupled_delay` the merged total is
        // S + N − S·N/(S + N) and the network part stays N.
        // a_two_cube_in_tandem_by_hand's K = 1 class: S = 0, N = 1/3 by
        // hand: the merge adds nothing, total 1/3.
        let class = BurstClass { ports: 0, streams: 2, mean_burst: 50.0, gap: 2.0, off_mean: 100.0, flits: 2.0, capacity: 4.0 };
        let cube = CubeBurstClass { n: 2, class };
        let (tandem, merged) = (cube.coupled_delay().unwrap(), cube.backlog_at_source_delay().unwrap());
        let (s, n) = (0.958_995, tandem.destination_link);
        assert!(n > 0.0 && (merged.destination_link - n).abs() < 1e-12, "{tandem:?} {merged:?}");
        assert!((merged.source_link + merged.destination_link - (s + n - s * n / (s + n))).abs() < 1e-5, "{merged:?}");
        let k1 = BurstClass { ports: 0, streams: 1, mean_burst: 100.0, gap: 1.0, off_mean: 100.0, flits: 1.0, capacity: 5.0 };
        let d = CubeBurstClass { n: 2, class: k1 }.backlog_at_source_delay().unwrap();
        assert!(d.source_link == 0.0 && (d.destination_link - 1.0 / 3.0).abs() < 1e-6, "{d:?}");
    }
}
