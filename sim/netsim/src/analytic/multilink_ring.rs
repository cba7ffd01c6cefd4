//! The multi-link ring models of AlKasabi and Hariri (004_… §4), as the
//! paper writes them, in cycles (one flit time t_flt = 1 cycle in netsim):
//!
//! * the tandem of VC-access queues (Fig. 4), stage H (source) to stage 1,
//!   as M/M/n (Eqs 3–7) or as the paper's M/D/n (Eqs 9–13);
//! * the finite-state Markov model of VC occupancy (§4.2, Eqs 14–22);
//! * the source segmentation queue, M/D/1 (Eq. 8), M/M/1 (Fig. 8) or M/G/1
//!   (Eq. 8 with the hop count's spread, `model.source_queue = "mg1"`), and
//!   the throughput bound λ_max = 1/t̄_s (Eq. 23).
//!
//! How the garbled or ambiguous text is read (docs/reproduction.md, 004_…):
//! * Footnote 2: the stage-1 queue serves a whole packet (M t_flt), the
//!   header's own time to the destination is t_s^0 = t_flt.
//! * Eqs (9), (10) both define t_q^i; read as the M/M/n recursion with the
//!   delay probability replaced: t_s^i = t_q^{i−1} + t_r + t_flt (Eq. 9) and
//!   t_q^i = t_s^i (1 + Pd_0 / (v_c (1 − ρ_i))) (Eq. 10).
//! * Eq. (11) "Pd_0 = (1 − 0.6) P̄d_0" beside "M/M/n is only about 6 %
//!   higher": Pd_0 = (1 − 0.06) P̄d_0.
//! * Eq. (12) P̄d_0 = p v_c / (v_c (1 − ρ (1 − p))) is Erlang's C written
//!   through Erlang's B: p is the M/M/n/n blocking (Erlang B) value, so that
//!   P̄d_0 is the M/M/n delay probability the text says it is (with Eq. 3's
//!   p_d, already Erlang C, it would not be).
//! * Eq. (14) t_a^i = t^i_{v_c}/2 · p^i_{v_c}; Eq. (22)'s x_a is t_a; the
//!   destination (stage 0) has t_a^0 = 0 and no occupied VCs, so with
//!   H = 1 Eq. (21) gives vc_avg = 1.

use super::ring::erlang_c;

/// Erlang's B (loss) formula for n servers and offered load a, by its
/// stable recursion B(k) = a B(k−1) / (k + a B(k−1)).
pub fn erlang_b(n: u32, a: f64) -> f64 {
    let mut b = 1.0;
    for k in 1..=n {
        b = a * b / (k as f64 + a * b);
    }
    b
}

/// Eqs (11), (12): the paper's M/D/n delay probability, 6 % below M/M/n's.
/// Erlang C is 0–8.8 % above the exact M/D/c probability of waiting
/// (`mdc_exact`, tests/mdc_exact.rs, n ≤ 8), so this is within 6 % of it.
pub fn mdn_delay_probability(n: u32, a: f64) -> f64 {
    let rho = a / n as f64;
    if rho >= 1.0 {
        return 1.0;
    }
    let p = erlang_b(n, a);
    let bar = p * n as f64 / (n as f64 * (1.0 - rho * (1.0 - p)));
    (1.0 - 0.06) * bar
}

/// Eq. (2): arrival rate at link k in stage i = 1..=h of an N = 4l node
/// ring under the paper's first routing strategy (destination block j via
/// link j), for a node rate λ_n. Index 0 is stage 1.
pub fn eq2_stage_rates(nodes: usize, lambda_n: f64, h: usize) -> Vec<f64> {
    let l = (nodes / 4) as f64;
    (1..=h).map(|i| lambda_n / (4.0 * l - 1.0) * ((3.0 * l - 1.0) - 2.0 * (i as f64 - 1.0))).collect()
}

/// λ̄_i counted from the routes instead of Eq. (2), for any routing: the
/// arrival rate at the link a packet crosses with i links to go (this one
/// included), averaged over the packets that cross one, each link's rate
/// being all the packets that use it. `paths[f]` lists the link ids of flow
/// f, whose rate is `flow_rate`; returns λ̄_1..=λ̄_h and the mean hop count.
pub fn counted_stage_rates(paths: &[Vec<usize>], flow_rate: f64, h: usize) -> (Vec<f64>, f64) {
    let links = paths.iter().flatten().copied().max().map_or(0, |x| x + 1);
    let mut link_rate = vec![0.0; links];
    for p in paths {
        for &l in p {
            link_rate[l] += flow_rate;
        }
    }
    let (mut sum, mut count) = (vec![0.0; h], vec![0usize; h]);
    for p in paths {
        for (k, &l) in p.iter().enumerate() {
            let to_go = p.len() - k;
            if to_go <= h {
                sum[to_go - 1] += link_rate[l];
                count[to_go - 1] += 1;
            }
        }
    }
    let (mean_hops, _) = hop_count_moments(paths);
    ((0..h).map(|i| if count[i] > 0 { sum[i] / count[i] as f64 } else { 0.0 }).collect(), mean_hops)
}

/// Mean and variance of the hop count (links crossed) over `paths`, one
/// per (source, destination) pair, all pairs equally likely.
pub fn hop_count_moments(paths: &[Vec<usize>]) -> (f64, f64) {
    let n = paths.len().max(1) as f64;
    let mean = paths.iter().map(|p| p.len() as f64).sum::<f64>() / n;
    let variance = paths.iter().map(|p| (p.len() as f64 - mean).powi(2)).sum::<f64>() / n;
    (mean, variance)
}

/// The links every packet crosses on 004_…'s multi-link ring of `nodes`
/// nodes with `links` links each way between neighbours, one path per
/// (source, destination) pair: the shorter direction (ties +), on link
/// d mod `links` (the first strategy, the destination's block) or s mod
/// `links` (`source_block`, the second) all the way. A link is (node it
/// leaves, direction, link index). This is the route `topology.rs` builds
/// for `kind = "multilink_ring"`, derived without building routers, so that
/// the model answers in milliseconds for rings whose simulation takes
/// minutes (004_… Fig. 6(a): N = 256, l = 64, a 129-port router per node,
/// simulated on wide port sets). `predict.rs` tests it against the routes
/// of the built network.
pub fn multilink_ring_paths(nodes: usize, links: usize, source_block: bool) -> Vec<Vec<usize>> {
    let mut paths = Vec::with_capacity(nodes * nodes.saturating_sub(1));
    for s in 0..nodes {
        for d in (0..nodes).filter(|&d| d != s) {
            let ahead = (d + nodes - s) % nodes;
            let (hops, dir) = if 2 * ahead <= nodes { (ahead, 0) } else { (nodes - ahead, 1) };
            let link = if source_block { s % links } else { d % links };
            let path = (0..hops)
                .map(|k| {
                    let at = if dir == 0 { (s + k) % nodes } else { (s + nodes - k) % nodes };
                    (at * links + link) * 2 + dir
                })
                .collect();
            paths.push(path);
        }
    }
    paths
}

/// The model's inputs (cycles; messages per cycle).
#[derive(Clone, Debug)]
pub struct RingModel {
    /// v_c, VCs per link.
    pub vcs: u32,
    /// pkt_l / flt_l, flits per packet.
    pub msg_flits: f64,
    /// t_flt, cycles per flit on a link.
    pub t_flit: f64,
    /// t_hcp + t_sch, per-hop processing and VC scheduling (cycles).
    pub t_router: f64,
    /// λ̄_i for stages i = 1..=H (index 0 = stage 1, next to the destination).
    pub stage_rates: Vec<f64>,
    /// Packet rate into one source segmentation queue (λ_n/2 per direction
    /// in the paper's bidirectional ring).
    pub source_rate: f64,
    /// Var(h), the variance of the hop count over the ring's (source,
    /// destination) pairs: the spread of the segmentation queue's service
    /// for its M/G/1 form (`SegQueue::MG1`).
    pub hop_variance: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VcQueue {
    MMn,
    MDn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegQueue {
    /// Eq. (8).
    MD1,
    /// Fig. 8's alternative.
    MM1,
    /// Eq. (8) with the service's spread over the hop count
    /// (Pollaczek–Khinchine; `RingModel::transfer_time`).
    MG1,
}

/// Which queue has no steady state.
#[derive(Clone, Debug, PartialEq)]
pub enum RingSaturated {
    /// The VC queue (or the Markov chain's last state) at this stage.
    Stage(usize),
    /// The source segmentation queue (ρ = λ t̄_s ≥ 1).
    Source { rho: f64 },
}

/// The finite-state model's answer.
#[derive(Clone, Debug)]
pub struct MarkovSolution {
    /// t̄_s, Eq. (22).
    pub service: f64,
    /// Eq. (21).
    pub vc_avg: f64,
    /// p_j^i, Eq. (20): `occupancy[i-1][j]` for stage i.
    pub occupancy: Vec<Vec<f64>>,
    /// t_a^i, Eq. (14), index i − 1.
    pub vc_wait: Vec<f64>,
}

impl RingModel {
    fn hops(&self) -> usize {
        self.stage_rates.len()
    }

    /// t̄_s of the tandem of VC queues: Eqs (3)–(7) for M/M/n, (9)–(13)
    /// for the paper's M/D/n. A forward recursion from the destination:
    /// nothing to iterate.
    pub fn tandem_service(&self, q: VcQueue) -> Result<f64, RingSaturated> {
        let (m, tf, tr) = (self.msg_flits, self.t_flit, self.t_router);
        // t_q^{i−1} = t_s^{i−1} + E(W)_{i−1}; the destination's is t_s^0 = t_flt.
        let mut tq_prev = tf;
        for (k, &lam) in self.stage_rates.iter().enumerate() {
            let i = k + 1;
            let ts = tq_prev + tr + tf;
            // Footnote 2: the stage-1 VC is held for the whole packet.
            let hold = if i == 1 { m * tf } else { ts };
            let a = lam * hold;
            let rho = a / self.vcs as f64;
            if rho >= 1.0 {
                return Err(RingSaturated::Stage(i));
            }
            let pd = match q {
                VcQueue::MMn => erlang_c(self.vcs, a),
                VcQueue::MDn => mdn_delay_probability(self.vcs, a),
            };
            let wait = hold * pd / (self.vcs as f64 * (1.0 - rho));
            tq_prev = ts + wait;
        }
        // Eqs (7), (13): the header reaches the destination, then M − 1 flits.
        Ok(tq_prev + (m - 1.0) * tf)
    }

    /// §4.2, Eqs (14)–(22), stage 1 upwards (W_0 = 0).
    pub fn markov(&self) -> Result<MarkovSolution, RingSaturated> {
        let (m, tf, tr) = (self.msg_flits, self.t_flit, self.t_router);
        let t0 = m * tf;
        let v = self.vcs as usize;
        let mut w_prev = 0.0; // W_{i−1}, Eq. (15)
        let mut occupancy = Vec::new();
        let mut vc_wait = Vec::new();
        for (k, &lam) in self.stage_rates.iter().enumerate() {
            // Eqs (16)–(18): effective service time with j VCs occupied.
            let t = |j: usize| t0 * (1.0 + (w_prev / (j as f64 * t0)).min(1.0).powi(j as i32));
            let mut q = vec![1.0; v + 1];
            for j in 1..v {
                q[j] = q[j - 1] * lam * t(j);
            }
            let out = 1.0 / t(v) - lam;
            if out <= 0.0 {
                return Err(RingSaturated::Stage(k + 1));
            }
            // Eq. (19): the last state lumps every queue length beyond v_c.
            q[v] = q[v - 1] * lam / out;
            let total: f64 = q.iter().sum();
            let p: Vec<f64> = q.iter().map(|x| x / total).collect();
            let ta = t(v) / 2.0 * p[v];
            w_prev += ta;
            occupancy.push(p);
            vc_wait.push(ta);
        }
        let h = self.hops();
        // Eq. (21) at stage H − 1 (the destination, stage 0, is idle).
        let vc_avg = if h >= 2 {
            let p = &occupancy[h - 2];
            let (num, den) = p.iter().enumerate().fold((0.0, 0.0), |(n, d), (j, &x)| (n + (j * j) as f64 * x, d + j as f64 * x));
            if den > 0.0 { num / den } else { 1.0 }
        } else {
            1.0
        };
        // Eq. (22): multiplexing, the M/D/1 wait at the source's VC queue,
        // and the header's H − 1 uncontended hops.
        let ta_prev = if h >= 2 { vc_wait[h - 2] } else { 0.0 };
        let lam_h = self.stage_rates[h - 1];
        let s = t0 + ta_prev;
        if lam_h * s >= 1.0 {
            return Err(RingSaturated::Stage(h));
        }
        let service = m * tf * vc_avg + lam_h * s * s / (2.0 * (1.0 - lam_h * s)) + (tf + tr) * (h as f64 - 1.0);
        Ok(MarkovSolution { service, vc_avg, occupancy, vc_wait })
    }

    /// Eq. (8) (M/D/1), its M/M/1 form or its M/G/1 form: packet transfer
    /// time T from the source queue's mean service time t̄_s.
    pub fn transfer_time(&self, service: f64, seg: SegQueue) -> Result<f64, RingSaturated> {
        let rho = self.source_rate * service;
        if rho >= 1.0 {
            return Err(RingSaturated::Source { rho });
        }
        Ok(match seg {
            SegQueue::MD1 => service / (1.0 - rho) * (1.0 - rho / 2.0),
            SegQueue::MM1 => service / (1.0 - rho),
            // Pollaczek–Khinchine: W = λ E[S²] / (2 (1 − ρ)), T = t̄_s + W.
            SegQueue::MG1 => service + self.source_rate * self.service_second_moment(service) / (2.0 * (1.0 - rho)),
        })
    }

    /// E[S²] of the segmentation queue's service for M/G/1. Eq. (7)'s t̄_s
    /// is the service of the mean packet: its header crosses the ring's
    /// H links, each hop t_r + t_flt cycles (Eq. 22's (t_flt + t_r)(H − 1)
    /// term, Eq. 9's t_s^i = t_q^{i−1} + t_r + t_flt), then M t_flt of
    /// flits. A packet of h hops is served h − H̄ hops longer or shorter,
    /// the rest (multiplexing, VC waits) taken equal for every packet:
    /// S(h) = t̄_s + (t_r + t_flt)(h − H̄). Over the uniform pairs E[S] =
    /// t̄_s (E[h] = H̄: Eq. 8's ρ and Eq. 23's λ_max unchanged) and Var(S)
    /// = (t_r + t_flt)² Var(h), so E[S²] = t̄_s² + (t_r + t_flt)² Var(h).
    /// With Var(h) = 0 (every packet the same hops) M/G/1 is Eq. (8)'s
    /// M/D/1. Both directions are pooled: Eq. (8)'s λ/2 per direction is
    /// the paper's, its t̄_s one number for both.
    pub fn service_second_moment(&self, service: f64) -> f64 {
        let hop = self.t_router + self.t_flit;
        service * service + hop * hop * self.hop_variance
    }
}

/// Eq. (23): the most a node can offer in one direction.
pub fn max_throughput(service: f64) -> f64 {
    1.0 / service
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_stage(vcs: u32, lam: f64) -> RingModel {
        RingModel { vcs, msg_flits: 10.0, t_flit: 1.0, t_router: 4.0, stage_rates: vec![lam], source_rate: 0.02, hop_variance: 0.0 }
    }

    #[test]
    fn erlang_b_and_eq12_hand_values() {
        // B(1, a) = a/(1 + a); B(2, 1) = (1/2)/(1 + 1 + 1/2) = 0.2.
        assert!((erlang_b(1, 0.5) - 1.0 / 3.0).abs() < 1e-12);
        assert!((erlang_b(2, 1.0) - 0.2).abs() < 1e-12);
        // Eq. 12 with p = B(2, 1): 0.2 / (1 − 0.5 · 0.8) = 1/3 = Erlang C(2, 1);
        // Eq. 11 takes 94 % of it.
        assert!((mdn_delay_probability(2, 1.0) - 0.94 / 3.0).abs() < 1e-12);
        // Tabulated Erlang C (n = 5, a = 3): 0.2362; the paper's M/D/n 0.94 × that.
        assert!((mdn_delay_probability(5, 3.0) / 0.94 - 0.2362).abs() < 5e-5);
    }

    #[test]
    fn eq2_rates_for_sixteen_nodes() {
        // l = 4: λ_n/15 · (11, 9, 7, 5).
        let r = eq2_stage_rates(16, 1.5, 4);
        for (got, want) in r.iter().zip([1.1, 0.9, 0.7, 0.5]) {
            assert!((got - want).abs() < 1e-12, "{r:?}");
        }
    }

    #[test]
    fn counted_rates_of_a_three_node_ring() {
        // Unidirectional 3-ring, links 0: 0→1, 1: 1→2, 2: 2→0; flows to the
        // other two nodes at rate 1 each: 1-hop flows use one link, 2-hop
        // flows two. Every link carries 1 one-hop + 2 two-hop crossings = 3.
        let paths = vec![vec![0], vec![0, 1], vec![1], vec![1, 2], vec![2], vec![2, 0]];
        let (r, h) = counted_stage_rates(&paths, 1.0, 2);
        assert_eq!(r, vec![3.0, 3.0]);
        assert!((h - 1.5).abs() < 1e-12);
    }

    #[test]
    fn tandem_by_hand() {
        // One stage, v_c = 1, M = 10, λ̄_1 = 0.05: the stage-1 queue holds a
        // VC for M = 10 cycles, ρ = 0.5, C = 0.5, E(W)_1 = 10·0.5/0.5 = 10;
        // t_s^1 = t_flt + t_r + t_flt = 6; t̄_s = 10 + 6 + 9 = 25.
        let m = one_stage(1, 0.05);
        assert!((m.tandem_service(VcQueue::MMn).unwrap() - 25.0).abs() < 1e-12);
        // Paper's M/D/n: Pd_0 = 0.94·0.5, wait 9.4, t̄_s = 24.4.
        assert!((m.tandem_service(VcQueue::MDn).unwrap() - 24.4).abs() < 1e-12);
        // Eq. 8 with λ = 0.02: ρ = 0.5, T = 25/0.5 · 0.75 = 37.5; M/M/1: 50.
        assert!((m.transfer_time(25.0, SegQueue::MD1).unwrap() - 37.5).abs() < 1e-12);
        assert!((m.transfer_time(25.0, SegQueue::MM1).unwrap() - 50.0).abs() < 1e-12);
        assert_eq!(m.transfer_time(50.0, SegQueue::MD1), Err(RingSaturated::Source { rho: 1.0 }));
        // Two stages, λ̄_2 = 0.02: t_s^2 = t_q^1 + 5 = (6 + 10) + 5 = 21,
        // ρ = 0.42, wait 21·0.42/0.58; t̄_s = 21 + that + 9.
        let two = RingModel { stage_rates: vec![0.05, 0.02], ..m.clone() };
        let want = 21.0 + 21.0 * 0.42 / 0.58 + 9.0;
        assert!((two.tandem_service(VcQueue::MMn).unwrap() - want).abs() < 1e-9);
        assert_eq!(one_stage(1, 0.1).tandem_service(VcQueue::MMn), Err(RingSaturated::Stage(1)));
    }

    #[test]
    fn mg1_segmentation_queue_by_hand() {
        // Every packet the same hops (Var(h) = 0): M/G/1 is Eq. 8's M/D/1,
        // t̄_s = 25, λ = 0.02, ρ = 0.5: T = 25 + 0.02·625/(2·0.5) = 37.5.
        let m = one_stage(1, 0.05);
        assert!((m.transfer_time(25.0, SegQueue::MG1).unwrap() - 37.5).abs() < 1e-12);
        assert!((m.transfer_time(25.0, SegQueue::MG1).unwrap() - m.transfer_time(25.0, SegQueue::MD1).unwrap()).abs() < 1e-12);
        // Two-point service: half the packets 1 hop, half 3 (paths of 1 and
        // 3 links): H̄ = 2, Var(h) = 1. With 5 cycles a hop the services
        // are 25 ∓ 5 = 20 and 30: E[S²] = (400 + 900)/2 = 650,
        // W = 0.02·650/(2·0.5) = 13, T = 38 (M/D/1: 12.5, 37.5).
        let (mean, var) = hop_count_moments(&[vec![0], vec![1, 2, 3]]);
        assert!((mean - 2.0).abs() < 1e-12 && (var - 1.0).abs() < 1e-12, "{mean} {var}");
        let two = RingModel { hop_variance: var, ..m };
        assert!((two.service_second_moment(25.0) - 650.0).abs() < 1e-12);
        assert!((two.transfer_time(25.0, SegQueue::MG1).unwrap() - 38.0).abs() < 1e-12);
        assert_eq!(two.transfer_time(50.0, SegQueue::MG1), Err(RingSaturated::Source { rho: 1.0 }));
    }

    #[test]
    fn hop_count_spread_of_the_multilink_rings() {
        // N = 16 (ties +): from any node hops 1..=7 both ways and 8 one way,
        // 15 destinations: E[h] = (2·28 + 8)/15 = 64/15, E[h²] = (2·140 +
        // 64)/15 = 344/15, Var(h) = 344/15 − (64/15)² = 1064/225.
        let (mean, var) = hop_count_moments(&multilink_ring_paths(16, 4, false));
        assert!((mean - 64.0 / 15.0).abs() < 1e-12 && (var - 1064.0 / 225.0).abs() < 1e-12, "{mean} {var}");
        // N = 256: hops 1..=127 both ways and 128 once, 255 destinations:
        // Σk = 8128, Σk² = 127·128·255/6 = 690880; E[h] = (16256 + 128)/255
        // = 16384/255, E[h²] = (1381760 + 16384)/255 = 1398144/255, Var(h) =
        // (1398144·255 − 16384²)/255² = 88091264/65025 = 1354.73 (σ = 5 · 36.81
        // = 184.0 flit times at 5 cycles a hop, docs/reproduction.md).
        let (mean, var) = hop_count_moments(&multilink_ring_paths(256, 64, false));
        assert!((mean - 16384.0 / 255.0).abs() < 1e-9 && (var - 88091264.0 / 65025.0).abs() < 1e-9, "{mean} {var}");
    }

    #[test]
    fn markov_by_hand() {
        // One stage, v_c = 1, λ = 0.05, t_0 = 10: q = (1, 0.05/(0.1 − 0.05)) =
        // (1, 1), p = (1/2, 1/2); Eq. 22: 10·1 + 0.05·100/(2·0.5) + 0 = 15.
        let s = one_stage(1, 0.05).markov().unwrap();
        assert!((s.service - 15.0).abs() < 1e-12);
        assert!((s.vc_wait[0] - 2.5).abs() < 1e-12);
        // Two stages, v_c = 2, λ̄ = (0.05, 0.04): stage 1 q = (1, 0.5, 0.5),
        // p = (1/2, 1/4, 1/4), t_a^1 = 10/2 · 1/4 = 1.25; vc_avg from p^1 =
        // (0.25·1 + 0.25·4)/(0.25 + 0.5) = 5/3; Eq. 22: 10·5/3 +
        // 0.04·11.25²/(2(1 − 0.04·11.25)) + 5·1.
        let m = RingModel { vcs: 2, stage_rates: vec![0.05, 0.04], ..one_stage(2, 0.0) };
        let s = m.markov().unwrap();
        assert!((s.occupancy[0][2] - 0.25).abs() < 1e-12 && (s.vc_avg - 5.0 / 3.0).abs() < 1e-12);
        let want = 50.0 / 3.0 + 0.04 * 11.25 * 11.25 / (2.0 * (1.0 - 0.45)) + 5.0;
        assert!((s.service - want).abs() < 1e-9, "{} vs {want}", s.service);
        // Stage 2's blocking uses W_1 = 1.25: b_1 = 1.25/10, t_1 = 11.25.
        let q1 = 0.04 * 11.25;
        let t2 = 10.0 * (1.0 + (1.25f64 / 20.0).powi(2));
        let q2 = q1 * 0.04 / (1.0 / t2 - 0.04);
        assert!((s.occupancy[1][0] - 1.0 / (1.0 + q1 + q2)).abs() < 1e-12);
    }
}
