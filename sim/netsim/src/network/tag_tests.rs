//! §9.6 *Ids at the network simulator's sources*: a message takes the first
//! id from its destination's counter on that no message in flight holds.

use super::{take_tag, MsgRec, SourceVc};
use crate::workload::Message;

fn rec(dest: u32) -> MsgRec {
    let m = Message { flow: 0, dest, class: 0, vtick: 0, flits: 1, frame: u32::MAX, frame_msgs: 0 };
    MsgRec { m, flow: 0, src: 0, created: 0, injected: 0, received: 0, tag: u32::MAX, measured: false, stalled: 0, at_source: SourceVc::default(), queue: 0 }
}

/// Four ids (mask 3) to endpoint 0. By hand: messages 0..=3 take ids 0, 1,
/// 2, 3 and the counter comes back to 0. Messages 1 and 2 are delivered
/// (ids 1 and 2 free), 0 and 3 stay in flight. Message 4 finds the
/// counter's id 0 held and takes the next free one, 1 (counter 2); message
/// 5 takes 2 (counter 3); message 6 finds 3, 0, 1, 2 all held and waits.
/// Waiting for the counter's id instead would leave message 4 waiting
/// while ids 1 and 2 are free.
#[test]
fn a_message_skips_ids_in_flight_to_its_destination() {
    let mut slab: Vec<MsgRec> = (0..7).map(|_| rec(0)).collect();
    let (mut inflight, mut next) = (vec![vec![0u32; 4]], vec![0u32]);
    for idx in 0..4 {
        assert!(take_tag(&mut inflight, &mut next, 3, &mut slab, idx));
        assert_eq!(slab[idx as usize].tag, idx);
    }
    assert_eq!(next[0], 0);
    inflight[0][1] = 0;
    inflight[0][2] = 0;
    assert!(take_tag(&mut inflight, &mut next, 3, &mut slab, 4));
    assert_eq!((slab[4].tag, next[0]), (1, 2));
    assert!(take_tag(&mut inflight, &mut next, 3, &mut slab, 5));
    assert_eq!((slab[5].tag, next[0]), (2, 3));
    assert!(!take_tag(&mut inflight, &mut next, 3, &mut slab, 6));
    assert_eq!((slab[6].tag, next[0]), (u32::MAX, 3));
    assert_eq!(inflight[0], vec![1, 5, 6, 4]);
}
