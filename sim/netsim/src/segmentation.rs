//! 004_… §4.1.1's source segmentation queues (`workload.source_queues =
//! "per_direction_*"`): which queue of its source a message joins.
//!
//! The paper: "If we assume that there are only two queues; each stores
//! flits belong to packets sent in the same direction (left or right)",
//! Eq. (8) an M/D/1 queue per direction whose service time is t̄_s. A
//! direction is defined for every topology here as the neighbour router the
//! message's first hop leads to (on a ring: left or right, whichever of the
//! `links` parallel links it takes); messages to an endpoint of the
//! source's own router share one more queue. The engine (`network.rs`)
//! keeps one FIFO per queue and serves one message per queue at a time.

use crate::topology::{Network, Peer};

/// The queues of every router's endpoints.
#[derive(Clone, Debug)]
pub struct SegmentationQueues {
    /// A message holds its queue until its tail is delivered (else until
    /// its tail flit has left the source).
    pub until_delivered: bool,
    /// `queue_of_port[r][o]`: the queue of a message whose first hop leaves
    /// router r by output port o.
    queue_of_port: Vec<Vec<u8>>,
    /// Queues at router r's endpoints (distinct neighbours + 1 local).
    per_router: Vec<usize>,
}

impl SegmentationQueues {
    /// Numbers router r's distinct neighbour routers in port order (0, 1,
    /// …); every output port that leads to an endpoint (or nowhere) gets the
    /// next number, the local queue.
    pub fn new(net: &Network, until_delivered: bool) -> Self {
        let mut queue_of_port = Vec::with_capacity(net.routers);
        let mut per_router = Vec::with_capacity(net.routers);
        for ports in &net.out_link {
            let mut neighbours: Vec<usize> = Vec::new();
            let mut q: Vec<Option<u8>> = Vec::with_capacity(ports.len());
            for peer in ports {
                q.push(match *peer {
                    Peer::Router { router, .. } => Some(match neighbours.iter().position(|&n| n == router) {
                        Some(i) => i as u8,
                        None => {
                            neighbours.push(router);
                            (neighbours.len() - 1) as u8
                        }
                    }),
                    Peer::Endpoint(_) | Peer::Unused => None,
                });
            }
            let local = neighbours.len() as u8;
            queue_of_port.push(q.into_iter().map(|x| x.unwrap_or(local)).collect());
            per_router.push(neighbours.len() + 1);
        }
        SegmentationQueues { until_delivered, queue_of_port, per_router }
    }

    /// The queue a message from endpoint `s` to `d` joins at `s`.
    pub fn queue(&self, net: &Network, s: usize, d: usize) -> u8 {
        let (r, _) = net.endpoint_at[s];
        self.queue_of_port[r][net.routes[r][net.dest_code(s, d)] as usize]
    }

    /// How many queues endpoint `s` has.
    pub fn queues_at(&self, net: &Network, s: usize) -> usize {
        self.per_router[net.endpoint_at[s].0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologySpec;

    /// 16-node multi-link ring, l = 4 (ports 0 local, 1..=4 the + links,
    /// 5..=8 the − links): from node 0, destinations 1..=8 go + (ties +,
    /// 8 is 8 hops either way) and 9..=15 go −, whatever the link, and
    /// under both strategies.
    #[test]
    fn a_ring_has_one_queue_per_direction_whatever_the_link() {
        for strategy in ["destination_block", "source_block"] {
            let spec: TopologySpec =
                toml::from_str(&format!("kind = \"multilink_ring\"\nnodes = 16\nlinks = 4\nstrategy = \"{strategy}\"")).unwrap();
            let net = spec.build(9).unwrap();
            let q = SegmentationQueues::new(&net, true);
            assert_eq!(q.queues_at(&net, 0), 3, "{strategy}: +, − and local");
            for d in 1..=8 {
                assert_eq!(q.queue(&net, 0, d), 0, "{strategy}: 0 -> {d} goes + (node 1)");
            }
            for d in 9..16 {
                assert_eq!(q.queue(&net, 0, d), 1, "{strategy}: 0 -> {d} goes − (node 15)");
            }
            // From node 5: 6..=13 go +, 14, 15, 0..=4 go −.
            for d in (0..16).filter(|&d| d != 5) {
                let plus = (d + 16 - 5) % 16 <= 8;
                assert_eq!(q.queue(&net, 5, d), if plus { 0 } else { 1 }, "{strategy}: 5 -> {d}");
            }
        }
    }

    /// A 2 × 2 mesh (one endpoint per router, port 0; XY routing): from
    /// router 0 at (0, 0), endpoint 1 at (1, 0) and 3 at (1, 1) go +x
    /// first, 2 at (0, 1) goes +y: two queues of three (+ local).
    #[test]
    fn a_mesh_has_one_queue_per_neighbour() {
        let spec: TopologySpec = toml::from_str("kind = \"mesh\"\nk = 2").unwrap();
        let net = spec.build(5).unwrap();
        let q = SegmentationQueues::new(&net, false);
        assert_eq!(q.queues_at(&net, 0), 3);
        assert_eq!(q.queue(&net, 0, 1), q.queue(&net, 0, 3));
        assert_ne!(q.queue(&net, 0, 1), q.queue(&net, 0, 2));
        assert_eq!(q.queue(&net, 0, 0), 2, "to itself: the local queue");
    }
}
