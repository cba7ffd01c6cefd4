//! Virtual-channel access delay on a multi-link ring (004_… §4.1): the VCs
//! of a physical link are the n servers of an M/M/n (or M/D/n) queue whose
//! customers are message headers, and a header holds its VC until the tail
//! has left the rest of the path (the tandem recursion of Eqs (5), (6)).
//!
//! Adapted to the netsim `ring` topology: unidirectional, `links` parallel
//! links between neighbours, a message to d uses ring d mod `links` (004_…
//! uses a bidirectional ring of 4-node rings, whose per-stage rates, Eq. (2),
//! do not apply here); per-stage rates are counted from that routing.

/// Erlang's C formula: the probability that an arrival at an M/M/n queue
/// with offered load `a` = λ/μ (in servers) has to wait; Eqs (3), (4) with
/// a = n ρ. 1 when the queue is unstable (a ≥ n).
pub fn erlang_c(n: u32, a: f64) -> f64 {
    let n_f = n as f64;
    if a >= n_f {
        return 1.0;
    }
    if a <= 0.0 {
        return 0.0;
    }
    // Erlang B by its stable recursion, then C = nB / (n − a(1 − B)).
    let mut b = 1.0;
    for k in 1..=n {
        b = a * b / (k as f64 + a * b);
    }
    n_f * b / (n_f - a * (1.0 - b))
}

/// Mean wait in queue of M/M/n with arrival rate `lambda` and mean service
/// time `t` (Eq. (6): t p_d / (n(1 − ρ))).
pub fn mmn_wait(n: u32, lambda: f64, t: f64) -> f64 {
    let a = lambda * t;
    let rho = a / n as f64;
    if rho >= 1.0 {
        return f64::INFINITY;
    }
    t * erlang_c(n, a) / (n as f64 * (1.0 - rho))
}

/// Mean wait of M/D/n by Cosmetatos' correction of half the M/M/n wait.
/// 004_… Eqs (11), (12) are garbled in our copy ("(1 − 0.6)" beside "6 %
/// higher"), so this standard approximation stands in for them; it is exact
/// (Pollaczek–Khinchine) for n = 1. Against the exact M/D/c wait
/// (`mdc_exact`, tests/mdc_exact.rs): within 1 % from ρ = 0.4 for n ≤ 8;
/// below it over-estimates (up to +93 % at n = 8, ρ = 0.1), by under
/// 0.0015 service times.
pub fn mdn_wait(n: u32, lambda: f64, t: f64) -> f64 {
    let w = mmn_wait(n, lambda, t);
    if !w.is_finite() {
        return w;
    }
    let c = n as f64;
    let rho = lambda * t / c;
    if rho <= 0.0 {
        return 0.0;
    }
    0.5 * w * (1.0 + (1.0 - rho) * (c - 1.0) * ((4.0 + 5.0 * c).sqrt() - 2.0) / (16.0 * rho * c))
}

/// Messages per cycle crossing one ring link with `h` links still to go
/// (this one included), per unit message rate of each endpoint, averaged
/// over the links; index h = 1..nodes-1 (index 0 unused). Uniform
/// destinations over the other nodes.
pub fn ring_stage_rates(nodes: usize, links: usize) -> Vec<f64> {
    let mut rate = vec![0.0; nodes];
    for r in 0..nodes {
        for d in 0..nodes {
            if d == r {
                continue;
            }
            let h = (d + nodes - r) % nodes;
            // Sources r, r−1, …, r−(N−h−1) reach d through r's link on ring d mod l.
            rate[h] += (nodes - h) as f64 / (nodes - 1) as f64;
        }
    }
    // Each node has `links` outgoing links; average per link.
    for x in rate.iter_mut() {
        *x /= (nodes * links) as f64;
    }
    rate
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Queue {
    MMn,
    MDn,
}

/// Mean VC waiting time per link on the ring, solved to a fixed point:
/// holding time at stage h is M + h·t_hop + (h − 1)·W (Eq. (5) with t_s^0 =
/// M), the link's mean holding time is weighted by the stage rates, and W
/// is the M/M/n or M/D/n wait for `vcs` servers. `msg_rate` is messages per
/// cycle per endpoint. None when the VC queue is unstable.
pub fn ring_vc_wait(nodes: usize, links: usize, vcs: u32, msg_flits: f64, t_hop: f64, msg_rate: f64, q: Queue) -> Option<f64> {
    let r = ring_stage_rates(nodes, links);
    let lam: f64 = msg_rate * r.iter().sum::<f64>();
    let mut w = 0.0f64;
    for _ in 0..10_000 {
        let tot: f64 = r.iter().sum();
        let t_mean: f64 = (1..nodes).map(|h| r[h] / tot * (msg_flits + h as f64 * t_hop + (h as f64 - 1.0) * w)).sum();
        let next = match q {
            Queue::MMn => mmn_wait(vcs, lam, t_mean),
            Queue::MDn => mdn_wait(vcs, lam, t_mean),
        };
        if !next.is_finite() {
            return None;
        }
        if (next - w).abs() < 1e-12 {
            return Some(next);
        }
        w = 0.5 * w + 0.5 * next;
    }
    None
}

/// Mean number of ring links a message crosses (uniform destinations):
/// Σ_{h=1}^{N−1} h / (N − 1) = N/2.
pub fn ring_mean_links(nodes: usize) -> f64 {
    nodes as f64 / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erlang_c_hand_values() {
        // M/M/1: P[wait] = ρ.
        assert!((erlang_c(1, 0.3) - 0.3).abs() < 1e-12);
        // M/M/2, a = 1: P0 = 1/(1 + 1 + (1/2)·2) = 1/3, C = (1/2)·2·(1/3) = 1/3.
        assert!((erlang_c(2, 1.0) - 1.0 / 3.0).abs() < 1e-12);
        // M/M/3, a = 2: Σ_{k<3} 2^k/k! = 5, tail (8/6)·3 = 4, C = 4/9.
        assert!((erlang_c(3, 2.0) - 4.0 / 9.0).abs() < 1e-12);
        assert_eq!(erlang_c(4, 4.0), 1.0);
    }

    #[test]
    fn waits_match_single_server_closed_forms() {
        // M/M/1: W = ρ t / (1 − ρ); λ = 0.02, t = 25 → ρ = 0.5, W = 25.
        assert!((mmn_wait(1, 0.02, 25.0) - 25.0).abs() < 1e-9);
        // M/D/1 (Pollaczek–Khinchine): ρ t / (2(1 − ρ)) = 12.5.
        assert!((mdn_wait(1, 0.02, 25.0) - 12.5).abs() < 1e-9);
        // M/M/2 with λ = 1, t = 1: C = 1/3, W = (1/3)/(2 − 1) = 1/3.
        assert!((mmn_wait(2, 1.0, 1.0) - 1.0 / 3.0).abs() < 1e-12);
        assert!(mmn_wait(2, 2.0, 1.0).is_infinite());
        // Deterministic service waits less than exponential.
        assert!(mdn_wait(4, 0.1, 30.0) < mmn_wait(4, 0.1, 30.0));
    }

    #[test]
    fn stage_rates_of_a_small_ring() {
        // 4 nodes, 1 link: a link with h to go is used by the 4 − h sources
        // behind it (each sends 1/3 of its messages to that destination):
        // h = 1: 3/3, h = 2: 2/3, h = 3: 1/3.
        let r = ring_stage_rates(4, 1);
        assert!((r[1] - 1.0).abs() < 1e-12 && (r[2] - 2.0 / 3.0).abs() < 1e-12 && (r[3] - 1.0 / 3.0).abs() < 1e-12);
        // Link load = mean links per message (N/2 = 2) per unit rate: 2 links per
        // message × 4 messages / 4 links.
        assert!((r.iter().sum::<f64>() - 2.0).abs() < 1e-12);
        // 16 nodes, 4 parallel links: 8 links per message over 64 links, ×16 sources.
        assert!((ring_stage_rates(16, 4).iter().sum::<f64>() - 2.0).abs() < 1e-12);
    }

    #[test]
    fn vc_wait_vanishes_at_low_load_and_grows() {
        let lo = ring_vc_wait(16, 4, 4, 32.0, 5.0, 1e-6, Queue::MMn).unwrap();
        assert!(lo < 1e-6);
        let a = ring_vc_wait(16, 4, 2, 32.0, 5.0, 0.001, Queue::MMn).unwrap();
        let b = ring_vc_wait(16, 4, 2, 32.0, 5.0, 0.002, Queue::MMn).unwrap();
        assert!(b > a && a > 0.0);
        assert!(ring_vc_wait(16, 4, 2, 32.0, 5.0, 0.002, Queue::MDn).unwrap() < b);
        // Holding times span the rest of the path, so two VCs saturate early.
        assert!(ring_vc_wait(16, 4, 2, 32.0, 5.0, 0.004, Queue::MMn).is_none());
    }
}
