//! The hypercube's burst-scale fluid row with each network link holding
//! only what its input VC buffers can hold (issue 22, docs/reproduction.md
//! "The network links without the source's backlog"): the row
//! `kim2005_cube_held`.
//!
//! `CubeBurstClass::coupled_delay` (`kim2005_cube_tandem`) gives every
//! network link an unlimited fluid queue, so the burst backlog of the
//! ejection link (49–64 cycles per message at g = 33) sits there, where
//! the simulation's header stays at that link are 7.4–8.9 cycles: with one
//! M-flit message per real-time VC buffer the backlog waits upstream and
//! at the sources ("The hypercube's tandem row link by link").
//!
//! **The cap.** The flits queued for a network link sit in the input VCs
//! of its router that can feed it, one message of M flits each (the class
//! has one VC per port). Under e-cube routing (dimensions from 0 up) the
//! hop link (x, d) is fed by x's injection VC and the input ports of the
//! dimensions below d: (d + 1)·M flits; the ejection link by the n input
//! ports: n·M flits (a node sends nothing to itself). Keeping the links'
//! fluid dynamics (the tandem row's stretched streams at c·M/(M + 1)), a
//! link's backlog Q puts min(Q, B) in those buffers and the rest, (Q − B)⁺,
//! behind them: taken here to wait at the sources (the upstream links'
//! buffers also hold other streams' messages; this puts all of the
//! overflow at the source, an upper bound on what the source holds). The
//! link's held part is E[min(Q, B)]/Λ (`FluidLink::mean_delay_within`),
//! its pushed-back part E[(Q − B)⁺]/Λ, the tandem link's delay less it.
//!
//! **The row.** The network part is the held parts of every link the
//! stream crosses (the dimension-0 hop link 0, as in the tandem row). The
//! source part is one queue, the source's injection queue: it holds the
//! own K streams' backlog (the tandem row's injection link, S) and what
//! the network cannot hold (every link's pushed-back part, P), and both
//! drain through the source's one real-time VC. So a message leaves the
//! source once the backlog ahead of it there has cleared, whichever of
//! the two made it: after max(S, P), not S + P (adding them counts the
//! backlog twice where both are there at once; "The network links without
//! the source's backlog" measures the sum +35.6 % to +43.1 % high at
//! g = 33). The approximation is `kim2005_cube_source_backlog`'s, the two
//! waits independent and exponential (`expected_max_of_exponentials`):
//! S + P − S·P/(S + P). (With the fluid queues' own shapes, an atom at 0
//! and an exponential tail, independent S and P would overlap by only
//! 0.7–1.5 cycles at g = 33; comonotone ones by about as much as this
//! merge: its fit needs the two backlogs to come together, docs point (2).)
//! The network part and the source part are then
//! added, as the measured waits add ("The two waits measured"). A link
//! whose distribution is not available (only the direct method of the
//! K = 14 source link solves it) is `IllConditioned`: not modelled.

use super::onoff_fluid::{expected_max_of_exponentials, BurstDelay, CubeBurstClass, FluidError};

/// `kim2005_cube_held` split link by link.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldParts {
    /// Each network link's held part, in `network_links`' order, weighted
    /// by the probability the stream crosses it.
    pub held: Vec<f64>,
    /// Each network link's pushed-back part (the tandem link less its held
    /// part), weighted the same way.
    pub pushed: Vec<f64>,
}

impl HeldParts {
    pub fn held_total(&self) -> f64 {
        self.held.iter().sum()
    }

    pub fn pushed_total(&self) -> f64 {
        self.pushed.iter().sum()
    }
}

/// B, the flits of real-time messages waiting for network link `link`
/// (its index in `network_links`: hop links of dimension 0..n, then the
/// ejection link) that its router's input VCs hold, one message of
/// `flits` each: the injection VC and the d input ports below dimension d
/// for the hop link d, the n input ports for the ejection link.
pub fn link_buffer_flits(n: usize, link: usize, flits: f64) -> f64 {
    let feeders = if link < n { link + 1 } else { n };
    feeders as f64 * flits
}

impl CubeBurstClass {
    /// Each network link split into what its buffers hold and what waits
    /// behind them (the module's "The cap").
    pub fn held_network_parts(&self) -> Result<HeldParts, FluidError> {
        let (tandem, _) = self.coupled_network_parts()?;
        let held = self.held_parts()?;
        let pushed = tandem.iter().zip(&held).map(|(t, h)| (t - h).max(0.0)).collect();
        Ok(HeldParts { held, pushed })
    }

    /// Each network link's held part alone, E[min(Q, B)]/Λ weighted as
    /// `network_links` (the dimension-0 hop link 0).
    fn held_parts(&self) -> Result<Vec<f64>, FluidError> {
        self.check_shape()?;
        let (n, flits) = (self.n, self.class.flits);
        Ok(self.network_parts_of(true, |link, m| self.class.after_source_link(m)?.mean_delay_within(link_buffer_flits(n, link, flits)))?.0)
    }

    /// The row `kim2005_cube_held`: the network part is what the links'
    /// buffers hold; the source part the one queue at the source holding
    /// the tandem row's injection-link backlog S and the backlog P pushed
    /// back from every network link, E[max(S, P)] (the module's "The row").
    pub fn held_delay(&self) -> Result<BurstDelay, FluidError> {
        // The tandem links' sum less the held parts' is the pushed-back
        // total (each link's E[min(Q, B)] ≤ E[Q]); not solving the tandem
        // links a second time keeps `wormqos model` at two solves per link.
        let tandem = self.coupled_delay()?;
        let held: f64 = self.held_parts()?.iter().sum();
        let pushed = (tandem.destination_link - held).max(0.0);
        Ok(BurstDelay { source_link: expected_max_of_exponentials(tandem.source_link, pushed), destination_link: held, ..tandem })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytic::onoff_fluid::{BurstClass, FluidLink};

    #[test]
    fn the_link_buffers_by_hand() {
        // 3-cube, M = 32: hop link 0 fed by the injection VC only (32),
        // hop link 2 by it and the ports of dimensions 0, 1 (96), the
        // ejection link (index 3) by the three input ports (96).
        assert_eq!(link_buffer_flits(3, 0, 32.0), 32.0);
        assert_eq!(link_buffer_flits(3, 1, 32.0), 64.0);
        assert_eq!(link_buffer_flits(3, 2, 32.0), 96.0);
        assert_eq!(link_buffer_flits(3, 3, 32.0), 96.0);
        assert_eq!(link_buffer_flits(1, 1, 2.0), 2.0);
    }

    #[test]
    fn the_held_part_of_one_source_by_hand() {
        // onoff_fluid's one_source_by_hand: T_on = 100, I = 300, r = 1,
        // c = 0.5; one negative root z = −1/75, P(Q > 0) = Λ/c = 0.5
        // (F_ON(0) = 0, F_OFF(0) = (c − Λ)/c), so P(Q > x) = 0.5·e^{−x/75}
        // and E[min(Q, B)] = 0.5·75·(1 − e^{−B/75}) flits; over Λ = 0.25:
        // 150·(1 − e^{−B/75}) cycles. B = 75: 150·(1 − 1/e) = 94.818084;
        // B = 0: 0; B = ∞: the whole 150.
        let l = FluidLink { sources: 1, on_mean: 100.0, off_mean: 300.0, peak: 1.0, capacity: 0.5 };
        let held = l.mean_delay_within(75.0).unwrap();
        assert!((held - 94.818084).abs() < 1e-5, "{held}");
        assert!(l.mean_delay_within(0.0).unwrap().abs() < 1e-9);
        assert!((l.mean_delay_within(f64::INFINITY).unwrap() - 150.0).abs() < 1e-6);
    }

    #[test]
    fn a_one_cube_pushes_its_ejection_backlog_back_by_hand() {
        // 1-cube, K = 3, M = 1, g = 1 (r = 1), T_on = N·g = 100, I = 100,
        // c = 5: the input VCs pass c_s = 5/3 ≥ r (streams unstretched),
        // the ejection link serves c_d = 2.5 and always carries the other
        // node's three streams (2 others with q = 1): three sources with
        // one overload state, z = −0.048, E[Q] = 4.5 flits, 3 cycles
        // (onoff_fluid's three_sources_with_one_overload_state_by_hand).
        // Its buffer: the one input port's VC, B = n·M = 1 flit. Held:
        // 3·(1 − e^{−0.048}) = 0.140599; pushed back: 3·e^{−0.048} =
        // 2.859401, which the source's one queue holds with the injection
        // link's backlog S: S + P − S·P/(S + P) (S, three sources with two
        // overload states, is the tandem row's). The hop link (d = 0) 0.
        let class = BurstClass { ports: 0, streams: 3, mean_burst: 100.0, gap: 1.0, off_mean: 100.0, flits: 1.0, capacity: 5.0 };
        let cube = CubeBurstClass { n: 1, class };
        let parts = cube.held_network_parts().unwrap();
        assert!(parts.held.len() == 2 && parts.held[0] == 0.0 && parts.pushed[0] == 0.0, "{parts:?}");
        assert!((parts.held[1] - 0.140599).abs() < 1e-5 && (parts.pushed[1] - 2.859401).abs() < 1e-5, "{parts:?}");
        let (held, tandem) = (cube.held_delay().unwrap(), cube.coupled_delay().unwrap());
        assert!((held.destination_link - 0.140599).abs() < 1e-5, "{held:?}");
        let (s, p) = (tandem.source_link, 2.859401);
        assert!(s > 0.0 && (held.source_link - (s + p - s * p / (s + p))).abs() < 1e-5, "{held:?} {tandem:?}");
    }

    #[test]
    fn a_one_cube_source_holds_its_backlog_and_the_pushed_back_one_as_one_queue_by_hand() {
        // 1-cube, K = 2, M = 1, g = 1 (r = 1), T_on = I = 100 (p = 1/2),
        // c = 3.6: c_s = 3.6/3 = 1.2 ≥ r (streams unstretched), c_d = 1.8,
        // B̄ = 0 (no other input at the dimension-0 hop), so c_b = c_s and
        // the injection link is the two-stream link at 1.2. Two sources,
        // α = β = 0.01, m_i = −0.02 + (c − i)z: det(Q − zD) = z(k0 + k1 z
        // + k2 z²), k0 = 8·10⁻⁴(c − 1), k1 = −0.02(3c² − 6c + 2),
        // k2 = c(c − 1)(c − 2); one overload state (both ON), a = −π_2 =
        // −1/4, φ2 = 1, φ1 = −m2/0.01, φ0 = −0.01 φ1/m0, E[Q] = aΣφ/z.
        // Injection link, c = 1.2: 0.192z² − 0.0176z − 1.6·10⁻⁴ = 0,
        // z = (0.0176 − 0.0208)/0.384 = −1/120; m0 = −0.03, m2 = −2/150,
        // φ = (4/9, 4/3, 1), Σφ = 25/9: E[Q] = (25/36)·120 = 83.333333
        // flits, Λ = 1: S = 83.333333 cycles. Ejection link (always the
        // other node's two streams), c = 1.8: 0.288z² + 0.0184z − 6.4·10⁻⁴
        // = 0, z = (−0.0184 − 0.0328)/0.576 = −4/45; m0 = −0.18,
        // m2 = −1/450, φ = (1/81, 2/9, 1), Σφ = 100/81: E[Q] = (25/81)
        // ·(45/4) = 3.472222 cycles. Its buffer, n·M = 1 flit, holds
        // 3.472222·(1 − e^{−4/45}) = 0.295322; pushed back P = 3.472222
        // ·e^{−4/45} = 3.176900. One queue at the source: S + P − S·P/(S + P)
        // = 86.510233 − 3.060235 = 83.449998 (the sum would be 86.510233).
        let class = BurstClass { ports: 0, streams: 2, mean_burst: 100.0, gap: 1.0, off_mean: 100.0, flits: 1.0, capacity: 3.6 };
        let cube = CubeBurstClass { n: 1, class };
        let tandem = cube.coupled_delay().unwrap();
        assert!((tandem.source_link - 83.333333).abs() < 1e-5 && (tandem.destination_link - 3.472222).abs() < 1e-5, "{tandem:?}");
        let held = cube.held_delay().unwrap();
        assert!((held.destination_link - 0.295322).abs() < 1e-5, "{held:?}");
        assert!((held.source_link - 83.449998).abs() < 1e-5, "{held:?}");
    }

    #[test]
    fn a_two_cube_holds_its_ejection_link_in_two_buffers_by_hand() {
        // onoff_fluid's a_two_cube_in_tandem_by_hand (K = 1, M = 1, c = 5):
        // only the ejection link queues, three sources with weight 1/9,
        // 3 cycles, 1/3 in all. Its buffer: the two input ports' VCs,
        // B = n·M = 2 flits: held 3·(1 − e^{−0.096})/9 = 0.030512, pushed
        // back 1/3 − 0.030512 = 0.302821, the injection link 0 (one
        // source below c_s): the source's one queue holds that alone.
        let class = BurstClass { ports: 0, streams: 1, mean_burst: 100.0, gap: 1.0, off_mean: 100.0, flits: 1.0, capacity: 5.0 };
        let cube = CubeBurstClass { n: 2, class };
        let held = cube.held_delay().unwrap();
        assert!((held.destination_link - 0.030512).abs() < 1e-5, "{held:?}");
        assert!((held.source_link - 0.302821).abs() < 1e-5, "{held:?}");
    }

    #[test]
    fn a_link_only_the_direct_method_solves_is_not_modelled() {
        // onoff_fluid's an_ill_conditioned_link_is_solved_without_eigenvalues:
        // 14 sources, T_on = 330, I = 34,670, r = 32/33 above c = 0.94, whose
        // spectral solution fails its boundary check; its mean comes from
        // the direct method, which gives no distribution, so no held part.
        let l = FluidLink { sources: 14, on_mean: 330.0, off_mean: 34_670.0, peak: 32.0 / 33.0, capacity: 0.94 };
        assert!(l.mean_delay().is_ok());
        let within = l.mean_delay_within(32.0);
        assert!(matches!(within, Err(FluidError::IllConditioned(_))), "{within:?}");
    }
}
