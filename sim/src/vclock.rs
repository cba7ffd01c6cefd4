//! The finite Fine-Grained VirtualClock scheduler of one scheduling point
//! (docs/microarchitecture.md §8), reusable outside the router.
//!
//! One cycle is two calls: [`VirtualClockScheduler::grant`] (steps 1 and 2 of
//! §8.4, on the state at the start of the cycle) and then exactly one
//! [`VirtualClockScheduler::update`] (steps 3 and 4: the rising edge), which
//! says whether the grant took effect. A tail needs no call of its own: auxVC
//! belongs to the VC and outlives the message (§8.4 step 3).
//! A cycle with no present slot may instead be skipped with
//! [`VirtualClockScheduler::advance_idle`] (in bulk). Nothing allocates.
//!
//! Values are held in `u64`, but every register value is `< 2^C` and every
//! intermediate value `< 2^(C+1)` (the spec's C+1-bit arithmetic; C <= 32).
//!
//! [`VirtualClockScheduler::new_fair_queueing`] builds the model-only FGFQ
//! comparison scheduler (docs/microarchitecture.md §10): the same registers,
//! stamps, selection and rebasing, with `now` replaced by the fair-queueing
//! system virtual time R. No RTL implements it.
//!
//! [`VirtualClockScheduler::new_weighted_round_robin`] builds the model-only
//! flit-level WRR comparison scheduler (docs/microarchitecture.md §10.4):
//! the stamps are still kept (they decide nothing), and the real-time
//! choice is a round-robin pointer with a per-slot quota of flits per round.

/// Largest number of slots (the largest legal `router.vcs`).
pub const MAX_SLOTS: usize = 16;

/// Finite VirtualClock over `slots` slots with `clock_width`-bit counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VirtualClockScheduler {
    // ---- parameters
    m: u32,
    c: u32,
    /// 2^C.
    lim: u64,
    /// 2^VTW - 1: the explicit best-effort marker.
    be_marker: u64,

    // ---- registers (§8.3)
    now: u64,
    aux: [u64; MAX_SLOTS],
    stamp: [u64; MAX_SLOTS],
    /// Bit k: `stamped[k]`.
    stamped: u32,
    be_ptr: u32,

    // ---- scratch between `grant` and `update`
    /// s[k] of every present real-time slot.
    s: [u64; MAX_SLOTS],
    /// Present real-time slots that were not stamped (stamped this cycle).
    fresh: u32,
    /// Present real-time slots.
    rt: u32,
    /// The grant of this cycle, or `NONE`.
    winner: u32,
    /// `grant` was called and `update` not yet.
    pending: bool,

    // ---- statistics
    rebases: u64,
    saturations: u64,
    saturated_values: u64,

    /// Which scheduling rule this instance follows (FGVC, or one of the
    /// model-only comparison schedulers of §10).
    kind: SchedulerKind,
    // ---- FGFQ only (§10); inert for VirtualClock
    /// Fraction bits of every time value: 0 for VirtualClock (bit-exact with
    /// the RTL), [`FQ_FRAC_BITS`] for FGFQ, whose R moves by fractions of a cycle.
    frac: u32,
    /// Per slot: the (scaled) Vtick of its latest stamp, the slot's weight in
    /// the fluid reference server while `aux[k] > now`.
    weight: [u64; MAX_SLOTS],
    // ---- WRR only (§10.4); inert otherwise
    /// Per slot: the Vtick of its current real-time message (set when the
    /// slot is stamped fresh), from which its quota is drawn at a round start.
    wrr_vtick: [u64; MAX_SLOTS],
    /// Per slot: flits left in the current round.
    wrr_left: [u64; MAX_SLOTS],
    /// The slot the round-robin search starts from.
    wrr_ptr: u32,
    /// Test-only planted bug, to show the FGFQ tests can fail.
    #[cfg(test)]
    pub(crate) mutant: FqMutant,
}

/// Fraction bits of FGFQ's virtual time (docs/microarchitecture.md §10.3).
pub const FQ_FRAC_BITS: u32 = 16;

/// Deliberate FGFQ bugs for the mutant checks in the tests.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) enum FqMutant {
    #[default]
    None,
    /// Every slot counts as backlogged in the fluid server (R too slow).
    AllSlotsWeighted,
    /// R frozen: tags from `aux` alone, i.e. no system virtual time at all.
    NoVirtualTime,
}

/// The scheduling rule of a [`VirtualClockScheduler`]: the RTL's
/// Fine-Grained VirtualClock, or a model-only comparison scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SchedulerKind {
    /// Fine-Grained VirtualClock (§8), bit-exact with the RTL.
    VirtualClock,
    /// Fine-Grained Fair Queueing (§10): `now` is the virtual time R rather
    /// than the cycle count.
    FairQueueing,
    /// Flit-level Weighted Round Robin (§10.4): real time by per-round quotas.
    WeightedRoundRobin,
}

const NONE: u32 = u32::MAX;

/// Whether a Vtick value (of a `vtick_width`-bit field) is real-time (§8.1):
/// neither 0 nor all ones.
#[inline]
pub fn is_realtime(vtick: u64, vtick_width: u32) -> bool {
    vtick != 0 && vtick != (1u64 << vtick_width) - 1
}

impl VirtualClockScheduler {

    /// §8.4 step 2: among eligible real-time slots the smallest stamp (lowest
    /// index on ties), else best effort round-robin from `be_ptr`; NONE if nothing.
    fn pick(&self, eligible: u32, rt: u32) -> u32 {
        let ert = eligible & rt;
        if ert != 0 && self.is_wrr() {
            self.wrr_pick(ert)
        } else if ert != 0 {
            // Ascending k with a strict comparison keeps the lowest index on ties.
            let mut m = ert;
            let mut best = m.trailing_zeros();
            let mut best_s = self.s[(best & 15) as usize];
            m &= m - 1;
            while m != 0 {
                let k = m.trailing_zeros();
                m &= m - 1;
                let s = self.s[(k & 15) as usize];
                if s < best_s {
                    best = k;
                    best_s = s;
                }
            }
            best
        } else {
            let be = eligible & !rt;
            if be == 0 {
                NONE
            } else {
                let hi = be & (u32::MAX << self.be_ptr);
                if hi != 0 {
                    hi.trailing_zeros()
                } else {
                    be.trailing_zeros()
                }
            }
        }
    }
    /// A scheduler in the reset state. `slots` 1..=16, `clock_width` 1..=32,
    /// `vtick_width` 1..=`clock_width` (a Vtick is at most `2^VTW - 2`, so a
    /// stamp `max(now, aux) + vtick` fits C+1 bits).
    pub fn new(slots: usize, clock_width: u32, vtick_width: u32) -> Self {
        assert!((1..=MAX_SLOTS).contains(&slots), "slots {slots} out of 1..=16");
        assert!((1..=32).contains(&clock_width), "clock width {clock_width} out of 1..=32");
        assert!(vtick_width >= 1 && vtick_width <= clock_width, "vtick width {vtick_width} must be 1..=C");
        VirtualClockScheduler {
            m: slots as u32,
            c: clock_width,
            lim: 1u64 << clock_width,
            be_marker: (1u64 << vtick_width) - 1,
            now: 0,
            aux: [0; MAX_SLOTS],
            stamp: [0; MAX_SLOTS],
            stamped: 0,
            be_ptr: 0,
            s: [0; MAX_SLOTS],
            fresh: 0,
            rt: 0,
            winner: NONE,
            pending: false,
            rebases: 0,
            saturations: 0,
            saturated_values: 0,
            kind: SchedulerKind::VirtualClock,
            frac: 0,
            weight: [0; MAX_SLOTS],
            wrr_vtick: [0; MAX_SLOTS],
            wrr_left: [0; MAX_SLOTS],
            wrr_ptr: 0,
            #[cfg(test)]
            mutant: FqMutant::None,
        }
    }

    /// The model-only flit-level Weighted Round Robin comparison scheduler
    /// (docs/microarchitecture.md §10.4) in its reset state, with the
    /// parameters of [`Self::new`].
    pub fn new_weighted_round_robin(slots: usize, clock_width: u32, vtick_width: u32) -> Self {
        let mut s = Self::new(slots, clock_width, vtick_width);
        s.kind = SchedulerKind::WeightedRoundRobin;
        s
    }

    /// Whether this is the WRR comparison scheduler.
    pub fn is_weighted_round_robin(&self) -> bool {
        self.is_wrr()
    }

    /// WRR's real-time choice among `ert` (eligible real-time slots, not
    /// empty): the first slot at or after `wrr_ptr` (cyclically) among those
    /// with quota left in the round, or among all of `ert` if none has.
    fn wrr_pick(&self, ert: u32) -> u32 {
        let mut with_quota = 0u32;
        let mut m = ert;
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            if self.wrr_left[(k & 15) as usize] > 0 {
                with_quota |= 1 << k;
            }
        }
        let cand = if with_quota != 0 { with_quota } else { ert };
        let hi = cand & (u32::MAX << self.wrr_ptr);
        if hi != 0 {
            hi.trailing_zeros()
        } else {
            cand.trailing_zeros()
        }
    }

    /// WRR's state change when real-time slot k's grant takes effect: a
    /// slot without quota left starts a new round (every real-time slot of
    /// this cycle gets its quota `max(1, round(V / vtick))`, V the largest
    /// of their Vticks), then k spends one flit; the pointer stays on k
    /// while it has quota, else moves past it.
    fn wrr_take(&mut self, k: usize) {
        if self.wrr_left[k] == 0 {
            let mut v_max = 0u64;
            let mut m = self.rt;
            while m != 0 {
                let j = (m.trailing_zeros() & 15) as usize;
                m &= m - 1;
                v_max = v_max.max(self.wrr_vtick[j]);
            }
            let mut m = self.rt;
            while m != 0 {
                let j = (m.trailing_zeros() & 15) as usize;
                m &= m - 1;
                let v = self.wrr_vtick[j].max(1);
                self.wrr_left[j] = ((v_max + v / 2) / v).max(1);
            }
        }
        self.wrr_left[k] -= 1;
        self.wrr_ptr = if self.wrr_left[k] > 0 {
            k as u32
        } else if k as u32 + 1 == self.m {
            0
        } else {
            k as u32 + 1
        };
    }

    /// The model-only Fine-Grained Fair Queueing scheduler (docs/microarchitecture.md
    /// §10) in its reset state, with the parameters of [`Self::new`]: `now`,
    /// `aux` and `stamp` hold virtual time in units of `2^-FQ_FRAC_BITS`
    /// cycles, and C counts whole cycles of virtual time (the limit for
    /// rebasing is `2^(C + FQ_FRAC_BITS)`).
    pub fn new_fair_queueing(slots: usize, clock_width: u32, vtick_width: u32) -> Self {
        let mut s = Self::new(slots, clock_width, vtick_width);
        s.kind = SchedulerKind::FairQueueing;
        s.frac = FQ_FRAC_BITS;
        s.lim = 1u64 << (clock_width + FQ_FRAC_BITS);
        s
    }

    /// Whether this is the FGFQ comparison scheduler.
    pub fn is_fair_queueing(&self) -> bool {
        self.is_fq()
    }

    #[inline]
    fn is_fq(&self) -> bool {
        self.kind == SchedulerKind::FairQueueing
    }

    #[inline]
    fn is_wrr(&self) -> bool {
        self.kind == SchedulerKind::WeightedRoundRobin
    }

    /// Reset values (§8.3) and zeroed statistics; the kind (FGVC/FGFQ/WRR) stays.
    pub fn reset(&mut self) {
        let (m, c, vtw) = (self.m as usize, self.c, 64 - self.be_marker.leading_zeros());
        #[cfg(test)]
        let mutant = self.mutant;
        *self = match self.kind {
            SchedulerKind::FairQueueing => Self::new_fair_queueing(m, c, vtw),
            SchedulerKind::WeightedRoundRobin => Self::new_weighted_round_robin(m, c, vtw),
            SchedulerKind::VirtualClock => Self::new(m, c, vtw),
        };
        #[cfg(test)]
        {
            self.mutant = mutant;
        }
    }

    /// FGFQ: the virtual time R after one cycle of the fluid reference server
    /// (§10.2), starting from `r` with the backlog given by `aux`/`weight`.
    /// R runs at 1 / (sum of 1/Vtick over the backlogged slots) per cycle,
    /// piecewise: a slot stops being backlogged when R reaches its `aux`.
    fn fluid_cycle(&self, mut r: u64) -> u64 {
        #[cfg(test)]
        if self.mutant == FqMutant::NoVirtualTime {
            return r;
        }
        let unit = (1u64 << self.frac) as f64;
        let mut t = 1.0f64;
        loop {
            // w: cycles of real time per cycle of virtual time.
            let mut w = 0.0f64;
            let mut next = u64::MAX;
            for k in 0..self.m as usize {
                let a = self.aux[k];
                if a > r {
                    w += unit / self.weight[k].max(1) as f64;
                    next = next.min(a);
                } else {
                    #[cfg(test)]
                    if self.mutant == FqMutant::AllSlotsWeighted && self.weight[k] != 0 {
                        w += unit / self.weight[k] as f64;
                    }
                }
            }
            if next == u64::MAX {
                // Nothing backlogged: R holds (every aux <= R, so max(R, aux) = R).
                return r;
            }
            let need = (next - r) as f64 / unit * w;
            if need <= t {
                t -= need;
                r = next;
            } else {
                // Floor: R never overtakes the fluid server.
                return (r + (t * unit / w) as u64).min(next);
            }
        }
    }

    /// Steps 1 and 2 of §8.4. `present` and `eligible` are slot bit masks
    /// (`eligible` ⊆ `present`); `vtick(k)` is the Vtick of slot k's present
    /// flit, asked only for present slots that are not stamped (a stamped
    /// slot's flit is real-time and keeps its stamp). Returns the granted slot.
    ///
    /// Contract (what makes the state meaningful): a slot's present flit
    /// stays present, with the same Vtick, until a grant of it takes effect.
    #[inline]
    pub fn grant_with(&mut self, present: u32, eligible: u32, mut vtick: impl FnMut(usize) -> u64) -> Option<usize> {
        debug_assert!(!self.pending, "grant without update");
        debug_assert!(eligible & !present == 0, "an eligible slot must be present");
        debug_assert!(present >> self.m == 0);
        debug_assert!(self.stamped & !present == 0, "a stamped slot's flit left without a grant");
        let stamped = self.stamped & present;
        let mut fresh = 0u32;
        let mut m = present & !stamped;
        while m != 0 {
            let k = (m.trailing_zeros() & 15) as usize;
            m &= m - 1;
            let v = vtick(k);
            if v != 0 && v != self.be_marker {
                debug_assert!(v < self.be_marker);
                fresh |= 1 << k;
                self.s[k] = self.now.max(self.aux[k]) + (v << self.frac);
                self.wrr_vtick[k] = v;
            }
        }
        let mut m = stamped;
        while m != 0 {
            let k = (m.trailing_zeros() & 15) as usize;
            m &= m - 1;
            self.s[k] = self.stamp[k];
        }
        let rt = stamped | fresh;
        self.fresh = fresh;
        self.rt = rt;
        self.pending = true;
        self.winner = self.pick(eligible, rt);
        (self.winner != NONE).then_some(self.winner as usize)
    }

    /// [`Self::grant_with`] with the Vticks in a slice (`vticks[k]` for slot k).
    pub fn grant(&mut self, present: u32, eligible: u32, vticks: &[u64]) -> Option<usize> {
        self.grant_with(present, eligible, |k| vticks[k])
    }

    /// Steps 1 and 2 of §8.4 read literally, for callers whose slots may hold
    /// a different flit than when they were stamped (the QoS modes of §9: a
    /// preempted VC, a block hold). `rt` ⊆ `present` are the present slots
    /// whose flit is real-time; a stamped slot uses its stamp only while its
    /// present flit is real-time (a best-effort flit never touches the stamp),
    /// and a stamp outlives cycles in which its slot is not present.
    /// `vtick(k)` is asked for the fresh real-time slots only. End the cycle
    /// with [`Self::update_granted`].
    #[inline]
    pub fn grant_lit(&mut self, present: u32, rt: u32, eligible: u32, mut vtick: impl FnMut(usize) -> u64) -> Option<usize> {
        debug_assert!(!self.pending, "grant without update");
        debug_assert!(rt & !present == 0 && eligible & !present == 0);
        let stamped = self.stamped & rt;
        let fresh = rt & !stamped;
        let mut m = fresh;
        while m != 0 {
            let k = (m.trailing_zeros() & 15) as usize;
            m &= m - 1;
            let v = vtick(k);
            self.s[k] = self.now.max(self.aux[k]) + (v << self.frac);
            self.wrr_vtick[k] = v;
        }
        let mut m = stamped;
        while m != 0 {
            let k = (m.trailing_zeros() & 15) as usize;
            m &= m - 1;
            self.s[k] = self.stamp[k];
        }
        self.fresh = fresh;
        self.rt = rt;
        self.pending = true;
        let w = self.pick(eligible, rt);
        self.winner = w;
        (w != NONE).then_some(w as usize)
    }

    /// Step 2 of §8.4 again, among `eligible` (⊆ the last grant's eligible
    /// slots), on the stamps step 1 computed this cycle: the point A pick of
    /// a later round of the iterative switch allocator (§6, *Switch
    /// allocation*), which computes the stamps once per cycle.
    #[inline]
    pub fn repick(&self, eligible: u32) -> Option<usize> {
        debug_assert!(self.pending, "repick outside a cycle");
        let w = self.pick(eligible, self.rt);
        (w != NONE).then_some(w as usize)
    }

    /// The relative stamp `s[k] - now` of real-time slot k in the current
    /// cycle (§6, *Switch allocation*, point B): comparable across
    /// scheduling points because a rebase moves `now` and a point's stamps
    /// together.
    #[inline]
    pub fn relative_stamp(&self, k: usize) -> i64 {
        debug_assert!(self.pending && self.rt >> k & 1 == 1, "no stamp for slot {k} this cycle");
        self.s[k & 15] as i64 - self.now as i64
    }

    /// Steps 3 and 4 of §8.4 where the grant that took effect is `granted`
    /// (possibly not the slot `grant_lit` chose: §9.3 step 4, §9.5), or none.
    #[inline]
    pub fn update_granted(&mut self, granted: Option<usize>) {
        self.winner = granted.map_or(NONE, |k| k as u32);
        self.update(true);
    }

    /// Steps 3 and 4 of §8.4, ending the cycle begun by the last `grant`.
    /// `took_effect`: the grant (if any) took effect (at point A: the port also
    /// won at B). Ignored when there was no grant.
    #[inline]
    pub fn update(&mut self, took_effect: bool) {
        debug_assert!(self.pending, "update without grant");
        self.pending = false;
        let lim = self.lim;
        // FGFQ's R moves after this cycle's arrivals are known (below).
        let mut now = if self.is_fq() { self.now } else { self.now + 1 };
        // Step 3.
        let won = if took_effect && self.winner != NONE { 1u32 << self.winner } else { 0 };
        let mut big = now >= lim;
        let mut m = self.fresh;
        while m != 0 {
            let k = (m.trailing_zeros() & 15) as usize;
            m &= m - 1;
            let s = self.s[k];
            if self.is_fq() {
                self.weight[k] = s - self.now.max(self.aux[k]);
            }
            self.aux[k] = s;
            big |= s >= lim;
            if won & (1 << k) == 0 {
                self.stamp[k] = s;
                self.stamped |= 1 << k;
            }
        }
        if won != 0 {
            if self.rt & won != 0 {
                // aux belongs to the VC and persists across messages (§8.4 step 3).
                self.stamped &= !won;
                if self.is_wrr() {
                    self.wrr_take(self.winner as usize);
                }
            } else {
                self.be_ptr = if self.winner + 1 == self.m { 0 } else { self.winner + 1 };
            }
        }
        if self.is_fq() {
            now = self.fluid_cycle(now);
            big |= now >= lim;
        }
        // Step 4. Only `now'` and this cycle's stamps can reach 2^C: every
        // other value is a register (< 2^C) or 0.
        if big {
            self.rebases += 1;
            let mut r = now;
            let mut m = self.stamped;
            while m != 0 {
                let k = (m.trailing_zeros() & 15) as usize;
                m &= m - 1;
                r = r.min(self.stamp[k]);
            }
            let mut sat = 0u64;
            now -= r;
            if now >= lim {
                now = lim - 1;
                sat += 1;
            }
            let mut m = self.stamped;
            while m != 0 {
                let k = (m.trailing_zeros() & 15) as usize;
                m &= m - 1;
                let mut x = self.stamp[k] - r;
                if x >= lim {
                    x = lim - 1;
                    sat += 1;
                }
                self.stamp[k] = x;
            }
            for a in &mut self.aux[..self.m as usize] {
                let mut x = a.saturating_sub(r);
                if x >= lim {
                    x = lim - 1;
                    sat += 1;
                }
                *a = x;
            }
            if sat != 0 {
                self.saturations += 1;
                self.saturated_values += sat;
            }
        }
        self.now = now;
    }

    /// `cycles` cycles in which no slot is present (so none is stamped): only
    /// `now` counts, rebasing to 0 (and clearing every `aux`) each time it
    /// would reach 2^C. Equivalent to `cycles` calls of `grant(0, 0, ..)` +
    /// `update(false, false)`.
    #[inline]
    pub fn advance_idle(&mut self, cycles: u64) {
        debug_assert!(!self.pending);
        debug_assert!(self.stamped == 0, "advance_idle with a waiting flit");
        if self.is_fq() {
            // Cycle by cycle while the fluid server is backlogged (a few
            // cycles per flit stamped recently), so that lazy catching-up
            // rounds exactly as per-cycle updates do; then R holds. R never
            // passes the largest aux (< 2^(C+F)), so nothing rebases.
            let mut left = cycles;
            while left != 0 && self.aux[..self.m as usize].iter().any(|&a| a > self.now) {
                self.now = self.fluid_cycle(self.now);
                left -= 1;
            }
            return;
        }
        let t = self.now + cycles;
        let wraps = t >> self.c;
        if wraps != 0 {
            // Each wrap: now' = 2^C is the only live value, R = 2^C, every
            // aux (< 2^C) becomes max(aux - 2^C, 0) = 0.
            self.now = t & (self.lim - 1);
            self.aux = [0; MAX_SLOTS];
            self.rebases += wraps;
        } else {
            self.now = t;
        }
    }

    // ---------------------------------------------------------------- introspection

    pub fn slots(&self) -> usize {
        self.m as usize
    }
    pub fn clock_width(&self) -> u32 {
        self.c
    }
    /// The `now` register.
    pub fn now(&self) -> u64 {
        self.now
    }
    /// The `aux[k]` register.
    pub fn aux(&self, k: usize) -> u64 {
        assert!(k < self.m as usize);
        self.aux[k]
    }
    /// The `stamp[k]` register (meaningful only while `stamped(k)`).
    pub fn stamp(&self, k: usize) -> u64 {
        assert!(k < self.m as usize);
        self.stamp[k]
    }
    /// The `stamped[k]` bit.
    pub fn stamped(&self, k: usize) -> bool {
        assert!(k < self.m as usize);
        self.stamped >> k & 1 == 1
    }
    /// The best-effort round-robin pointer.
    /// Whether any slot holds a stamp (`stamped[k]` for some k).
    #[inline]
    pub fn has_stamps(&self) -> bool {
        self.stamped != 0
    }
    pub fn be_ptr(&self) -> usize {
        self.be_ptr as usize
    }
    /// Cycles in which step 4 rebased (some value reached 2^C).
    pub fn rebases(&self) -> u64 {
        self.rebases
    }
    /// Rebasing cycles in which at least one value saturated (§8.5: from the
    /// first one on, the grants may differ from the unbounded VirtualClock).
    pub fn saturations(&self) -> u64 {
        self.saturations
    }
    /// Values that saturated, summed over all cycles.
    pub fn saturated_values(&self) -> u64 {
        self.saturated_values
    }
}
