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
//! stream crosses (the dimension-0 hop link 0, as in the tandem row); the
//! source part is the tandem row's injection link plus every link's
//! pushed-back part. The two are added, as the measured waits add ("The
//! two waits measured": corr(S, N) > 0, a message that waited at its
//! source waits longer in the network after). So the total is the tandem
//! row's: the row moves the backlog between the parts, it does not change
//! the sum. A link whose distribution is not available (only the direct
//! method of the K = 14 source link solves it) is `IllConditioned`:
//! not modelled.

use super::onoff_fluid::{BurstDelay, CubeBurstClass, FluidError};

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
    /// buffers hold; the source part the tandem row's injection link plus
    /// the backlog pushed back from every network link.
    pub fn held_delay(&self) -> Result<BurstDelay, FluidError> {
        // The tandem links' sum less the held parts' is the pushed-back
        // total (each link's E[min(Q, B)] ≤ E[Q]); not solving the tandem
        // links a second time keeps `wormqos model` at two solves per link.
        let tandem = self.coupled_delay()?;
        let held: f64 = self.held_parts()?.iter().sum();
        Ok(BurstDelay { source_link: tandem.source_link + (tandem.destination_link - held).max(0.0), destination_link: held, ..tandem })
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
        // 2.859401, added to the injection link. The hop link (d = 0) 0.
        let class = BurstClass { ports: 0, streams: 3, mean_burst: 100.0, gap: 1.0, off_mean: 100.0, flits: 1.0, capacity: 5.0 };
        let cube = CubeBurstClass { n: 1, class };
        let parts = cube.held_network_parts().unwrap();
        assert!(parts.held.len() == 2 && parts.held[0] == 0.0 && parts.pushed[0] == 0.0, "{parts:?}");
        assert!((parts.held[1] - 0.140599).abs() < 1e-5 && (parts.pushed[1] - 2.859401).abs() < 1e-5, "{parts:?}");
        let (held, tandem) = (cube.held_delay().unwrap(), cube.coupled_delay().unwrap());
        assert!((held.destination_link - 0.140599).abs() < 1e-5, "{held:?}");
        assert!((held.source_link - tandem.source_link - 2.859401).abs() < 1e-5, "{held:?} {tandem:?}");
    }

    #[test]
    fn a_two_cube_holds_its_ejection_link_in_two_buffers_by_hand() {
        // onoff_fluid's a_two_cube_in_tandem_by_hand (K = 1, M = 1, c = 5):
        // only the ejection link queues, three sources with weight 1/9,
        // 3 cycles, 1/3 in all. Its buffer: the two input ports' VCs,
        // B = n·M = 2 flits: held 3·(1 − e^{−0.096})/9 = 0.030512, pushed
        // back 1/3 − 0.030512 = 0.302821, the injection link 0 (one
        // source below c_s) plus that.
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
