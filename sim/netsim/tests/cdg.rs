//! The deadlock checks on routing tables (`cdg.rs`): hand-built tables on a
//! 4-node unidirectional ring, with and without the dateline classes of
//! docs/microarchitecture.md §11, a route to a missing link, a route to the
//! wrong endpoint, and every built-in topology's own tables.

use wormqos_netsim::cdg::{check, CdgError, Channel, Tables};
use wormqos_netsim::topology::TopologySpec;

/// The wiring of a 4-node ring, one link: router i's port 1 drives router
/// i+1's port 1; endpoint i on port 0 of router i.
fn ring4() -> wormqos_netsim::topology::Network {
    TopologySpec::Ring { nodes: 4, links: Some(1), dateline: false }.build(2).unwrap()
}

/// Hand-written routes of the ring: port 0 at the destination, else port 1.
fn ring_routes() -> Vec<Vec<u32>> {
    (0..4).map(|r| (0..4).map(|d| u32::from(d != r)).collect()).collect()
}

fn tables<'a>(routes: &'a [Vec<u32>], avc: &'a [Vec<u32>], class_vcs: &'a [u32]) -> Tables<'a> {
    Tables { routes, links: &[], avc, vcs: 2, class_vcs }
}

#[test]
fn ring_without_dateline_has_the_four_link_cycle() {
    let net = ring4();
    let routes = ring_routes();
    let err = check(&net, &tables(&routes, &[], &[0b11])).unwrap_err();
    let CdgError::Cycle(c) = &err else { panic!("{err}") };
    // By hand: a worm holding r -> r+1 waits for r+1 -> r+2; the cycle
    // goes once round the ring: four channels, each on port 1, each
    // leading to the next one's router.
    assert_eq!(c.len(), 4, "{err}");
    for (i, ch) in c.iter().enumerate() {
        assert_eq!(ch.port, 1, "{err}");
        assert_eq!(ch.to, (ch.router + 1) % 4, "{err}");
        assert_eq!(c[(i + 1) % 4].router, ch.to, "{err}");
    }
    let text = err.to_string();
    assert!(text.contains("cycle") && text.contains("router 3 port 1 VC"), "{text}");
}

#[test]
fn ring_with_the_dateline_classes_is_acyclic() {
    let net = ring4();
    let routes = ring_routes();
    // §11, by hand: still to cross the wrap link 3 -> 0 (r > d): VC 0;
    // not (r < d): VC 1; at the destination: both.
    let avc: Vec<Vec<u32>> = (0..4).map(|r| (0..4).map(|d| if r > d { 0b01 } else if r < d { 0b10 } else { 0b11 }).collect()).collect();
    assert_eq!(check(&net, &tables(&routes, &avc, &[0b11])), Ok(()));
    // The classes swapped at one router (router 1 gives its "still to
    // cross" messages VC 1): then VC 1 carries 1 -> 2 -> 3 -> 0 -> 1.
    let mut bad = avc.clone();
    bad[1] = (0..4).map(|d| if 1 > d { 0b10 } else if 1 < d { 0b10 } else { 0b11 }).collect();
    assert!(matches!(check(&net, &tables(&routes, &bad, &[0b11])), Err(CdgError::Cycle(_))));
}

#[test]
fn routes_to_a_missing_link_or_the_wrong_endpoint_are_refused() {
    let net = ring4();
    let mut routes = ring_routes();
    routes[2][0] = 2; // router 2 has ports 0 and 1 only
    let e = check(&net, &tables(&routes, &[], &[0b11])).unwrap_err();
    assert_eq!(e, CdgError::MissingLink { router: 2, code: 0, port: 2, endpoint: 0 });
    assert!(e.to_string().contains("missing link"), "{e}");
    let mut routes = ring_routes();
    routes[1][3] = 0; // endpoint 1 sits on port 0
    let e = check(&net, &tables(&routes, &[], &[0b11])).unwrap_err();
    assert_eq!(e, CdgError::WrongEndpoint { router: 1, code: 3, port: 0, got: 1, endpoint: 3 });
    // A class whose VCs the entry does not allow: waits for ever.
    let routes = ring_routes();
    let avc: Vec<Vec<u32>> = vec![vec![0b01; 4]; 4];
    let e = check(&net, &tables(&routes, &avc, &[0b01, 0b10])).unwrap_err();
    assert!(matches!(e, CdgError::NoVc { class: 1, .. }), "{e}");
}

/// The tables every built-in topology gives (with its VC classes) pass;
/// the ones documented to deadlock without them do not.
#[test]
fn built_in_topologies_pass_and_their_no_dateline_variants_fail() {
    use TopologySpec::*;
    let ok = [
        (Mesh { k: 3 }, 5),
        (Torus { k: 4, n: 2, dateline: true }, 5),
        (Torus { k: 5, n: 1, dateline: true }, 3),
        (Hypercube { n: 3 }, 4),
        (FatMesh { k: 2, links: 2, endpoints: 4 }, 8),
        (Ring { nodes: 8, links: Some(2), dateline: true }, 3),
        (MultilinkRing { nodes: 8, links: Some(2), dateline: true, strategy: Default::default() }, 5),
        (MultilinkRing { nodes: 8, links: Some(2), dateline: true, strategy: wormqos_netsim::topology::RingStrategy::SourceBlock }, 5),
        (UnidirectionalTorus { k: 4, n: 2, shared_vcs: Default::default() }, 3),
    ];
    let bad = [
        (Torus { k: 4, n: 2, dateline: false }, 5),
        (Ring { nodes: 4, links: Some(1), dateline: false }, 2),
        (MultilinkRing { nodes: 8, links: Some(2), dateline: false, strategy: Default::default() }, 5),
        (UnidirectionalTorus { k: 4, n: 2, shared_vcs: wormqos_netsim::topology::SharedVcs::Any }, 3),
    ];
    for (ok, list) in [(true, &ok[..]), (false, &bad[..])] {
        for (spec, ports) in list {
            let net = spec.build(*ports).unwrap();
            let vcs = 4;
            let avc: Vec<Vec<u32>> = (0..net.routers).map(|r| net.route_vcs(r, vcs, None).unwrap().unwrap_or_default()).collect();
            let r = check(&net, &Tables { routes: &net.routes, links: &net.route_links, avc: &avc, vcs, class_vcs: &[0b1111] });
            assert_eq!(r.is_ok(), ok, "{spec:?}: {r:?}");
        }
    }
}

#[test]
fn channels_print_router_port_vc_and_next_router() {
    let c = Channel { router: 3, port: 1, vc: 0, to: 0 };
    assert_eq!(c.to_string(), "router 3 port 1 VC 0 (to router 0)");
}
