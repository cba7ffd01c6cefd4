//! 004_… Fig. 6(a), model only (N = 256 needs 129-port routers; the
//! simulator's have at most 32): the ring models' latency and Eq. (23)
//! bound per v_c and load, as CSV on standard output.
//!
//!     cargo run --release -p wormqos-netsim --example fig6a_004 > experiments/results/model_fig6a_004/fig6a.csv
fn main() {
    print!("{}", wormqos_netsim::analytic::ring_curve::FIG6A_004.csv());
}
