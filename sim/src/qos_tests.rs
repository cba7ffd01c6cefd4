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

// ------------------------------------------------------------------ random P-mode self-check

/// A message being sent by a source on one link VC.
struct Sending {
    flits: Vec<LinkFlit>,
    /// Next flit to send.
    k: usize,
    class: u32,
    /// The header fields (for a dummy header when resumed).
    hdr_data: [u64; 4],
    /// Resuming after a source preemption: a dummy header goes first.
    resume: bool,
}

/// Random tagged traffic into a router, respecting credits and the link
/// protocol (messages never interleave on a link VC; with `src_preempt` a
/// source may suspend its own message with a dummy tail, send a higher-class
/// message and resume behind a dummy header, nesting up to s-1 levels).
/// Every output is consumed with immediate credit return and reassembled.
/// Returns the router's statistics.
fn random_p_run(cfg: &RouterConfig, seed: u64, cycles: u64, load: u64, src_preempt: bool) -> crate::RouterStats {
    let tags = Tags::new(cfg).unwrap();
    let n = cfg.ports();
    let m = cfg.vcs();
    let s = cfg.traffic_classes();
    let h = cfg.header();
    let mut r = Router::new(cfg);
    assert!(r.is_general());
    let mut re = Reassembler::new(cfg).unwrap();
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut credit = vec![cfg.input_buffer_depth(); n * m];
    // Per input VC: a stack of messages being sent (top = last) and a queue.
    let mut stack: Vec<Vec<Sending>> = (0..n * m).map(|_| Vec::new()).collect();
    let mut queue: Vec<std::collections::VecDeque<Sending>> = (0..n * m).map(|_| Default::default()).collect();
    let mut expected: std::collections::HashMap<(usize, u64), (Vec<LinkFlit>, u32)> = Default::default();
    let mut next_id = vec![0u64; n];
    let mut inp = RouterInputs::idle(cfg);
    let mut delivered = 0u64;
    let mut sent_msgs = 0u64;
    let mut total = 0u64;
    let be = (1u64 << h.vtick.width) - 1;
    while total < cycles || !r.is_quiescent() || stack.iter().any(|s| !s.is_empty()) || queue.iter().any(|q| !q.is_empty()) {
        assert!(total < cycles + 20_000, "seed {seed}: no drain: {:?}", r.stats());
        inp.clear();
        // Consume the outputs of this cycle; return the credits at once.
        for (o, f) in r.outputs().flits.iter().enumerate() {
            if f.valid {
                inp.credits[o] |= 1 << f.vc;
                assert!(!f.dummy || cfg.extra_lanes() > 0);
            }
        }
        for msg in re.consume(r.outputs()).unwrap_or_else(|e| panic!("{} seed {seed} cycle {total}: {e}", cfg.name())) {
            let (flits, _class) = expected.remove(&(msg.port, msg.id)).expect("a message that was sent");
            assert_eq!(msg.header, flits[0].data);
            assert_eq!(msg.flits.len(), flits.len() - 1);
            for (k, d) in msg.flits.iter().enumerate() {
                assert_eq!(*d, flits[k + 1].data, "message {} flit {}", msg.id, k + 1);
            }
            delivered += 1;
        }
        for p in 0..n {
            for v in 0..m {
                credit[p * m + v] += (r.outputs().credits[p] >> v & 1) as usize;
            }
        }
        // New messages.
        if total < cycles {
            for p in 0..n {
                if rng.next() % 100 < load {
                    let v = rng.next() as usize % m;
                    let dest = rng.next() % cfg.endpoints() as u64;
                    let code = rng.next() % (1u64 << h.class.width);
                    let class = if code >= s as u64 { 0 } else { code as u32 };
                    let vt = match rng.next() % 4 {
                        0 => be,
                        1 => 0,
                        _ => 1 + rng.next() % 12,
                    };
                    let len = 1 + (rng.next() % 6) as usize;
                    let o = cfg.route(dest);
                    let id = next_id[o] & tags.id_mask();
                    next_id[o] += 1;
                    let mut pay = rng.next();
                    let flits = tags.message(v as u8, dest, code, vt, id, len, |_| {
                        pay = pay.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        pay >> 7
                    });
                    expected.insert((o, id), (flits.clone(), class));
                    let mut hd = [0u64; 4];
                    hd[0] = flits[0].data[0] & ((1u64 << h.width()) - 1);
                    queue[p * m + v].push_back(Sending { flits, k: 0, class, hdr_data: hd, resume: false });
                    sent_msgs += 1;
                }
            }
        }
        // Each input port sends at most one flit, on a VC with a credit.
        for p in 0..n {
            let start = rng.next() as usize % m;
            for dv in 0..m {
                let v = (start + dv) % m;
                let i = p * m + v;
                if credit[i] == 0 {
                    continue;
                }
                // Source preemption: a queued higher-class message suspends the current one.
                let preempt = src_preempt
                    && stack[i].last().is_some_and(|c| c.k > 0 && !c.resume)
                    && stack[i].len() < s as usize
                    && queue[i].front().is_some_and(|q| q.class > stack[i].last().unwrap().class)
                    && rng.next() % 2 == 0;
                let f = if preempt {
                    let cur = stack[i].last_mut().unwrap();
                    cur.resume = true;
                    let q = queue[i].pop_front().unwrap();
                    stack[i].push(q);
                    LinkFlit { valid: true, vc: v as u8, head: false, tail: true, dummy: true, data: [0; 4] }
                } else {
                    if stack[i].is_empty() {
                        match queue[i].pop_front() {
                            Some(q) => stack[i].push(q),
                            None => continue,
                        }
                    }
                    let cur = stack[i].last_mut().unwrap();
                    if cur.resume {
                        cur.resume = false;
                        LinkFlit { valid: true, vc: v as u8, head: true, tail: false, dummy: true, data: cur.hdr_data }
                    } else {
                        let f = cur.flits[cur.k];
                        cur.k += 1;
                        if cur.k == cur.flits.len() {
                            stack[i].pop();
                        }
                        f
                    }
                };
                credit[i] -= 1;
                inp.flits[p] = f;
                break;
            }
        }
        r.step(&inp);
        total += 1;
    }
    assert_eq!(r.stats().flits_dropped(), 0, "{}", cfg.name());
    assert!(expected.is_empty(), "{} seed {seed}: {} messages not delivered", cfg.name(), expected.len());
    assert_eq!(delivered, sent_msgs);
    assert_eq!(re.incomplete(), 0);
    assert_eq!(re.open_parts(), 0);
    // Every dummy tail made here is matched by a dummy header (the suspended
    // message resumed), and so is every dummy tail the sources made.
    *r.stats()
}

#[test]
fn random_preemptive_traffic_is_reassembled() {
    let mut cfgs = vec![example("small_p"), example("mw8_p"), example("mw8_pa")];
    let base = "[router]\nports = 3\nvcs = 2\nflit_width = 48\ninput_buffer_depth = 5\noutput_buffer_depth = 2\n\
                scheduler = \"virtualclock\"\nclock_width = 9\nvtick_width = 8\nmode = \"preemptive\"\n";
    cfgs.push(cfg_of(&format!("{base}crossbar = \"full\"\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"multiplexed\"\nblock_size = 3\nacceleration = true\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"multiplexed\"\ntraffic_classes = 4\n")));
    cfgs.push(cfg_of(&format!("{base}crossbar = \"full\"\nblock_size = 4\ntraffic_classes = 5\n")));
    for cfg in &cfgs {
        let mut tot = crate::RouterStats::default();
        for seed in 1..=3 {
            for src_preempt in [false, true] {
                let st = random_p_run(cfg, seed, 3000, 30, src_preempt);
                tot.preemptions += st.preemptions;
                tot.nested_preemptions += st.nested_preemptions;
                tot.dummy_headers += st.dummy_headers;
                tot.silent_preemptions += st.silent_preemptions;
                tot.accelerations += st.accelerations;
                tot.block_holds += st.block_holds;
            }
        }
        eprintln!("{}: {:?}", cfg.name(), tot);
        assert!(tot.preemptions > 0 && tot.dummy_headers > 0 && tot.silent_preemptions > 0, "{}: {tot:?}", cfg.name());
        if cfg.acceleration() {
            assert!(tot.accelerations > 0, "{}", cfg.name());
        }
        if cfg.block_size() > 1 {
            assert!(tot.block_holds > 0, "{}", cfg.name());
        }
    }
}
