//! Tests of the §9 features (docs/microarchitecture.md §9). Expected values
//! are derived by hand from the spec (the derivations are in the comments),
//! never copied from the model's output.

use crate::endpoint::{Reassembler, Tags};
use crate::{LinkFlit, Router, RouterInputs, RouterOutputs};
use wormqos_config::RouterConfig;

fn example(name: &str) -> RouterConfig {
    let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    RouterConfig::from_file(std::path::Path::new(&path)).unwrap()
}

fn cfg_of(text: &str) -> RouterConfig {
    RouterConfig::from_toml_str(&format!("name = \"q\"\n{text}"), "inline").unwrap()
}

fn inline(ports: u32, vcs: u32, crossbar: &str, scheduler: &str, extra: &str) -> RouterConfig {
    cfg_of(&format!(
        "[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 32\ninput_buffer_depth = 8\n\
         output_buffer_depth = 8\ncrossbar = \"{crossbar}\"\nscheduler = \"{scheduler}\"\n{extra}"
    ))
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_inputs(rng: &mut Rng, cfg: &RouterConfig, inp: &mut RouterInputs) {
    inp.clear();
    for p in 0..cfg.ports() {
        let x = rng.next();
        if x % 3 == 0 {
            inp.flits[p] = LinkFlit {
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

/// The general engine implements §6/§8 exactly like the fast engine on
/// foundation configurations (b = 1, unpartitioned): every output, every cycle.
#[test]
fn general_engine_matches_the_fast_engine() {
    let mut cfgs: Vec<RouterConfig> =
        ["mesh5", "wide72", "tiny2", "mediaworm8", "qos8"].iter().map(|n| example(n)).collect();
    cfgs.push(inline(4, 2, "full", "round_robin", ""));
    cfgs.push(inline(3, 3, "multiplexed", "fifo", "downstream_buffer_depth = 5\n"));
    cfgs.push(inline(5, 4, "full", "fifo", "[topology]\nkind = \"single_switch\"\nroutes = [1, 1, 0, 4, 1]\n"));
    cfgs.push(inline(5, 4, "multiplexed", "virtualclock", ""));
    cfgs.push(inline(4, 4, "full", "virtualclock", ""));
    cfgs.push(inline(3, 3, "multiplexed", "virtualclock", "vtick_width = 8\nclock_width = 8\n"));
    cfgs.push(inline(5, 4, "full", "virtualclock", "vtick_width = 8\nclock_width = 8\ndownstream_buffer_depth = 5\n"));
    for cfg in &cfgs {
        for seed in 1..=2u64 {
            let mut a = Router::new(cfg);
            let mut g = Router::new_general(cfg);
            assert!(!a.is_general() && g.is_general());
            let mut inp = RouterInputs::idle(cfg);
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            for t in 0..3000 {
                random_inputs(&mut rng, cfg, &mut inp);
                if (t / 300) % 2 == 1 {
                    for c in inp.credits.iter_mut() {
                        *c &= rng.0 as u32;
                    }
                }
                if (t / 200) % 4 == 3 {
                    inp.clear();
                    if t % 200 > 100 {
                        inp.credits.fill(u32::MAX);
                    }
                }
                a.step(&inp);
                g.step(&inp);
                assert_eq!(a.outputs(), g.outputs(), "{} seed {seed} cycle {t}", cfg.name());
            }
            assert_eq!(a.stats(), g.stats(), "{}", cfg.name());
            assert!(a.stats().flits_forwarded > 50);
        }
    }
}
