//! Random link traffic shared by the unit tests (no protocol: any VC,
//! head and tail bits at random, random returned credits).

use crate::{LinkFlit, RouterInputs};
use wormqos_config::RouterConfig;

/// xorshift64.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A flit on a third of the input links, random credits on every output.
pub(crate) fn random_inputs(rng: &mut Rng, cfg: &RouterConfig, inp: &mut RouterInputs) {
    inp.clear();
    for p in 0..cfg.ports() {
        let x = rng.next();
        if x % 3 == 0 {
            inp.flits[p] = LinkFlit {
                lane: 0,
                valid: true,
                dummy: false,
                vc: (x >> 8) as u8 % cfg.vcs() as u8,
                head: x >> 16 & 1 == 1,
                tail: x >> 17 & 3 == 0,
                data: [rng.next(), rng.next(), rng.next(), rng.next()],
            };
        }
        inp.credits[p] = rng.next() as u32 & rng.next() as u32;
    }
}
