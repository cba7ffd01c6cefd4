//! The M/D/n approximations of the 004_… ring models against the exact
//! M/D/c queue (issue 22), written to a CSV for docs/reproduction.md
//! ("004_…: ring models"):
//!
//! cargo run --release -p wormqos-netsim --example mdc_exact_004 -- experiments/results/mdc_exact_004
//!
//! Per servers c ∈ {1, 2, 4, 8} and utilisation ρ = 0.1 … 0.9 (service time
//! D = 1): the M/M/c wait, the exact M/D/c wait (`analytic::mdc_exact`),
//! Cosmetatos' approximation (`ring::mdn_wait`) and its error; Erlang C,
//! the paper's M/D/n delay probability 0.94 × Erlang C
//! (`multilink_ring::mdn_delay_probability`), the exact M/D/c probability
//! of waiting, and how far each approximation is from the exact value.

use std::fmt::Write as _;
use std::path::PathBuf;
use wormqos_netsim::analytic::mdc_exact::mdc_exact;
use wormqos_netsim::analytic::multilink_ring::mdn_delay_probability;
use wormqos_netsim::analytic::ring::{erlang_c, mdn_wait, mmn_wait};

fn pct(approx: f64, exact: f64) -> f64 {
    100.0 * (approx - exact) / exact
}

fn main() -> anyhow::Result<()> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "experiments/results/mdc_exact_004".into()));
    std::fs::create_dir_all(&out)?;
    let mut csv = String::from(
        "servers,rho,mmc_wait,exact_wait,cosmetatos_wait,cosmetatos_error_percent,erlang_c,paper_pd,exact_p_wait,paper_pd_error_percent,erlang_c_error_percent,truncation_tail\n",
    );
    for c in [1u32, 2, 4, 8] {
        for r in 1..=9 {
            let rho = r as f64 / 10.0;
            let lambda = rho * c as f64;
            let exact = mdc_exact(c, rho).ok_or_else(|| anyhow::anyhow!("no exact solution at c = {c}, ρ = {rho}"))?;
            let (mmc, cos) = (mmn_wait(c, lambda, 1.0), mdn_wait(c, lambda, 1.0));
            let (ec, pd) = (erlang_c(c, lambda), mdn_delay_probability(c, lambda));
            writeln!(
                csv,
                "{c},{rho},{mmc},{},{cos},{},{ec},{pd},{},{},{},{:e}",
                exact.wait,
                pct(cos, exact.wait),
                exact.p_wait,
                pct(pd, exact.p_wait),
                pct(ec, exact.p_wait),
                exact.tail
            )?;
        }
    }
    std::fs::write(out.join("mdc.csv"), &csv)?;
    print!("{csv}");
    Ok(())
}
