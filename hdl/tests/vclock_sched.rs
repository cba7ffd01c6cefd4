//! The standalone `<name>_vclock_sched` under Icarus Verilog against a small
//! reference of docs/microarchitecture.md §8.4 written here (cycle by cycle:
//! stamp, grant, next values, rebase with saturation), with random messages
//! and small counters (C = 8, VTW = 6) so that rebasing happens often. The
//! mutants must diverge.

mod common;

use common::*;
use std::fmt::Write as _;
use std::process::Command;
use wormqos_hdl::Mutant;

struct Ref {
    n: usize,
    c: u32,
    vtw: u32,
    now: u64,
    aux: Vec<u64>,
    stamp: Vec<u64>,
    stamped: Vec<bool>,
    be_ptr: usize,
    events: Events,
}

/// What the reference saw happen: the events the random runs are about, so
/// that a run too short to reach them fails instead of passing vacuously.
#[derive(Clone, Copy, Default, Debug)]
struct Events {
    /// Overflow cycles (§8.4: a value reached 2^C and every value was rebased).
    rebases: usize,
    /// Overflow cycles where R is the stamp of a slot that stays stamped and
    /// was not eligible while another slot's grant took effect (R stays R_L:
    /// the case of `rebase_keeps_r_when_the_oldest_stamp_is_not_eligible`).
    r_held: usize,
    /// [`Events::r_held`] cycles whose winner was itself stamped at the start
    /// of the cycle (the split form's case: R's slot stamped and not eligible
    /// beside a stamped slot that is and wins).
    r_held_beside_stamped_winner: usize,
}

impl Ref {
    fn new(n: usize, c: u32, vtw: u32) -> Ref {
        Ref { n, c, vtw, now: 0, aux: vec![0; n], stamp: vec![0; n], stamped: vec![false; n], be_ptr: 0, events: Events::default() }
    }
    /// One cycle; returns the grant (slot index or None).
    fn step(&mut self, present: &[bool], vt: &[u64], elig: &[bool], take: bool) -> Option<usize> {
        let ones = (1u64 << self.vtw) - 1;
        let rt: Vec<bool> = (0..self.n).map(|k| present[k] && vt[k] != 0 && vt[k] != ones).collect();
        let s: Vec<u64> =
            (0..self.n).map(|k| if self.stamped[k] { self.stamp[k] } else { self.now.max(self.aux[k]) + vt[k] }).collect();
        let mut g = None;
        for k in 0..self.n {
            if elig[k] && rt[k] && g.is_none_or(|b: usize| s[k] < s[b]) {
                g = Some(k);
            }
        }
        let mut be = false;
        if g.is_none() {
            for off in 0..self.n {
                let k = (self.be_ptr + off) % self.n;
                if elig[k] && !rt[k] {
                    g = Some(k);
                    be = true;
                    break;
                }
            }
        }
        let top = 1u64 << self.c;
        let now1 = self.now + 1;
        let (mut aux1, mut stamp1, mut stamped1) = (self.aux.clone(), self.stamp.clone(), self.stamped.clone());
        for k in 0..self.n {
            if !rt[k] {
                continue;
            }
            let tk = take && g == Some(k);
            if !self.stamped[k] {
                aux1[k] = s[k];
                if !tk {
                    stamp1[k] = s[k];
                    stamped1[k] = true;
                }
            } else if tk {
                stamped1[k] = false;
            }
        }
        let over = now1 >= top || aux1.iter().any(|&a| a >= top) || (0..self.n).any(|k| stamped1[k] && stamp1[k] >= top);
        let r = if over { (0..self.n).filter(|&k| stamped1[k]).map(|k| stamp1[k]).fold(now1, u64::min) } else { 0 };
        if over {
            self.events.rebases += 1;
            let held_by_ineligible = r < now1 && (0..self.n).any(|a| stamped1[a] && stamp1[a] == r && !elig[a] && g != Some(a));
            if let (true, true, Some(w)) = (held_by_ineligible, take, g) {
                self.events.r_held += 1;
                if self.stamped[w] {
                    self.events.r_held_beside_stamped_winner += 1;
                }
            }
        }
        let sat = |x: u64| x.min(top - 1);
        self.now = sat(now1 - r);
        for k in 0..self.n {
            self.aux[k] = sat(aux1[k].saturating_sub(r));
            self.stamp[k] = if stamped1[k] { sat(stamp1[k] - r) } else { stamp1[k] };
        }
        self.stamped = stamped1;
        if take && be {
            self.be_ptr = (g.unwrap() + 1) % self.n;
        }
        g
    }
}

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

impl Ref {
    /// The registers after a cycle as the testbench prints them: `now`, `aux`
    /// (slot 0 in the low bits), `stamped` and the stamps of the stamped slots
    /// (a slot that is not stamped has no meaningful stamp).
    fn state(&self) -> (u64, u128, u64, Vec<Option<u64>>) {
        let aux = (0..self.n).fold(0u128, |a, k| a | ((self.aux[k] as u128) << (k as u32 * self.c)));
        let stamped = (0..self.n).fold(0u64, |a, k| a | ((self.stamped[k] as u64) << k));
        (self.now, aux, stamped, (0..self.n).map(|k| self.stamped[k].then_some(self.stamp[k])).collect())
    }
}

/// The registers as the RTL printed them (`S now aux stamp stamped`, hex), in [`Ref::state`]'s form.
fn parse_state(line: &str, n: usize, c: u32) -> (u64, u128, u64, Vec<Option<u64>>) {
    let f: Vec<u128> = line.split_whitespace().skip(1).map(|x| u128::from_str_radix(x, 16).unwrap()).collect();
    let mask = (1u128 << c) - 1;
    let stamped = f[3] as u64;
    let stamps = (0..n).map(|k| (stamped >> k & 1 == 1).then_some(((f[2] >> (k as u32 * c)) & mask) as u64)).collect();
    (f[0] as u64, f[1], stamped, stamps)
}

type State = (u64, u128, u64, Vec<Option<u64>>);

/// Runs `cycles` random cycles; returns (expected grants, RTL grants) as one-hot masks.
/// With a planted bug the simulation ends at the first grant that differs
/// from the reference's (the RTL's grants then stop there): the bug is
/// caught, and the rest of the run would only cost simulator time.
fn run(n: usize, c: u32, vtw: u32, mutant: Option<Mutant>, seed: u64, cycles: usize) -> (Vec<u64>, Vec<u64>, Events) {
    let (exp, got, _, _, check_failed, events) = run_form(Form::Plain, n, c, vtw, mutant, seed, cycles, 80, 80, mutant.is_some());
    // A run cut short by neither an RTL check nor a differing last grant
    // would make every planted bug look caught.
    if got.len() < exp.len() && !check_failed {
        let t = got.len().checked_sub(1).unwrap_or_else(|| panic!("n={n} seed={seed}: no grant simulated"));
        assert_ne!(got[t], exp[t], "n={n} seed={seed}: the simulation stopped at cycle {t}, where the grants agree");
    }
    (exp, got, events)
}

/// The scheduler's two forms: the plain one (every pipeline but one) and the
/// split pipeline's (`vclock_sched_split`, one more input `sreq_i`).
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Plain,
    /// `sreq_i[k]` driven with slot k's eligibility where the reference has
    /// k stamped at the start of the cycle (§8.4: its eligibility and real-time
    /// flag) and with a random bit elsewhere, where it must not be read; with
    /// `wrong_pct` > 0 a stamped slot's bit is inverted in that % of cycles
    /// (a caller breaking the invariant, for the RTL's check).
    Split { wrong_pct: u64 },
}

/// [`run`] with a grant taking effect in `take_pct` % of the cycles and a
/// present slot eligible in `elig_pct` % of them, plus the
/// registers after every cycle (expected, RTL), and whether one of the RTL's
/// simulation-only checks failed (the run stops there; without a mutant it
/// must not fail). With `stop_at_divergence` the simulation also stops
/// after the first grant that differs from the reference's.
#[allow(clippy::too_many_arguments)]
fn run_form(
    form: Form,
    n: usize,
    c: u32,
    vtw: u32,
    mutant: Option<Mutant>,
    seed: u64,
    cycles: usize,
    take_pct: u64,
    elig_pct: u64,
    stop_at_divergence: bool,
) -> (Vec<u64>, Vec<u64>, Vec<State>, Vec<State>, bool, Events) {
    let (tb_body, expected, states, events) = reference_run(form, n, c, vtw, seed, cycles, take_pct, elig_pct, stop_at_divergence);
    let (got, got_states, check_failed) = simulate(form, n, c, vtw, mutant, &format!("vcs_{n}_{c}_{seed}"), &tb_body);
    (expected, got, states, got_states, check_failed, events)
}

/// The random stimulus of [`run_form`] on the reference alone: the testbench
/// lines, the expected grants and registers, and the events the reference saw.
#[allow(clippy::too_many_arguments)]
fn reference_run(
    form: Form,
    n: usize,
    c: u32,
    vtw: u32,
    seed: u64,
    cycles: usize,
    take_pct: u64,
    elig_pct: u64,
    stop_at_divergence: bool,
) -> (String, Vec<u64>, Vec<State>, Events) {
    let mut rng = Rng(seed);
    let mut model = Ref::new(n, c, vtw);
    let ones = (1u64 << vtw) - 1;
    let mut left = vec![0u64; n];
    let mut vt = vec![0u64; n];
    let mut tb_body = String::new();
    let mut expected = vec![];
    let mut states = vec![];
    for _ in 0..cycles {
        for k in 0..n {
            if left[k] == 0 && rng.below(3) == 0 {
                left[k] = 1 + rng.below(4);
                vt[k] = match rng.below(6) {
                    0 => 0,
                    1 => ones,
                    2 => ones - 1,
                    _ => 1 + rng.below(ones - 1),
                };
            }
        }
        let present: Vec<bool> = left.iter().map(|&l| l > 0).collect();
        let elig: Vec<bool> = present.iter().map(|&p| p && rng.below(100) < elig_pct).collect();
        let take = rng.below(100) < take_pct;
        let vts: Vec<u64> = (0..n).map(|k| if present[k] { vt[k] } else { rng.below(ones + 1) }).collect();
        let real = |k: usize| present[k] && vts[k] != 0 && vts[k] != ones;
        let sreq: Vec<bool> = (0..n)
            .map(|k| match form {
                Form::Split { wrong_pct } if model.stamped[k] => (elig[k] && real(k)) != (rng.below(100) < wrong_pct),
                _ => rng.below(2) == 1,
            })
            .collect();
        let g = model.step(&present, &vts, &elig, take);
        let grant = g.map(|k| 1u64 << k).unwrap_or(0);
        expected.push(grant);
        states.push(model.state());
        if let (Some(k), true) = (g, take) {
            left[k] -= 1;
        }
        tb_body.push_str(&tb_cycle(vtw, &present, &elig, &sreq, take, &vts, stop_at_divergence.then_some(grant)));
    }
    (tb_body, expected, states, model.events)
}

/// One cycle of the testbench: drive the inputs, print the grant, clock, print the registers;
/// with `expected_grant`, end the simulation after printing a grant that differs from it.
fn tb_cycle(vtw: u32, present: &[bool], elig: &[bool], sreq: &[bool], take: bool, vts: &[u64], expected_grant: Option<u64>) -> String {
    let n = present.len();
    let bits = |v: &[bool]| v.iter().enumerate().fold(0u64, |a, (k, &b)| a | ((b as u64) << k));
    let mut vflat = String::new();
    for k in (0..n).rev() {
        let _ = write!(vflat, "{}'d{}, ", vtw, vts[k]);
    }
    let stop = expected_grant.map(|g| format!(" if (gnt !== {n}'d{g}) $finish;")).unwrap_or_default();
    format!(
        "    present = {n}'d{}; elig = {n}'d{}; sreq = {n}'d{}; take = 1'b{}; vtick = {{{}}}; #1 $display(\"%0d\", gnt);{stop} @(posedge clk); #1 \
         $display(\"S %h %h %h %h\", dut.now_q, dut.aux_q, dut.stamp_q, dut.stamped_q);\n",
        bits(present),
        bits(elig),
        bits(sreq),
        take as u8,
        vflat.trim_end_matches(", ")
    )
}

/// Runs `tb_body` (lines of [`tb_cycle`]) on the scheduler under Icarus;
/// returns the grants, the registers after every cycle and whether an RTL
/// check failed (which must not happen without a mutant).
fn simulate(form: Form, n: usize, c: u32, vtw: u32, mutant: Option<Mutant>, tag: &str, tb_body: &str) -> (Vec<u64>, Vec<State>, bool) {
    let md = match form {
        Form::Plain => wormqos_hdl::vclock::vclock_sched("t", n as u32, c, vtw, mutant),
        Form::Split { .. } => wormqos_hdl::vclock::vclock_sched_split("t", n as u32, c, vtw, mutant),
    }
    .unwrap();
    let sreq_port = if form == Form::Plain { "" } else { ".sreq_i(sreq), " };
    let f = wormqos_hdl::standalone_file(&md);
    let dir = TempDir::new(tag);
    std::fs::write(dir.0.join(&f.file_name), &f.text).unwrap();
    let tb = format!(
        "module tb;\n  reg clk = 0; reg rst = 1; reg [{n1}:0] present, elig, sreq; reg take; reg [{vw1}:0] vtick;\n  wire [{n1}:0] gnt;\n  \
         t_vclock_sched dut(.clk_i(clk), .rst_i(rst), .present_i(present), .vtick_i(vtick), .req_i(elig), {sreq_port}.take_i(take), \
         .gnt_o(gnt));\n  always #5 clk = ~clk;\n  initial begin\n    present = 0; elig = 0; sreq = 0; take = 0; vtick = 0;\n    @(posedge clk); #1 rst = 0;\n{tb_body}    $finish;\n  end\nendmodule\n",
        n1 = n - 1,
        vw1 = n as u32 * vtw - 1
    );
    std::fs::write(dir.0.join("tb.v"), tb).unwrap();
    let out = Command::new("iverilog").current_dir(&dir.0).args(["-g2005", "-o", "sim.vvp", &f.file_name, "tb.v"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("vvp").current_dir(&dir.0).args(["-n", "sim.vvp"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let check_failed = text.contains("ASSERTION FAILED");
    let broken_caller = matches!(form, Form::Split { wrong_pct } if wrong_pct > 0);
    assert!(mutant.is_some() || broken_caller || !check_failed, "an RTL check failed:\n{text}");
    let got: Vec<u64> = String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.trim().parse().ok()).collect();
    let got_states = text.lines().filter(|l| l.starts_with("S ")).map(|l| parse_state(l, n, c)).collect();
    (got, got_states, check_failed)
}

/// How long a random run is: CI runs a share of the soak's cycles (a
/// quarter; a half for the split form, see there) with the same cases,
/// seeds and checks, and each test asserts that the events it is about
/// (rebases in every run; R held by an ineligible slot in some run) still
/// happened, so a length too short for them fails. The full length is opt-in:
/// `cargo test --release -p wormqos-hdl --test vclock_sched -- --ignored _soak`.
#[derive(Clone, Copy)]
enum Length {
    Ci,
    Soak,
}

impl Length {
    /// `soak_cycles` at soak length, `soak_cycles / ci_divisor` in CI.
    fn cycles(self, soak_cycles: usize, ci_divisor: usize) -> usize {
        match self {
            Length::Ci => soak_cycles / ci_divisor,
            Length::Soak => soak_cycles,
        }
    }
}

/// Fails a run (or a test's runs together) whose reference saw fewer than
/// `min` of the events `what` counts: the run was too short to test them.
fn assert_reached(events: &[Events], what: fn(&Events) -> usize, min: usize, name: &str, case: &str) {
    let seen: usize = events.iter().map(what).sum();
    assert!(seen >= min, "{case}: too short to test {name} ({seen} seen, {min} needed): {events:?}");
}

/// The events of every run of a test, for the assertions over them all.
type Seen = std::sync::Mutex<Vec<Events>>;

/// (16, 8, ..): the 16 slots of the 8-port 16-VC routers (mw8_np/p/pa),
/// whose router-level VirtualClock lockstep is opt-in (mw8_p's runs in
/// `testbench/tests/qos.rs`). 1,000 cycles at soak length, not 3,000: under
/// Icarus the 16-slot case was most of this test's 56 CPU-s (33 with 1,000).
fn scheduler_matches_the_spec_reference_for(length: Length) {
    let cases = [(4usize, 8u32, 6u32, 1u64, 3000usize), (3, 8, 8, 2, 3000), (1, 8, 6, 3, 3000), (8, 10, 8, 4, 3000), (5, 16, 16, 5, 3000), (6, 8, 3, 6, 3000), (16, 8, 6, 7, 1000)];
    par_each(&cases, threads(), |&(n, c, vtw, seed, cycles)| {
        let (exp, got, events) = run(n, c, vtw, None, seed, length.cycles(cycles, 4));
        assert_eq!(exp.len(), got.len(), "n={n} c={c}");
        if let Some(t) = (0..exp.len()).find(|&t| exp[t] != got[t]) {
            panic!("n={n} c={c} vtw={vtw}: first difference at cycle {t}: expected {} got {}", exp[t], got[t]);
        }
        assert_reached(&[events], |e| e.rebases, 1, "a rebase", &format!("n={n} c={c} vtw={vtw}"));
    });
}

#[test]
fn scheduler_matches_the_spec_reference() {
    scheduler_matches_the_spec_reference_for(Length::Ci);
}

#[test]
#[ignore = "soak: 4x the cycles of scheduler_matches_the_spec_reference"]
fn scheduler_matches_the_spec_reference_soak() {
    scheduler_matches_the_spec_reference_for(Length::Soak);
}

/// Beyond the grants: the registers (`now`, `aux`, `stamped`, the live
/// stamps) equal the reference's after every cycle, so a rebase by another
/// common R, which §8.5 says grants the same until a value saturates, is
/// still caught (the RTL picks R without waiting for `take_i`).
fn scheduler_registers_match_the_spec_reference_for(length: Length) {
    // (n, c, vtw, seed, take %): rare takes and small Vticks leave stamps
    // behind `now`, so the slot granted at a rebase is often R's.
    let cases = [(4usize, 8u32, 6u32, 21u64, 80u64), (3, 8, 8, 22, 30), (6, 8, 3, 23, 20), (2, 8, 3, 24, 20), (4, 8, 3, 25, 10)];
    par_each(&cases, threads(), |&(n, c, vtw, seed, pct)| {
        let (_, _, exp, got, _, events) = run_form(Form::Plain, n, c, vtw, None, seed, length.cycles(3000, 4), pct, 80, false);
        assert_eq!(exp.len(), got.len(), "n={n} c={c}");
        if let Some(t) = (0..exp.len()).find(|&t| exp[t] != got[t]) {
            panic!("n={n} c={c} vtw={vtw}: registers differ after cycle {t}: expected {:?} got {:?}", exp[t], got[t]);
        }
        assert_reached(&[events], |e| e.rebases, 1, "a rebase", &format!("n={n} c={c} vtw={vtw}"));
    });
}

#[test]
fn scheduler_registers_match_the_spec_reference() {
    scheduler_registers_match_the_spec_reference_for(Length::Ci);
}

#[test]
#[ignore = "soak: 4x the cycles of scheduler_registers_match_the_spec_reference"]
fn scheduler_registers_match_the_spec_reference_soak() {
    scheduler_registers_match_the_spec_reference_for(Length::Soak);
}

#[test]
fn scheduler_mutants_diverge_from_the_reference() {
    par_each(Mutant::virtualclock(), threads(), |&m| {
        // Small Vticks (VTW = 3) make adjacent stamps common, so the R+1
        // rebase creates visible ties.
        let detected = (0..4u64).any(|seed| {
            let (exp, got, _) = run(6, 8, 3, Some(m), 11 + seed, 3000);
            exp != got
        });
        assert!(detected, "{m} is not detected by the scheduler reference");
    });
}

/// The simulation-only check that `mx[k]` (the registered `max(now, aux[k])`
/// of §8.4 step 1) equals the formula it replaces fires on the mutant that
/// loads it from the stale `aux[k]`, and not without a mutant (the runs above).
#[test]
fn stale_max_trips_the_precomputation_check() {
    let tripped = (0..4u64).any(|seed| run_form(Form::Plain, 4, 8, 6, Some(Mutant::VcStaleMax), 21 + seed, 2000, 80, 80, false).4);
    assert!(tripped, "the mx_q check did not fire on vc-stale-max");
}

/// The R_2 case of §8.4 (*R comes from the registers*): in an overflow cycle
/// the slot a holding the smallest stamp below `now'` is real time but not
/// eligible while some other grant takes effect, so R stays R_L (a stays
/// live); only when a itself is granted is it R_2. Eligibility is made rare
/// (30 %) so that a is often not eligible, and small Vticks with rare takes
/// keep stamps behind `now`; the registers must match the reference.
/// The event is rare (at 4,000 cycles the reference saw it 1, 3, 0 and 1
/// times in the four runs; at CI's 1,000, 0, 2, 0 and 0), so it is asserted
/// over the runs together.
fn rebase_keeps_r_when_the_oldest_stamp_is_not_eligible_for(length: Length) {
    let cases = [(3usize, 8u32, 3u32, 41u64), (4, 8, 3, 42), (2, 8, 3, 43), (5, 8, 4, 44)];
    let seen = Seen::default();
    par_each(&cases, threads(), |&(n, c, vtw, seed)| {
        let (_, _, exp, got, _, events) = run_form(Form::Plain, n, c, vtw, None, seed, length.cycles(4000, 4), 60, 30, false);
        if let Some(t) = (0..exp.len()).find(|&t| exp[t] != got[t]) {
            panic!("n={n} c={c} vtw={vtw}: registers differ after cycle {t}: expected {:?} got {:?}", exp[t], got[t]);
        }
        assert_reached(&[events], |e| e.rebases, 1, "a rebase", &format!("n={n} c={c} vtw={vtw}"));
        seen.lock().unwrap().push(events);
    });
    assert_reached(&seen.into_inner().unwrap(), |e| e.r_held, 1, "R held by an ineligible slot", "the four runs");
}

#[test]
fn rebase_keeps_r_when_the_oldest_stamp_is_not_eligible() {
    rebase_keeps_r_when_the_oldest_stamp_is_not_eligible_for(Length::Ci);
}

#[test]
#[ignore = "soak: 4x the cycles of rebase_keeps_r_when_the_oldest_stamp_is_not_eligible"]
fn rebase_keeps_r_when_the_oldest_stamp_is_not_eligible_soak() {
    rebase_keeps_r_when_the_oldest_stamp_is_not_eligible_for(Length::Soak);
}

/// The saturation case of §8.5 *Registered comparisons* (a), directed, with
/// C = 8 (2^C = 256) and two slots. Derivation by hand from §8.4:
/// - slot 0 is present with Vtick 1 and not eligible: stamped in cycle 0
///   with `max(0, 0) + 1 = 1`. `now` counts up; in the cycle with `now =
///   255`, `now' = 256` overflows and R = min(256, 1) = 1: `now` = 255,
///   `stamp[0]` = 0. From then on every cycle overflows with R = 0 and `now'
///   = 256` saturates: `now` stays 255.
/// - slot 1 arrives with Vtick 5 (cycle 300): `s = max(255, 0) + 5 = 260`,
///   R = 0 (slot 0's stamp), so `stamp[1]` saturates at 255 = `now`: slot 1
///   is below (`255 <= 255`) although its unrebased stamp 260 is above
///   `now' = 256`, i.e. only the `top` term of `sbelow` says so.
/// - next cycle slot 0 is eligible and granted (take): R is R_2 = min(`now'`
///   = 256, `stamp[1]` = 255) = 255, so `now` becomes 1 and `stamp[1]` 0.
///   Without the `top` term slot 1 would not be below, R_2 would be 256 and
///   `now` 0: the registers after that cycle differ from the reference.
#[test]
fn registered_below_holds_when_now_and_a_stamp_saturate_together() {
    let (n, c, vtw) = (2usize, 8u32, 4u32);
    let mut model = Ref::new(n, c, vtw);
    let (mut tb_body, mut exp_states) = (String::new(), vec![]);
    let mut cycle = |present: [bool; 2], vts: [u64; 2], elig: [bool; 2], take: bool| {
        model.step(&present, &vts, &elig, take);
        exp_states.push(model.state());
        tb_body.push_str(&tb_cycle(vtw, &present, &elig, &[false; 2], take, &vts, None));
    };
    for _ in 0..300 {
        cycle([true, false], [1, 0], [false, false], true);
    }
    cycle([true, true], [1, 5], [false, false], true);
    cycle([true, true], [1, 5], [true, false], true);
    for _ in 0..3 {
        cycle([false, true], [0, 5], [false, false], true);
    }
    // the hand derivation above, on the reference itself
    assert_eq!(exp_states[299].0, 255, "now pinned at 2^C - 1");
    assert_eq!(exp_states[300].3, vec![Some(0), Some(255)], "slot 1's stamp saturated at now");
    assert_eq!((exp_states[301].0, exp_states[301].3.clone()), (1, vec![None, Some(0)]), "rebased by R_2 = 255");
    let (_, got, failed) = simulate(Form::Plain, n, c, vtw, None, "vcs_sat_below", &tb_body);
    assert!(!failed);
    if let Some(t) = (0..exp_states.len()).find(|&t| exp_states[t] != got[t]) {
        panic!("registers differ after cycle {t}: expected {:?} got {:?}", exp_states[t], got[t]);
    }
}

/// The registered order (§8.4) is checked in simulation: the mutant that
/// loads `sord` from this cycle's stamp registers trips the check.
#[test]
fn stale_order_trips_the_comparison_check() {
    let tripped = (0..4u64).any(|seed| run_form(Form::Plain, 4, 8, 3, Some(Mutant::VcStaleOrder), 51 + seed, 2000, 30, 60, false).4);
    assert!(tripped, "the sbelow/sord check did not fire on vc-stale-order");
}

/// The split pipeline's form (§8.4, *With "split", a's eligibility is its
/// output VC buffer's room*): the choice between R and R2 reads `sreq_i`,
/// which the caller guarantees only for stamped slots (random elsewhere
/// here). Grants and
/// registers must equal the reference's after every cycle, with the cases of
/// the two register tests above (rare takes and eligibility keep stamps
/// behind `now`, so R's slot is often stamped and not eligible).
fn split_form_matches_the_spec_reference_for(length: Length) {
    // The last four: 5 and 4 slots, eligibility 30-50 %: an overflow cycle then often
    // finds R's slot stamped and not eligible beside another stamped slot that is
    // (and wins), where R stays R_L; a use2 that reads any stamped slot's sreq_i
    // instead of R's diverges in these runs (in 4 of 24 random runs tried, these).
    let cases = [
        (4usize, 8u32, 6u32, 51u64, 80u64, 80u64),
        (3, 8, 3, 52, 30, 80),
        (2, 8, 3, 53, 20, 80),
        (5, 8, 3, 111, 90, 30),
        (4, 8, 3, 118, 20, 30),
        (5, 8, 3, 119, 60, 30),
        (5, 8, 3, 123, 90, 50),
    ];
    // CI runs half the soak's cycles, not a quarter: the case of the last four
    // is rare (at 4,000 cycles the reference saw it 1, 1, 5 and 1 times in
    // them; at 2,000, 0, 1, 3 and 0; at 1,000 only once).
    let seen = Seen::default();
    par_each(&cases, threads(), |&(n, c, vtw, seed, take_pct, elig_pct)| {
        let (eg, gg, exp, got, _, events) =
            run_form(Form::Split { wrong_pct: 0 }, n, c, vtw, None, seed, length.cycles(4000, 2), take_pct, elig_pct, false);
        if let Some(t) = (0..eg.len()).find(|&t| eg[t] != gg[t]) {
            panic!("n={n} c={c} vtw={vtw}: first grant difference at cycle {t}: expected {} got {}", eg[t], gg[t]);
        }
        if let Some(t) = (0..exp.len()).find(|&t| exp[t] != got[t]) {
            panic!("n={n} c={c} vtw={vtw}: registers differ after cycle {t}: expected {:?} got {:?}", exp[t], got[t]);
        }
        assert_reached(&[events], |e| e.rebases, 1, "a rebase", &format!("n={n} c={c} vtw={vtw} seed={seed}"));
        if elig_pct <= 50 {
            seen.lock().unwrap().push(events);
        }
    });
    assert_reached(&seen.into_inner().unwrap(), |e| e.r_held_beside_stamped_winner, 1, "R held beside a stamped winner", "the last four runs");
}

#[test]
fn split_form_matches_the_spec_reference() {
    split_form_matches_the_spec_reference_for(Length::Ci);
}

#[test]
#[ignore = "soak: 2x the cycles of split_form_matches_the_spec_reference"]
fn split_form_matches_the_spec_reference_soak() {
    split_form_matches_the_spec_reference_for(Length::Soak);
}

/// The simulation-only check of the split form (a stamped slot's `sreq_i`
/// equals its eligibility, §12) fires when the caller breaks the invariant
/// in 5 % of the cycles, and not when it keeps it (the test above).
#[test]
fn split_form_check_fires_on_a_wrong_stamped_eligibility() {
    let (_, _, _, _, tripped, _) = run_form(Form::Split { wrong_pct: 5 }, 4, 8, 6, None, 61, 2000, 60, 60, false);
    assert!(tripped, "the sreq_i check did not fire");
}

