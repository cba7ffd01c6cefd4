//! The source waiting time W̄_c of ON/OFF real-time sources: the model
//! 000_… §4.2 says is missing ("we need another model to get the average
//! waiting time at the source for ON/OFF source"; Eq. (15) is an M/G/1
//! queue with Poisson arrivals).
//!
//! **The queue.** Every endpoint has one injection link and, per class, a
//! FIFO source queue whose head waits for the class's one VC at the NI
//! (000_… §3.3: "each class has a dedicated injection buffer"). netsim's NI
//! (`network.rs`, `Sim::inject`) sends one flit per cycle, **the highest
//! class first**, so the link is a preemptive-resume priority server (per
//! flit) over the classes, each message needing M_c flit cycles while the
//! router's input buffer takes the whole message (b_s ≥ M_c: no credit
//! stall). The waiting time is creation to the header's flit, i.e. the
//! delay to the first moment of service. For class k (classes ordered top
//! first, σ_k = Σ_{i≤k} ρ_i, ρ_i = λ_i x̄_i) with Poisson arrivals this is
//! the textbook preemptive-resume result
//!
//!   W_k = R_k / ((1 − σ_{k−1})(1 − σ_k)),   R_k = Σ_{i≤k} λ_i E[X_i²]/2,
//!
//! (Kleinrock, Queueing Systems II, §3.7: the work of classes ≤ k found on
//! arrival, stretched by the higher classes arriving meanwhile).
//!
//! **ON/OFF arrivals** (000_… §3: K streams per class and endpoint, each
//! alternating bursts of B messages, B exponential with mean N, sent one
//! per g cycles, and OFF periods of mean I; 1/a = I/N + g). A tagged
//! message's own stream is independent of the other K − 1 streams, so at
//! its arrival the others are in their stationary state, and they reach
//! the queue at most once per g cycles each: when g is long against the
//! queue's busy periods their superposition is locally Poisson at rate
//! λ_k (K − 1)/K (Palm–Khintchine), and the tagged message's own stream
//! contributes nothing but its own burst predecessors. So:
//!
//!   R_k = Σ_{i<k} λ_i E[X_i²]/2 + (K − 1)/K · λ_k E[X_k²]/2
//!
//! (the higher classes' term with their own arrivals), and, when a
//! burst's messages come faster than the network drains them, the tagged
//! message also waits for its burst predecessors. A stream's burst goes to
//! one destination (000_…: a stream is a source–destination pair), whose
//! link also carries the class-≤k load of the other sources, σ_k under
//! uniform destinations (a single router's every output; in a network the
//! injection link's): the burst drains at 1 − σ_k, each predecessor takes
//! e_k = x̄_k / (1 − σ_k) cycles (its credits come back no faster), and the
//! backlog grows by e_k − g per message (a D/D/1 queue within the burst).
//! A message's position J in its burst (0-based, burst length size-biased,
//! B geometric with mean N) has E[J] = E[B(B − 1)]/(2E[B]) = N − 1, so
//!
//!   W_k = R_k / ((1 − σ_{k−1})(1 − σ_k)) + (N − 1) · max(0, e_k − g).
//!
//! As K → ∞ at a fixed class rate this is the Poisson result; with g ≫ e_k
//! it is the Poisson result with the tagged stream's share removed; the
//! long-burst term is first order (it leaves out the predecessors' delay
//! of the other streams) and is checked against the simulator in
//! `sim/netsim/tests/analytic.rs` (`on_off_source_wait_*`).

/// How a class's messages reach its source queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arrivals {
    Poisson,
    /// K ON/OFF streams per endpoint for this class, `gap` cycles between
    /// the messages of a burst, `mean_burst` = N messages per burst.
    OnOff { streams: u32, gap: f64, mean_burst: f64 },
}

/// One class at the injection link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SourceClass {
    /// λ_c, messages per cycle per endpoint.
    pub rate: f64,
    /// x̄_c, link cycles a message needs (its flits).
    pub service: f64,
    /// E[X_c²].
    pub service_m2: f64,
    pub arrivals: Arrivals,
}

impl SourceClass {
    /// A class of `flits`-flit messages: deterministic service of one flit
    /// per cycle.
    pub fn flits(rate: f64, flits: f64, arrivals: Arrivals) -> Self {
        SourceClass { rate, service: flits, service_m2: flits * flits, arrivals }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SourceWait {
    /// W_c: creation to the header's flit, cycles.
    pub wait: f64,
    /// The part of `wait` spent behind the message's own burst.
    pub own_burst: f64,
}

/// The injection link carries ρ ≥ 1 of the classes up to `class`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkSaturated {
    pub class: usize,
    pub utilization: f64,
}

/// W_c of every class, `classes` ordered by priority at the NI, the top
/// class first. A class whose queue has no steady state (σ_k ≥ 1) and
/// every class below it are `Err`.
pub fn priority_waits(classes: &[SourceClass]) -> Vec<Result<SourceWait, LinkSaturated>> {
    let mut out = Vec::with_capacity(classes.len());
    let (mut sigma_above, mut r_above) = (0.0f64, 0.0f64);
    for (k, c) in classes.iter().enumerate() {
        let rho = c.rate * c.service;
        let sigma = sigma_above + rho;
        if !(sigma < 1.0) {
            out.extend((k..classes.len()).map(|_| Err(LinkSaturated { class: k, utilization: sigma })));
            return out;
        }
        let own = c.rate * c.service_m2 / 2.0;
        let (others, own_burst) = match c.arrivals {
            Arrivals::Poisson => (1.0, 0.0),
            Arrivals::OnOff { streams, gap, mean_burst } => {
                let others = (streams.max(1) - 1) as f64 / streams.max(1) as f64;
                let each = c.service / (1.0 - sigma);
                (others, (mean_burst - 1.0).max(0.0) * (each - gap).max(0.0))
            }
        };
        let wait = (r_above + others * own) / ((1.0 - sigma_above) * (1.0 - sigma)) + own_burst;
        out.push(Ok(SourceWait { wait, own_burst }));
        sigma_above = sigma;
        r_above += own;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn one_poisson_class_is_the_m_d_1_queue() {
        // M/D/1, λ = 0.01, x = 32: ρ = 0.32, W = λx²/(2(1 − ρ)) = 10.24/1.36.
        let w = priority_waits(&[SourceClass::flits(0.01, 32.0, Arrivals::Poisson)]);
        assert!(close(w[0].as_ref().unwrap().wait, 10.24 / 1.36), "{w:?}");
    }

    #[test]
    fn eq15s_first_term_is_the_one_class_poisson_case() {
        // 000_… Eq. (15): λL̄²(1 + δ²/L̄²)/(2(1 − λL̄)) with L̄ = 50, T = 36,
        // δ² = 14² = 196, λ = 0.004: 0.004·(2500 + 196)/(2·0.8) = 6.74.
        let c = SourceClass { rate: 0.004, service: 50.0, service_m2: 2500.0 + 196.0, arrivals: Arrivals::Poisson };
        assert!(close(priority_waits(&[c])[0].as_ref().unwrap().wait, 6.74));
    }

    #[test]
    fn preemptive_priority_by_hand() {
        // Two Poisson classes of 32-flit messages, λ1 = 0.00667, λ2 = 0.00333
        // (000_… Fig. 12(a) at 0.010): ρ1 = 0.21333, ρ2 = 0.10667.
        // Top: R = λ1·1024/2 = 3.41333, W1 = R/(1 − ρ1) = 4.33898.
        // Second: R = (λ1 + λ2)·512 = 5.12, W2 = 5.12/((1 − 0.21333)(1 − 0.32)) = 9.57128.
        let (l1, l2) = (0.02 / 3.0, 0.01 / 3.0);
        let w = priority_waits(&[SourceClass::flits(l1, 32.0, Arrivals::Poisson), SourceClass::flits(l2, 32.0, Arrivals::Poisson)]);
        let w1 = (l1 * 512.0) / (1.0 - 32.0 * l1);
        let w2 = 5.12 / ((1.0 - 32.0 * l1) * (1.0 - 0.32));
        assert!(close(w[0].as_ref().unwrap().wait, w1) && (w1 - 4.33898).abs() < 1e-5, "{w:?}");
        assert!(close(w[1].as_ref().unwrap().wait, w2) && (w2 - 9.57128).abs() < 1e-5, "{w:?}");
    }

    #[test]
    fn on_off_streams_spaced_wider_than_a_message_exclude_their_own_share() {
        // 14 streams, g = 850 ≫ 32: R = 13/14 · λ·1024/2, no burst backlog.
        let l = 0.02 / 3.0;
        let w = priority_waits(&[SourceClass::flits(l, 32.0, Arrivals::OnOff { streams: 14, gap: 850.0, mean_burst: 10.0 })]);
        let w = w[0].as_ref().unwrap();
        assert!(close(w.wait, 13.0 / 14.0 * l * 512.0 / (1.0 - 32.0 * l)) && w.own_burst == 0.0, "{w:?}");
        // One stream spaced wider than its messages take to drain
        // (32/(1 − 0.032) = 33.06 < 40) never waits.
        let one = priority_waits(&[SourceClass::flits(0.001, 32.0, Arrivals::OnOff { streams: 1, gap: 40.0, mean_burst: 10.0 })]);
        assert_eq!(one[0].as_ref().unwrap().wait, 0.0);
    }

    #[test]
    fn bursts_faster_than_the_link_drains_them_queue_behind_themselves() {
        // One stream (no others), a top class above it at ρ = 0.2 with
        // λ = 0.00625 and x = 32 (R = 3.2), the stream at λ = 0.002 (ρ =
        // 0.064), g = 33, N = 10: the burst drains at 1 − 0.264 = 0.736,
        // each message 32/0.736 = 43.47826 cycles, 10.47826 more than g;
        // E[J] = 9, backlog 94.30435; the others-term is the top class's
        // R / ((1 − 0.2)(1 − 0.264)) = 3.2/0.5888 = 5.43478.
        let top = SourceClass::flits(0.00625, 32.0, Arrivals::Poisson);
        let me = SourceClass::flits(0.002, 32.0, Arrivals::OnOff { streams: 1, gap: 33.0, mean_burst: 10.0 });
        let w = priority_waits(&[top, me]);
        let w = w[1].as_ref().unwrap();
        assert!((w.own_burst - 94.30435).abs() < 1e-5, "{w:?}");
        assert!((w.wait - 94.30435 - 5.43478).abs() < 1e-5, "{w:?}");
    }

    #[test]
    fn many_sparse_streams_tend_to_poisson() {
        let p = priority_waits(&[SourceClass::flits(0.01, 32.0, Arrivals::Poisson)])[0].as_ref().unwrap().wait;
        let o = priority_waits(&[SourceClass::flits(0.01, 32.0, Arrivals::OnOff { streams: 100_000, gap: 500.0, mean_burst: 10.0 })])[0].as_ref().unwrap().wait;
        assert!((o - p).abs() < 1e-4 * p, "{o} vs {p}");
    }

    #[test]
    fn a_saturated_link_saturates_that_class_and_those_below() {
        // ρ = 0.32, then 0.64 (σ = 0.96, still stable), then 0.64 more.
        let w = priority_waits(&[
            SourceClass::flits(0.01, 32.0, Arrivals::Poisson),
            SourceClass::flits(0.02, 32.0, Arrivals::Poisson),
            SourceClass::flits(0.02, 32.0, Arrivals::Poisson),
        ]);
        assert!(w[0].is_ok() && w[1].is_ok(), "{w:?}");
        assert!(matches!(w[2], Err(LinkSaturated { class: 2, utilization }) if (utilization - 1.6).abs() < 1e-12), "{w:?}");
    }
}
