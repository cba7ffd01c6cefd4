//! The generated RTL against the external tools: Verilator lint (-Wall),
//! Icarus Verilog (-g2005) and Yosys synthesis, for every example and every
//! mutant, plus randomly chosen valid configurations.

mod common;

use common::*;
use wormqos_config::RouterConfig;
use wormqos_hdl::{generate, top_module_name, Mutant};

fn variants() -> Vec<Option<Mutant>> {
    std::iter::once(None).chain(Mutant::all().iter().copied().map(Some)).collect()
}

/// The unmutated RTL of every example; for the small examples also every
/// base and QoS mutant that changes their logic (docs/microarchitecture.md
/// §9). Mutants are test instruments, not product: they only need to be lint
/// clean where the lockstep tests use them, which is on small routers, and
/// the large examples (up to 128 input VCs) take tens of seconds per lint, so
/// they are checked unmutated only. The default lint takes each mutant once,
/// on the smallest example it applies to (the lockstep tests build every
/// mutant they plant, so a mutant that does not compile fails there too).
/// A mutant that does not apply generates the unmutated RTL plus its
/// `// MUTANT:` header line (`mutants_that_do_not_apply_only_add_the_header`),
/// which the `None` job lints already (skip-rc-stage on the 7 registered and split examples).
fn variants_for(cfg: &RouterConfig) -> Vec<Option<Mutant>> {
    if cfg.ports() * cfg.vcs() > 20 {
        return vec![None];
    }
    let mut v = vec![None];
    v.extend(Mutant::all().iter().filter(|m| m.applies_to(cfg)).copied().map(Some));
    v.extend(Mutant::qos().iter().chain(Mutant::routing()).chain(Mutant::allocator()).chain(Mutant::registered()).chain(Mutant::registered_preemptive()).chain(Mutant::split()).filter(|m| m.applies_to(cfg)).copied().map(Some));
    v
}

/// The header line `generate` adds to every file of a mutant.
fn is_mutant_header(line: &str) -> bool {
    line.starts_with("// MUTANT: ") && line.ends_with("(planted bug for testbench validation; NOT the specified router)")
}

/// What `variants_for` skips of the base mutants is linted anyway: on every
/// small example, a base mutant that does not apply (`Mutant::applies_to`)
/// generates exactly the unmutated files plus the header line, and one that
/// applies changes code, not only comments. (The QoS mutants that do not
/// apply may add lint pragmas and comments, so this exact check is for the
/// base mutants; `qos_mutants_change_exactly_the_configs_they_apply_to`
/// checks the QoS ones.)
#[test]
fn mutants_that_do_not_apply_only_add_the_header() {
    let code = |t: &str| t.lines().filter(|l| !l.contains("MUTANT")).collect::<Vec<_>>().join("\n");
    let mutants = Mutant::all().iter();
    let mut skipped = 0;
    for (name, cfg) in examples().into_iter().filter(|(_, c)| c.ports() * c.vcs() <= 20) {
        let base = generate(&cfg, None).unwrap();
        for m in mutants.clone() {
            let mutated = generate(&cfg, Some(*m)).unwrap();
            if m.applies_to(&cfg) {
                let changed = base.len() != mutated.len() || base.iter().zip(&mutated).any(|(x, y)| code(&x.text) != code(&y.text));
                assert!(changed, "{m} applies to {name} but changes no code");
            } else {
                skipped += 1;
                assert_eq!(base.len(), mutated.len(), "{m} does not apply to {name} but changes the file list");
                for (x, y) in base.iter().zip(&mutated) {
                    let without_header: String = y.text.split_inclusive('\n').filter(|l| !is_mutant_header(l.trim_end())).collect();
                    assert_eq!(x.text, without_header, "{m} does not apply to {name} but changes {}", x.file_name);
                }
            }
        }
    }
    // skip-rc-stage on the registered and split examples
    assert!(skipped >= 7, "{skipped}");
}

fn tag(name: &str, m: Option<Mutant>) -> String {
    match m {
        Some(m) => format!("{name}-{}", m.name()),
        None => name.to_string(),
    }
}

#[test]
fn every_example_generates_deterministically() {
    for (name, cfg) in examples() {
        for m in variants_for(&cfg) {
            let a = generate(&cfg, m).unwrap_or_else(|e| panic!("{name}: {e}"));
            let b = generate(&cfg, m).unwrap();
            assert_eq!(a, b, "{name}: generation is not deterministic");
            assert_eq!(a.last().unwrap().file_name, format!("{}.v", top_module_name(&cfg)));
            let mut names: Vec<_> = a.iter().map(|f| f.file_name.clone()).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), a.len(), "{name}: duplicate file names");
            for f in &a {
                assert!(f.file_name.starts_with(&format!("{}_", cfg.name())), "{}", f.file_name);
                assert!(f.text.contains("`default_nettype none"));
                assert!(f.text.contains("wormqos-hdl"));
                // one module per file, named like the file
                let stem = f.file_name.trim_end_matches(".v");
                assert_eq!(f.text.matches("\nmodule ").count(), 1, "{}", f.file_name);
                assert!(f.text.contains(&format!("\nmodule {stem} ")), "{}", f.file_name);
                assert!(f.text.contains("\nendmodule\n"));
                assert_eq!(f.text.contains("MUTANT"), m.is_some());
            }
        }
    }
}

/// 8-port 16-VC examples whose every module the default lint already checks
/// at the same widths in another 8-port 16-VC example, and in a small
/// example of the same kind (suite time: 10-30 CPU-s of `verilator -Wall`
/// each): mw8_p's preemptive input ports in mw8_pa (which adds acceleration)
/// and small_p; mw8_tr's partition and FIFO order in mw8_np and mediaworm8;
/// mw8_iterative's allocator in mw8_np_iterative and small_p_iterative;
/// mw8_registered's registered stage in tr5_registered and np4_registered.
/// The opt-in `large_variants_are_lint_clean_and_accepted_by_iverilog` lints
/// them.
const LARGE_LINT_VARIANTS: [&str; 4] = ["mw8_p", "mw8_tr", "mw8_iterative", "mw8_registered"];

fn lint_and_iverilog(jobs: &[(String, RouterConfig, Option<Mutant>)]) {
    par_each(jobs, threads(), |(name, cfg, m)| {
        let t = tag(name, *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        verilator_lint(&dir.0, &top, &files, &t);
        iverilog_check(&dir.0, &files, &t);
    });
}

#[test]
fn every_example_and_mutant_is_lint_clean_and_accepted_by_iverilog() {
    let all = examples();
    for v in LARGE_LINT_VARIANTS {
        assert!(all.iter().any(|(n, _)| n == v), "{v} is not an example any more: update LARGE_LINT_VARIANTS");
    }
    let mut jobs = vec![];
    let mut linted: Vec<Mutant> = vec![];
    let mut by_size: Vec<(String, RouterConfig)> = all.into_iter().filter(|(n, _)| !LARGE_LINT_VARIANTS.contains(&n.as_str())).collect();
    by_size.sort_by_key(|(n, c)| (c.ports() * c.vcs(), n.clone()));
    for (name, cfg) in by_size {
        for m in variants_for(&cfg) {
            match m {
                // Each mutant once, on the smallest example it applies to.
                Some(m) if linted.contains(&m) => {}
                Some(m) => {
                    linted.push(m);
                    jobs.push((name.clone(), cfg.clone(), Some(m)));
                }
                None => jobs.push((name.clone(), cfg.clone(), None)),
            }
        }
    }
    // Every mutant some small example takes is linted exactly once.
    let small = examples().into_iter().filter(|(n, _)| !LARGE_LINT_VARIANTS.contains(&n.as_str()));
    let mut wanted: Vec<Mutant> = small.flat_map(|(_, c)| variants_for(&c)).flatten().collect();
    wanted.sort_by_key(|m| m.name());
    wanted.dedup();
    let mut got: Vec<Mutant> = jobs.iter().filter_map(|(_, _, m)| *m).collect();
    got.sort_by_key(|m| m.name());
    assert_eq!(got, wanted, "each mutant once");
    lint_and_iverilog(&jobs);
}

#[test]
#[ignore = "slow: the 8-port 16-VC examples the default lint leaves out; run with `cargo test --release -p wormqos-hdl --test tools -- --ignored large_variants`"]
fn large_variants_are_lint_clean_and_accepted_by_iverilog() {
    let jobs: Vec<_> = examples().into_iter().filter(|(n, _)| LARGE_LINT_VARIANTS.contains(&n.as_str())).map(|(n, c)| (n, c, None)).collect();
    assert_eq!(jobs.len(), LARGE_LINT_VARIANTS.len());
    lint_and_iverilog(&jobs);
}

fn yosys_jobs(small_only: bool) -> Vec<(String, RouterConfig, Option<Mutant>)> {
    let mut jobs = vec![];
    for (name, cfg) in examples() {
        for m in variants() {
            let take = if small_only {
                // tiny2 with every mutant. The unmutated examples go through
                // `synth_xilinx` and `synth_ice40` in wormqos-synth's flow
                // tests (the same front end, `check -assert`, plus the latch
                // and mapping checks), so they are not synthesized twice.
                name == "tiny2"
            } else {
                true
            };
            if take {
                jobs.push((name.clone(), cfg.clone(), m));
            }
        }
    }
    jobs
}

#[test]
fn tiny2_and_every_mutant_synthesize_with_yosys() {
    let jobs = yosys_jobs(true);
    par_each(&jobs, threads(), |(name, cfg, m)| {
        let t = tag(name, *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        yosys_synth(&dir.0, &top, &files, &t);
    });
}

#[test]
#[ignore = "slow: yosys synthesis of every example and mutant (tens of minutes)"]
fn all_examples_synthesize_with_yosys() {
    let jobs = yosys_jobs(false);
    par_each(&jobs, threads(), |(name, cfg, m)| {
        let t = tag(name, *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        yosys_synth(&dir.0, &top, &files, &t);
    });
}

impl Rng {
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % (hi - lo + 1) as u64) as u32
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn index_width(n: u32) -> u32 {
    if n <= 1 {
        1
    } else {
        32 - (n - 1).leading_zeros()
    }
}

/// A random valid configuration (valid by construction: the header fits).
fn random_config(rng: &mut Rng, k: usize) -> RouterConfig {
    // Bias towards the edges: small and large sizes, odd widths. Between the
    // edges, up to 16 ports: a lint of 27-32 ports takes 5-20 s (suite time,
    // docs/benchmarks.md), and the edges 31 and 32 are drawn a sixth of the time.
    let ports = if rng.next().is_multiple_of(3) { rng.pick(&[2, 3, 31, 32]) } else { rng.range(2, 16) };
    let vcs = if rng.next().is_multiple_of(3) { rng.pick(&[1, 2, 15, 16]) } else { rng.range(1, 16) };
    let classes = rng.range(1, 8);
    let vtick = rng.range(8, 32);
    let clock = rng.range(vtick, 32);
    let header = index_width(ports) + index_width(classes) + vtick;
    let flit_width = if rng.next().is_multiple_of(4) { rng.pick(&[header, 255, 256, 72]) } else { rng.range(header, 256) }.max(header);
    let di = rng.pick(&[4, 5, 7, 8, 13, 16, 33, 256]);
    let dout = rng.pick(&[2, 3, 4, 6, 9, 32, 256]);
    let dd = if rng.next().is_multiple_of(2) { format!("downstream_buffer_depth = {}\n", rng.pick(&[4, 5, 12, 64])) } else { String::new() };
    let crossbar = rng.pick(&["multiplexed", "full"]);
    let scheduler = rng.pick(&["fifo", "round_robin", "virtualclock"]);
    let routes = if rng.next().is_multiple_of(2) {
        let r: Vec<String> = (0..ports).map(|_| rng.range(0, ports - 1).to_string()).collect();
        format!("routes = [{}]\n", r.join(", "))
    } else {
        String::new()
    };
    let text = format!(
        "name = \"rnd{k}\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = {flit_width}\n\
         input_buffer_depth = {di}\noutput_buffer_depth = {dout}\n{dd}crossbar = \"{crossbar}\"\n\
         scheduler = \"{scheduler}\"\ntraffic_classes = {classes}\nvtick_width = {vtick}\n\
         clock_width = {clock}\n\
         [topology]\nkind = \"single_switch\"\n{routes}"
    );
    RouterConfig::from_toml_str(&text, &format!("random config {k}")).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// What the random draw must reach besides the corners: both crossbars,
/// all three schedulers, a port count of 31 or 32 and a planted mutant.
/// Fails with what is missing, so a shorter default draw (or a seed that
/// misses a kind) cannot pass unnoticed.
fn assert_the_draw_covers_every_kind(draw: &[(RouterConfig, Option<Mutant>)]) {
    use wormqos_config::{Crossbar, Scheduler};
    let mut missing = vec![];
    for (what, x) in [("a full crossbar", Crossbar::Full), ("a multiplexed crossbar", Crossbar::Multiplexed)] {
        if !draw.iter().any(|(c, _)| c.crossbar() == x) {
            missing.push(what);
        }
    }
    for (what, x) in [("fifo", Scheduler::Fifo), ("round_robin", Scheduler::RoundRobin), ("virtualclock", Scheduler::Virtualclock)] {
        if !draw.iter().any(|(c, _)| c.scheduler() == x) {
            missing.push(what);
        }
    }
    if !draw.iter().any(|(c, _)| c.ports() >= 31) {
        missing.push("31 or 32 ports");
    }
    if !draw.iter().any(|(_, m)| m.is_some()) {
        missing.push("a mutant");
    }
    assert!(missing.is_empty(), "the {} random configurations miss {missing:?}: draw more (WORMQOS_HDL_CASES)", draw.len());
}

/// 9 random configurations (some mutated) and three corners, linted by
/// Verilator and iverilog; the draw must cover every kind
/// (`assert_the_draw_covers_every_kind`: the default seed's first 9 do).
/// The default count keeps the suite short: the default seed's draws 10-12
/// (a 32-port 15-VC 256-bit full crossbar among them, 19 of the test's 54
/// CPU-s; the 32 x 16 x 256 corner and paper000_16port's 16-port full
/// crossbar stay) are opt-in with `WORMQOS_HDL_CASES=12`; a soak with more,
/// or another seed: `WORMQOS_HDL_CASES=200 WORMQOS_HDL_SEED=7
/// cargo test --release -p wormqos-hdl --test tools random_configurations`.
#[test]
fn random_configurations_are_lint_clean() {
    let seed = std::env::var("WORMQOS_HDL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_1234_abcd_0001u64);
    let count = std::env::var("WORMQOS_HDL_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(9usize);
    let mut rng = Rng(seed);
    let mut jobs: Vec<(RouterConfig, Option<Mutant>)> = (0..count)
        .map(|k| {
            let cfg = random_config(&mut rng, k);
            let m = if rng.next().is_multiple_of(4) {
                if cfg.scheduler() == wormqos_config::Scheduler::Virtualclock && rng.next().is_multiple_of(2) {
                    Some(rng.pick(Mutant::virtualclock()))
                } else {
                    Some(rng.pick(Mutant::all()))
                }
            } else {
                None
            };
            (cfg, m)
        })
        .collect();
    assert_the_draw_covers_every_kind(&jobs);
    // Always include the extreme corners.
    let corner = |name: &str, p: u32, v: u32, w: u32, xbar: &str, sch: &str| {
        let text = format!(
            "name = \"{name}\"\n[router]\nports = {p}\nvcs = {v}\nflit_width = {w}\ninput_buffer_depth = 5\n\
             output_buffer_depth = 3\ncrossbar = \"{xbar}\"\nscheduler = \"{sch}\"\n"
        );
        RouterConfig::from_toml_str(&text, name).unwrap()
    };
    jobs.push((corner("c2x1", 2, 1, 18, "full", "fifo"), None));
    jobs.push((corner("c32x16", 32, 16, 256, "multiplexed", "fifo"), None));
    jobs.push((corner("c3x5", 3, 5, 23, "full", "round_robin"), None));
    par_each(&jobs, threads(), |(cfg, m)| {
        let t = format!("{}{}", cfg.name(), m.map(|m| format!("-{}", m.name())).unwrap_or_default());
        let (dir, top, files) = generate_into(cfg, *m, &t);
        let ctx = format!("{t}\n{}", cfg.to_toml());
        verilator_lint(&dir.0, &top, &files, &ctx);
        iverilog_check(&dir.0, &files, &ctx);
    });
}

/// A `virtualclock` configuration: `ports` x `vcs`, C = `clock`, VTW = `vtick`.
fn vclock_config(name: &str, ports: u32, vcs: u32, crossbar: &str, clock: u32, vtick: u32) -> RouterConfig {
    let text = format!(
        "name = \"{name}\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = {}\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"{crossbar}\"\nscheduler = \"virtualclock\"\n\
         vtick_width = {vtick}\nclock_width = {clock}\ntraffic_classes = 2\n",
        vtick + 8
    );
    RouterConfig::from_toml_str(&text, name).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Both crossbars, C in {8, 16, 32}, VTW from 8 to C, M from 1 to 16, each
/// unmutated; every virtualclock mutant (and one base mutant) on one size
/// per crossbar, the mutants spread over the sizes in turn (mutants are test
/// instruments: the lockstep tests build each one they plant).
fn vclock_jobs() -> Vec<(RouterConfig, Option<Mutant>)> {
    let sizes = [(8, 8, 2, 1), (16, 16, 3, 4), (16, 8, 2, 3), (32, 32, 2, 16), (32, 12, 4, 2)];
    let mutants: Vec<Mutant> = Mutant::virtualclock().iter().copied().chain(std::iter::once(Mutant::TailKeepsVc)).collect();
    let mut jobs = vec![];
    for xbar in ["multiplexed", "full"] {
        for (k, (clock, vtick, ports, vcs)) in sizes.into_iter().enumerate() {
            let name = format!("vc{}{clock}x{vtick}m{vcs}", &xbar[..1]);
            let cfg = vclock_config(&name, ports, vcs, xbar, clock, vtick);
            jobs.push((cfg.clone(), None));
            for m in mutants.iter().skip(k).step_by(sizes.len()) {
                jobs.push((cfg.clone(), Some(*m)));
            }
        }
    }
    jobs
}

#[test]
fn virtualclock_configurations_and_mutants_are_lint_clean() {
    let jobs = vclock_jobs();
    par_each(&jobs, threads(), |(cfg, m)| {
        let t = tag(cfg.name(), *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        assert!(files.contains(&format!("{}_vclock_sched.v", cfg.name())), "{t}: {files:?}");
        let ctx = format!("{t}\n{}", cfg.to_toml());
        verilator_lint(&dir.0, &top, &files, &ctx);
        iverilog_check(&dir.0, &files, &ctx);
    });
}

#[test]
fn virtualclock_mutants_change_only_virtualclock_configs() {
    let rr = example("tiny2");
    for m in Mutant::virtualclock() {
        let a = generate(&rr, None).unwrap();
        let b = generate(&rr, Some(*m)).unwrap();
        for (x, y) in a.iter().zip(&b) {
            let strip = |t: &str| t.lines().filter(|l| !l.contains("MUTANT")).collect::<Vec<_>>().join("\n");
            assert_eq!(strip(&x.text), strip(&y.text), "{m} changes {} of a round_robin config", x.file_name);
        }
        let vc = vclock_config("vcm", 2, 2, "multiplexed", 8, 8);
        assert_ne!(generate(&vc, None).unwrap(), generate(&vc, Some(*m)).unwrap(), "{m} has no effect");
    }
}

#[test]
fn standalone_vclock_scheduler_is_lint_clean_for_all_sizes() {
    let mut jobs = vec![];
    for n in [1u32, 2, 3, 4, 5, 8, 15, 16] {
        for (c, vtw) in [(8u32, 8u32), (16, 8), (16, 16), (24, 13), (32, 8), (32, 32)] {
            jobs.push((n, c, vtw, None));
            if matches!(n, 1 | 5 | 16) && matches!((c, vtw), (8, 8) | (32, 32)) {
                for m in Mutant::virtualclock() {
                    jobs.push((n, c, vtw, Some(*m)));
                }
            }
        }
    }
    par_each(&jobs, threads(), |&(n, c, vtw, m)| {
        let t = format!("sched_n{n}_c{c}_v{vtw}{}", m.map(|m| format!("-{}", m.name())).unwrap_or_default());
        let md = wormqos_hdl::vclock::vclock_sched("s", n, c, vtw, m).unwrap();
        let f = wormqos_hdl::standalone_file(&md);
        let dir = TempDir::new(&t);
        std::fs::write(dir.0.join(&f.file_name), &f.text).unwrap();
        verilator_lint(&dir.0, md.name(), std::slice::from_ref(&f.file_name), &t);
        iverilog_check(&dir.0, std::slice::from_ref(&f.file_name), &t);
    });
}

#[test]
fn small_virtualclock_configurations_synthesize_with_yosys() {
    let jobs = vec![
        (vclock_config("vys_m", 2, 2, "multiplexed", 8, 8), None),
        (vclock_config("vys_f", 2, 2, "full", 8, 8), None),
        (vclock_config("vys_f", 2, 2, "full", 8, 8), Some(Mutant::VcRebaseOffByOne)),
    ];
    par_each(&jobs, threads(), |(cfg, m)| {
        let t = tag(cfg.name(), *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        yosys_synth(&dir.0, &top, &files, &t);
    });
}

/// Small QoS configurations (docs/microarchitecture.md §9): `ports` x `vcs`,
/// 24-bit flits, C = VTW = 8, with the given extra `[router]` lines.
fn qos_config(name: &str, ports: u32, vcs: u32, crossbar: &str, extra: &str) -> RouterConfig {
    let text = format!(
        "name = \"{name}\"\n[router]\nports = {ports}\nvcs = {vcs}\nflit_width = 24\ninput_buffer_depth = 4\n\
         output_buffer_depth = 2\ncrossbar = \"{crossbar}\"\nclock_width = 8\nvtick_width = 8\n{extra}"
    );
    RouterConfig::from_toml_str(&text, name).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// TR, NP, P and P + acceleration, both crossbars where allowed, flit level
/// and block level (b > 1), 2 to 8 classes.
fn qos_configs() -> Vec<RouterConfig> {
    vec![
        qos_config("qtr", 3, 3, "multiplexed", "scheduler = \"fifo\"\nmode = \"traditional\"\nvc_classes = [2, 1, 0]\n"),
        qos_config("qtrb", 3, 4, "full", "scheduler = \"fifo\"\nmode = \"traditional\"\nvc_ratio = [1, 1, 1]\nblock_size = 3\n"),
        qos_config("qnp", 3, 3, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [2, 1, 0]\n"),
        qos_config("qnpb", 2, 5, "full", "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\ntraffic_classes = 5\nvc_ratio = [1, 1, 1, 1, 1]\nblock_size = 2\n"),
        qos_config("qp", 3, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\n"),
        qos_config("qpb", 3, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nblock_size = 4\n"),
        qos_config("qpf", 3, 2, "full", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\ntraffic_classes = 2\nblock_size = 3\n"),
        qos_config("qp8", 2, 3, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\ntraffic_classes = 8\n"),
        qos_config("qpa", 3, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\n"),
        qos_config("qpab", 3, 1, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\ntraffic_classes = 4\nblock_size = 2\n"),
        // Acceleration under the registered switch stage (§6 *Registered
        // switch allocation in P mode*, *Acceleration*).
        qos_config("qpra", 3, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\nswitch_stage = \"registered\"\n"),
        qos_config("qrrb", 2, 3, "multiplexed", "scheduler = \"round_robin\"\nblock_size = 5\n"),
        qos_config("qfb", 2, 3, "multiplexed", "scheduler = \"fifo\"\nblock_size = 2\n"),
        // Allowed output VC sets (topology.route_vcs) alone, with a partition, and with preemption.
        qos_config("qrv", 3, 3, "multiplexed", "scheduler = \"round_robin\"\n[topology]\nkind = \"single_switch\"\nroute_vcs = [1, 6, 3]\n"),
        qos_config("qrvnp", 3, 4, "full", "scheduler = \"virtualclock\"\nmode = \"non_preemptive\"\ntraffic_classes = 2\nvc_classes = [1, 1, 0, 0]\n[topology]\nkind = \"single_switch\"\nroute_vcs = [5, 10, 15]\n"),
        // Parallel links (topology.route_links), also with allowed VC sets and preemption.
        qos_config("qlk", 4, 2, "multiplexed", "scheduler = \"round_robin\"\n[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 3, 2]\nroute_links = [1, 2, 3, 1, 2]\n"),
        qos_config("qlkp", 4, 3, "full", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\n[topology]\nkind = \"network\"\nroutes = [0, 1, 1, 2]\nroute_links = [1, 2, 3, 2]\nroute_vcs = [7, 3, 6, 5]\n"),
        qos_config("qrvpa", 3, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\n[topology]\nkind = \"network\"\nroutes = [0, 1, 2, 2, 1]\nroute_vcs = [1, 2, 3, 1, 2]\n"),
        // The best-effort cap (§9.4 stage 3): alone, with acceleration, with allowed VC sets.
        qos_config("qpk", 3, 3, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nbest_effort_output_vcs = 1\n"),
        qos_config("qpkaf", 3, 4, "full", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\ntraffic_classes = 2\nbest_effort_output_vcs = 2\n"),
        qos_config("qpka", 3, 3, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\nbest_effort_output_vcs = 2\n[topology]\nkind = \"network\"\nroutes = [0, 1, 2, 2, 1]\nroute_vcs = [3, 6, 7, 5, 6]\n"),
        // The real-time cap (§9.4 stage 3): alone, with the best-effort cap
        // (s = 2: real time the top class), with both and acceleration and allowed VC sets.
        qos_config("qpr", 3, 3, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nrealtime_output_vcs = 1\n"),
        qos_config("qprkf", 3, 4, "full", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\ntraffic_classes = 2\nrealtime_output_vcs = 2\nbest_effort_output_vcs = 2\n"),
        qos_config("qprka", 3, 3, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\nacceleration = true\nrealtime_output_vcs = 1\nbest_effort_output_vcs = 1\n[topology]\nkind = \"network\"\nroutes = [0, 1, 2, 2, 1]\nroute_vcs = [3, 6, 7, 5, 6]\n"),
        // Per-lane credits (§9.4 *Credits*): shared output buffers (side
        // memory), per-VC output FIFOs of the full crossbar with one extra
        // lane, and 5 lanes (LW = 3: lanes 5..7 do not exist) with acceleration.
        qos_config("qpl", 3, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\npreemption_credits = \"per_lane\"\n"),
        qos_config("qplf", 3, 2, "full", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\ntraffic_classes = 2\npreemption_credits = \"per_lane\"\n"),
        qos_config("qpl5", 2, 2, "multiplexed", "scheduler = \"virtualclock\"\nmode = \"preemptive\"\ntraffic_classes = 5\nacceleration = true\npreemption_credits = \"per_lane\"\n"),
    ]
}

#[test]
fn qos_configurations_and_mutants_are_lint_clean() {
    let mut jobs = vec![];
    let mut linted: Vec<Mutant> = vec![];
    for cfg in qos_configs() {
        jobs.push((cfg.clone(), None));
        // Every QoS and routing mutant, and one base mutant, once: on the
        // first configuration (in the list's order) whose RTL it changes
        // (mutants are test instruments: the lockstep tests build each one
        // they plant). Where a mutant does not apply its RTL is the
        // unmutated one but for `MUTANT` comment lines
        // (`qos_mutants_change_exactly_the_configs_they_apply_to`), which the
        // `None` job above already lints.
        let applying = Mutant::qos()
            .iter()
            .chain(Mutant::routing())
            .chain(Mutant::best_effort_cap())
            .chain(Mutant::realtime_cap())
            .chain(Mutant::lane_credits())
            .chain(Mutant::registered_acceleration())
            .filter(|m| m.applies_to(&cfg));
        for m in applying.chain(std::iter::once(&Mutant::SkipRcStage)) {
            if !linted.contains(m) {
                linted.push(*m);
                jobs.push((cfg.clone(), Some(*m)));
            }
        }
    }
    par_each(&jobs, threads(), |(cfg, m)| {
        let t = tag(cfg.name(), *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        let ctx = format!("{t}\n{}", cfg.to_toml());
        verilator_lint(&dir.0, &top, &files, &ctx);
        iverilog_check(&dir.0, &files, &ctx);
    });
}

#[test]
fn qos_mutants_change_exactly_the_configs_they_apply_to() {
    let strip = |t: &str| t.lines().filter(|l| !l.contains("MUTANT")).collect::<Vec<_>>().join("\n");
    let mut cfgs = qos_configs();
    cfgs.push(example("tiny2"));
    cfgs.push(example("mesh5"));
    cfgs.push(example("small_p_iterative"));
    for cfg in &cfgs {
        let base = generate(cfg, None).unwrap();
        let qos_mutants = Mutant::qos().iter().chain(Mutant::routing()).chain(Mutant::allocator()).chain(Mutant::best_effort_cap()).chain(Mutant::realtime_cap());
        for m in qos_mutants.chain(Mutant::lane_credits()).chain(Mutant::registered_acceleration()) {
            let mutated = generate(cfg, Some(*m)).unwrap();
            let same = base.len() == mutated.len() && base.iter().zip(&mutated).all(|(x, y)| strip(&x.text) == strip(&y.text));
            assert_eq!(!same, m.applies_to(cfg), "{m} on {}", cfg.name());
        }
    }
}

#[test]
fn preemptive_router_has_the_dummy_ports_in_place() {
    for cfg in qos_configs() {
        let files = generate(&cfg, None).unwrap();
        let top = &files.last().unwrap().text;
        let pre = cfg.mode() == wormqos_config::RouterMode::Preemptive;
        let pos = |s: &str| top.find(s);
        assert_eq!(pos("in_dummy_i").is_some(), pre, "{}", cfg.name());
        assert_eq!(pos("out_dummy_o").is_some(), pre, "{}", cfg.name());
        // per-lane credits add the four lane buses (§3)
        for lane_port in ["in_lane_i", "out_lane_o", "in_credit_lane_o", "out_credit_lane_i"] {
            assert_eq!(pos(lane_port).is_some(), cfg.per_lane_credits(), "{lane_port} in {}", cfg.name());
        }
        if pre {
            assert!(pos("in_tail_i").unwrap() < pos("in_dummy_i").unwrap() && pos("in_dummy_i").unwrap() < pos("in_data_i").unwrap());
            assert!(pos("out_tail_o").unwrap() < pos("out_dummy_o").unwrap() && pos("out_dummy_o").unwrap() < pos("out_data_o").unwrap());
        }
    }
}

#[test]
fn small_qos_configurations_synthesize_with_yosys() {
    let pick = |n: &str| qos_configs().into_iter().find(|c| c.name() == n).unwrap();
    let jobs = vec![(pick("qtr"), None), (pick("qnp"), None), (pick("qpb"), None), (pick("qpa"), None), (pick("qpa"), Some(Mutant::PreNoDummyTail)), (pick("qpl"), None), (pick("qprka"), None)];
    par_each(&jobs, threads(), |(cfg, m)| {
        let t = tag(cfg.name(), *m);
        let (dir, top, files) = generate_into(cfg, *m, &t);
        yosys_synth(&dir.0, &top, &files, &t);
    });
}
