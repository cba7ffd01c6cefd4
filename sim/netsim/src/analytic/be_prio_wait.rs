//! Best effort behind an ON/OFF real-time class, counted at the link
//! (issue 22, docs/reproduction.md "Best effort behind the cube's bursts,
//! counted at the link"): the model of what `cube_be_links` probes, the
//! cycles a link sent a real-time flit while a best-effort flit was ready
//! at it, per best-effort message crossing it.
//!
//! The leak model (`be_burst_wait`) gives every best-effort message that
//! arrives in a real-time busy period the rest of that period: a
//! customer's wait. At one best-effort VC per link only the message at the
//! head of the line has a flit ready; a second message arriving in the
//! same busy period waits behind the first (at the source, in its queue;
//! in a router, for the VC) and is not counted at the link, and it starts
//! after the busy period. So the link counts, per busy period, the real
//! time sent while best effort is *present* at all, once:
//!
//! - busy periods (at least one of the link's m streams ON) start ν =
//!   P_idle·m/I times a cycle and last T, exponential with mean B (as in
//!   the leak model); real time takes r = M/g of the link in them and
//!   leaves f = 1 − r, so a best-effort message needs S = F/f cycles;
//! - in a busy period best effort is an M/D/1 queue (arrivals λ, the link's
//!   best-effort messages a cycle; service S) that starts empty, or with
//!   probability π = λ·F (best effort's share of the idle link) with a
//!   message already sending, its work left uniform on (0, S);
//! - its presence over T ~ Exp(B) is the Laplace transform of the queue's
//!   busy indicator at s = 1/B: with β the M/D/1 busy period's transform,
//!   β = exp(−S(s + λ − λβ)), and κ = s + λ(1 − β), the time idle from
//!   empty is 1/κ, so present λB(1 − β)/κ; from work w it is
//!   (1 − e^(−wκ))/κ more (the first busy period), so from w uniform on
//!   (0, S) present (1 + λB(1 − β) − (1 − e^(−Sκ))/(Sκ))/κ;
//! - the wait per message is ν·r·(presence)/λ.
//!
//! As λ → 0 this is the leak model exactly (presence/λ → B²(1 − e^(−S/B))
//! and F·B(1 − (B/S)(1 − e^(−S/B))), the leak's two terms); the
//! difference is the queueing of best effort behind its own head of line.
//!
//! The "fresh" variants count at a hop or ejection link only the streams
//! the message did not meet on an earlier link of its route: under e-cube
//! routing a stream that shares a link with it shares every link between
//! too, and its burst has already passed (or is passing) with it. Left
//! out here as in the leak model: two streams ON at once (real time then
//! takes the whole link), the real-time VC's one message at a time, and
//! credits.

use super::be_burst_wait::BeBurstWait;
use super::onoff_fluid::FluidError;

/// The leak model's link quantities and best effort's message rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BePrioWait {
    pub link: BeBurstWait,
    /// λ, best-effort messages a node creates a cycle.
    pub be_rate: f64,
}

/// (probability, trials): the stream count at a link, binomial(trials, q)
/// with probability `probability`.
pub type Mixture = Vec<(f64, usize)>;

impl BePrioWait {
    /// The wait at a link that carries exactly m streams and `lambda`
    /// best-effort messages a cycle, cycles per message.
    pub fn wait_with(&self, m: usize, lambda: f64) -> Result<f64, FluidError> {
        let c = &self.link;
        if c.peak >= 1.0 {
            return Err(FluidError::Saturated { load: c.peak, capacity: 1.0 });
        }
        let share = lambda * c.be_flits;
        if !(lambda > 0.0 && share < 1.0) {
            return Err(FluidError::Saturated { load: share, capacity: 1.0 });
        }
        if m == 0 {
            return Ok(0.0);
        }
        let (idle, start_rate, busy_mean) = c.busy_periods(m);
        let (r, f) = (c.peak, 1.0 - c.peak);
        let service = c.be_flits / f;
        let s = 1.0 / busy_mean;
        let beta = md1_busy_transform(s, lambda, service);
        let kappa = s + lambda * (1.0 - beta);
        let from_empty = lambda * busy_mean * (1.0 - beta) / kappa;
        let started = (1.0 + lambda * busy_mean * (1.0 - beta) - (1.0 - (-service * kappa).exp()) / (service * kappa)) / kappa;
        let presence = (1.0 - share) * from_empty + share * started;
        Ok(idle * start_rate * r * presence / lambda)
    }

    fn mixture_mean(&self, mix: &Mixture, q: f64, lambda: f64) -> Result<f64, FluidError> {
        mix.iter().map(|&(prob, trials)| Ok(prob * self.link.binomial(trials, q, |m| self.wait_with(m, lambda))?.0)).sum()
    }

    /// λ at a hop link: a node's messages cross dimension d with
    /// probability 2^(n − 1)/(2^n − 1) (the destinations differing in bit d).
    pub fn hop_rate(&self) -> f64 {
        let n = self.link.n;
        self.be_rate * (1usize << (n - 1)) as f64 / ((1usize << n) - 1) as f64
    }

    /// (wait, real-time load) at a source's injection link.
    pub fn injection(&self) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.link.injection_streams();
        self.link.binomial(trials, q, |m| self.wait_with(m, self.be_rate))
    }

    /// At the hop link of dimension d, every stream on it.
    pub fn hop(&self, d: usize) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.link.hop_streams(d);
        self.link.binomial(trials, q, |m| self.wait_with(m, self.hop_rate()))
    }

    /// At a destination's ejection link, every stream on it.
    pub fn ejection(&self) -> Result<(f64, f64), FluidError> {
        let (trials, q) = self.link.ejection_streams();
        self.link.binomial(trials, q, |m| self.wait_with(m, self.be_rate))
    }

    /// The fresh streams at the hop link of dimension d, for a message
    /// crossing it. Its bits below d are uniform (bit d differs, so every
    /// pattern is a destination), so the highest dimension below d it
    /// crossed before is d − j with probability 2^(−j), j = 1..d, or none
    /// with 2^(−d). The link's streams come from the 2^d sources that agree
    /// with the message's source from bit d up; those that also crossed
    /// the link of dimension d − j agree with it on bits d − j..d too:
    /// 2^(d − j) sources; with none before, the message met its own
    /// source's K streams at its injection link (j = d counts the same).
    pub fn hop_fresh_mixture(&self, d: usize) -> Mixture {
        let k = self.link.streams;
        if d == 0 {
            return vec![(1.0, 0)];
        }
        let mut mix: Mixture = (1..d).map(|j| (0.5f64.powi(j as i32), ((1usize << d) - (1usize << (d - j))) * k)).collect();
        mix.push((2.0 * 0.5f64.powi(d as i32), ((1usize << d) - 1) * k));
        mix
    }

    /// The fresh streams at a destination's ejection link. The message's
    /// last hop corrected its highest differing bit n − j, with
    /// probability 2^(n − j)/(2^n − 1); the streams on that link and the
    /// ejection link come from the 2^(n − j) sources that agree with its
    /// source from bit n − j up, so (2^n − 1 − 2^(n − j))·K are fresh.
    pub fn ejection_fresh_mixture(&self) -> Mixture {
        let (n, k) = (self.link.n, self.link.streams);
        let others = (1usize << n) - 1;
        (1..=n).map(|j| ((1usize << (n - j)) as f64 / others as f64, (others - (1usize << (n - j))) * k)).collect()
    }

    /// (wait, real-time load) at the hop link of dimension d, fresh streams
    /// only (the load is the whole link's).
    pub fn hop_fresh(&self, d: usize) -> Result<(f64, f64), FluidError> {
        let (_, q) = self.link.hop_streams(d);
        Ok((self.mixture_mean(&self.hop_fresh_mixture(d), q, self.hop_rate())?, self.hop(d)?.1))
    }

    /// At a destination's ejection link, fresh streams only.
    pub fn ejection_fresh(&self) -> Result<(f64, f64), FluidError> {
        let (_, q) = self.link.ejection_streams();
        Ok((self.mixture_mean(&self.ejection_fresh_mixture(), q, self.be_rate)?, self.ejection()?.1))
    }
}

/// β(s) of an M/D/1 queue's busy period (arrivals `lambda`, service
/// `service`): the root in (0, 1] of β = exp(−service·(s + λ − λβ)),
/// reached from 0 by iterating (the map is increasing and a contraction
/// there for s > 0).
fn md1_busy_transform(s: f64, lambda: f64, service: f64) -> f64 {
    let mut beta = 0.0f64;
    for _ in 0..100_000 {
        let next = (-service * (s + lambda - lambda * beta)).exp();
        if (next - beta).abs() < 1e-15 {
            return next;
        }
        beta = next;
    }
    beta
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The leak model's hand case (one stream ON 10 cycles at r = 1/2, OFF
    /// 30, F = 4) with λ = 0.05 best-effort messages a cycle.
    fn tiny(lambda: f64) -> BePrioWait {
        BePrioWait { link: BeBurstWait { n: 1, streams: 1, on_mean: 10.0, off_mean: 30.0, peak: 0.5, be_flits: 4.0 }, be_rate: lambda }
    }

    /// By hand (Python as the calculator, not this code): p = 1/4, idle
    /// 3/4, ν = (3/4)/30 = 1/40, B = 10, s = 0.1, f = 1/2, S = 8,
    /// π = λF = 0.2. β = exp(−8(0.15 − 0.05β)) = exp(−1.2 + 0.4β): from 0,
    /// 0.301194, 0.339758, 0.345039, 0.345769, ... → 0.345886.
    /// κ = 0.1 + 0.05·0.654114 = 0.132706; λB(1 − β) = 0.327057;
    /// from empty 0.327057/0.132706 = 2.464528; Sκ = 1.061646,
    /// (1 − e^(−1.061646))/1.061646 = 0.616132, started
    /// (1.327057 − 0.616132)/0.132706 = 5.357154; presence 0.8·2.464528 +
    /// 0.2·5.357154 = 3.043053; wait (1/40)(1/2)(3.043053)/0.05 = 0.760763
    /// (the leak model's 0.844169 for the same link).
    #[test]
    fn one_stream_by_hand() {
        let w = tiny(0.05).wait_with(1, 0.05).unwrap();
        assert!((w - 0.760763).abs() < 1e-5, "{w}");
        assert_eq!(tiny(0.05).wait_with(0, 0.05).unwrap(), 0.0);
    }

    /// As λ → 0 the count at the link is the leak model's wait (each
    /// arrival alone in its busy period), derived separately there.
    #[test]
    fn few_messages_give_the_leak_model() {
        for m in 1..4 {
            let leak = tiny(1e-8).link.wait_with(m).unwrap();
            let prio = tiny(1e-8).wait_with(m, 1e-8).unwrap();
            assert!((prio / leak - 1.0).abs() < 1e-5, "m = {m}: {prio} against {leak}");
        }
        // More best effort queues behind its head of line: fewer counted.
        assert!(tiny(0.05).wait_with(1, 0.05).unwrap() < tiny(1e-8).link.wait_with(1).unwrap());
    }

    #[test]
    fn no_best_effort_or_a_saturating_stream_is_an_error() {
        assert!(tiny(0.0).wait_with(1, 0.0).is_err());
        assert!(tiny(0.3).wait_with(1, 0.3).is_err(), "λF = 1.2");
        let mut c = tiny(0.05);
        c.link.peak = 1.0;
        assert!(c.wait_with(1, 0.05).is_err());
    }

    /// The fresh streams' mean count against every e-cube route walked in
    /// the 3- and 4-cube (K = 1: a stream from each source s' to each other
    /// node t' with probability 1/(2^n − 1)): per best-effort route s → t
    /// and link on it, the streams on the link that used none of the
    /// route's earlier links (its injection link counts as s' = s).
    #[test]
    fn fresh_counts_against_every_route() {
        for n in [3usize, 4] {
            let nodes = 1usize << n;
            let route = |s: usize, t: usize| -> Vec<(usize, usize)> {
                let mut x = s;
                let mut links = Vec::new();
                for d in 0..n {
                    if (x ^ t) >> d & 1 == 1 {
                        links.push((x, d));
                        x ^= 1 << d;
                    }
                }
                links
            };
            // Link keys: (node, d) hops and (t, n) the ejection link of t;
            // the injection link of s is (s, n + 1).
            let keys = |s: usize, t: usize| -> Vec<(usize, usize)> {
                let mut k = vec![(s, n + 1)];
                k.extend(route(s, t));
                k.push((t, n));
                k
            };
            let (mut sum, mut count) = (vec![0.0; n + 1], vec![0.0; n + 1]);
            for s in 0..nodes {
                for t in (0..nodes).filter(|&t| t != s) {
                    let path = keys(s, t);
                    for (i, &(_, d)) in path.iter().enumerate().skip(1) {
                        let mut fresh = 0.0;
                        for s2 in 0..nodes {
                            for t2 in (0..nodes).filter(|&t2| t2 != s2) {
                                let other = keys(s2, t2);
                                if other.contains(&path[i]) && !path[..i].iter().any(|l| other.contains(l)) {
                                    fresh += 1.0 / (nodes - 1) as f64;
                                }
                            }
                        }
                        sum[d] += fresh;
                        count[d] += 1.0;
                    }
                }
            }
            let model = BePrioWait { link: BeBurstWait { n, streams: 1, on_mean: 1.0, off_mean: 1.0, peak: 0.5, be_flits: 1.0 }, be_rate: 0.1 };
            let mean = |mix: Mixture, q: f64| mix.iter().map(|&(p, t)| p * t as f64 * q).sum::<f64>();
            for d in 0..n {
                let walked = sum[d] / count[d];
                let (_, q) = model.link.hop_streams(d);
                let formula = mean(model.hop_fresh_mixture(d), q);
                assert!((walked - formula).abs() < 1e-9, "n = {n}, d = {d}: walked {walked}, formula {formula}");
            }
            let walked = sum[n] / count[n];
            let formula = mean(model.ejection_fresh_mixture(), 1.0 / (nodes - 1) as f64);
            assert!((walked - formula).abs() < 1e-9, "n = {n}, ejection: walked {walked}, formula {formula}");
        }
    }
}
