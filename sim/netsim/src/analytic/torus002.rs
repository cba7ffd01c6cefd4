//! The combinatorial model of Najaf-abadi and Sarbazi-azad (002_…) for a
//! unidirectional n-D torus (radix k_i per dimension) with dimension-order
//! routing and L ≥ 2 VCs per channel: L − 2 shared VCs plus two escape VCs,
//! v1 when c_i < d_i and v2 otherwise.
//!
//! Our copy garbles some formulas; how they are read:
//! * The combinatorial path probabilities (P_{t,d_i}, P_{d_j,s|d_i},
//!   P_{d_j,s|d_i,first}, the first-dimension weights) are what the text
//!   says they are, computed exactly by enumerating the destination offsets
//!   (x_0, …, x_{n−1}), x_i ∈ 0..k_i − 1, of a uniform destination; the
//!   counts C_m^{d,(…)} of the paper are the same enumeration grouped by m.
//! * P_{d_i} keeps the three cases the text describes (all L busy and the
//!   unusable escape VC's holder terminating; all L busy and none
//!   terminating; L − 1 busy, the free one the wrong escape VC, none
//!   terminating); the printed tail after the third product is dropped.
//! * The maximum number of waiting messages (2d_i − 1)L uses the 1-based
//!   dimension number: (2i + 1)L for dimension i = 0, 1, ….
//! * Ñ_{d_i,waiting} = Σ_{j ≥ L} (j − L + 1) P_{d_i,j,waiting}: with j
//!   messages wanting the hop, L hold its VCs and a newcomer is the
//!   (j − L + 1)-th waiting. The printed Σ_{j ≥ L} j P_j counts the L
//!   holders as waiting too; it makes W L times too large at light load and
//!   the 16 × 16, L = 3, M = 32 torus saturate below a quarter of its
//!   channel bandwidth (λ_g ≈ 0.0008), far left of the paper's Fig. 1.
//! * Channel rates per dimension are λ_g E[x_i] (equal to h λ_g / n when all
//!   k_i are equal, the paper's λ_c).
//! * Time unit t_c = one flit per cycle per channel; the paper's router adds
//!   nothing per hop. `router_delay` adds a pipeline's extra cycles per
//!   router on the path (0 reproduces the paper).

use super::escape_vcs::{mean_escape_blocking, mean_line_joining};
use crate::channel_probe::multiplexing_degree;

#[derive(Clone, Debug)]
pub struct TorusModel {
    /// Radix of each dimension, in routing order.
    pub radix: Vec<usize>,
    /// L, VCs per physical channel (≥ 2).
    pub vcs: usize,
    /// M, flits per message.
    pub msg_flits: f64,
    /// λ_g, messages per cycle per node.
    pub rate: f64,
    /// Extra cycles per router on the path (h + 1 routers).
    pub router_delay: f64,
}

#[derive(Clone, Debug)]
pub struct TorusSolution {
    /// T̄ = S̄ l̄ + W̄_s + h l̄ (+ the router delay): creation to last flit.
    pub latency: f64,
    /// S̄ l̄ + h l̄ (+ router delay): header injection to last flit.
    pub network_latency: f64,
    /// W̄_s.
    pub source_wait: f64,
    /// W_{d_i}, blocking time per hop of each dimension.
    pub blocking: Vec<f64>,
    /// l̄, the mean VC multiplexing degree.
    pub multiplexing: f64,
    pub mean_hops: f64,
    pub iterations: usize,
    /// Each dimension's channel terms at the solution.
    pub dims: Vec<DimensionTerms>,
}

/// One dimension's channel terms (the model's counterparts of
/// `channel_probe::DimensionStats`).
#[derive(Clone, Debug, PartialEq)]
pub struct DimensionTerms {
    /// λ_c, messages per cycle per channel of the dimension.
    pub arrival_rate: f64,
    /// D_{d_i}, the channel's service time (a VC's holding time).
    pub service: f64,
    /// ρ = λ_c D.
    pub rho: f64,
    /// P_{d_i,j}, j = 0..=L.
    pub occupancy: Vec<f64>,
    /// P_{B_i} = P_L + P_{L−1}/L (by channel position with
    /// [`VcWait::EscapeByPosition`]).
    pub p_block: f64,
    /// P_{d_i}: blocked and no blocker terminating at the next node.
    pub p_none: f64,
    /// Ŵ_{d_i}.
    pub w_hat: f64,
    /// Ñ_{d_i,waiting}.
    pub waiting: f64,
    /// W_{d_i} from the blocking times `w` given: Ŵ Ñ, or P_B R
    /// ([`VcWait`]).
    pub blocking: f64,
    /// n̄, the headers a blocked header finds waiting ahead of it
    /// ([`VcWait::EscapeLine`]; 0 for the waits without a line).
    pub ahead: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TorusError {
    /// λ_c D_{d_i} ≥ 1 in dimension `dim`, or the ejection / source queue.
    Saturated(String),
    NoConvergence,
}

/// Path statistics of a uniform destination, by enumeration.
#[derive(Clone, Debug)]
pub struct PathStats {
    /// P_m, m = 0..=max hops (P_0 = 0).
    pub hops: Vec<f64>,
    /// E[x_i]: hops in dimension i per message.
    pub per_dim: Vec<f64>,
    /// P(first hop in dimension i).
    pub first: Vec<f64>,
    /// τ_i = P_{t,d_i}/(k_i/2): a message crossing a channel of dimension i
    /// terminates at the next node.
    pub terminate: Vec<f64>,
    /// rest[i][j]: mean further hops in dimension j (≥ i) after crossing a
    /// channel of dimension i (the blocker's remaining path).
    pub rest: Vec<Vec<f64>>,
    /// after_first[i][j]: mean hops in dimension j after the first hop, for
    /// messages whose first hop is in dimension i.
    pub after_first: Vec<Vec<f64>>,
}

/// The offsets (x_0, …, x_{n−1}), x_i ∈ 0..k_i − 1, of every destination
/// other than the source: a uniform destination's, one each.
fn destination_offsets(radix: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let nodes: usize = radix.iter().product();
    (1..nodes).map(move |idx| {
        let mut r = idx;
        radix
            .iter()
            .map(|&k| {
                let x = r % k;
                r /= k;
                x
            })
            .collect()
    })
}

pub fn path_stats(radix: &[usize]) -> PathStats {
    let n = radix.len();
    let nodes: usize = radix.iter().product();
    let others = (nodes - 1) as f64;
    let max_h: usize = radix.iter().map(|k| k - 1).sum();
    let mut hops = vec![0.0; max_h + 1];
    let mut per_dim = vec![0.0; n];
    let mut first = vec![0.0; n];
    let mut term_num = vec![0.0; n];
    let mut cross = vec![0.0; n];
    let mut rest = vec![vec![0.0; n]; n];
    let mut after_first = vec![vec![0.0; n]; n];
    for x in destination_offsets(radix) {
        hops[x.iter().sum::<usize>()] += 1.0 / others;
        let top = (0..n).rev().find(|&i| x[i] > 0).unwrap();
        let f = (0..n).find(|&i| x[i] > 0).unwrap();
        first[f] += 1.0 / others;
        for j in 0..n {
            per_dim[j] += x[j] as f64 / others;
            after_first[f][j] += if j == f { x[j] as f64 - 1.0 } else { x[j] as f64 } / others;
        }
        for i in 0..n {
            // Each of the x_i hops in dimension i, t = 1..=x_i.
            for t in 1..=x[i] {
                cross[i] += 1.0;
                if i == top && t == x[i] {
                    term_num[i] += 1.0;
                }
                rest[i][i] += (x[i] - t) as f64;
                for j in i + 1..n {
                    rest[i][j] += x[j] as f64;
                }
            }
        }
    }
    for f in 0..n {
        if first[f] > 0.0 {
            let w = first[f];
            after_first[f].iter_mut().for_each(|v| *v /= w);
        }
    }
    for i in 0..n {
        if cross[i] > 0.0 {
            let c = cross[i];
            rest[i].iter_mut().for_each(|v| *v /= c);
        }
    }
    let terminate = (0..n).map(|i| if cross[i] > 0.0 { term_num[i] / cross[i] } else { 0.0 }).collect();
    PathStats { hops, per_dim, first, terminate, rest, after_first }
}

/// The later hops a VC hold can see: for messages whose first hop is in
/// dimension i, `hops[i][j]` the mean hops in dimension j among the first
/// `span` hops after it, `ejection[i]` the share whose destination router
/// is at most `span` routers past the first hop's (its ejection wait is
/// met within the span: R further hops put the destination R + 1 routers
/// on).
#[derive(Clone, Debug, PartialEq)]
pub struct PathWindow {
    pub hops: Vec<Vec<f64>>,
    pub ejection: Vec<f64>,
}

/// [`PathWindow`] of a uniform destination, by the same enumeration as
/// [`path_stats`].
pub fn path_window(radix: &[usize], span: usize) -> PathWindow {
    let n = radix.len();
    let mut hops = vec![vec![0.0; n]; n];
    let mut ejection = vec![0.0; n];
    let mut first = vec![0usize; n];
    for x in destination_offsets(radix) {
        let f = (0..n).find(|&i| x[i] > 0).unwrap();
        first[f] += 1;
        // The hops after the first, in dimension order: x_f − 1 in f, then
        // x_j in each later j; the first `span` of them.
        let mut left = span;
        for j in f..n {
            let later = if j == f { x[j] - 1 } else { x[j] };
            let seen = later.min(left);
            hops[f][j] += seen as f64;
            left -= seen;
        }
        if x.iter().sum::<usize>() <= span {
            ejection[f] += 1.0;
        }
    }
    for f in 0..n {
        if first[f] > 0 {
            let c = first[f] as f64;
            hops[f].iter_mut().for_each(|v| *v /= c);
            ejection[f] /= c;
        }
    }
    PathWindow { hops, ejection }
}

/// How the L VCs of a channel are taken and released.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VcOccupancy {
    /// 002_…'s chain (from [16], after Dally): one server of rate 1/D
    /// whatever the number of busy VCs, P_j = (1 − ρ)ρ^j (j < L),
    /// P_L = ρ^L, ρ = λ_c D < 1.
    Paper,
    /// A what-if, not the paper: the L VCs held independently, each for D
    /// (rate j/D with j ≤ L busy): the M/M/L queue with a = λ_c D < L,
    /// P_j ∝ a^j/j! (j < L), P_L = P(≥ L), and the states beyond L (the
    /// waiting messages) π_j = π_L (a/L)^{j−L}.
    ParallelVcs,
}

/// The variant of the model to solve: 002_…'s equations as printed
/// ([`Variant::PAPER`]) or with the VC occupancy and the VC holding time
/// replaced (docs/reproduction.md, "Why 002_…'s model saturates early").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    pub occupancy: VcOccupancy,
    /// Cycles a VC stays held beyond D_{d_i} (in ρ only): on our routers a
    /// VC is taken before the header crosses and, with atomic reallocation,
    /// released only once the tail has left the downstream buffer.
    pub hold_extra: f64,
    /// Not the paper (docs/reproduction.md, "A corrected L = 3 model"): how
    /// a VC's holding time grows because the channel's flits are shared.
    pub hold_growth: HoldGrowth,
    /// How long and how often a header waits for a VC.
    pub wait: VcWait,
    /// Not the paper (docs/reproduction.md, "The blocking a hold can
    /// see"): `Some(k)` counts in a VC's holding time D_{d_i} only the
    /// blocking of the next k hops and the ejection wait if the destination
    /// is within them ([`path_window`]): once a blocked message's flits fit
    /// in the buffers past the next router, the hold has ended. k =
    /// ⌈M / (input + output buffer depth)⌉ ([`blocking_span`]). The message's
    /// latency S̄ still has every hop's blocking; Ŵ ([`VcWait::Paper`]) keeps
    /// the whole remaining path. `None`: every later hop (002_…'s).
    pub blocking_span: Option<usize>,
    /// Not the paper (docs/reproduction.md, "The hold's downstream term"):
    /// `Some(b)`, the flits one router's buffers of a VC take (input +
    /// output depth): a header that waits k hops past the channel (k = 1 at
    /// the next router) lengthens the hold only by the part of its wait
    /// beyond (k − 1) b cycles, the time the flits behind it take, one a
    /// cycle, to fill the free buffers of the k − 1 routers between before
    /// the stall reaches the next router's input buffer, whose emptying
    /// ends the hold ([`first_release_beyond`], the wait distributed as the
    /// first release's). Only within a [`Variant::blocking_span`]; the
    /// ejection wait and S̄ unchanged. `None`: every wait in full.
    pub absorbing_buffers: Option<usize>,
}

/// `at[k][i][j]`: for messages whose first hop is in dimension i, the
/// probability that the (k + 1)-th hop after it exists and is in dimension
/// j, k < `span` ([`path_window`]'s counts of span k + 1 less span k's).
pub fn hops_by_position(radix: &[usize], span: usize) -> Vec<Vec<Vec<f64>>> {
    let windows: Vec<PathWindow> = (0..=span).map(|k| path_window(radix, k)).collect();
    windows.windows(2).map(|p| p[1].hops.iter().zip(&p[0].hops).map(|(a, b)| a.iter().zip(b).map(|(x, y)| x - y).collect()).collect()).collect()
}

/// The share of a [`first_release`] wait that lies beyond `a` cycles:
/// E[(min − a)⁺] / E[min] ([`first_release_beyond`]); 1 with no hold.
pub fn beyond_share(fixed: f64, random: f64, usable: usize, a: f64) -> f64 {
    let whole = first_release(fixed, random, usable);
    if whole > 0.0 {
        first_release_beyond(fixed, random, usable, a) / whole
    } else {
        1.0
    }
}

/// The hops past a channel whose blocking can lengthen a VC's hold there:
/// the hold ends when the tail leaves the next router's input buffer; a
/// header held up k routers on (k = 1: the next router) leaves room
/// downstream of that buffer for (k − 1) (input + output depth) flits, so
/// the hold lasts while M > (k − 1) × depth, that is k ≤ ⌈M / depth⌉.
pub fn blocking_span(msg_flits: usize, input_depth: usize, output_depth: usize) -> usize {
    msg_flits.div_ceil(input_depth + output_depth)
}

/// A header's wait for a VC, W_{d_i}.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VcWait {
    /// 002_…'s: W = Ŵ Ñ_waiting, Ŵ a blocker's whole remaining time.
    Paper,
    /// Not the paper (docs/reproduction.md, "A residual wait for the L = 3
    /// model"): W = P_B R. A header may take L − 1 of the L VCs (the L − 2
    /// shared ones and its escape VC), so it is blocked with 002_…'s
    /// P_B = P_L + P_{L−1}/L, and then waits until the first of the L − 1
    /// busy VCs it may take frees: R = [`first_release`] of holds made of
    /// the unobstructed transfer M + `hold_extra` and, exponentially
    /// distributed, the rest of D_{d_i} (growth, blocking further on,
    /// ejection wait). Headers queued behind another blocked header are
    /// not counted (first order in the blocking).
    FirstRelease,
    /// Not the paper (docs/reproduction.md, "The wait for a VC, term by
    /// term"): [`VcWait::FirstRelease`] with P_B the mean over the
    /// dimension's channel positions of the blocking of the escape VC
    /// arrangement there (`escape_vcs::mean_escape_blocking`): which escape
    /// VC a header may take depends on the channel's position, so next to
    /// the wrap link every header may take the same L − 1 VCs.
    EscapeByPosition,
    /// Not the paper (docs/reproduction.md, "The wait for a VC, term by
    /// term"): [`VcWait::EscapeByPosition`] with the headers a blocked
    /// header finds waiting ahead of it: it waits R for its own release and
    /// one more R for each header ahead ([`queued_wait`]).
    EscapeQueued,
    /// Not the paper (docs/reproduction.md, "The line of headers built
    /// into the model"): [`VcWait::EscapeByPosition`] with the headers
    /// ahead of a blocked one, each costing the gap G from one release of
    /// its L − 1 busy VCs to the next ([`second_release_gap`]), not a
    /// residual R, and only the headers that are themselves blocked
    /// joining the line: n̄ = q λ_c W_b, q = `escape_vcs::mean_line_joining`
    /// ([`line_wait`]).
    EscapeLine,
}

/// A blocked header's wait when it waits R (`first`) for the first
/// release and one more R for each header already waiting ahead of it,
/// headers arriving at `rate` per cycle: with n̄ the mean ahead, W = R (1 +
/// n̄) and, by Little's law on the waiting line of the blocked period,
/// n̄ = rate W, so W = R / (1 − rate R). `None` when rate R ≥ 1 (the line
/// grows without bound).
pub fn queued_wait(first: f64, rate: f64) -> Option<f64> {
    let load = rate * first;
    (load < 1.0).then(|| first / (1.0 - load))
}

/// A blocked header's wait W_b = R + n̄ G when it waits R (`first`) for the
/// first release of its busy VCs and one gap G (`gap`) more for each of
/// the n̄ headers waiting ahead of it, which take the releases before it.
/// n̄ by level crossing: in a first-come line the headers a blocked
/// arrival finds ahead have the distribution of those a header leaves
/// behind when it takes its VC, that is of the headers that arrived during
/// its wait and joined the line; they arrive at λ_c and a share q of them
/// is blocked too (the rest take a VC it may not take), so with
/// `joining_rate` = q λ_c, n̄ = q λ_c W_b and W_b = R / (1 − q λ_c G).
/// Returns (W_b, n̄), `None` when q λ_c G ≥ 1 (the line grows without
/// bound).
pub fn line_wait(first: f64, gap: f64, joining_rate: f64) -> Option<(f64, f64)> {
    let load = joining_rate * gap;
    (load < 1.0).then(|| {
        let wait = first / (1.0 - load);
        (wait, joining_rate * wait)
    })
}

/// The holding time's growth with the sharing of the physical channel
/// (docs/reproduction.md, "A corrected L = 3 model"). The growth g_{d_i}
/// enters D_{d_i} (so ρ, the blocking and S̄) and Ŵ (a blocker frees its VC
/// g later), and is solved in the same fixed point as the blocking times;
/// each of the header's h hops then takes 1 + g/M cycles, and S̄ is not
/// multiplied by l̄ again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HoldGrowth {
    /// The paper's: D = M plus the blocking further on; l̄ multiplies S̄ + h.
    None,
    /// g = M (l̄_{d_i} − 1), l̄ = Σ j² P_j / Σ j P_j of the channel's
    /// occupancy: every busy VC takes an equal share of the flits.
    BusyVcs,
    /// g = M u / (1 − u), u = λ_c M the channel's flit utilisation: the
    /// mean sojourn M / (1 − u) of an M-flit job at a processor-sharing
    /// server, where only the VCs with a flit to send share the channel.
    SharedChannel,
}

impl Variant {
    pub const PAPER: Variant = Variant { occupancy: VcOccupancy::Paper, hold_extra: 0.0, hold_growth: HoldGrowth::None, wait: VcWait::Paper, blocking_span: None, absorbing_buffers: None };
    /// [`VcOccupancy::ParallelVcs`] with the VC held `hold_extra` cycles
    /// beyond the message and longer by `growth`.
    pub fn corrected(hold_extra: f64, growth: HoldGrowth) -> Variant {
        Variant { occupancy: VcOccupancy::ParallelVcs, hold_extra, hold_growth: growth, wait: VcWait::Paper, blocking_span: None, absorbing_buffers: None }
    }
    /// This variant with the holding time's blocking limited to the next
    /// `hops` hops ([`Variant::blocking_span`]).
    pub fn with_span(self, hops: usize) -> Variant {
        Variant { blocking_span: Some(hops), ..self }
    }
    /// This variant with the wait for a VC computed as `wait`.
    pub fn with_wait(self, wait: VcWait) -> Variant {
        Variant { wait, ..self }
    }
    /// This variant with the downstream waits partly absorbed by `flits`
    /// of buffer a router ([`Variant::absorbing_buffers`]).
    pub fn with_absorption(self, flits: usize) -> Variant {
        Variant { absorbing_buffers: Some(flits), ..self }
    }
}

/// The mean time until the first of `usable` busy VCs frees, seen by a
/// header arriving at a random moment: each VC is held `fixed` + X cycles,
/// X exponential with mean `random`, independently of the others. A random
/// moment falls in a hold H with probability ∝ H, so each VC's remaining
/// time R has P(R > t) = ∫_t^∞ P(H > s) ds / E[H]; with T = fixed + random
/// and q = random / T that is (T − t)/T for t < fixed and q e^{−(t −
/// fixed)/random} beyond, and E[min of u] = ∫ P(R > t)^u dt =
/// T/(u + 1) (1 − q^{u+1}) + q^u random/u (fixed = 0: random/u, the
/// exponential's; random = 0: fixed/(u + 1), the first of u uniform
/// residuals).
pub fn first_release(fixed: f64, random: f64, usable: usize) -> f64 {
    first_release_beyond(fixed, random, usable, 0.0)
}

/// E[(min − a)⁺] for the wait `min` of [`first_release`]: its part beyond
/// `a` cycles, ∫_a^∞ P(R > t)^u dt. With T = fixed + random and q =
/// random / T: for a < fixed, T/(u + 1) (((T − a)/T)^{u+1} − q^{u+1}) +
/// q^u random/u; beyond, q^u e^{−u (a − fixed)/random} random/u (0
/// without a random part).
pub fn first_release_beyond(fixed: f64, random: f64, usable: usize, a: f64) -> f64 {
    let total = fixed + random;
    if total <= 0.0 {
        return 0.0;
    }
    let u = usable as f64;
    let q = random / total;
    let exponential = |past_fixed: f64| if random > 0.0 { q.powi(usable as i32) * (-u * past_fixed / random).exp() * random / u } else { 0.0 };
    if a < fixed {
        total / (u + 1.0) * (((total - a) / total).powi(usable as i32 + 1) - q.powi(usable as i32 + 1)) + exponential(0.0)
    } else {
        exponential(a - fixed)
    }
}

/// The mean time from the first to the second release among `usable` ≥ 2
/// busy VCs held as in [`first_release`]: what one header already waiting
/// ahead of a blocked one costs it when that header takes the first VC
/// freed (docs/reproduction.md, "The line ahead of a blocked header"). With
/// S = P(R > t) of one VC's remaining time, the second release R_(2) has
/// P(R_(2) > t) = S^u + u (1 − S) S^{u−1}, so E[R_(2)] − E[R_(1)] = u (E[min
/// of u − 1] − E[min of u]), both [`first_release`]. (Two VCs of fixed
/// holds T: T/3; exponential holds of mean b: b, the memoryless residual.)
pub fn second_release_gap(fixed: f64, random: f64, usable: usize) -> f64 {
    assert!(usable >= 2, "a second release needs two usable VCs, got {usable}");
    usable as f64 * (first_release(fixed, random, usable - 1) - first_release(fixed, random, usable))
}

/// P_{d_i,j}: truncated geometric occupancy with ρ = λ_c D (j = 0..=L).
pub fn occupancy(rho: f64, vcs: usize) -> Vec<f64> {
    (0..=vcs).map(|j| if j < vcs { (1.0 - rho) * rho.powi(j as i32) } else { rho.powi(vcs as i32) }).collect()
}

/// The M/M/L queue's state probabilities π_0..=π_top (a < L), the tail
/// beyond `top` lumped into π_top.
pub fn parallel_states(a: f64, vcs: usize, top: usize) -> Vec<f64> {
    let l = vcs as f64;
    let mut w: Vec<f64> = Vec::with_capacity(top + 1);
    let mut term = 1.0;
    for j in 0..=top {
        if j > 0 {
            term *= a / (j.min(vcs) as f64);
        }
        w.push(term);
    }
    // Σ_{j > top} π_j = π_top (a/L) / (1 − a/L).
    let r = a / l;
    w[top] /= 1.0 - r;
    let total: f64 = w.iter().sum();
    w.iter().map(|x| x / total).collect()
}

/// P_{d_i,j} of the M/M/L queue: j < L busy, or all L (P(≥ L)).
pub fn parallel_occupancy(a: f64, vcs: usize) -> Vec<f64> {
    parallel_states(a, vcs, vcs)
}

impl TorusModel {
    /// Dimension i's terms given λ_c, D_{d_i} and the current blocking
    /// times `w` of every dimension (one step of the fixed point).
    /// `growth` is the holder's transfer time beyond M ([`HoldGrowth`]).
    fn dimension(&self, ps: &PathStats, lam_c: f64, d: f64, growth: f64, i: usize, w: &[f64], var: Variant) -> Result<DimensionTerms, TorusError> {
        let l = self.vcs;
        let rho = lam_c * (d + var.hold_extra);
        let limit = match var.occupancy {
            VcOccupancy::Paper => 1.0,
            VcOccupancy::ParallelVcs => l as f64,
        };
        if rho >= limit {
            return Err(TorusError::Saturated(format!("dimension {i}: λ_c D = {rho:.3} ≥ {limit}")));
        }
        // Ñ_waiting: up to (2i + 1)L messages; with j ≥ L present a
        // newcomer is the (j − L + 1)-th in line.
        let top = (2 * i + 1) * l;
        let (p, waiting_states) = match var.occupancy {
            VcOccupancy::Paper => (occupancy(rho, l), (0..=top).map(|j| if j < top { (1.0 - rho) * rho.powi(j as i32) } else { rho.powi(j as i32) }).collect::<Vec<_>>()),
            VcOccupancy::ParallelVcs => (parallel_occupancy(rho, l), parallel_states(rho, l, top)),
        };
        let pb = match var.wait {
            VcWait::EscapeByPosition | VcWait::EscapeQueued | VcWait::EscapeLine => mean_escape_blocking(rho, l, self.radix[i]).ok_or_else(|| TorusError::Saturated(format!("dimension {i}: λ_c D = {rho:.3} beyond what the escape VCs of a channel position carry")))?,
            _ => p[l] + p[l - 1] / l as f64,
        };
        let tau = ps.terminate[i];
        let lf = l as f64;
        let p_none = tau * (1.0 - tau).powi(l as i32 - 1) * p[l] / lf + (1.0 - tau).powi(l as i32) * p[l] + (1.0 - tau).powi(l as i32 - 1) * p[l - 1] / lf;
        let rest: f64 = (0..self.radix.len()).map(|j| w[j] * ps.rest[i][j]).sum();
        let w_hat = if pb > 0.0 { p_none / pb * rest } else { 0.0 } + self.msg_flits + growth;
        let waiting: f64 = (l..=top).map(|j| (j - l + 1) as f64 * waiting_states[j]).sum();
        let mut ahead = 0.0;
        let blocking = match var.wait {
            VcWait::Paper => w_hat * waiting,
            // The unobstructed hold M + hold_extra is fixed; the rest of
            // D (≥ M) is what varies from message to message.
            VcWait::FirstRelease | VcWait::EscapeByPosition => pb * first_release(self.msg_flits + var.hold_extra, d - self.msg_flits, l - 1),
            VcWait::EscapeQueued => {
                let first = first_release(self.msg_flits + var.hold_extra, d - self.msg_flits, l - 1);
                pb * queued_wait(first, lam_c).ok_or_else(|| TorusError::Saturated(format!("dimension {i}: λ_c R = {:.3} ≥ 1 (the blocked headers' line)", lam_c * first)))?
            }
            VcWait::EscapeLine => {
                if l < 3 {
                    return Err(TorusError::Saturated(format!("L = {l}: the line's gap needs two usable VCs (L ≥ 3)")));
                }
                let (fixed, random) = (self.msg_flits + var.hold_extra, d - self.msg_flits);
                let first = first_release(fixed, random, l - 1);
                let gap = second_release_gap(fixed, random, l - 1);
                // ρ < what the positions carry: mean_escape_blocking above
                // returned Some for the same ρ.
                let q = mean_line_joining(rho, l, self.radix[i]).expect("the escape chain carries ρ");
                let (wait, n) = line_wait(first, gap, q * lam_c).ok_or_else(|| TorusError::Saturated(format!("dimension {i}: q λ_c G = {:.3} ≥ 1 (the blocked headers' line)", q * lam_c * gap)))?;
                ahead = n;
                pb * wait
            }
        };
        Ok(DimensionTerms { arrival_rate: lam_c, service: d + var.hold_extra, rho, occupancy: p, p_block: pb, p_none, w_hat, waiting, blocking, ahead })
    }

    pub fn solve(&self) -> Result<TorusSolution, TorusError> {
        self.solve_with(Variant::PAPER)
    }

    /// [`TorusModel::solve`] with the VC occupancy and holding time of `var`.
    pub fn solve_with(&self, var: Variant) -> Result<TorusSolution, TorusError> {
        let n = self.radix.len();
        let l = self.vcs;
        let m = self.msg_flits;
        let ps = path_stats(&self.radix);
        let lam_c: Vec<f64> = ps.per_dim.iter().map(|e| e * self.rate).collect();
        let h: f64 = ps.hops.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        if m * self.rate >= 1.0 {
            return Err(TorusError::Saturated("ejection channel (M λ_g ≥ 1)".into()));
        }
        let w_ej = m * m * self.rate / (2.0 * (1.0 - m * self.rate));
        if var.hold_growth == HoldGrowth::SharedChannel {
            if let Some(i) = (0..n).find(|&i| lam_c[i] * m >= 1.0) {
                return Err(TorusError::Saturated(format!("dimension {i}: channel utilisation λ_c M = {:.3} ≥ 1", lam_c[i] * m)));
            }
        }
        let mut w = vec![0.0f64; n];
        // g_{d_i}, the holding time's growth (HoldGrowth).
        let mut growth = vec![0.0f64; n];
        // D_{d_i}: the rest of the path's blocking, M t_c (and its growth),
        // the ejection wait.
        let service = |w: &[f64], growth: &[f64]| -> Vec<f64> { (0..n).map(|i| (0..n).map(|j| w[j] * ps.after_first[i][j]).sum::<f64>() + m + growth[i] + w_ej).collect() };
        // The VC's hold: D, or with a span only the blocking it can see,
        // with absorbing buffers only the part of each wait they leave.
        let window = var.blocking_span.map(|k| path_window(&self.radix, k));
        let by_hop = match (var.blocking_span, var.absorbing_buffers) {
            (Some(k), Some(_)) => hops_by_position(&self.radix, k),
            _ => Vec::new(),
        };
        // `held`: the previous iterate's holds, whose spread sets how much
        // of a wait lies beyond what the buffers absorb.
        let hold = |w: &[f64], growth: &[f64], held: &[f64]| -> Vec<f64> {
            match (&window, var.absorbing_buffers) {
                (None, _) => service(w, growth),
                (Some(win), None) => (0..n).map(|i| (0..n).map(|j| w[j] * win.hops[i][j]).sum::<f64>() + m + growth[i] + win.ejection[i] * w_ej).collect(),
                (Some(win), Some(b)) => (0..n)
                    .map(|i| {
                        let seen: f64 = by_hop.iter().enumerate().map(|(k, at)| (0..n).map(|j| at[i][j] * w[j] * beyond_share(m + var.hold_extra, held[j] - m, l - 1, (k * b) as f64)).sum::<f64>()).sum();
                        seen + m + growth[i] + win.ejection[i] * w_ej
                    })
                    .collect(),
            }
        };
        let mut held = vec![m; n];
        for it in 1..=100_000 {
            let d = hold(&w, &growth, &held);
            let terms = (0..n).map(|i| self.dimension(&ps, lam_c[i], d[i], growth[i], i, &w, var)).collect::<Result<Vec<_>, _>>()?;
            let next: Vec<f64> = terms.iter().map(|t| t.blocking).collect();
            let next_growth: Vec<f64> = terms
                .iter()
                .map(|t| match var.hold_growth {
                    HoldGrowth::None => 0.0,
                    HoldGrowth::BusyVcs => m * (multiplexing_degree(&t.occupancy) - 1.0),
                    HoldGrowth::SharedChannel => {
                        let u = t.arrival_rate * m;
                        m * u / (1.0 - u)
                    }
                })
                .collect();
            let delta = (0..n).map(|i| (next[i] - w[i]).abs().max((next_growth[i] - growth[i]).abs()).max(if var.absorbing_buffers.is_some() { (d[i] - held[i]).abs() } else { 0.0 })).fold(0.0, f64::max);
            held = d;
            if delta < 1e-10 {
                w = next;
                growth = next_growth;
                // S̄, the header's injection to the tail's arrival, has
                // every hop's blocking; the channel terms the hold.
                let d = service(&w, &growth);
                let s: f64 = (0..n).map(|i| ps.first[i] * (d[i] + w[i])).sum();
                let d_hold = hold(&w, &growth, &held);
                let dims = (0..n).map(|i| self.dimension(&ps, lam_c[i], d_hold[i], growth[i], i, &w, var)).collect::<Result<Vec<_>, _>>()?;
                let radix_sum: f64 = self.radix.iter().sum::<usize>() as f64;
                let lbar: f64 = (0..n).map(|i| self.radix[i] as f64 * multiplexing_degree(&dims[i].occupancy)).sum::<f64>() / radix_sum;
                let lam_s = self.rate / l as f64;
                if lam_s * s >= 1.0 {
                    return Err(TorusError::Saturated(format!("source queue (λ_g/L) S̄ = {:.3} ≥ 1", lam_s * s)));
                }
                let ws = lam_s * s * s * (1.0 + (s - m) * (s - m) / (s * s)) / (2.0 * (1.0 - lam_s * s));
                // The paper multiplies S̄ + h by l̄; with a growth S̄ already
                // holds each transfer's and a header hop takes 1 + g/M.
                let net = match var.hold_growth {
                    HoldGrowth::None => s * lbar + h * lbar,
                    _ => s + (0..n).map(|i| ps.per_dim[i] * (1.0 + growth[i] / m)).sum::<f64>(),
                } + self.router_delay * (h + 1.0);
                return Ok(TorusSolution { latency: net + ws, network_latency: net, source_wait: ws, blocking: w, multiplexing: lbar, mean_hops: h, iterations: it, dims });
            }
            for i in 0..n {
                w[i] = 0.5 * w[i] + 0.5 * next[i];
                growth[i] = 0.5 * growth[i] + 0.5 * next_growth[i];
            }
        }
        Err(TorusError::NoConvergence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_statistics_of_small_tori_by_hand() {
        // 2-ary 1-cube (two nodes): one destination, one hop, which ends the path.
        let p = path_stats(&[2]);
        assert_eq!(p.hops, vec![0.0, 1.0]);
        assert_eq!((p.per_dim[0], p.first[0], p.terminate[0]), (1.0, 1.0, 1.0));
        assert_eq!(p.rest[0][0], 0.0);
        // 4-ary 1-cube: destinations at 1, 2, 3 hops, h = 2; of the 6 channel
        // crossings 3 are last hops (τ = 1/2 = 2/k); after a crossing 2/3
        // further hops on average ((0 + 1 + 0 + 2 + 1 + 0)/6).
        let p = path_stats(&[4]);
        assert!((p.per_dim[0] - 2.0).abs() < 1e-12);
        assert!((p.terminate[0] - 0.5).abs() < 1e-12);
        assert!((p.rest[0][0] - 2.0 / 3.0).abs() < 1e-12);
        // 3 × 3: 8 destinations; first hop in dim 0 for the 6 with x_0 > 0.
        let p = path_stats(&[3, 3]);
        assert!((p.first[0] - 0.75).abs() < 1e-12 && (p.first[1] - 0.25).abs() < 1e-12);
        // Hops: 1 (x = (1,0),(2,0)... ) P_1 = 2/8, P_2 = 3/8, P_3 = 2/8, P_4 = 1/8.
        for (m, want) in [(1, 0.25), (2, 0.375), (3, 0.25), (4, 0.125)] {
            assert!((p.hops[m] - want).abs() < 1e-12, "P_{m}");
        }
    }

    #[test]
    fn two_node_torus_by_hand() {
        // 2-ary 1-cube, L = 2, M = 4, λ_g = 0.05: one hop, which always ends
        // the path (τ = 1), so the blockers never hold on beyond M:
        // Ŵ = 0 + M = 4. W_ej = 16·0.05/(2·0.8) = 0.5; D = 4 + 0.5 = 4.5;
        // ρ = λ_c D = 0.05·4.5 = 0.225 (λ_c = λ_g: every message crosses the
        // one channel). Dimension 0 has at most (2·1 − 1)L = 2 messages:
        // Ñ = Σ_{j=2}^{2} (j − 2 + 1) P_j = ρ² (the truncated tail); W = 4 Ñ.
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let s = m.solve().unwrap();
        let rho: f64 = 0.225;
        let w = 4.0 * rho * rho;
        assert!((s.blocking[0] - w).abs() < 1e-9, "{} vs {w}", s.blocking[0]);
        // S̄ = D + W; l̄ from P = ((1−ρ), (1−ρ)ρ, ρ²): Σj²P/ΣjP.
        let sbar = 4.5 + w;
        let p = [1.0 - rho, (1.0 - rho) * rho, rho * rho];
        let lbar = (p[1] + 4.0 * p[2]) / (p[1] + 2.0 * p[2]);
        assert!((s.multiplexing - lbar).abs() < 1e-9);
        // W_s: M/G/1 at λ_g/L = 0.025 with mean S̄, variance (S̄ − M)².
        let ls = 0.025;
        let ws = ls * sbar * sbar * (1.0 + (sbar - 4.0) * (sbar - 4.0) / (sbar * sbar)) / (2.0 * (1.0 - ls * sbar));
        assert!((s.latency - (sbar * lbar + ws + lbar)).abs() < 1e-9);
    }

    #[test]
    fn parallel_vc_occupancy_by_hand() {
        // M/M/2 with a = 0.5: unnormalised π_0..π_3 = 1, a = 0.5, a²/2 =
        // 0.125, (a²/2)(a/2) = 0.03125, and beyond 3 the geometric tail
        // (ratio a/L = 1/4) lumped into π_3: 0.03125/(1 − 1/4) = 1/24.
        // Total 1 + 0.5 + 0.125 + 1/24 = 5/3, so (0.6, 0.3, 0.075, 0.025);
        // truncated at L = 2 the last state is P(≥ 2) = (0.125 + 1/24)·0.6.
        let want = [0.6, 0.3, 0.075, 0.025];
        for (got, want) in parallel_states(0.5, 2, 3).iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        for (got, want) in parallel_occupancy(0.5, 2).iter().zip([0.6, 0.3, 0.1]) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        // The paper's chain at ρ = 0.5, L = 2: (0.5, 0.25, 0.25).
        assert_eq!(occupancy(0.5, 2), vec![0.5, 0.25, 0.25]);
    }

    #[test]
    fn parallel_vcs_carry_up_to_l_erlangs_where_the_papers_chain_saturates_at_one() {
        // 2-ary 1-cube, L = 2, M = 4 (two_node_torus_by_hand) at λ_g = 0.15:
        // W_ej = 16·0.15/(2·0.4) = 3, D = 4 + 3 = 7 (the one hop ends every
        // path: no blocking further on), λ_c D = 1.05 ≥ 1, so the paper's
        // chain saturates. As an M/M/2 queue (a = 1.05 < L): unnormalised
        // 1, 1.05, 1.05²/2 = 0.55125 lumped with its tail (ratio 0.525):
        // 0.55125/0.475; P(≥ 2) = 1.1605263/3.2105263 = 0.3614754; a blocker
        // always ends at the next node (P_none = 0), so Ŵ = M = 4 and
        // W = 4 Ñ = 4·P(≥ 2) (dimension 0: at most L messages).
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.15, router_delay: 0.0 };
        let par = |hold_extra: f64| Variant { occupancy: VcOccupancy::ParallelVcs, hold_extra, hold_growth: HoldGrowth::None, wait: VcWait::Paper, blocking_span: None, absorbing_buffers: None };
        assert!(matches!(m.solve(), Err(TorusError::Saturated(_))));
        let s = m.solve_with(par(0.0)).unwrap();
        assert!((s.dims[0].rho - 1.05).abs() < 1e-9, "{}", s.dims[0].rho);
        let p2 = 0.55125 / 0.475 / (1.0 + 1.05 + 0.55125 / 0.475);
        assert!((s.blocking[0] - 4.0 * p2).abs() < 1e-9, "{} vs {}", s.blocking[0], 4.0 * p2);
        // Held 6 cycles longer: a = 0.15·13 = 1.95 < 2; 7 longer: 2.1 ≥ 2.
        assert!((m.solve_with(par(6.0)).unwrap().dims[0].rho - 1.95).abs() < 1e-9);
        assert!(matches!(m.solve_with(par(7.0)), Err(TorusError::Saturated(_))));
    }

    #[test]
    fn shared_channel_growth_by_hand() {
        // two_node_torus_by_hand's 2-ary 1-cube (L = 2, M = 4, λ_g = 0.05,
        // λ_c = λ_g) with HoldGrowth::SharedChannel: u = λ_c M = 0.2, so the
        // holder takes M/(1 − u) = 5 cycles, g = 1. D = M + g + W_ej = 4 + 1
        // + 0.5 = 5.5 (one hop: no blocking further on), a = λ_c D = 0.275.
        // M/M/2, dimension 0 has at most (2·1 − 1)L = 2 messages: unnormalised
        // 1, 0.275, 0.275²/2 = 0.0378125, the last lumped with its tail
        // (ratio a/L = 0.1375): 0.0378125/0.8625. Ñ = π_2; τ = 1, so
        // P_none = 0 and Ŵ = M + g = 5; W = 5 π_2.
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let s = m.solve_with(Variant::corrected(0.0, HoldGrowth::SharedChannel)).unwrap();
        let top = 0.0378125 / 0.8625;
        let pi2 = top / (1.0 + 0.275 + top);
        assert!((s.dims[0].service - 5.5).abs() < 1e-9, "{}", s.dims[0].service);
        assert!((s.dims[0].rho - 0.275).abs() < 1e-9, "{}", s.dims[0].rho);
        assert!((s.blocking[0] - 5.0 * pi2).abs() < 1e-9, "{} vs {}", s.blocking[0], 5.0 * pi2);
        // Network latency: S̄ = D + W, not multiplied by l̄, and the one header
        // hop at 1 + g/M = 1.25 cycles.
        assert!((s.network_latency - (5.5 + 5.0 * pi2 + 1.25)).abs() < 1e-9, "{}", s.network_latency);
        // hold_extra enters ρ only: D + 2 in ρ, the latency's S̄ unchanged.
        let e = m.solve_with(Variant::corrected(2.0, HoldGrowth::SharedChannel)).unwrap();
        assert!((e.dims[0].rho - 0.05 * 7.5).abs() < 1e-9, "{}", e.dims[0].rho);
        // 4-ary 1-cube, λ_c = E[x] λ_g = 2 λ_g: at λ_g = 0.13 the channel is
        // offered u = 2·0.13·4 = 1.04 flits per cycle.
        let full = TorusModel { radix: vec![4], vcs: 2, msg_flits: 4.0, rate: 0.13, router_delay: 0.0 };
        match full.solve_with(Variant::corrected(0.0, HoldGrowth::SharedChannel)) {
            Err(TorusError::Saturated(why)) => assert!(why.contains("utilisation"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn first_release_by_hand_and_by_integration() {
        // Exponential holds (no fixed part): the first of u frees after
        // random/u; fixed holds: the first of u uniform residuals, fixed/(u + 1).
        assert!((first_release(0.0, 6.0, 2) - 3.0).abs() < 1e-12);
        assert!((first_release(6.0, 0.0, 2) - 2.0).abs() < 1e-12);
        // One VC: E[R] = E[H²]/(2 E[H]); H = 4 + X, E[X] = 1.5:
        // E[H²] = 16 + 2·4·1.5 + 2·1.5² = 32.5, E[H] = 5.5.
        assert!((first_release(4.0, 1.5, 1) - 32.5 / 11.0).abs() < 1e-12);
        // Two VCs, by numerical integration of P(R > t)² with P(R > t) =
        // ∫_t^∞ P(H > s) ds / E[H], both integrals by the midpoint rule.
        let (c, b, dt) = (4.0f64, 1.5f64, 1e-3);
        let tail = |s: f64| if s < c { 1.0 } else { (-(s - c) / b).exp() };
        let steps = (60.0 / dt) as usize;
        let mut survive = vec![0.0; steps + 1];
        for k in (0..steps).rev() {
            survive[k] = survive[k + 1] + tail((k as f64 + 0.5) * dt) * dt;
        }
        let want: f64 = (0..steps).map(|k| (0.5 * (survive[k] + survive[k + 1]) / (c + b)).powi(2) * dt).sum();
        assert!((first_release(c, b, 2) - want).abs() < 1e-5, "{} vs {want}", first_release(c, b, 2));
    }

    #[test]
    fn first_release_wait_by_hand() {
        // shared_channel_growth_by_hand's 2-node torus (L = 2, M = 4, λ_g =
        // 0.05): D = M + g + W_ej = 4 + 1 + 0.5 = 5.5, a = 0.275, π_0..π_2 ∝
        // 1, 0.275, 0.0378125/0.8625. A header may take L − 1 = 1 VC: it is
        // blocked with P_B = π_2 + π_1/2 and waits for that one VC's
        // residual hold, H = 4 fixed + 1.5 exponential: E[H²]/(2 E[H]) =
        // 32.5/11.
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let s = m.solve_with(Variant::corrected(0.0, HoldGrowth::SharedChannel).with_wait(VcWait::FirstRelease)).unwrap();
        let top = 0.0378125 / 0.8625;
        let total = 1.0 + 0.275 + top;
        let pb = top / total + 0.275 / total / 2.0;
        let w = pb * 32.5 / 11.0;
        assert!((s.blocking[0] - w).abs() < 1e-9, "{} vs {w}", s.blocking[0]);
        assert!((s.network_latency - (5.5 + w + 1.25)).abs() < 1e-9, "{}", s.network_latency);
        // hold_extra = 2 is part of the fixed hold: H = 6 + 1.5 exponential,
        // E[H²] = 36 + 2·6·1.5 + 2·1.5² = 58.5, E[H] = 7.5; a = 0.05·7.5.
        let e = m.solve_with(Variant::corrected(2.0, HoldGrowth::SharedChannel).with_wait(VcWait::FirstRelease)).unwrap();
        let a: f64 = 0.375;
        let top = a * a / 2.0 / (1.0 - a / 2.0);
        let total = 1.0 + a + top;
        let w = (top / total + a / total / 2.0) * 58.5 / 15.0;
        assert!((e.blocking[0] - w).abs() < 1e-9, "{} vs {w}", e.blocking[0]);
    }

    #[test]
    fn escape_and_queued_waits_by_hand() {
        // first_release_wait_by_hand's 2-node torus (L = 2, M = 4, λ_g =
        // 0.05, D = 5.5, a = 0.275, R = 32.5/11). Its one channel position
        // c = 0 (the only one a message crosses to node 1) carries v1
        // headers only, c = 1 v2 only: each may take one VC, an M/M/1/1
        // loss system carrying a = 0.275, whose P_B is a (escape_vcs).
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let base = Variant::corrected(0.0, HoldGrowth::SharedChannel);
        let r = 32.5 / 11.0;
        let s = m.solve_with(base.with_wait(VcWait::EscapeByPosition)).unwrap();
        let w = 0.275 * r;
        assert!((s.blocking[0] - w).abs() < 1e-9, "{} vs {w}", s.blocking[0]);
        assert!((s.dims[0].p_block - 0.275).abs() < 1e-9);
        assert!((s.network_latency - (5.5 + w + 1.25)).abs() < 1e-9, "{}", s.network_latency);
        // Queued: headers reach the channel at λ_c = 0.05, so W = P_B R /
        // (1 − 0.05 R).
        let q = m.solve_with(base.with_wait(VcWait::EscapeQueued)).unwrap();
        let w = 0.275 * r / (1.0 - 0.05 * r);
        assert!((q.blocking[0] - w).abs() < 1e-9, "{} vs {w}", q.blocking[0]);
        assert_eq!(queued_wait(20.0, 0.01), Some(25.0));
        assert_eq!(queued_wait(20.0, 0.05), None);
    }

    #[test]
    fn line_wait_by_hand() {
        // R = 20, G = 30, joining at 0.01 a cycle: W_b = 20 + n̄ 30 with n̄ =
        // 0.01 W_b, so W_b = 20/0.7 and n̄ = 0.2/0.7.
        let (w, n) = line_wait(20.0, 30.0, 0.01).unwrap();
        assert!((w - 20.0 / 0.7).abs() < 1e-12 && (n - 0.2 / 0.7).abs() < 1e-12, "{w} {n}");
        assert!((w - (20.0 + n * 30.0)).abs() < 1e-12);
        // q λ_c G ≥ 1: no steady line.
        assert_eq!(line_wait(20.0, 30.0, 1.0 / 30.0), None);
        assert_eq!(line_wait(20.0, 30.0, 0.04), None);
    }

    #[test]
    fn escape_line_two_node_torus_by_hand() {
        // escape_and_queued_waits_by_hand's 2-node torus with L = 3 (M = 4,
        // λ_g = λ_c = 0.05, the shared channel: g = 4·0.2/0.8 = 1, W_ej =
        // 0.5): one hop, so the hold has no further blocking, D = 5.5 and
        // ρ = 0.275. Position 0 carries v1 headers only, position 1 v2
        // only: each may take two VCs, an Erlang loss system with two
        // servers offered x, carried x (1 − B) = 0.275 with B = (x²/2)/(1 + x
        // + x²/2): 0.8625 x² + 0.725 x − 0.275 = 0. Every header behind a
        // blocked one is blocked too (q = 1). The two usable VCs' holds are
        // 4 fixed + 1.5 exponential cycles (T = 5.5, q' = 1.5/5.5): R =
        // E[min] = T/3 (1 − q'³) + q'² 1.5/2, one VC's residual 32.5/11, G =
        // 2 (32.5/11 − R). W = B R/(1 − 0.05 G).
        let m = TorusModel { radix: vec![2], vcs: 3, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let s = m.solve_with(Variant::corrected(0.0, HoldGrowth::SharedChannel).with_wait(VcWait::EscapeLine)).unwrap();
        let x = (-0.725 + (0.725f64 * 0.725 + 4.0 * 0.8625 * 0.275).sqrt()) / (2.0 * 0.8625);
        let b = x * x / 2.0 / (1.0 + x + x * x / 2.0);
        assert!((x * (1.0 - b) - 0.275).abs() < 1e-12);
        let qq: f64 = 1.5 / 5.5;
        let r = 5.5 / 3.0 * (1.0 - qq.powi(3)) + qq * qq * 1.5 / 2.0;
        let g = 2.0 * (32.5 / 11.0 - r);
        let wb = r / (1.0 - 0.05 * g);
        assert!((s.dims[0].service - 5.5).abs() < 1e-9, "{}", s.dims[0].service);
        assert!((s.dims[0].p_block - b).abs() < 1e-9, "{} vs {b}", s.dims[0].p_block);
        assert!((s.blocking[0] - b * wb).abs() < 1e-9, "{} vs {}", s.blocking[0], b * wb);
        assert!((s.dims[0].ahead - 0.05 * wb).abs() < 1e-9, "{} vs {}", s.dims[0].ahead, 0.05 * wb);
        // S̄ = D + W, one header hop of 1 + g/M.
        assert!((s.network_latency - (5.5 + b * wb + 1.25)).abs() < 1e-9, "{}", s.network_latency);
        // The escape model is the same without the line.
        let e = m.solve_with(Variant::corrected(0.0, HoldGrowth::SharedChannel).with_wait(VcWait::EscapeByPosition)).unwrap();
        assert!((e.blocking[0] - b * r).abs() < 1e-9 && e.dims[0].ahead == 0.0);
        // Beyond what the two usable VCs carry (ρ = 0.2 · 12 = 2.4):
        // saturated; and L = 2 has no second usable VC for a gap.
        let fast = TorusModel { rate: 0.2, ..m.clone() };
        assert!(matches!(fast.solve_with(Variant::corrected(0.0, HoldGrowth::None).with_wait(VcWait::EscapeLine)), Err(TorusError::Saturated(_))));
        let two = TorusModel { vcs: 2, ..m.clone() };
        assert!(matches!(two.solve_with(Variant::corrected(0.0, HoldGrowth::SharedChannel).with_wait(VcWait::EscapeLine)), Err(TorusError::Saturated(_))));
    }

    #[test]
    fn path_window_by_hand() {
        // 4-ary 1-cube: destinations 1, 2, 3 hops away, 0, 1, 2 hops after
        // the first. Span 1 sees 0, 1, 1 of them and the destination of the
        // 1-hop path only; span 2 sees 0, 1, 2 and the 1- and 2-hop paths';
        // span 3 all, as path_stats' after_first.
        for (span, hops, ejection) in [(1, 2.0 / 3.0, 1.0 / 3.0), (2, 1.0, 2.0 / 3.0), (3, 1.0, 1.0)] {
            let w = path_window(&[4], span);
            assert!((w.hops[0][0] - hops).abs() < 1e-12 && (w.ejection[0] - ejection).abs() < 1e-12, "span {span}: {w:?}");
        }
        assert!((path_window(&[4], 3).hops[0][0] - path_stats(&[4]).after_first[0][0]).abs() < 1e-12);
        // 3 × 3, span 1. First hop in dimension 0 (x_0 = 1, 2; x_1 = 0, 1, 2):
        // the one hop seen is in dimension 0 for the three x_0 = 2, in
        // dimension 1 for (1, 1) and (1, 2), none for (1, 0), whose
        // destination is the next router. First hop in dimension 1 (x_1 =
        // 1, 2): one more dimension-1 hop for x_1 = 2, the destination for 1.
        let w = path_window(&[3, 3], 1);
        let want = PathWindow { hops: vec![vec![0.5, 1.0 / 3.0], vec![0.0, 0.5]], ejection: vec![1.0 / 6.0, 0.5] };
        for (got, want) in w.hops.iter().flatten().chain(&w.ejection).zip(want.hops.iter().flatten().chain(&want.ejection)) {
            assert!((got - want).abs() < 1e-12, "{w:?}");
        }
    }

    #[test]
    fn blocking_span_by_hand() {
        // M = 32 with 4 + 4 flits a hop: a header held up 4 routers on
        // leaves 3 × 8 = 24 < 32 flits of room past the next router's input
        // buffer (the hold goes on), 5 routers on 32 (it can end).
        assert_eq!(blocking_span(32, 4, 4), 4);
        assert_eq!(blocking_span(33, 4, 4), 5);
        assert_eq!(blocking_span(4, 4, 4), 1);
    }

    #[test]
    fn span_limits_the_hold_not_the_latency() {
        // 4-ary 1-cube, L = 2, M = 4, λ_g = 0.02, the shared channel and the
        // first-release wait with span 1: λ_c = 2 λ_g = 0.04, u = λ_c M =
        // 0.16, g = M u/(1 − u) = 0.64/0.84; W_ej = 16·0.02/(2·0.92). The
        // hold sees the next hop's blocking for 2/3 of the messages and the
        // ejection wait for 1/3 (path_window_by_hand): D_hold = M + g +
        // (2/3) W + (1/3) W_ej, where the message's D has all of them: M + g
        // + 1·W + W_ej (one hop after the first on average). The solution's
        // W must be P_B of the M/M/2 occupancy at a = λ_c D_hold times the
        // residual of a hold of 4 fixed + (D_hold − 4) exponential cycles,
        // E[H²]/(2 E[H]) (one usable VC).
        let m = TorusModel { radix: vec![4], vcs: 2, msg_flits: 4.0, rate: 0.02, router_delay: 0.0 };
        let var = Variant::corrected(0.0, HoldGrowth::SharedChannel).with_wait(VcWait::FirstRelease);
        let s = m.solve_with(var.with_span(1)).unwrap();
        let (g, w_ej, w) = (0.64 / 0.84, 16.0 * 0.02 / (2.0 * 0.92), s.blocking[0]);
        let d_hold = 4.0 + g + 2.0 / 3.0 * w + w_ej / 3.0;
        assert!((s.dims[0].service - d_hold).abs() < 1e-9, "{} vs {d_hold}", s.dims[0].service);
        let a = 0.04 * d_hold;
        let top = a * a / 2.0 / (1.0 - a / 2.0);
        let pb = (top + a / 2.0) / (1.0 + a + top);
        let b = d_hold - 4.0;
        let residual = (16.0 + 8.0 * b + 2.0 * b * b) / (2.0 * d_hold);
        assert!((w - pb * residual).abs() < 1e-9, "W {w} vs {}", pb * residual);
        // Latency: S̄ = D + W with the whole path's blocking, h = 2 header
        // hops of 1 + g/M.
        let d_full = 4.0 + g + w + w_ej;
        assert!((s.network_latency - (d_full + w + 2.0 * (1.0 + g / 4.0))).abs() < 1e-9, "{}", s.network_latency);
        // A span past the longest path is the whole path: the residual model.
        let whole = m.solve_with(var).unwrap();
        assert!((m.solve_with(var.with_span(3)).unwrap().network_latency - whole.network_latency).abs() < 1e-9);
        assert!(whole.dims[0].service > s.dims[0].service);
    }

    #[test]
    fn first_release_beyond_by_hand() {
        // Fixed holds of 6, two VCs: min of two uniform residuals on [0, 6],
        // P(min > t) = ((6 − t)/6)², ∫_3^6 = 6/3 · (1/2)³ = 0.25.
        assert!((first_release_beyond(6.0, 0.0, 2, 3.0) - 0.25).abs() < 1e-12);
        assert_eq!(first_release_beyond(6.0, 0.0, 2, 6.0), 0.0);
        // Exponential holds of mean 6: the min of two residuals is
        // exponential of mean 3; beyond 3 cycles 3 e^{−1}.
        assert!((first_release_beyond(0.0, 6.0, 2, 3.0) - 3.0 * (-1.0f64).exp()).abs() < 1e-12);
        // One VC, H = 4 + X, E[X] = b = 1.5: P(R > t) = (4 − t + b)/T for
        // t < 4, b e^{−(t − 4)/b}/T beyond, T = 5.5; ∫_a^∞ for a = 1 is
        // ((4 − a) b + (4 − a)²/2 + b²)/T = (4.5 + 4.5 + 2.25)/5.5, and for
        // a = 5 (past the fixed part) b² e^{−1/b}/T.
        assert!((first_release_beyond(4.0, 1.5, 1, 1.0) - 11.25 / 5.5).abs() < 1e-12);
        assert!((first_release_beyond(4.0, 1.5, 1, 5.0) - 2.25 * (-1.0f64 / 1.5).exp() / 5.5).abs() < 1e-12);
        // Nothing absorbed: the whole wait.
        assert!((beyond_share(4.0, 1.5, 2, 0.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn second_release_gap_by_hand() {
        // Two VCs of fixed holds 6: the residuals are uniform on [0, 6],
        // min T/3 = 2, max 2T/3 = 4: the second release 2 cycles after the first.
        assert!((second_release_gap(6.0, 0.0, 2) - 2.0).abs() < 1e-12);
        // Exponential holds of mean 6: after the first release the other
        // VC's remaining time is again exponential of mean 6.
        assert!((second_release_gap(0.0, 6.0, 2) - 6.0).abs() < 1e-12);
        // Three VCs, fixed holds 8: order statistics of 3 uniforms on [0, 8]
        // at 8/4 and 16/4, 2 cycles apart.
        assert!((second_release_gap(8.0, 0.0, 3) - 2.0).abs() < 1e-12);
        // One VC of 4 fixed + 1.5 exponential cycles and a second like it:
        // E[R] = 32.5/11 (first_release_by_hand), and E[min of 2] by the
        // same midpoint integration of ((4 − t + 1.5)/5.5)² below 4 and
        // (1.5 e^{−(t − 4)/1.5}/5.5)² beyond: 2 (E[R] − E[min]).
        let (dt, steps) = (1e-4, 600_000);
        let s = |t: f64| if t < 4.0 { (5.5 - t) / 5.5 } else { 1.5 * (-(t - 4.0) / 1.5).exp() / 5.5 };
        let min2: f64 = (0..steps).map(|k| s((k as f64 + 0.5) * dt).powi(2) * dt).sum();
        let want = 2.0 * (32.5 / 11.0 - min2);
        assert!((second_release_gap(4.0, 1.5, 2) - want).abs() < 1e-6, "{} vs {want}", second_release_gap(4.0, 1.5, 2));
    }

    #[test]
    fn hops_by_position_by_hand() {
        // 4-ary 1-cube (path_window_by_hand): after the first hop a second
        // for the destinations 2 and 3 hops away (2/3), a third for 3 (1/3).
        let at = hops_by_position(&[4], 3);
        for (k, want) in [2.0 / 3.0, 1.0 / 3.0, 0.0].iter().enumerate() {
            assert!((at[k][0][0] - want).abs() < 1e-12, "{at:?}");
        }
        // 3 × 3, first hop in dimension 0 (x_0 = 1, 2; x_1 = 0, 1, 2, six
        // destinations): the second hop after it exists for (2, 1), (2, 2)
        // (in dimension 1) and (1, 2) (dimension 1): 3/6 in dimension 1.
        let at = hops_by_position(&[3, 3], 2);
        assert!((at[1][0][0]).abs() < 1e-12 && (at[1][0][1] - 0.5).abs() < 1e-12, "{at:?}");
    }

    #[test]
    fn absorbed_hold_by_hand() {
        // span_limits_the_hold_not_the_latency's 4-ary 1-cube (L = 2, M = 4,
        // λ_g = 0.02, λ_c = 0.04, g = 0.64/0.84, one usable VC) with span 2
        // and 1 flit of buffer a router: the next hop (2/3 of the messages)
        // lengthens the hold by its whole wait W, the one after (1/3) by
        // its part beyond 1 cycle, W E[(R − 1)⁺]/E[R]; with the hold H = 4
        // fixed + b exponential, T = 4 + b: E[R] = (16 + 8b + 2b²)/(2T),
        // E[(R − 1)⁺] = (3b + 4.5 + b²)/T (first_release_beyond_by_hand).
        // The ejection wait counts for the 2/3 that end within 2 hops.
        let m = TorusModel { radix: vec![4], vcs: 2, msg_flits: 4.0, rate: 0.02, router_delay: 0.0 };
        let var = Variant::corrected(0.0, HoldGrowth::SharedChannel).with_wait(VcWait::FirstRelease).with_span(2);
        let s = m.solve_with(var.with_absorption(1)).unwrap();
        let (g, w_ej, w) = (0.64 / 0.84, 16.0 * 0.02 / (2.0 * 0.92), s.blocking[0]);
        let d_hold = s.dims[0].service;
        let b = d_hold - 4.0;
        let (whole, beyond) = ((16.0 + 8.0 * b + 2.0 * b * b) / (2.0 * d_hold), (3.0 * b + 4.5 + b * b) / d_hold);
        let want = 4.0 + g + 2.0 / 3.0 * w + 1.0 / 3.0 * w * beyond / whole + 2.0 / 3.0 * w_ej;
        assert!((d_hold - want).abs() < 1e-9, "{d_hold} vs {want}");
        // W from the absorbed hold as in span_limits_the_hold_not_the_latency.
        let a = 0.04 * d_hold;
        let top = a * a / 2.0 / (1.0 - a / 2.0);
        let pb = (top + a / 2.0) / (1.0 + a + top);
        assert!((w - pb * whole).abs() < 1e-9, "W {w} vs {}", pb * whole);
        // Latency: the whole path's blocking in S̄, as without absorption.
        let d_full = 4.0 + g + w + w_ej;
        assert!((s.network_latency - (d_full + w + 2.0 * (1.0 + g / 4.0))).abs() < 1e-9, "{}", s.network_latency);
        // No buffer: the span model's hold; a buffer shortens it.
        let span = m.solve_with(var).unwrap();
        assert!((m.solve_with(var.with_absorption(0)).unwrap().dims[0].service - span.dims[0].service).abs() < 1e-9);
        assert!(d_hold < span.dims[0].service);
    }

    #[test]
    fn busy_vc_growth_is_a_fixed_point_of_the_channels_multiplexing() {
        // The same 2-node torus with HoldGrowth::BusyVcs: the solution's
        // growth g must equal M (l̄(a) − 1) at its own a = λ_c (4.5 + g), with
        // l̄ = Σ j² P_j / Σ j P_j of the M/M/2 occupancy (P_2 = P(≥ 2)), here
        // written out by hand.
        let m = TorusModel { radix: vec![2], vcs: 2, msg_flits: 4.0, rate: 0.05, router_delay: 0.0 };
        let s = m.solve_with(Variant::corrected(0.0, HoldGrowth::BusyVcs)).unwrap();
        let g = s.dims[0].service - 4.5;
        assert!(g > 0.0, "{g}");
        let a = 0.05 * (4.5 + g);
        let tail = a * a / 2.0 / (1.0 - a / 2.0);
        let (p1, p2) = (a / (1.0 + a + tail), tail / (1.0 + a + tail));
        let lbar = (p1 + 4.0 * p2) / (p1 + 2.0 * p2);
        assert!((g - 4.0 * (lbar - 1.0)).abs() < 1e-8, "g = {g}, M(l̄ − 1) = {}", 4.0 * (lbar - 1.0));
        assert!((s.network_latency - (4.5 + g + s.blocking[0] + 1.0 + g / 4.0)).abs() < 1e-9, "{}", s.network_latency);
    }

    #[test]
    fn latency_grows_with_load_and_saturates() {
        // 002_… Fig. 1 setting: 16 × 16, L = 3, M = 32.
        let at = |rate: f64| TorusModel { radix: vec![16, 16], vcs: 3, msg_flits: 32.0, rate, router_delay: 0.0 }.solve();
        let a = at(0.0003).unwrap();
        let b = at(0.0006).unwrap();
        // Zero-load limit: M + h = 32 + 15.
        let z = at(1e-9).unwrap();
        assert!((z.latency - (32.0 + 15.0 * 256.0 / 255.0)).abs() < 1e-3, "{}", z.latency);
        assert!(b.latency > a.latency && a.latency > z.latency);
        // The model's saturation (the blocking feedback through D) comes
        // before the channels' flit capacity 1/(M E[x_i]) ≈ 0.0042.
        assert!(matches!(at(0.002), Err(TorusError::Saturated(_))));
    }
}
