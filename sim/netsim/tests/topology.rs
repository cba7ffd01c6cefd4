//! Topology and routing correctness: every source reaches every destination
//! along a minimal path in the order the routing algorithm prescribes.

use wormqos_netsim::topology::{Peer, TopologySpec};

/// Hops (router-to-router links) on the path from s to d.
fn hops(net: &wormqos_netsim::topology::Network, s: usize, d: usize) -> usize {
    net.path(s, d).unwrap_or_else(|| panic!("{s} -> {d} does not arrive")).len() - 1
}

#[test]
fn mesh_dor_is_minimal_and_x_first() {
    let k = 5;
    let net = TopologySpec::Mesh { k }.build(5).unwrap();
    assert_eq!(net.endpoints(), 25);
    for s in 0..25usize {
        for d in 0..25 {
            let (sx, sy, dx, dy) = (s % 5, s / 5, d % 5, d / 5);
            let manhattan = sx.abs_diff(dx) + sy.abs_diff(dy);
            let path = net.path(s, d).unwrap();
            assert_eq!(path.len() - 1, manhattan, "{s}->{d}");
            // X first: y stays at sy until x reaches dx.
            let mut x_done = false;
            for r in &path {
                let (x, y) = (r % 5, r / 5);
                if x == dx {
                    x_done = true;
                }
                if !x_done {
                    assert_eq!(y, sy, "{s}->{d} moved in y before x: {path:?}");
                }
            }
        }
    }
}

#[test]
fn hypercube_ecube_corrects_lowest_bit_first() {
    let n = 5;
    let net = TopologySpec::Hypercube { n }.build(6).unwrap();
    for s in 0..32usize {
        for d in 0..32usize {
            let path = net.path(s, d).unwrap();
            assert_eq!(path.len() - 1, (s ^ d).count_ones() as usize);
            // Each hop flips the lowest still-differing bit.
            for w in path.windows(2) {
                let flipped = w[0] ^ w[1];
                assert_eq!(flipped.count_ones(), 1);
                assert_eq!(flipped, 1 << (w[0] ^ d).trailing_zeros(), "{s}->{d}: {path:?}");
            }
        }
    }
}

#[test]
fn torus_dimension_order_shortest_way() {
    let (k, n) = (5u32, 2u32);
    let net = TopologySpec::Torus { k, n, dateline: true }.build(5).unwrap();
    let ring = |a: usize, b: usize| {
        let f = (b + 5 - a) % 5;
        f.min(5 - f)
    };
    for s in 0..25usize {
        for d in 0..25 {
            let want = ring(s % 5, d % 5) + ring(s / 5, d / 5);
            assert_eq!(hops(&net, s, d), want, "{s}->{d}");
            let path = net.path(s, d).unwrap();
            // Dimension 0 is finished before dimension 1 moves.
            let first_y = path.iter().position(|r| r / 5 != s / 5).unwrap_or(path.len());
            assert!(path[first_y.saturating_sub(1)] % 5 == d % 5 || first_y == path.len(), "{s}->{d}: {path:?}");
        }
    }
}

#[test]
fn fat_mesh_of_001_fig4_and_ring_of_004() {
    // 2x2 switches of 8 ports: 4 endpoints + 2 links to each of 2 neighbours.
    let net = TopologySpec::FatMesh { k: 2, links: 2, endpoints: 4 }.build(8).unwrap();
    assert_eq!(net.endpoints(), 16);
    assert_eq!(net.ports_needed, 8);
    let links_01 = net.out_link[0].iter().filter(|p| matches!(p, Peer::Router { router: 1, .. })).count();
    assert_eq!(links_01, 2);
    for s in 0..16usize {
        for d in 0..16 {
            let (rs, rd) = (s / 4, d / 4);
            let manhattan = (rs % 2).abs_diff(rd % 2) + (rs / 2).abs_diff(rd / 2);
            assert_eq!(hops(&net, s, d), manhattan);
        }
    }
    // The table gives the first parallel port and a group of 2 for every
    // remote destination (the router picks one by load), 1 for local ones.
    for d in 0..16 {
        let remote = d / 4 != 0;
        assert_eq!(net.route_links[0][d], if remote { 2 } else { 1 }, "destination {d}");
        if remote {
            let o = net.routes[0][d] as usize;
            let neighbour = |p: usize| match net.out_link[0][p] {
                Peer::Router { router, .. } => router,
                other => panic!("port {p} is {other:?}"),
            };
            assert_eq!(neighbour(o), neighbour(o + 1), "destination {d}: ports {o} and {} are parallel", o + 1);
        }
    }

    let ring = TopologySpec::Ring { nodes: 8, links: None, dateline: true }.build(3).unwrap();
    for s in 0..8 {
        for d in 0..8 {
            assert_eq!(hops(&ring, s, d), (d + 8 - s) % 8);
            if s != d {
                assert_eq!(ring.routes[s][d], 1 + (d % 2) as u32, "ring j = d mod links");
            }
        }
    }
}

#[test]
fn too_few_ports_is_an_error_naming_the_need() {
    let e = TopologySpec::Mesh { k: 3 }.build(4).unwrap_err().to_string();
    assert!(e.contains("needs 5") && e.contains("router.ports = 4"), "{e}");
    let e = TopologySpec::Hypercube { n: 7 }.build(5).unwrap_err().to_string();
    assert!(e.contains("needs 8"), "{e}");
}

/// §11 dateline classes, checked by walking every path rather than by the
/// builder's formula: a hop gets class 0 exactly when the rest of the path
/// still uses its ring's wrap link, so the wrap link itself is class 0 and
/// class 1 never uses it.
#[test]
fn torus_dateline_classes_follow_the_wrap_link() {
    use wormqos_netsim::topology::{DATELINE_AFTER, DATELINE_ANY, DATELINE_BEFORE};
    let k = 5usize;
    let net = TopologySpec::Torus { k: k as u32, n: 2, dateline: true }.build(5).unwrap();
    assert_eq!(net.vc_class.len(), 25);
    for s in 0..25usize {
        for d in 0..25usize {
            let path = net.path(s, d).unwrap();
            for w in path.windows(2) {
                let (r, next) = (w[0], w[1]);
                let port = net.routes[r][d] as usize;
                let class = net.vc_class[r][d];
                let dim = (port - 1) / 2;
                let plus = port % 2 == 1;
                let (c, nc) = if dim == 0 { (r % k, next % k) } else { (r / k, next / k) };
                let wrap = if plus { c == k - 1 && nc == 0 } else { c == 0 && nc == k - 1 };
                // Does the path from here still use this ring's wrap link?
                let rest = &path[path.iter().position(|&x| x == r).unwrap()..];
                let crosses_later = rest.windows(2).any(|h| {
                    let (a, b) = if dim == 0 { (h[0] % k, h[1] % k) } else { (h[0] / k, h[1] / k) };
                    a != b && if plus { a == k - 1 && b == 0 } else { a == 0 && b == k - 1 }
                });
                assert_eq!(class == DATELINE_BEFORE, crosses_later, "{s}->{d} at {r}: {path:?}");
                if wrap {
                    assert_eq!(class, DATELINE_BEFORE, "the wrap link is taken before the dateline");
                }
                assert_ne!(class, DATELINE_ANY);
            }
            // Ejection allows every VC.
            assert_eq!(net.vc_class[d][d], DATELINE_ANY);
        }
    }
    // Masks: lower half before, upper half after; with a partition, per class.
    let r = 4; // coordinate (4, 0): going + to x = 0..=1 crosses the wrap.
    assert_eq!(net.vc_class[r][0], DATELINE_BEFORE);
    assert_eq!(net.vc_class[r][3], DATELINE_AFTER);
    let m = net.route_vcs(r, 4, None).unwrap().unwrap();
    assert_eq!((m[0], m[3], m[4]), (0b0011, 0b1100, 0b1111));
    let m = net.route_vcs(r, 5, None).unwrap().unwrap();
    assert_eq!((m[0], m[3]), (0b00011, 0b11100));
    // Classes [1, 1, 0, 0, 0]: class 1 owns VCs 0-1, class 0 VCs 2-4.
    let m = net.route_vcs(r, 5, Some(&[1, 1, 0, 0, 0])).unwrap().unwrap();
    assert_eq!((m[0], m[3]), (0b00101, 0b11010));
    assert_eq!(net.route_vcs(r, 1, None), Err(1));
    assert_eq!(net.route_vcs(r, 4, Some(&[1, 0, 0, 0])), Err(1));
    // k <= 3 and dateline = false: no classes.
    for spec in [TopologySpec::Torus { k: 3, n: 2, dateline: true }, TopologySpec::Torus { k: 5, n: 2, dateline: false }] {
        assert!(spec.build(5).unwrap().vc_class.is_empty());
    }
}
