//! Planted bugs: each is a small deviation from docs/microarchitecture.md that
//! the lockstep testbench must detect. The generated RTL stays lint clean.

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutant {
    /// Stage 3: the round-robin pointer (`u_arb`) of every output-VC
    /// allocator never advances (it stays 0), so VA is fixed priority by
    /// input VC index.
    VaFixedPriority,
    /// Stage 5: the output credit counters reset to and saturate at DD+1
    /// instead of DD (the router believes the downstream buffer is one slot
    /// deeper), so it sends one flit more than a full downstream buffer holds.
    CreditOffByOne,
    /// Stage 4: a tail crossing the crossbar returns its input VC to IDLE but
    /// does not free the output VC (`allocated` stays 1 forever).
    TailKeepsVc,
    /// Stage 4: readiness ignores the output VC buffer's fullness; a flit
    /// moved into a full output buffer is lost while the input buffer pops it
    /// (and returns its credit).
    DropOnBackpressure,
    /// Stages 2+3: RC and VA happen in the same cycle: an IDLE input VC with a
    /// flit requests VA with the freshly computed route and, when granted,
    /// goes straight to ACTIVE (no ROUTED cycle). Without a grant it goes to
    /// ROUTED as usual.
    SkipRcStage,
    /// Stage 2: destination 0 is routed to port `(routes[0] + 1) mod N`.
    WrongRoute,
    /// Stage 4: `in_credit_o` is never raised for VC 0 of port 0 (bit 0).
    CreditNotReturned,
    /// §8.4 step 2 (`virtualclock` only): the real-time comparison is
    /// reversed: the eligible real-time slot with the **largest** stamp wins
    /// (ties still to the lowest index).
    VcLargestStampWins,
    /// §8.4 step 1 (`virtualclock` only): an unstamped flit is stamped
    /// `aux + vtick` instead of `max(now, aux) + vtick`, so a flow that was
    /// idle keeps its old (small) virtual clock and gets a burst of priority.
    VcNoMaxNow,
    /// §8.4 step 4 (`virtualclock` only): the rebase on overflow subtracts
    /// `R + 1` instead of `R` from `now` and the live stamps (clamping at 0)
    /// and from `aux` (clamping at 0), so the oldest waiting stamp and `now`
    /// lose one tick relative to the others.
    VcRebaseOffByOne,
    /// §8.4 step 1 (`virtualclock` only): a flit's stamp is not kept from its
    /// arrival at the scheduler: a waiting flit is restamped
    /// `max(now, aux) + vtick` every cycle, so flits that wait lose ground.
    VcRestampEveryCycle,
    /// §8.4 step 2 (`virtualclock` only): best effort is considered first:
    /// an eligible best-effort slot (round-robin) wins over every real-time
    /// slot; real time is served only when no best-effort slot is eligible.
    VcBestEffortFirst,
    /// §8.4 step 1 (`virtualclock` only): the register `mx[k]` that
    /// precomputes `max(now, aux[k])` for the next cycle's stamp is loaded
    /// as if `aux[k]` were the one before this cycle's update (one cycle
    /// stale): a slot stamped this cycle whose old `aux[k]` was not above
    /// `now` gets the next `now` instead of its new `aux`, so the VC's next
    /// flit starts from too small a virtual clock and gets too small a stamp.
    VcStaleMax,
    /// §8.4 step 4 (`virtualclock` only): on a rebase, the stamp registers
    /// keep the stamps as they were (the subtraction of R is applied to `now`,
    /// `aux` and `mx` only), so a flit still waiting after an overflow keeps a
    /// stamp too large by R and loses to flits it should beat.
    VcStampNotRebased,
    /// §8.4 *The comparisons that find R are registered* (`virtualclock`
    /// only): the registered order `sord` is loaded from this cycle's stamp
    /// registers instead of the next stamps, so in the next cycle a slot
    /// stamped this cycle is ordered by the stale value of its stamp register
    /// and R (the rebase's subtrahend) can come from a slot that is not the
    /// oldest: a live stamp below R wraps and saturates.
    VcStaleOrder,
    /// §9.4 case (a) (`preemptive` only): a VC whose message is being
    /// preempted after its header crossed does not send the dummy tail: at the
    /// end of the first cycle with `sl < top` it releases the output VC, goes
    /// IDLE, pushes `hdr`, sets `susp[sl]` and increments `sl` (as if the
    /// dummy tail had crossed), but nothing is sent on the output VC, so the
    /// part is left without a tail.
    PreNoDummyTail,
    /// §9.4 stage 2 (`preemptive` only): RC of a suspended lane reads the
    /// bottom of the history stack `hs[0]` instead of the top `hs[hsp-1]`
    /// (the same with at most one suspended message; wrong with nesting).
    PreStackPopsBottom,
    /// §9.4 stage 1 lane choice (`preemptive` only): a lane fits a header of
    /// class c only if `lmax[l] > c` (instead of `>=`), so a header whose
    /// class equals `lmax[top]` opens lane top+1 (at top == E it goes to lane E).
    PreLowerIntoExtra,
    /// §9.5 (`preemptive` with `acceleration` only): the `acc` flag of an
    /// input VC is never cleared (a tail crossing leaves it set).
    PreAccelNeverCleared,
    /// §9.4 stage 4 (`preemptive` only): a resumed part does not start with a
    /// dummy header: with `susp[sl] == 1` the VC offers its lane's front flit
    /// right away; when that flit crosses, the stack is still popped and
    /// `susp[sl]` cleared as the dummy header would have done.
    PreNoDummyHeader,
    /// §9.4 link (`preemptive` only): the `dummy` bit of incoming flits is
    /// not stored in the lanes (written as 0), so forwarded dummy headers and
    /// tails leave with `out_dummy_o = 0`; only the router's own dummy flits
    /// carry `dummy = 1`.
    PreDummyBitDropped,
    /// §9.2 (`traditional` / `non_preemptive` only): VA ignores the static
    /// partition: every requester is satisfiable when any output VC of the
    /// port is free, and the winner gets the lowest-numbered free output VC
    /// of any class (§6 unchanged).
    PartIgnoresClass,
    /// §9.3 step 3 (`block_size` > 1 only): a moved tail (real or dummy) does
    /// not end the block hold: `blk_left` is decremented / reloaded as for any
    /// other flit.
    BlkHoldPastTail,
    /// §6 stage 3 (`topology.route_vcs` only): VA ignores the allowed output
    /// VC sets: every requester is satisfiable when any output VC (of its
    /// class) is free and gets the lowest one, as without the table, which
    /// breaks the dateline VC classes of a torus.
    RouteVcsIgnored,
    /// §2 / §6 stage 2 (`topology.route_links` only): RC ignores the free
    /// output VC counts and always takes the first port of a destination's
    /// group of parallel links.
    LinkChoiceFirst,
    /// §5 (every round-robin arbiter): the lowest requester is searched in
    /// the masked and the unmasked requests separately and both are
    /// granted, so a grant can have two bits set.
    RrGrantNotOnehot,
    /// §6 stage 3: VA treats every output VC as free, so it can grant an
    /// output VC that a message still holds.
    VaIgnoresAllocated,
    /// §6 stage 5: point C's eligibility ignores whether the output VC
    /// buffer is empty (credits only), so it can pop an empty buffer.
    PickIgnoresEmpty,
    /// §6 *Switch allocation* (`iterative` only): round r's point A offers
    /// every ready VC of an unmatched input port, also those whose output is
    /// already matched (R_r ignores MO), and point B arbitrates at matched
    /// outputs too, so two input ports can be matched to one output.
    SaIgnoresMo,
    /// §6 *Switch allocation* (`iterative` with `virtualclock` only): (B)
    /// compares the relative stamps as unsigned numbers, so a candidate
    /// whose stamp is already below its port's `now` (negative `rel`) loses
    /// to every later stamp.
    SaRelUnsigned,
    /// §6 *Switch allocation* (`iterative` with k >= 2 only): round 2 is
    /// skipped (its point B arbiters get no requests); rounds 1, 3, .. run.
    SaSkipsRound2,
    /// §6 *Switch allocation* (`iterative` only): a matched pair does not
    /// advance `xb_ptr[o]` (point B's round-robin pointers stay 0).
    SaXbPtrFrozen,
    /// §6 *Registered switch allocation* (`switch_stage = "registered"`
    /// only): SA's room check ignores the flit entering the output VC buffer
    /// in the same cycle (`ob_count < DO` instead of `ob_count + pend < DO`),
    /// so a grant can find the buffer full when it crosses.
    SaRoomIgnoresPend,
    /// §6 *Registered switch allocation* (`registered` only): SA offers the
    /// flit behind a crossing tail (the next message's header), although the
    /// VC becomes IDLE when the tail crosses.
    SaGrantsBehindTail,
    /// §6 *Registered switch allocation* (`registered` only): the credit of
    /// a crossing flit leaves one cycle after its ST cycle instead of in it.
    SaCreditLate,
    /// §6 *Registered switch allocation*, *The age order takes a VA grant
    /// one cycle later* (`registered` with `fifo` only): point A reads the
    /// previous cycle's age order without the slots that entered in it, so a
    /// VC granted by VA in cycle t is not yet the youngest in cycle t+1.
    SaAgeEntryLate,
    /// §6 stage 3 in the registered and split pipelines (stage RV): VA's
    /// grant flag `any_req`, formed from the requests beside the arbiter
    /// (the pointer's `take_i` and the gate of `alloc_set`), counts the
    /// requests before the free-VC mask (`req_i` instead of `req_masked`),
    /// so a cycle whose requesters all wait for a busy output VC still moves
    /// the pointer and allocates the lowest free output VC of the class a
    /// zero grant selects (class 0 with a static partition).
    VaFlagUnmasked,
    /// §6 *VA's inputs computed a cycle early* (registered and split
    /// pipelines with VA's inputs registered): the registered request of
    /// cycle t+1 is formed without cycle t's grant, so a VC granted in t
    /// still requests in t+1 (and can take a second output VC).
    VaPreGrantUnmasked,
    /// §6 *VA's inputs computed a cycle early*: the registered request
    /// leaves out an IDLE VC whose empty buffer receives a header (only a
    /// VC whose tail crosses counts its next front), which then requests a
    /// cycle late.
    VaNextHeaderLate,
    /// §6 *Registered switch allocation in P mode* (`registered` with
    /// `mode = "preemptive"` only): the preemption step is not blocked for a
    /// VC whose granted offer crosses: a higher-class header written in the
    /// SA cycle makes the VC take case (a), (b) or (c) while the offer
    /// crosses, and the crossing's own effects (`sent`, the stack, `state`)
    /// are lost.
    PreRegStepWhileCrossing,
    /// §6 *Registered switch allocation in P mode*: the grant kind
    /// `sg_kind` is ignored at the crossing; the kind (and the flit) that
    /// crosses is the VC's offer at the start of the ST cycle, so a lane
    /// flit granted just before a higher-class header arrived crosses as a
    /// dummy tail.
    PreRegKindIgnored,
    /// §6 *Registered switch allocation in P mode*, *Acceleration*
    /// (`registered`, `preemptive`, `acceleration` only): `acc` is cleared
    /// in the SA cycle that grants a tail or dummy tail instead of the ST
    /// cycle in which it crosses, so a VA failure in the ST cycle sets it
    /// again (the clear no longer wins) and the VC's next message starts
    /// accelerated.
    PreAccClearAtGrant,
    /// §6 *Split switch allocation* (`switch_stage = "split"` only): SA-A's
    /// room check counts one flit in flight where there are two (the
    /// crossing one and the candidate at point B): `ob_count + 1 < DO`
    /// instead of `ob_count + 2 < DO`, so a grant can find the buffer full.
    SplitRoomCountsOne,
    /// §6 *Split switch allocation* (`split` only): a pick behind its VC's
    /// candidate keeps its own tail bit when that candidate loses at B,
    /// although it then stands for the loser's flit, which is not a tail.
    SplitLoserKeepsTail,
    /// §6 *Split switch allocation* (`split` only): a candidate that loses
    /// at B stays in the candidate register (and is arbitrated again)
    /// instead of being dropped for point A's new pick.
    SplitLoserKept,
    /// §6 *Split switch allocation*, implementation "Output buffer write,
    /// registered": the bypass is left out: point C's pick of a flit in the
    /// cycle after it crossed (its entry written from the write register only
    /// at the end of that cycle) reads the RAM, which still holds the entry's
    /// old word, and the port shows that.
    SplitWriteNoBypass,
    /// §8.4 *With "split", a's eligibility is its output VC buffer's room*
    /// (`split` with `virtualclock` and `block_size = 1` only): the room
    /// that stands for a stamped VC's eligibility ignores the flit crossing
    /// into its output VC buffer (`ob_count < DO` instead of `ob_count +
    /// sgp < DO`), so the rebase can take R's slot out of the live set
    /// while that slot is not ready and stays stamped.
    SplitStampedRoomIgnoresPend,
    /// §6 stage 3, *Output-VC reallocation* (`vc_reallocation = "atomic"`
    /// only): a draining output VC is released as soon as its buffer is
    /// empty, without waiting for its credits (`credits == DD`), so the
    /// next message may enter a downstream buffer that still holds the
    /// previous one's flits.
    AtomicIgnoresCredits,
    /// §9.4 stage 3, *Best-effort cap* (`best_effort_output_vcs` only): VA
    /// ignores the cap, so best effort may hold every output VC of a port.
    BeCapIgnored,
    /// §9.4 stage 3, *Real-time cap* (`realtime_output_vcs` only): VA's cap
    /// is R + 1 instead of R, so real time may hold one output VC more.
    RtCapOffByOne,
    /// §9.4 *Credits*, receiver (`preemption_credits = "per_lane"` only):
    /// every returned credit names lane 0 (`in_credit_lane_o` stays 0), so
    /// the upstream sender never gets an extra lane's credits back.
    LaneCreditOnLane0,
    /// §9.4 *Credits*, sender's lane (`per_lane` only): a header joins the
    /// lowest lane up to `stop` whatever its class (`lcls[l] >= c` is not
    /// checked), so a higher class never opens an extra lane.
    LaneJoinIgnoresClass,
}

impl Mutant {
    pub fn all() -> &'static [Mutant] {
        &[
            Mutant::VaFixedPriority,
            Mutant::CreditOffByOne,
            Mutant::TailKeepsVc,
            Mutant::DropOnBackpressure,
            Mutant::SkipRcStage,
            Mutant::WrongRoute,
            Mutant::CreditNotReturned,
        ]
    }
    /// The mutants of the `virtualclock` scheduler (docs/microarchitecture.md
    /// §8). They are not in [`Mutant::all`] (whose mutants apply to every
    /// configuration); on a configuration with another scheduler they have no
    /// effect on the generated logic (only the file header names them).
    pub fn virtualclock() -> &'static [Mutant] {
        &[
            Mutant::VcLargestStampWins,
            Mutant::VcNoMaxNow,
            Mutant::VcRebaseOffByOne,
            Mutant::VcRestampEveryCycle,
            Mutant::VcBestEffortFirst,
            Mutant::VcStaleMax,
            Mutant::VcStampNotRebased,
            Mutant::VcStaleOrder,
        ]
    }
    /// The mutants of the QoS modes (docs/microarchitecture.md §9). Not in
    /// [`Mutant::all`]; each changes the generated logic only in the
    /// configurations where it is meaningful (see [`Mutant::applies_to`]) and
    /// elsewhere only the file header names it.
    pub fn qos() -> &'static [Mutant] {
        &[
            Mutant::PreNoDummyTail,
            Mutant::PreStackPopsBottom,
            Mutant::PreLowerIntoExtra,
            Mutant::PreAccelNeverCleared,
            Mutant::PreNoDummyHeader,
            Mutant::PreDummyBitDropped,
            Mutant::PartIgnoresClass,
            Mutant::BlkHoldPastTail,
        ]
    }
    /// The mutants of the routing table extensions (`topology.route_vcs`).
    /// Not in [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn routing() -> &'static [Mutant] {
        &[Mutant::RouteVcsIgnored, Mutant::LinkChoiceFirst]
    }
    /// Planted bugs for the RTL's own checks (one-hot grants, no VC
    /// allocated twice, no pop from an empty buffer): each breaks one of
    /// them. Not in [`Mutant::all`]; they apply to every configuration.
    pub fn checks() -> &'static [Mutant] {
        &[Mutant::RrGrantNotOnehot, Mutant::VaIgnoresAllocated, Mutant::PickIgnoresEmpty]
    }
    /// The mutants of the iterative switch allocator (§6 *Switch
    /// allocation*). Not in [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn allocator() -> &'static [Mutant] {
        &[Mutant::SaIgnoresMo, Mutant::SaRelUnsigned, Mutant::SaSkipsRound2, Mutant::SaXbPtrFrozen]
    }
    /// The mutants of the registered switch allocation (§6 *Registered
    /// switch allocation*). Not in [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn registered() -> &'static [Mutant] {
        &[Mutant::SaRoomIgnoresPend, Mutant::SaGrantsBehindTail, Mutant::SaCreditLate, Mutant::SaAgeEntryLate, Mutant::VaFlagUnmasked, Mutant::VaPreGrantUnmasked, Mutant::VaNextHeaderLate]
    }
    /// The mutants of the registered switch allocation in P mode (§6
    /// *Registered switch allocation in P mode*). Not in [`Mutant::all`];
    /// see [`Mutant::applies_to`].
    pub fn registered_preemptive() -> &'static [Mutant] {
        &[Mutant::PreRegStepWhileCrossing, Mutant::PreRegKindIgnored]
    }
    /// The mutants of acceleration under the registered switch allocation
    /// in P mode (§6 *Registered switch allocation in P mode*,
    /// *Acceleration*). Not in [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn registered_acceleration() -> &'static [Mutant] {
        &[Mutant::PreAccClearAtGrant]
    }
    /// The mutants of the split switch allocation (§6 *Split switch
    /// allocation*). Not in [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn split() -> &'static [Mutant] {
        &[Mutant::SplitRoomCountsOne, Mutant::SplitLoserKeepsTail, Mutant::SplitLoserKept, Mutant::SplitWriteNoBypass]
    }
    /// The mutant of the split pipeline's VirtualClock form (§8.4, the
    /// stamped slots' eligibility from the room). Not in [`Mutant::all`];
    /// see [`Mutant::applies_to`].
    pub fn split_vclock() -> &'static [Mutant] {
        &[Mutant::SplitStampedRoomIgnoresPend]
    }
    /// Whether this mutant is one of [`Mutant::allocator`].
    pub fn reallocation() -> &'static [Mutant] {
        &[Mutant::AtomicIgnoresCredits]
    }
    /// The mutant of the best-effort cap (§9.4 stage 3). Not in
    /// [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn best_effort_cap() -> &'static [Mutant] {
        &[Mutant::BeCapIgnored]
    }
    /// The mutant of the real-time cap (§9.4 stage 3). Not in
    /// [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn realtime_cap() -> &'static [Mutant] {
        &[Mutant::RtCapOffByOne]
    }
    /// The mutants of per-lane credits (§9.4 *Credits*). Not in
    /// [`Mutant::all`]; see [`Mutant::applies_to`].
    pub fn lane_credits() -> &'static [Mutant] {
        &[Mutant::LaneCreditOnLane0, Mutant::LaneJoinIgnoresClass]
    }
    pub fn is_allocator(&self) -> bool {
        Mutant::allocator().contains(self)
    }
    /// Whether this mutant is one of [`Mutant::routing`].
    pub fn is_routing(&self) -> bool {
        Mutant::routing().contains(self)
    }
    /// Whether this mutant is one of [`Mutant::qos`].
    pub fn is_qos(&self) -> bool {
        Mutant::qos().contains(self)
    }
    /// Every mutant: [`Mutant::all`], [`Mutant::virtualclock`], [`Mutant::qos`],
    /// [`Mutant::routing`], [`Mutant::checks`], [`Mutant::allocator`].
    pub fn every() -> Vec<Mutant> {
        Mutant::all()
            .iter()
            .chain(Mutant::virtualclock())
            .chain(Mutant::qos())
            .chain(Mutant::routing())
            .chain(Mutant::checks())
            .chain(Mutant::allocator())
            .chain(Mutant::registered())
            .chain(Mutant::registered_preemptive())
            .chain(Mutant::registered_acceleration())
            .chain(Mutant::split())
            .chain(Mutant::split_vclock())
            .chain(Mutant::reallocation())
            .chain(Mutant::best_effort_cap())
            .chain(Mutant::realtime_cap())
            .chain(Mutant::lane_credits())
            .copied()
            .collect()
    }
    /// Whether the mutant changes the logic generated for `cfg`.
    pub fn applies_to(&self, cfg: &wormqos_config::RouterConfig) -> bool {
        use wormqos_config::Qos;
        match self {
            Mutant::PreAccelNeverCleared => cfg.qos().preemption().is_some_and(|p| p.acceleration),
            Mutant::PreStackPopsBottom => cfg.qos().preemption().is_some_and(|p| p.extra_lanes >= 2),
            Mutant::PreNoDummyTail | Mutant::PreNoDummyHeader | Mutant::PreDummyBitDropped => {
                matches!(cfg.qos(), Qos::Preemptive(_))
            }
            // with per-lane credits the sender chooses the lane, not stage 1
            Mutant::PreLowerIntoExtra => matches!(cfg.qos(), Qos::Preemptive(_)) && !cfg.per_lane_credits(),
            Mutant::LaneCreditOnLane0 | Mutant::LaneJoinIgnoresClass => cfg.per_lane_credits(),
            Mutant::PartIgnoresClass => matches!(cfg.qos(), Qos::Partitioned(_)),
            Mutant::BlkHoldPastTail => cfg.scheduling().block_size > 1,
            Mutant::RouteVcsIgnored => cfg.route_vc_table().is_some(),
            Mutant::LinkChoiceFirst => cfg.route_link_table().is_some_and(|t| t.iter().any(|&g| g > 1)),
            m if m.is_virtualclock() => cfg.scheduling().virtual_clock().is_some(),
            Mutant::SaRelUnsigned => iterations(cfg).is_some() && cfg.scheduling().virtual_clock().is_some(),
            Mutant::SaSkipsRound2 => iterations(cfg).is_some_and(|k| k >= 2),
            Mutant::SaIgnoresMo | Mutant::SaXbPtrFrozen => iterations(cfg).is_some(),
            Mutant::SaRoomIgnoresPend | Mutant::SaGrantsBehindTail | Mutant::SaCreditLate => registered(cfg),
            Mutant::SaAgeEntryLate => registered(cfg) && cfg.scheduling().order == wormqos_config::FlitOrder::Age,
            Mutant::PreRegStepWhileCrossing | Mutant::PreRegKindIgnored => registered(cfg) && matches!(cfg.qos(), Qos::Preemptive(_)),
            Mutant::PreAccClearAtGrant => registered(cfg) && cfg.qos().preemption().is_some_and(|p| p.acceleration),
            Mutant::VaFlagUnmasked => registered(cfg) || split(cfg),
            Mutant::VaPreGrantUnmasked | Mutant::VaNextHeaderLate => crate::dims::Dims::new(cfg, None).va_inputs_registered(),
            Mutant::SplitRoomCountsOne | Mutant::SplitLoserKeepsTail | Mutant::SplitLoserKept => split(cfg),
            Mutant::SplitWriteNoBypass => crate::dims::Dims::new(cfg, None).ob_write_registered(),
            Mutant::SplitStampedRoomIgnoresPend => {
                split(cfg) && cfg.scheduling().virtual_clock().is_some() && cfg.scheduling().block_size <= 1
            }
            // RC and VA share a cycle in the registered and split pipelines already
            Mutant::SkipRcStage => !registered(cfg) && !split(cfg),
            Mutant::AtomicIgnoresCredits => cfg.vc_reallocation() == wormqos_config::VcReallocation::Atomic,
            Mutant::BeCapIgnored => cfg.best_effort_output_vcs().is_some(),
            Mutant::RtCapOffByOne => cfg.realtime_output_vcs().is_some(),
            _ => true,
        }
    }
    /// The configurations [`Mutant::applies_to`] accepts, in configuration
    /// terms (for error messages and `wormqos mutants`).
    pub fn scope(&self) -> &'static str {
        match self {
            Mutant::PreAccelNeverCleared => "router.mode = \"preemptive\" with router.acceleration = true",
            Mutant::PreStackPopsBottom => "router.mode = \"preemptive\" with router.traffic_classes >= 3 (two or more extra lanes)",
            Mutant::PreNoDummyTail | Mutant::PreNoDummyHeader | Mutant::PreDummyBitDropped => {
                "router.mode = \"preemptive\""
            }
            Mutant::PreLowerIntoExtra => "router.mode = \"preemptive\" with router.preemption_credits = \"per_vc\" (the default)",
            Mutant::LaneCreditOnLane0 | Mutant::LaneJoinIgnoresClass => "router.mode = \"preemptive\" with router.preemption_credits = \"per_lane\"",
            Mutant::PartIgnoresClass => "router.mode = \"traditional\" or \"non_preemptive\" with router.traffic_classes >= 2",
            Mutant::BlkHoldPastTail => "router.block_size >= 2",
            Mutant::RouteVcsIgnored => "a topology.route_vcs table",
            Mutant::LinkChoiceFirst => "a topology.route_links table with a group of 2 or more ports",
            m if m.is_virtualclock() => "router.scheduler = \"virtualclock\"",
            Mutant::SaRelUnsigned => "router.switch_allocator = \"iterative\" with router.scheduler = \"virtualclock\"",
            Mutant::SaSkipsRound2 => "router.switch_allocator = \"iterative\" with router.switch_iterations >= 2",
            Mutant::SaIgnoresMo | Mutant::SaXbPtrFrozen => "router.switch_allocator = \"iterative\"",
            Mutant::SaRoomIgnoresPend | Mutant::SaGrantsBehindTail | Mutant::SaCreditLate => "router.switch_stage = \"registered\"",
            Mutant::SaAgeEntryLate => "router.switch_stage = \"registered\" with router.scheduler = \"fifo\"",
            Mutant::PreRegStepWhileCrossing | Mutant::PreRegKindIgnored => "router.switch_stage = \"registered\" with router.mode = \"preemptive\"",
            Mutant::PreAccClearAtGrant => "router.switch_stage = \"registered\" with router.mode = \"preemptive\" and router.acceleration = true",
            Mutant::VaFlagUnmasked => "router.switch_stage = \"registered\" or \"split\"",
            Mutant::VaPreGrantUnmasked | Mutant::VaNextHeaderLate => {
                "router.switch_stage = \"registered\" or \"split\" with shared input buffers (vcs * input_buffer_depth <= 64), without route_links or programmable routing"
            }
            Mutant::SplitRoomCountsOne | Mutant::SplitLoserKeepsTail | Mutant::SplitLoserKept => "router.switch_stage = \"split\"",
            Mutant::SplitWriteNoBypass => "router.switch_stage = \"split\" with shared output buffers (vcs * output_buffer_depth <= 64)",
            Mutant::SplitStampedRoomIgnoresPend => {
                "router.switch_stage = \"split\" with router.scheduler = \"virtualclock\" and router.block_size = 1"
            }
            Mutant::SkipRcStage => "router.switch_stage = \"single_cycle\" (the default)",
            Mutant::AtomicIgnoresCredits => "router.vc_reallocation = \"atomic\"",
            Mutant::BeCapIgnored => "router.mode = \"preemptive\" with router.best_effort_output_vcs below router.vcs",
            Mutant::RtCapOffByOne => "router.mode = \"preemptive\" with router.realtime_output_vcs below router.vcs",
            _ => "every configuration",
        }
    }
    /// Whether this mutant changes only the `virtualclock` scheduler.
    pub fn is_virtualclock(&self) -> bool {
        Mutant::virtualclock().contains(self)
    }
    /// The kebab-case name used on command lines.
    pub fn name(&self) -> &'static str {
        match self {
            Mutant::VaFixedPriority => "va-fixed-priority",
            Mutant::CreditOffByOne => "credit-off-by-one",
            Mutant::TailKeepsVc => "tail-keeps-vc",
            Mutant::DropOnBackpressure => "drop-on-backpressure",
            Mutant::SkipRcStage => "skip-rc-stage",
            Mutant::WrongRoute => "wrong-route",
            Mutant::CreditNotReturned => "credit-not-returned",
            Mutant::VcLargestStampWins => "vc-largest-stamp-wins",
            Mutant::VcNoMaxNow => "vc-no-max-now",
            Mutant::VcRebaseOffByOne => "vc-rebase-off-by-one",
            Mutant::VcRestampEveryCycle => "vc-restamp-every-cycle",
            Mutant::VcBestEffortFirst => "vc-best-effort-first",
            Mutant::VcStaleMax => "vc-stale-max",
            Mutant::VcStampNotRebased => "vc-stamp-not-rebased",
            Mutant::VcStaleOrder => "vc-stale-order",
            Mutant::PreNoDummyTail => "pre-no-dummy-tail",
            Mutant::PreStackPopsBottom => "pre-stack-pops-bottom",
            Mutant::PreLowerIntoExtra => "pre-lower-into-extra",
            Mutant::PreAccelNeverCleared => "pre-accel-never-cleared",
            Mutant::PreNoDummyHeader => "pre-no-dummy-header",
            Mutant::PreDummyBitDropped => "pre-dummy-bit-dropped",
            Mutant::PartIgnoresClass => "part-ignores-class",
            Mutant::BlkHoldPastTail => "blk-hold-past-tail",
            Mutant::RouteVcsIgnored => "route-vcs-ignored",
            Mutant::LinkChoiceFirst => "link-choice-first",
            Mutant::RrGrantNotOnehot => "rr-grant-not-onehot",
            Mutant::VaIgnoresAllocated => "va-ignores-allocated",
            Mutant::PickIgnoresEmpty => "pick-ignores-empty",
            Mutant::SaIgnoresMo => "sa-ignores-mo",
            Mutant::SaRelUnsigned => "sa-rel-unsigned",
            Mutant::SaSkipsRound2 => "sa-skips-round2",
            Mutant::SaXbPtrFrozen => "sa-xb-ptr-frozen",
            Mutant::SaRoomIgnoresPend => "sa-room-ignores-pend",
            Mutant::SaGrantsBehindTail => "sa-grants-behind-tail",
            Mutant::SaCreditLate => "sa-credit-late",
            Mutant::SaAgeEntryLate => "sa-age-entry-late",
            Mutant::PreRegStepWhileCrossing => "pre-reg-step-while-crossing",
            Mutant::PreRegKindIgnored => "pre-reg-kind-ignored",
            Mutant::PreAccClearAtGrant => "pre-acc-clear-at-grant",
            Mutant::VaFlagUnmasked => "va-flag-unmasked",
            Mutant::VaPreGrantUnmasked => "va-pre-grant-unmasked",
            Mutant::VaNextHeaderLate => "va-next-header-late",
            Mutant::SplitRoomCountsOne => "split-room-counts-one",
            Mutant::SplitLoserKeepsTail => "split-loser-keeps-tail",
            Mutant::SplitLoserKept => "split-loser-kept",
            Mutant::SplitWriteNoBypass => "split-write-no-bypass",
            Mutant::SplitStampedRoomIgnoresPend => "split-stamped-room-ignores-pend",
            Mutant::AtomicIgnoresCredits => "atomic-ignores-credits",
            Mutant::BeCapIgnored => "be-cap-ignored",
            Mutant::RtCapOffByOne => "rt-cap-off-by-one",
            Mutant::LaneCreditOnLane0 => "lane-credit-on-lane0",
            Mutant::LaneJoinIgnoresClass => "lane-join-ignores-class",
        }
    }
    /// The CamelCase variant name.
    pub fn variant_name(&self) -> &'static str {
        match self {
            Mutant::VaFixedPriority => "VaFixedPriority",
            Mutant::CreditOffByOne => "CreditOffByOne",
            Mutant::TailKeepsVc => "TailKeepsVc",
            Mutant::DropOnBackpressure => "DropOnBackpressure",
            Mutant::SkipRcStage => "SkipRcStage",
            Mutant::WrongRoute => "WrongRoute",
            Mutant::CreditNotReturned => "CreditNotReturned",
            Mutant::VcLargestStampWins => "VcLargestStampWins",
            Mutant::VcNoMaxNow => "VcNoMaxNow",
            Mutant::VcRebaseOffByOne => "VcRebaseOffByOne",
            Mutant::VcRestampEveryCycle => "VcRestampEveryCycle",
            Mutant::VcBestEffortFirst => "VcBestEffortFirst",
            Mutant::VcStaleMax => "VcStaleMax",
            Mutant::VcStampNotRebased => "VcStampNotRebased",
            Mutant::VcStaleOrder => "VcStaleOrder",
            Mutant::PreNoDummyTail => "PreNoDummyTail",
            Mutant::PreStackPopsBottom => "PreStackPopsBottom",
            Mutant::PreLowerIntoExtra => "PreLowerIntoExtra",
            Mutant::PreAccelNeverCleared => "PreAccelNeverCleared",
            Mutant::PreNoDummyHeader => "PreNoDummyHeader",
            Mutant::PreDummyBitDropped => "PreDummyBitDropped",
            Mutant::PartIgnoresClass => "PartIgnoresClass",
            Mutant::BlkHoldPastTail => "BlkHoldPastTail",
            Mutant::RouteVcsIgnored => "RouteVcsIgnored",
            Mutant::LinkChoiceFirst => "LinkChoiceFirst",
            Mutant::RrGrantNotOnehot => "RrGrantNotOnehot",
            Mutant::VaIgnoresAllocated => "VaIgnoresAllocated",
            Mutant::PickIgnoresEmpty => "PickIgnoresEmpty",
            Mutant::SaIgnoresMo => "SaIgnoresMo",
            Mutant::SaRelUnsigned => "SaRelUnsigned",
            Mutant::SaSkipsRound2 => "SaSkipsRound2",
            Mutant::SaXbPtrFrozen => "SaXbPtrFrozen",
            Mutant::SaRoomIgnoresPend => "SaRoomIgnoresPend",
            Mutant::SaGrantsBehindTail => "SaGrantsBehindTail",
            Mutant::SaCreditLate => "SaCreditLate",
            Mutant::SaAgeEntryLate => "SaAgeEntryLate",
            Mutant::PreRegStepWhileCrossing => "PreRegStepWhileCrossing",
            Mutant::PreRegKindIgnored => "PreRegKindIgnored",
            Mutant::PreAccClearAtGrant => "PreAccClearAtGrant",
            Mutant::VaFlagUnmasked => "VaFlagUnmasked",
            Mutant::VaPreGrantUnmasked => "VaPreGrantUnmasked",
            Mutant::VaNextHeaderLate => "VaNextHeaderLate",
            Mutant::SplitRoomCountsOne => "SplitRoomCountsOne",
            Mutant::SplitLoserKeepsTail => "SplitLoserKeepsTail",
            Mutant::SplitLoserKept => "SplitLoserKept",
            Mutant::SplitWriteNoBypass => "SplitWriteNoBypass",
            Mutant::SplitStampedRoomIgnoresPend => "SplitStampedRoomIgnoresPend",
            Mutant::AtomicIgnoresCredits => "AtomicIgnoresCredits",
            Mutant::BeCapIgnored => "BeCapIgnored",
            Mutant::RtCapOffByOne => "RtCapOffByOne",
            Mutant::LaneCreditOnLane0 => "LaneCreditOnLane0",
            Mutant::LaneJoinIgnoresClass => "LaneJoinIgnoresClass",
        }
    }
}

/// Whether `cfg`'s switch allocation is registered (§6).
fn registered(cfg: &wormqos_config::RouterConfig) -> bool {
    cfg.scheduling().point.switch_stage() == wormqos_config::SwitchStage::Registered
}

/// Whether `cfg`'s switch allocation is split (§6).
fn split(cfg: &wormqos_config::RouterConfig) -> bool {
    cfg.scheduling().point.switch_stage() == wormqos_config::SwitchStage::Split
}

/// The rounds of `cfg`'s iterative switch allocator, if it has one.
fn iterations(cfg: &wormqos_config::RouterConfig) -> Option<u32> {
    match cfg.scheduling().point.switch_allocator() {
        Some(wormqos_config::SwitchAllocator::Iterative { iterations }) => Some(iterations),
        _ => None,
    }
}

/// The planted bugs as named switches, so a builder reads
/// `if faults.tail_keeps_output_vc { … }` only where the faulty hardware
/// differs, and the production path reads without them. Built from the
/// [`Mutant`] in one place ([`Faults::of`]); at most one is set. Each field
/// names the deviation; the mutant's doc above says why it is a bug.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// [`Mutant::VaFixedPriority`]: the output-VC allocators' round-robin pointer never advances.
    pub va_pointer_frozen: bool,
    /// [`Mutant::CreditOffByOne`]: output credit counters count DD+1.
    pub one_credit_too_many: bool,
    /// [`Mutant::TailKeepsVc`]: a crossing tail does not release its output VC.
    pub tail_keeps_output_vc: bool,
    /// [`Mutant::DropOnBackpressure`]: readiness ignores full output VC buffers.
    pub ignores_output_full: bool,
    /// [`Mutant::SkipRcStage`]: an IDLE VC requests VA with the route RC computes in the same cycle.
    pub va_in_rc_cycle: bool,
    /// [`Mutant::WrongRoute`]: destination 0 goes to the next port.
    pub dest0_misrouted: bool,
    /// [`Mutant::CreditNotReturned`]: bit 0 of `in_credit_o` is never raised.
    pub credit0_never_returned: bool,
    /// [`Mutant::VcLargestStampWins`]: the real-time comparison is reversed.
    pub vc_largest_stamp_wins: bool,
    /// [`Mutant::VcNoMaxNow`]: a stamp is `aux + vtick`, without `max(now, .)`.
    pub vc_stamp_ignores_now: bool,
    /// [`Mutant::VcRebaseOffByOne`]: the rebase subtracts `R + 1`.
    pub vc_rebase_one_too_far: bool,
    /// [`Mutant::VcRestampEveryCycle`]: a waiting flit is restamped every cycle.
    pub vc_restamp_every_cycle: bool,
    /// [`Mutant::VcBestEffortFirst`]: best effort wins over real time.
    pub vc_best_effort_first: bool,
    /// [`Mutant::VcStaleMax`]: `mx[k]` is loaded from the old `aux[k]`.
    pub vc_max_from_stale_aux: bool,
    /// [`Mutant::VcStampNotRebased`]: a rebase leaves the stamp registers as they were.
    pub vc_stamp_not_rebased: bool,
    /// [`Mutant::VcStaleOrder`]: `sord` is loaded from the stamp registers, not the next stamps.
    pub vc_stale_order: bool,
    /// [`Mutant::PreNoDummyTail`]: a preempted part is left without its dummy tail.
    pub no_dummy_tail: bool,
    /// [`Mutant::PreStackPopsBottom`]: RC of a suspended lane reads `hs[0]`.
    pub stack_reads_bottom: bool,
    /// [`Mutant::PreLowerIntoExtra`]: a lane fits a header only if `lmax > class`.
    pub lane_fit_strict: bool,
    /// [`Mutant::PreAccelNeverCleared`]: the `acc` flag is never cleared.
    pub accel_never_cleared: bool,
    /// [`Mutant::PreNoDummyHeader`]: a resumed part starts without its dummy header.
    pub no_dummy_header: bool,
    /// [`Mutant::PreDummyBitDropped`]: incoming flits' dummy bit is not stored.
    pub dummy_bit_dropped: bool,
    /// [`Mutant::PartIgnoresClass`]: VA ignores the static partition.
    pub va_ignores_partition: bool,
    /// [`Mutant::BlkHoldPastTail`]: a moved tail does not end the block hold.
    pub block_hold_past_tail: bool,
    /// [`Mutant::RouteVcsIgnored`]: VA ignores the allowed output-VC sets.
    pub va_ignores_route_vcs: bool,
    /// [`Mutant::LinkChoiceFirst`]: RC always takes the first parallel link.
    pub rc_first_parallel_link: bool,
    /// [`Mutant::RrGrantNotOnehot`]: round robin grants in both halves.
    pub rr_grant_not_onehot: bool,
    /// [`Mutant::VaIgnoresAllocated`]: VA treats every output VC as free.
    pub va_ignores_allocated: bool,
    /// [`Mutant::PickIgnoresEmpty`]: point C's eligibility ignores empty buffers.
    pub pick_ignores_empty: bool,
    /// [`Mutant::SaIgnoresMo`]: rounds after the first ignore the matched outputs.
    pub sa_ignores_matched_outputs: bool,
    /// [`Mutant::SaRelUnsigned`]: (B) compares relative stamps unsigned.
    pub sa_rel_unsigned: bool,
    /// [`Mutant::SaSkipsRound2`]: round 2's point B gets no requests.
    pub sa_skips_round2: bool,
    /// [`Mutant::SaXbPtrFrozen`]: matched pairs do not advance `xb_ptr`.
    pub sa_xb_ptr_frozen: bool,
    /// [`Mutant::SaRoomIgnoresPend`]: SA's room check ignores the flit entering now.
    pub sa_room_ignores_pend: bool,
    /// [`Mutant::SplitRoomCountsOne`]: SA-A's room check counts one flit in
    /// flight where there are two.
    pub split_room_counts_one: bool,
    /// [`Mutant::SplitLoserKeepsTail`]: a candidate that loses at B keeps
    /// its tail bit in the next candidate register.
    pub split_loser_keeps_tail: bool,
    /// [`Mutant::SplitLoserKept`]: a candidate that loses at B is kept.
    pub split_loser_kept: bool,
    /// [`Mutant::SplitWriteNoBypass`]: the output buffer's registered RAM
    /// write has no bypass for a read of the entry in the meantime.
    pub split_write_no_bypass: bool,
    /// [`Mutant::SplitStampedRoomIgnoresPend`]: a stamped VC's room ignores
    /// the crossing flit.
    pub split_stamped_room_ignores_pend: bool,
    /// [`Mutant::SaGrantsBehindTail`]: SA offers the flit behind a crossing tail.
    pub sa_grants_behind_tail: bool,
    /// [`Mutant::SaCreditLate`]: the credit leaves a cycle after the flit crosses.
    pub sa_credit_late: bool,
    /// [`Mutant::SaAgeEntryLate`]: point A's age order misses last cycle's entries.
    pub sa_age_entry_late: bool,
    /// [`Mutant::PreRegStepWhileCrossing`]: the preemption step is taken while an offer crosses.
    pub p_reg_steps_while_crossing: bool,
    /// [`Mutant::PreRegKindIgnored`]: the crossing's kind is the offer of the ST cycle, not `sg_kind`.
    pub p_reg_kind_ignored: bool,
    /// [`Mutant::PreAccClearAtGrant`]: `acc` is cleared when SA grants a tail, not when it crosses.
    pub acc_clear_at_grant: bool,
    /// [`Mutant::VaFlagUnmasked`]: VA's grant flag counts unmasked requests.
    pub va_flag_unmasked: bool,
    /// [`Mutant::VaPreGrantUnmasked`]: the next cycle's registered VA request ignores this cycle's grant.
    pub va_pre_grant_unmasked: bool,
    /// [`Mutant::VaNextHeaderLate`]: a header written into an IDLE VC's empty buffer requests a cycle late.
    pub va_next_header_late: bool,
    /// [`Mutant::AtomicIgnoresCredits`]: a draining output VC is released
    /// with credits still out.
    pub atomic_ignores_credits: bool,
    /// [`Mutant::BeCapIgnored`]: VA ignores the best-effort cap.
    pub va_ignores_best_effort_cap: bool,
    /// [`Mutant::RtCapOffByOne`]: VA's real-time cap is one too high.
    pub va_realtime_cap_off_by_one: bool,
    /// [`Mutant::LaneCreditOnLane0`]: every returned credit names lane 0.
    pub credit_lane_zero: bool,
    /// [`Mutant::LaneJoinIgnoresClass`]: the sender's header joins without the class test.
    pub lane_join_ignores_class: bool,
}

impl Faults {
    /// The switch of `mutant` set (none without one).
    pub fn of(mutant: Option<Mutant>) -> Faults {
        let mut f = Faults::default();
        let Some(m) = mutant else { return f };
        *match m {
            Mutant::VaFixedPriority => &mut f.va_pointer_frozen,
            Mutant::CreditOffByOne => &mut f.one_credit_too_many,
            Mutant::TailKeepsVc => &mut f.tail_keeps_output_vc,
            Mutant::DropOnBackpressure => &mut f.ignores_output_full,
            Mutant::SkipRcStage => &mut f.va_in_rc_cycle,
            Mutant::WrongRoute => &mut f.dest0_misrouted,
            Mutant::CreditNotReturned => &mut f.credit0_never_returned,
            Mutant::VcLargestStampWins => &mut f.vc_largest_stamp_wins,
            Mutant::VcNoMaxNow => &mut f.vc_stamp_ignores_now,
            Mutant::VcRebaseOffByOne => &mut f.vc_rebase_one_too_far,
            Mutant::VcRestampEveryCycle => &mut f.vc_restamp_every_cycle,
            Mutant::VcBestEffortFirst => &mut f.vc_best_effort_first,
            Mutant::VcStaleMax => &mut f.vc_max_from_stale_aux,
            Mutant::VcStampNotRebased => &mut f.vc_stamp_not_rebased,
            Mutant::VcStaleOrder => &mut f.vc_stale_order,
            Mutant::PreNoDummyTail => &mut f.no_dummy_tail,
            Mutant::PreStackPopsBottom => &mut f.stack_reads_bottom,
            Mutant::PreLowerIntoExtra => &mut f.lane_fit_strict,
            Mutant::PreAccelNeverCleared => &mut f.accel_never_cleared,
            Mutant::PreNoDummyHeader => &mut f.no_dummy_header,
            Mutant::PreDummyBitDropped => &mut f.dummy_bit_dropped,
            Mutant::PartIgnoresClass => &mut f.va_ignores_partition,
            Mutant::BlkHoldPastTail => &mut f.block_hold_past_tail,
            Mutant::RouteVcsIgnored => &mut f.va_ignores_route_vcs,
            Mutant::LinkChoiceFirst => &mut f.rc_first_parallel_link,
            Mutant::RrGrantNotOnehot => &mut f.rr_grant_not_onehot,
            Mutant::VaIgnoresAllocated => &mut f.va_ignores_allocated,
            Mutant::PickIgnoresEmpty => &mut f.pick_ignores_empty,
            Mutant::SaIgnoresMo => &mut f.sa_ignores_matched_outputs,
            Mutant::SaRelUnsigned => &mut f.sa_rel_unsigned,
            Mutant::SaSkipsRound2 => &mut f.sa_skips_round2,
            Mutant::SaXbPtrFrozen => &mut f.sa_xb_ptr_frozen,
            Mutant::SaRoomIgnoresPend => &mut f.sa_room_ignores_pend,
            Mutant::SaGrantsBehindTail => &mut f.sa_grants_behind_tail,
            Mutant::SaCreditLate => &mut f.sa_credit_late,
            Mutant::SaAgeEntryLate => &mut f.sa_age_entry_late,
            Mutant::PreRegStepWhileCrossing => &mut f.p_reg_steps_while_crossing,
            Mutant::PreRegKindIgnored => &mut f.p_reg_kind_ignored,
            Mutant::PreAccClearAtGrant => &mut f.acc_clear_at_grant,
            Mutant::VaFlagUnmasked => &mut f.va_flag_unmasked,
            Mutant::VaPreGrantUnmasked => &mut f.va_pre_grant_unmasked,
            Mutant::VaNextHeaderLate => &mut f.va_next_header_late,
            Mutant::SplitRoomCountsOne => &mut f.split_room_counts_one,
            Mutant::SplitLoserKeepsTail => &mut f.split_loser_keeps_tail,
            Mutant::SplitLoserKept => &mut f.split_loser_kept,
            Mutant::SplitWriteNoBypass => &mut f.split_write_no_bypass,
            Mutant::SplitStampedRoomIgnoresPend => &mut f.split_stamped_room_ignores_pend,
            Mutant::AtomicIgnoresCredits => &mut f.atomic_ignores_credits,
            Mutant::BeCapIgnored => &mut f.va_ignores_best_effort_cap,
            Mutant::RtCapOffByOne => &mut f.va_realtime_cap_off_by_one,
            Mutant::LaneCreditOnLane0 => &mut f.credit_lane_zero,
            Mutant::LaneJoinIgnoresClass => &mut f.lane_join_ignores_class,
        } = true;
        f
    }
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Unknown mutant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown mutant `{0}` (known: va-fixed-priority, credit-off-by-one, tail-keeps-vc, drop-on-backpressure, skip-rc-stage, wrong-route, credit-not-returned, vc-largest-stamp-wins, vc-no-max-now, vc-rebase-off-by-one, vc-restamp-every-cycle, vc-best-effort-first, vc-stale-max, vc-stamp-not-rebased, vc-stale-order, pre-no-dummy-tail, pre-stack-pops-bottom, pre-lower-into-extra, pre-accel-never-cleared, pre-no-dummy-header, pre-dummy-bit-dropped, part-ignores-class, blk-hold-past-tail, route-vcs-ignored, link-choice-first, rr-grant-not-onehot, va-ignores-allocated, pick-ignores-empty, sa-ignores-mo, sa-rel-unsigned, sa-skips-round2, sa-xb-ptr-frozen, sa-room-ignores-pend, sa-grants-behind-tail, sa-credit-late, sa-age-entry-late, pre-reg-step-while-crossing, pre-reg-kind-ignored, pre-acc-clear-at-grant, va-flag-unmasked, va-pre-grant-unmasked, va-next-header-late, split-room-counts-one, split-loser-keeps-tail, split-loser-kept, split-write-no-bypass, split-stamped-room-ignores-pend, atomic-ignores-credits, be-cap-ignored, rt-cap-off-by-one, lane-credit-on-lane0, lane-join-ignores-class)")]
pub struct UnknownMutant(pub String);

impl FromStr for Mutant {
    type Err = UnknownMutant;
    /// Accepts the kebab-case name, the snake_case name or the variant name (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm: String = s.chars().filter(|c| *c != '-' && *c != '_').collect::<String>().to_ascii_lowercase();
        Mutant::every()
            .into_iter()
            .find(|m| m.variant_name().to_ascii_lowercase() == norm)
            .ok_or_else(|| UnknownMutant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_round_trip() {
        for m in Mutant::every().iter() {
            assert_eq!(m.name().parse::<Mutant>().unwrap(), *m);
            assert_eq!(m.variant_name().parse::<Mutant>().unwrap(), *m);
            assert_eq!(m.name().replace('-', "_").parse::<Mutant>().unwrap(), *m);
        }
        assert!("nope".parse::<Mutant>().is_err());
        assert_eq!(Mutant::all().len(), 7);
        assert_eq!(Mutant::virtualclock().len(), 8);
        assert!(Mutant::virtualclock().iter().all(|m| m.is_virtualclock() && !Mutant::all().contains(m)));
        assert_eq!("VcNoMaxNow".parse::<Mutant>().unwrap(), Mutant::VcNoMaxNow);
        assert_eq!(Mutant::qos().len(), 8);
        assert!(Mutant::qos().iter().all(|m| m.is_qos() && !Mutant::all().contains(m) && !m.is_virtualclock()));
        assert_eq!("pre-no-dummy-tail".parse::<Mutant>().unwrap(), Mutant::PreNoDummyTail);
        assert_eq!(Mutant::routing(), &[Mutant::RouteVcsIgnored, Mutant::LinkChoiceFirst]);
        assert!(!Mutant::RouteVcsIgnored.is_qos() && Mutant::RouteVcsIgnored.is_routing());
        let every = Mutant::every();
        assert_eq!(every.len(), 7 + 8 + 8 + 2 + 3 + 4 + 7 + 2 + 1 + 4 + 1 + 1 + 1 + 1 + 2);
        assert_eq!(Mutant::registered_acceleration(), &[Mutant::PreAccClearAtGrant]);
        assert!(Mutant::registered_preemptive().iter().all(|m| !Mutant::registered().contains(m) && !m.is_qos()));
        assert_eq!(Mutant::split_vclock(), &[Mutant::SplitStampedRoomIgnoresPend]);
        assert_eq!(Mutant::lane_credits(), &[Mutant::LaneCreditOnLane0, Mutant::LaneJoinIgnoresClass]);
        assert_eq!(Mutant::reallocation(), &[Mutant::AtomicIgnoresCredits]);
        assert_eq!(Mutant::best_effort_cap(), &[Mutant::BeCapIgnored]);
        assert_eq!(Mutant::realtime_cap(), &[Mutant::RtCapOffByOne]);
        assert!(Mutant::registered().iter().all(|m| !m.is_allocator() && !m.is_qos() && !m.is_virtualclock()));
        assert!(Mutant::split().iter().all(|m| !m.is_allocator() && !m.is_qos() && !m.is_virtualclock() && !Mutant::registered().contains(m)));
        assert!(Mutant::allocator().iter().all(|m| m.is_allocator() && !m.is_qos() && !m.is_virtualclock()));
        // every mutant sets its own fault switch, and only one
        assert_eq!(Faults::of(None), Faults::default());
        let mut seen = std::collections::HashSet::new();
        for m in &every {
            let f = Faults::of(Some(*m));
            assert_eq!(format!("{f:?}").matches("true").count(), 1, "{m} sets not exactly one fault");
            assert!(seen.insert(format!("{f:?}")), "{m} shares its faults with another mutant");
        }
        for m in &every {
            assert!(UnknownMutant("x".into()).to_string().contains(m.name()), "{m} missing from the error message");
        }
    }
}
