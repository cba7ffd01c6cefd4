//! Packet-scale replays of one seed's logged real-time messages, each the
//! counterpart of one approximation of the coupled model
//! (`BurstClass::coupled_delay`, docs/reproduction.md "Which approximation
//! makes the g = 64, K = 4 excess"): the model serves the source's one VC
//! at a constant c_b (every message blocked B̄ cycles) and treats the
//! streams as fluid, and it takes the destination's output as a fluid
//! queue of the streams that drew it. Replaying the real creation times
//! through the same servers with messages in place of fluid separates the
//! fluid approximation (replay against the fluid queue at the same
//! service) from the constant service (replay against the measured waits).
//!
//! Every function takes every source's real-time messages in VC order
//! (sorted by `Row::add_split`: source, VC start, creation), L0 = M + 4 (a
//! message alone in the router) and S = M + 2 (the VC's cycles per message
//! back to back).

use wormqos_netsim::network::MessageLog;

/// The source VC as a FIFO server whose every message takes S + `blocking`
/// cycles, fed by the real creation times: each message's delivery
/// d_j = max(created_j + L0, d_prev + S) + `blocking`, with every stream
/// of its source on the VC (`all`) and with its stream replayed alone
/// (`own`), in `rt`'s order.
pub struct SourceFifo {
    pub all: Vec<f64>,
    pub own: Vec<f64>,
}

impl SourceFifo {
    pub fn replay(rt: &[MessageLog], l0: u64, s: u64, blocking: f64) -> SourceFifo {
        let (l0, s) = (l0 as f64, s as f64);
        let mut last_of_source: Option<(u32, f64)> = None;
        let mut last_of_flow: std::collections::HashMap<u32, f64> = Default::default();
        let (mut all, mut own) = (Vec::with_capacity(rt.len()), Vec::with_capacity(rt.len()));
        for x in rt {
            let earliest = x.created as f64 + l0;
            let prev = last_of_source.filter(|&(src, _)| src == x.src).map(|(_, d)| d);
            let d_all = prev.map_or(earliest, |d| earliest.max(d + s)) + blocking;
            let d_own = last_of_flow.get(&x.flow).map_or(earliest, |&d| earliest.max(d + s)) + blocking;
            last_of_source = Some((x.src, d_all));
            last_of_flow.insert(x.flow, d_own);
            all.push(d_all);
            own.push(d_own);
        }
        SourceFifo { all, own }
    }

    /// The mean wait w_j = d_j − created_j − L0 − `blocking`, every stream
    /// together and each alone: all − own is the wait behind the source's
    /// other streams, the counterpart of the model's W_K(c_b) − W_1(c_b) at
    /// c_b = M/(S + `blocking`) (flits per cycle, c = 1).
    pub fn mean_waits(&self, rt: &[MessageLog], l0: u64, blocking: f64) -> (f64, f64) {
        let wait = |d: &[f64]| d.iter().zip(rt).map(|(d, x)| d - (x.created + l0) as f64 - blocking).sum::<f64>() / rt.len().max(1) as f64;
        (wait(&self.all), wait(&self.own))
    }
}

/// The blocking of the messages that another message of their source
/// waits behind (its VC successor was created before it could hand the VC
/// over: created_{j+1} + L0 < delivered_j + S), the service those waiting
/// messages meet: (sum of b_j, count) over all such j, and over those
/// whose waiting successor is of another stream. `blocks[j]` is message
/// j's measured blocking (`Row::add_split`).
pub fn blocking_ahead(rt: &[MessageLog], blocks: &[f64], l0: u64, s: u64) -> [(f64, u64); 2] {
    let mut out = [(0.0, 0u64); 2];
    for (j, w) in rt.windows(2).enumerate() {
        let (x, next) = (&w[0], &w[1]);
        if x.src == next.src && next.created + l0 < x.delivered + s {
            out[0].0 += blocks[j];
            out[0].1 += 1;
            if next.flow != x.flow {
                out[1].0 += blocks[j];
                out[1].1 += 1;
            }
        }
    }
    out
}

/// Every destination's output as a FIFO server fed at `arrival[j]` (the
/// cycle message j's tail would be delivered if the output were free):
/// e_j = max(arrival_j, e_prev + spacing), the spacing M + 1 after a
/// message of another source (the waiting header did RC already,
/// "Tandem links on 16 ports") and S after one of the same source (its
/// VC's turnaround). Returns the mean of e_j − arrival_j over every
/// message: with arrival = created + L0 the packet-scale counterpart of the
/// model's destination link (the streams that drew it, unshaped upstream,
/// which the model's tandem leaves unchanged wherever r ≤ c_s).
pub fn destination_fifo(rt: &[MessageLog], arrival: &[f64], flits: u64) -> f64 {
    let mut order: Vec<usize> = (0..rt.len()).collect();
    order.sort_by(|&a, &b| (rt[a].dest, arrival[a], rt[a].src).partial_cmp(&(rt[b].dest, arrival[b], rt[b].src)).unwrap());
    let (other, same) = ((flits + 1) as f64, (flits + 2) as f64);
    let mut prev: Option<(u32, u32, f64)> = None;
    let mut delay = 0.0;
    for &j in &order {
        let x = &rt[j];
        let e = match prev {
            Some((dest, src, e)) if dest == x.dest => arrival[j].max(e + if src == x.src { same } else { other }),
            _ => arrival[j],
        };
        prev = Some((x.dest, x.src, e));
        delay += e - arrival[j];
    }
    delay / rt.len().max(1) as f64
}

/// The router as a packet-scale coupled queue, fed by the real creation
/// times and destinations: each source's VC passes its messages in order,
/// a message can be delivered at free_j = max(created_j + L0, d_prev + S)
/// behind its VC predecessor, and its destination's output delivers the
/// waiting messages first come (by free_j) first served, M + 1 cycles after
/// a message of another source and S after one of the same source, while
/// the message holds its source's VC: d_j = max(free_j, e + spacing), e the
/// output's last delivery. Nothing of the model's approximations (fluid,
/// a constant blocking B̄, links added): the same servers message by
/// message. Returns each message's delivery, in `rt`'s order.
pub fn coupled_deliveries(rt: &[MessageLog], l0: u64, s: u64, flits: u64) -> Vec<u64> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    // Each source's messages: the range of `rt` it holds (sorted by source).
    let mut next: HashMap<u32, (usize, usize)> = HashMap::new();
    for (j, x) in rt.iter().enumerate() {
        next.entry(x.src).and_modify(|r| r.1 = j + 1).or_insert((j, j + 1));
    }
    let mut ready: BinaryHeap<Reverse<(u64, u32, usize)>> = next.values().map(|&(j, _)| Reverse((rt[j].created + l0, rt[j].src, j))).collect();
    let mut output: HashMap<u32, (u64, u32)> = HashMap::new();
    let mut delivered = vec![0u64; rt.len()];
    // Popped in order of free_j: every message that reached an output
    // earlier has been delivered there, so the output's last delivery is final.
    while let Some(Reverse((free, src, j))) = ready.pop() {
        let x = &rt[j];
        let d = match output.get(&x.dest) {
            Some(&(e, from)) => free.max(e + if from == src { s } else { flits + 1 }),
            None => free,
        };
        output.insert(x.dest, (d, src));
        delivered[j] = d;
        let range = next.get_mut(&src).expect("every source has a range");
        range.0 += 1;
        if range.0 < range.1 {
            let y = &rt[range.0];
            ready.push(Reverse(((y.created + l0).max(d + s), src, range.0)));
        }
    }
    delivered
}

#[cfg(test)]
mod tests {
    use super::*;
    use wormqos_netsim::network::SourceVc;

    fn message(flow: u32, src: u32, dest: u32, created: u64, delivered: u64) -> MessageLog {
        MessageLog { flow, src, dest, class: 1, flits: 2, source: SourceVc { started: created, ..SourceVc::default() }, frame: 0, frame_msgs: 1, created, injected: created, delivered }
    }

    /// M = 2: L0 = 6, S = 4, M + 1 = 3. One source, streams 0 and 1,
    /// created at 0, 1, 2 (flows 0, 1, 0).
    #[test]
    fn the_source_vc_at_a_constant_blocking_by_hand() {
        let rt = [message(0, 0, 1, 0, 0), message(1, 0, 2, 1, 0), message(0, 0, 1, 2, 0)];
        // Blocking 1: all: d = 7, max(7, 7 + 4) + 1 = 12, max(8, 12 + 4) + 1
        // = 17; waits 0, 12 − 7 − 1 = 4, 17 − 8 − 1 = 8: mean 4. Own: flow
        // 0 at 7 and max(8, 7 + 4) + 1 = 12, wait 3; flow 1 alone 0: mean 1.
        let fifo = SourceFifo::replay(&rt, 6, 4, 1.0);
        assert_eq!((fifo.all.clone(), fifo.own.clone()), (vec![7.0, 12.0, 17.0], vec![7.0, 8.0, 12.0]));
        let (all, own) = fifo.mean_waits(&rt, 6, 1.0);
        assert!((all - 4.0).abs() < 1e-12, "{all}");
        assert!((own - 1.0).abs() < 1e-12, "{own}");
    }

    #[test]
    fn the_blocking_ahead_of_waiting_messages_by_hand() {
        // L0 = 6, S = 4. Message 0 (flow 0) delivered at 20: message 1
        // (flow 1, created 1: 7 < 24) waits behind it; message 1 delivered
        // at 30: message 2 (flow 0, created 2: 8 < 34) waits behind it; both
        // of another stream, so 5 + 7 in both sums. Message 3 is source 1's
        // first (not behind message 2); message 4 (created 100: 106 ≥
        // 9 + 4) does not wait.
        let rt = [message(0, 0, 1, 0, 20), message(1, 0, 2, 1, 30), message(0, 0, 1, 2, 40), message(2, 1, 0, 3, 9), message(2, 1, 0, 100, 106)];
        let blocks = [5.0, 7.0, 11.0, 13.0, 17.0];
        let [any, other] = blocking_ahead(&rt, &blocks, 6, 4);
        assert_eq!(any, (12.0, 2));
        assert_eq!(other, (12.0, 2));
        let same = [message(0, 0, 1, 0, 20), message(0, 0, 1, 1, 30)];
        assert_eq!(blocking_ahead(&same, &[5.0, 7.0], 6, 4), [(5.0, 1), (0.0, 0)]);
    }

    #[test]
    fn the_coupled_router_by_hand() {
        // M = 2: L0 = 6, S = 4, M + 1 = 3. Source 0: messages to 2 created
        // at 0 and to 3 created at 1; source 1: to 2 created at 0 (ties:
        // source 0 first). Free: 6 (src 0), 6 (src 1). Src 0's first: output
        // 2 free, d = 6; src 1's: output 2 last 6 by src 0, d = max(6, 9) =
        // 9. Src 0's second: free max(7, 6 + 4) = 10, output 3 idle: 10.
        // Source 2 sends to 2 at created 4: free 10, output 2 last 9 by src
        // 1: max(10, 12) = 12. Source 0's second is not held by source 1.
        let rt = [message(0, 0, 2, 0, 0), message(1, 0, 3, 1, 0), message(2, 1, 2, 0, 0), message(3, 2, 2, 4, 0)];
        assert_eq!(coupled_deliveries(&rt, 6, 4, 2), vec![6, 10, 9, 12]);
        // Coupled: source 0's first message (created 1, free 7) finds
        // output 2 taken by source 1's (free 6, delivered 6) and is
        // delivered at max(7, 6 + 3) = 9, so its second (created 4) is
        // free at max(10, 9 + 4) = 13, not at max(10, 7 + 4) = 11.
        let rt = [message(0, 0, 2, 1, 0), message(1, 0, 3, 4, 0), message(2, 1, 2, 0, 0)];
        assert_eq!(coupled_deliveries(&rt, 6, 4, 2), vec![9, 13, 6]);
    }

    #[test]
    fn the_destination_fifo_by_hand() {
        // M = 2: M + 1 = 3 after another source, S = 4 after the same.
        // Destination 1: arrivals 10 (src 0), 11 (src 2), 12 (src 0):
        // e = 10, max(11, 13) = 13, max(12, 16) = 16 (src 2 before it);
        // delays 0, 2, 4. Destination 2: 10 (src 0), 11 (src 0): e = 10,
        // max(11, 14) = 14, delays 0, 3. Mean 9/5.
        let rt = [message(0, 0, 1, 0, 0), message(1, 2, 1, 0, 0), message(0, 0, 1, 0, 0), message(3, 0, 2, 0, 0), message(3, 0, 2, 0, 0)];
        let arrival = [10.0, 11.0, 12.0, 10.0, 11.0];
        let d = destination_fifo(&rt, &arrival, 2);
        assert!((d - 9.0 / 5.0).abs() < 1e-12, "{d}");
    }
}
