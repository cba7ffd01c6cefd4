//! The output VCs a waiting header wants, split by who holds them (issue
//! 23 item 1, docs/reproduction.md "Which of P's mechanisms makes its
//! excursions"): in a [`LaneHold::VcWait`](super::dummy_tail::LaneHold::VcWait)
//! cycle the suspended lane's best effort is routed to a port and waits
//! for one of its output VCs, so the dummy tail owed behind it waits too.
//! Each of that port's M output VCs goes to one [`OutVcHold`]: free, or
//! held by a message of class real time / best effort / control that in
//! the cycle sends a flit on the output link, has flits in its output
//! buffer while the link carries another VC's flit, or has none there
//! (its next flits still at the input side). Read only from the router's
//! registers after the cycle; the run is unchanged.

use super::holders::{place, switch, HolderSwitch, SourceView, HOLDER_PLACES, HOLDER_SWITCHES};
use wormqos_sim::{Router, Width};

/// The classes as the workload codes them (`source_vc_holds.rs`).
const BEST_EFFORT: u32 = 0;
const REAL_TIME: u32 = 1;
const CONTROL: u32 = 2;

/// Who held one output VC of the wanted port in the cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutVcHold {
    RealTimeSending,
    RealTimeBuffered,
    RealTimeEmpty,
    BestEffortSending,
    BestEffortBuffered,
    BestEffortEmpty,
    ControlSending,
    ControlBuffered,
    ControlEmpty,
    /// Not allocated (a best-effort header then waits at its cap, §9.4
    /// stage 3 *Best-effort cap*, or lost VA's round robin).
    Free,
}

pub const OUT_VC_HOLDS: usize = 10;

impl OutVcHold {
    pub const ALL: [OutVcHold; OUT_VC_HOLDS] = [
        OutVcHold::RealTimeSending,
        OutVcHold::RealTimeBuffered,
        OutVcHold::RealTimeEmpty,
        OutVcHold::BestEffortSending,
        OutVcHold::BestEffortBuffered,
        OutVcHold::BestEffortEmpty,
        OutVcHold::ControlSending,
        OutVcHold::ControlBuffered,
        OutVcHold::ControlEmpty,
        OutVcHold::Free,
    ];

    /// Its column name in a CSV.
    pub fn name(self) -> &'static str {
        match self {
            OutVcHold::RealTimeSending => "out_vc_rt_sending",
            OutVcHold::RealTimeBuffered => "out_vc_rt_buffered",
            OutVcHold::RealTimeEmpty => "out_vc_rt_empty",
            OutVcHold::BestEffortSending => "out_vc_be_sending",
            OutVcHold::BestEffortBuffered => "out_vc_be_buffered",
            OutVcHold::BestEffortEmpty => "out_vc_be_empty",
            OutVcHold::ControlSending => "out_vc_ctl_sending",
            OutVcHold::ControlBuffered => "out_vc_ctl_buffered",
            OutVcHold::ControlEmpty => "out_vc_ctl_empty",
            OutVcHold::Free => "out_vc_free",
        }
    }

    /// A held VC's entry: its holder's class (0, 1, 2) and whether a flit
    /// of it is on the link / in its output buffer.
    fn held(class: u32, sending: bool, buffered: bool) -> OutVcHold {
        let state = if sending { 0 } else if buffered { 1 } else { 2 };
        let base = match class {
            REAL_TIME => 0,
            BEST_EFFORT => 3,
            CONTROL => 6,
            c => unreachable!("class {c}: the workload has three"),
        };
        OutVcHold::ALL[base + state]
    }
}

/// The class of the message holding output VC (o, u), owned by input VC
/// `owner`: the class in its header register (§9.1 `cls`: a code beyond
/// the classes is class 0), except while that input VC ends a preempted
/// part with a dummy tail (serving lane below its top, §9.4 case (a)):
/// the header register then holds the preempting header, and the output
/// VC is still the suspended lane's, of the lane's class.
fn holder_class<X: Width>(router: &Router<X>, owner: usize) -> u32 {
    let m = router.config().vcs();
    let (p, v) = (owner / m, owner % m);
    let classes = router.config().traffic_classes();
    let cls = |code: u32| if code >= classes { 0 } else { code };
    match router.lane_regs(p, v) {
        Some(r) if r.sl < r.top => cls(r.lmax[r.sl] as u32),
        _ => cls(router.header_register(p, v).expect("an input VC has a header register").class),
    }
}

/// Adds one cycle's split of port `route`'s output VCs to `counts`
/// (indexed by position in [`OutVcHold::ALL`]; M entries a cycle), and of
/// those held by best effort with no flit past the crossbar, where the
/// holder's next flit is to `places` ([`super::holders`]; `source(p, v)`:
/// what the source feeding input VC (p, v) noted in the cycle), and of
/// those with it in the router, what their input port passed through the
/// crossbar to `switches` (`per_lane`: credits name their lanes).
pub fn count<X: Width>(router: &Router<X>, route: usize, counts: &mut [u32; OUT_VC_HOLDS], places: &mut [u32; HOLDER_PLACES], switches: &mut [u32; HOLDER_SWITCHES], per_lane: bool, source: impl Fn(usize, usize) -> SourceView) {
    let m = router.config().vcs();
    let link = &router.outputs().flits[route];
    for u in 0..m {
        let hold = if !router.allocated(route, u) {
            OutVcHold::Free
        } else {
            let owner = router.owner(route, u).expect("an allocated output VC has an owner");
            let sending = link.valid && link.vc as usize == u;
            let hold = OutVcHold::held(holder_class(router, owner), sending, router.output_occupancy(route, u) > 0);
            if hold == OutVcHold::BestEffortEmpty {
                let (p, v) = (owner / m, owner % m);
                let at = place(router, p, v, source(p, v));
                places[at as usize] += 1;
                if HolderSwitch::applies(at) {
                    switches[switch(router, p, v, per_lane) as usize] += 1;
                }
            }
            hold
        };
        counts[hold as usize] += 1;
    }
}
