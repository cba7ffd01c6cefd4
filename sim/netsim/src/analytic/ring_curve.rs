//! 004_…'s ring models over a grid of loads and VC counts for a ring given
//! by its size alone (`predict::RingShape::multilink_ring`), as CSV: the curves
//! of a figure whose ring the simulator cannot build. 004_… Fig. 6(a) is
//! [`FIG6A_004`] (N = 256: 129-port routers, beyond the simulator's 32).

use super::predict::RingShape;

/// A multi-link ring, its packets and the grid.
pub struct RingCurve {
    pub nodes: usize,
    /// l, links each way between neighbours.
    pub links: usize,
    /// Flits per packet (M).
    pub msg_flits: f64,
    /// Seconds per flit time: packet bits / M / link bit rate.
    pub flit_seconds: f64,
    /// v_c, VCs per header.
    pub vcs: &'static [u32],
    /// Offered load, flits per node per flit time.
    pub loads: &'static [f64],
}

/// 004_… Fig. 6(a): N = 256 nodes, l = N/4 = 64, 4 KB packets = 100 flits
/// on 624 Mbit/s links (flit time 32768 / 100 / 624e6 s), v_c = 1 … 16.
pub const FIG6A_004: RingCurve = RingCurve {
    nodes: 256,
    links: 64,
    msg_flits: 100.0,
    flit_seconds: 32768.0 / 100.0 / 624e6,
    vcs: &[1, 2, 4, 8, 16],
    loads: &[0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
};

impl RingCurve {
    /// One row per model, v_c and load: network latency and packet latency
    /// T (Eq. 8) in flit times and ms, t̄_s and Eq. (23)'s λ_max, or the
    /// queue that is saturated.
    pub fn csv(&self) -> String {
        let mut s = String::from(
            "model,vcs_per_header,load_flits_per_node_cycle,packets_per_s_per_node,network_latency_cycles,latency_cycles,latency_ms,service_cycles,lambda_max_packets_per_s,error\n",
        );
        let shape = RingShape::multilink_ring(self.nodes, self.links);
        for &vc in self.vcs {
            for &load in self.loads {
                let lambda_n = load / self.msg_flits;
                let plan = shape.plan(lambda_n, vc, self.msg_flits);
                let bounds = plan.throughput_bounds();
                for named in plan.evaluate(&[]) {
                    let b = bounds.iter().find(|b| b.name == named.name);
                    let ts = b.and_then(|b| b.service.as_ref().ok().copied()).unwrap_or(f64::NAN);
                    let lmax = b.and_then(|b| b.lambda_max()).map_or(f64::NAN, |l| l / self.flit_seconds);
                    let (net, lat, err) = match &named.result {
                        Ok(c) => (c[0].network_latency, c[0].network_latency + c[0].source_latency, String::new()),
                        Err(e) => (f64::NAN, f64::NAN, e.to_string()),
                    };
                    s += &format!(
                        "{},{vc},{load},{},{net},{lat},{},{ts},{lmax},\"{}\"\n",
                        named.name,
                        lambda_n / self.flit_seconds,
                        lat * self.flit_seconds * 1e3,
                        err.replace('"', "'")
                    );
                }
            }
        }
        s
    }
}
