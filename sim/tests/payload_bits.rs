//! docs/integration.md's table "Header bits the router reads": in each mode
//! the header fields the router does not read are payload. Two runs of the
//! golden model with the same traffic, one with those bits zero and one
//! with them random, must move every flit in the same cycle to the same
//! place, and the random bits must come out unchanged. (The lockstep tests
//! hold the RTL equal to this model with random class and Vtick bits, so
//! the property carries over to the RTL.)

use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs, RouterOutputs};

/// xorshift64*: the model crate has no random-number dependency.
struct SmallRng(u64);

impl SmallRng {
    fn seed_from_u64(seed: u64) -> Self {
        SmallRng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn random(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn random_range(&mut self, r: std::ops::Range<u64>) -> u64 {
        r.start + self.random() % (r.end - r.start)
    }
}

/// Which header fields the router reads, per docs/integration.md.
struct Reads {
    class: bool,
    vtick: bool,
}

fn config(mode_lines: &str, scheduler: &str) -> RouterConfig {
    let text = format!(
        "name = \"pay\"\n[router]\nports = 4\nvcs = 3\nflit_width = 64\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"multiplexed\"\nscheduler = \"{scheduler}\"\n{mode_lines}\n"
    );
    RouterConfig::from_toml_str(&text, "payload_bits").unwrap_or_else(|e| panic!("{e}"))
}

/// One flit to send: port, VC, head, tail, header fields.
#[derive(Clone, Copy)]
struct Planned {
    #[allow(dead_code)] // kept for reading a failing plan
    port: usize,
    vc: u8,
    head: bool,
    tail: bool,
    dest: u64,
    class: u64,
    vtick: u64,
    junk: u64,
}

/// Messages of 1..=4 flits on every (port, VC), back to back; headers carry
/// random destination, class (in range) and Vtick (real time), plus `junk`
/// for the free bits.
fn plan(cfg: &RouterConfig, rng: &mut SmallRng, messages: usize) -> Vec<Vec<Planned>> {
    let (n, m) = (cfg.ports(), cfg.vcs());
    let mut per_vc = vec![Vec::new(); n * m];
    for _ in 0..messages {
        let (port, vc) = (rng.random_range(0..n as u64) as usize, rng.random_range(0..m as u64) as usize);
        let len = rng.random_range(1..5);
        let dest = rng.random_range(0..n as u64);
        let class = rng.random_range(0..cfg.traffic_classes() as u64);
        let vtick = rng.random_range(1..200);
        for k in 0..len {
            per_vc[port * m + vc].push(Planned {
                port,
                vc: vc as u8,
                head: k == 0,
                tail: k + 1 == len,
                dest,
                class,
                vtick,
                junk: rng.random(),
            });
        }
    }
    per_vc
}

/// Runs the plan with credit-respecting senders and always-ready sinks;
/// `free_bits` decides what the header bits the router must ignore hold.
fn run(cfg: &RouterConfig, per_vc: &[Vec<Planned>], reads: &Reads, free_bits: bool) -> Vec<RouterOutputs> {
    let (n, m) = (cfg.ports(), cfg.vcs());
    let h = cfg.header();
    let mut r = Router::new(cfg);
    let mut credits = vec![cfg.input_buffer_depth(); n * m];
    let mut next = vec![0usize; n * m];
    let mut trace = Vec::new();
    let mut inp = RouterInputs::idle(cfg);
    for _cycle in 0..3_000 {
        let out = r.outputs().clone();
        inp.clear();
        for p in 0..n {
            for v in 0..m {
                credits[p * m + v] += ((out.credits[p] >> v) & 1) as usize;
            }
            // sinks free a slot at once: one credit back per flit received
            if out.flits[p].valid {
                inp.credits[p] |= 1 << out.flits[p].vc;
            }
            // one flit per input port per cycle: the lowest VC with work and a credit
            if let Some(i) = (p * m..p * m + m).find(|&i| next[i] < per_vc[i].len() && credits[i] > 0) {
                let f = per_vc[i][next[i]];
                next[i] += 1;
                credits[i] -= 1;
                let mut data = [0u64; 4];
                data[0] = if free_bits { f.junk } else { 0 };
                if f.head {
                    // fields the router reads get their values; the others
                    // keep the junk (or zero)
                    h.dest.insert(&mut data, f.dest);
                    if reads.class {
                        h.class.insert(&mut data, f.class);
                    }
                    if reads.vtick {
                        h.vtick.insert(&mut data, f.vtick);
                    }
                }
                inp.flits[p] = LinkFlit { lane: 0, valid: true, dummy: false, vc: f.vc, head: f.head, tail: f.tail, data };
            }
        }
        trace.push(out);
        r.step(&inp);
    }
    assert!(next.iter().zip(per_vc).all(|(&k, q)| k == q.len()), "not every planned flit was sent");
    trace
}

/// The header bits the router reads, as a mask of data word 0.
fn read_mask(cfg: &RouterConfig, reads: &Reads) -> u64 {
    let h = cfg.header();
    let field = |lsb: u32, width: u32| ((1u64 << width) - 1) << lsb;
    let mut mask = field(h.dest.lsb, h.dest.width);
    if reads.class {
        mask |= field(h.class.lsb, h.class.width);
    }
    if reads.vtick {
        mask |= field(h.vtick.lsb, h.vtick.width);
    }
    mask
}

fn free_bits_are_payload(cfg: RouterConfig, reads: Reads) {
    let mut rng = SmallRng::seed_from_u64(7);
    let per_vc = plan(&cfg, &mut rng, 400);
    let quiet = run(&cfg, &per_vc, &reads, false);
    let noisy = run(&cfg, &per_vc, &reads, true);
    let mask = read_mask(&cfg, &reads);
    let mut flits = 0;
    for (t, (a, b)) in quiet.iter().zip(&noisy).enumerate() {
        assert_eq!(a.credits, b.credits, "{}: cycle {t}: credits differ with junk in the free bits", cfg.name());
        for (o, (fa, fb)) in a.flits.iter().zip(&b.flits).enumerate() {
            assert_eq!(
                (fa.valid, fa.vc, fa.head, fa.tail, fa.dummy),
                (fb.valid, fb.vc, fb.head, fb.tail, fb.dummy),
                "{}: cycle {t} port {o}: the free header bits changed what the router did",
                cfg.name()
            );
            if fa.valid && !fa.dummy && fa.head {
                flits += 1;
                assert_eq!(fa.data[0] & mask, fb.data[0] & mask, "{}: cycle {t}: read fields differ", cfg.name());
                assert_eq!(fa.data[0] & !mask, 0, "{}: zero free bits came out non-zero", cfg.name());
            }
        }
    }
    assert!(flits > 300, "{}: too few headers delivered ({flits})", cfg.name());
    // the junk really came through unchanged: some header's free bits are non-zero
    assert!(noisy.iter().flat_map(|o| &o.flits).any(|f| f.valid && f.head && f.data[0] & !mask != 0));
}

#[test]
fn unpartitioned_round_robin_reads_only_the_destination() {
    free_bits_are_payload(config("", "round_robin"), Reads { class: false, vtick: false });
}

#[test]
fn unpartitioned_fifo_reads_only_the_destination() {
    free_bits_are_payload(config("", "fifo"), Reads { class: true, vtick: false });
}

#[test]
fn unpartitioned_virtualclock_reads_destination_and_vtick() {
    free_bits_are_payload(config("", "virtualclock"), Reads { class: false, vtick: true });
}

#[test]
fn traditional_reads_destination_and_class() {
    free_bits_are_payload(config("mode = \"traditional\"\ntraffic_classes = 3\nvc_classes = [0, 1, 2]", "fifo"), Reads { class: true, vtick: false });
}

#[test]
fn non_preemptive_reads_destination_class_and_vtick() {
    free_bits_are_payload(
        config("mode = \"non_preemptive\"\ntraffic_classes = 3\nvc_classes = [0, 1, 2]", "virtualclock"),
        Reads { class: true, vtick: true },
    );
}

#[test]
fn preemptive_reads_destination_class_and_vtick() {
    free_bits_are_payload(config("mode = \"preemptive\"\ntraffic_classes = 3", "virtualclock"), Reads { class: true, vtick: true });
}
