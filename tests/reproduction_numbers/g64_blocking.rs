//! "The blocking split by stream (issue 22)": the variant
//! `BurstClass::split_blocking_delay` (the other streams' part of the
//! coupled source link at the packet-scale blocking B_o instead of B̄) and
//! the candidate packet correction `destination_packet_residual`,
//! evaluated for fig12_000_onoff_bursts.toml at g = 64 and set against the
//! committed 40-seed trace `experiments/results/onoff_g64_excess/source_link.csv`
//! (no new simulation). The variant changes only the source link, which
//! the configuration fixes, so each seed's paired difference moves by the
//! same constant and its standard error is the CSV's. B_o and the
//! correction are derived here by hand from the configuration; every
//! number of the section is formatted here and must appear as written.

use super::{read_csv, section_words};
use wormqos_netsim::analytic::onoff_fluid::BurstClass;

const HEADING: &str = "#### The blocking split by stream (issue 22)";
const CSV: &str = "experiments/results/onoff_g64_excess/source_link.csv";

/// fig12_000_onoff_bursts.toml at g = 64: 16 ports, N = 10 messages a
/// burst, M = 32 flits, I = N·(K/0.004 − g) cycles (the file's header),
/// c = 1 for the one real-time class.
pub(super) fn class(k: usize) -> BurstClass {
    BurstClass { ports: 16, streams: k, mean_burst: 10.0, gap: 64.0, off_mean: 10.0 * (250.0 * k as f64 - 64.0), flits: 32.0, capacity: 1.0 }
}

/// `x` with `d` decimals and the document's signs ("+", "−").
pub(super) fn signed(x: f64, d: usize) -> String {
    format!("{}{:.d$}", if x < 0.0 { "−" } else { "+" }, x.abs())
}

#[test]
fn g64_blocking_numbers_follow_from_the_model_and_the_committed_trace() {
    let flat = section_words(HEADING);
    // Every failure is gathered and reported at the end, so one run lists
    // each passage and finding that does not hold.
    let fails = std::cell::RefCell::new(Vec::<String>::new());
    let has = |text: String| {
        if !flat.contains(&text) {
            fails.borrow_mut().push(format!("not in the section: {text:?}"));
        }
    };
    let check = |ok: bool, what: String| {
        if !ok {
            fails.borrow_mut().push(what);
        }
    };
    let rows = read_csv(CSV);
    let row = |k: &str| rows.iter().find(|r| r["streams"] == k && r["gap"] == "64.0").unwrap_or_else(|| panic!("{CSV}: no K = {k}"));
    let s = |k: &str, col: &str| row(k)[col].clone();
    let v = |k: &str, col: &str| -> f64 { s(k, col).parse().unwrap_or_else(|e| panic!("K = {k}, {col}: {e}")) };
    let ms = |k: &str, col: &str| format!("{} ± {}", s(k, col), s(k, &format!("{col}_se")));
    let ks = [("4", 4usize), ("2", 2), ("1", 1)];
    // The configuration is the trace's: the library's coupled model gives
    // the CSV's columns.
    for (k, n) in ks {
        let d = class(n).coupled_delay().unwrap();
        assert_eq!(format!("{:.4}", d.source_link), s(k, "coupled_source"), "K = {k}");
        assert_eq!(format!("{:.4}", d.destination_link), s(k, "coupled_destination"), "K = {k}");
        assert_eq!(format!("{:.4}", class(n).destination_blocking().unwrap()), s(k, "blocking_model"), "K = {k}");
    }
    // B_o by hand: the other 14 inputs send each destination 14K/15
    // streams of p·r = 0.128/K flits per cycle, 0.128·14/15 whatever K;
    // c_d = 32/33, so ρ_o = 0.128·(14/15)·(33/32) and, with holds of
    // exactly 33 cycles, Pollaczek–Khinchine's ρ_o/(1 − ρ_o)·33/2.
    let rho = 0.128 * 14.0 / 15.0 * 33.0 / 32.0;
    let b_o = rho / (1.0 - rho) * 33.0 / 2.0;
    for (k, n) in ks {
        assert!((class(n).packet_blocking().unwrap() - b_o).abs() < 1e-9, "K = {k}: B_o {}", class(n).packet_blocking().unwrap());
    }
    has(format!("B_o = ρ_o/(1 − ρ_o)·M/(2c_d) = {b_o:.4} cycles (`BurstClass::packet_blocking`; ρ_o = {rho:.4} at every K"));
    has(format!("half of B̄ = {}", s("4", "blocking_model")));
    // The replay's reference: the blocking of the messages another
    // stream's message waits behind, and of all those another waits behind.
    has(format!("blocked {} at K = 4 and {} at K = 2, those any successor waits behind {} and {}", ms("4", "ahead_other_block"), ms("2", "ahead_other_block"), ms("4", "ahead_block"), ms("2", "ahead_block")));
    has(format!("B_o is {:.2} and {:.2} cycles below the first two", v("4", "ahead_other_block") - b_o, v("2", "ahead_other_block") - b_o));
    for k in ["4", "2"] {
        // B_o lies below the replay's other-stream blocking, which lies
        // below the mean blocking: the packet-scale part is a lower bound.
        check(b_o < v(k, "ahead_other_block") && v(k, "ahead_other_block") < v(k, "dest_block"), format!("K = {k}: B_o, other-stream and mean blocking not in order"));
    }
    // The variant: only the source link moves.
    let split = |n: usize| class(n).split_blocking_delay().unwrap();
    let shift = |k: &str, n: usize| split(n).source_link - v(k, "coupled_source");
    let others = |n: usize| class(n).coupled_source_parts(b_o).unwrap().1;
    for (k, n) in ks {
        assert_eq!(split(n).destination_link, class(n).coupled_delay().unwrap().destination_link, "K = {k}");
        assert!((split(n).source_link - others(n) - v(k, "model_own")).abs() < 1e-4, "K = {k}: the own part moved");
    }
    assert!(shift("1", 1).abs() < 1e-9, "K = 1 must be unchanged");
    has(format!(
        "the other streams' part falls from {} to {:.4} at K = 4 ({}) and from {} to {:.4} at K = 2 ({})",
        s("4", "model_others"),
        others(4),
        signed(shift("4", 4), 2),
        s("2", "model_others"),
        others(2),
        signed(shift("2", 2), 2)
    ));
    // Totals and the paired differences (the CSV's coupled gaps are
    // sim − model; model − replay as written there), shifted.
    let total = |k: &str, n: usize| v(k, "coupled_total") + shift(k, n);
    let less_sim = |k: &str, n: usize| -v(k, "coupled_drawn_gap") + shift(k, n);
    let less_replay = |k: &str, n: usize| v(k, "model_less_replay") + shift(k, n);
    has(format!(
        "totals {:.4}, {:.4}, {} against the simulated {}, {}, {}",
        total("4", 4),
        total("2", 2),
        s("1", "coupled_total"),
        ms("4", "sim_total"),
        ms("2", "sim_total"),
        ms("1", "sim_total")
    ));
    has(format!(
        "model − sim for each seed's draw {} ± {} (38 draws), {} ± {}, {} ± {} (paired; the coupled model's {}, {}, {})",
        signed(less_sim("4", 4), 4),
        s("4", "coupled_drawn_gap_se"),
        signed(less_sim("2", 2), 4),
        s("2", "coupled_drawn_gap_se"),
        signed(less_sim("1", 1), 4),
        s("1", "coupled_drawn_gap_se"),
        signed(-v("4", "coupled_drawn_gap"), 4),
        signed(-v("2", "coupled_drawn_gap"), 4),
        signed(-v("1", "coupled_drawn_gap"), 4)
    ));
    has(format!(
        "model − replay {} ± {}, {} ± {}, {} ± {} (paired; the coupled model's {}, {}, {})",
        signed(less_replay("4", 4), 4),
        s("4", "model_less_replay_se"),
        signed(less_replay("2", 2), 4),
        s("2", "model_less_replay_se"),
        signed(less_replay("1", 1), 4),
        s("1", "model_less_replay_se"),
        signed(v("4", "model_less_replay"), 4),
        signed(v("2", "model_less_replay"), 4),
        signed(v("1", "model_less_replay"), 4)
    ));
    // Against the structural overstatement the previous section measured.
    has(format!("against the structure's {} at K = 4 and {} at K = 2", signed(v("4", "forward_less_replay"), 2), signed(v("2", "forward_less_replay"), 2)));
    // What the findings claim, on the numbers: the shift exceeds the
    // structural excess at both K (it overshoots), and by more at K = 4.
    for k in [("4", 4), ("2", 2)] {
        check(-shift(k.0, k.1) > v(k.0, "forward_less_replay"), format!("K = {}: the shift {} does not reach the structural excess", k.0, shift(k.0, k.1)));
    }
    has(format!(
        "overshoots it by {:.2} and {:.2}",
        -shift("4", 4) - v("4", "forward_less_replay"),
        -shift("2", 2) - v("2", "forward_less_replay")
    ));
    // The fluid's low part at the destination against the candidate
    // packet correction ρ_d·M/(2c_d), ρ_d by hand: (15K − 1)/15 other
    // streams at the destination, each 0.128/K flits per cycle, / c_d.
    let residual = |n: usize| {
        let rho_d = (15.0 * n as f64 - 1.0) / 15.0 * 0.128 / n as f64 * 33.0 / 32.0;
        rho_d * 33.0 / 2.0
    };
    for (k, n) in ks {
        assert!((class(n).destination_packet_residual() - residual(n)).abs() < 1e-9, "K = {k}: {}", class(n).destination_packet_residual());
    }
    has(format!(
        "{:.4}, {:.4} and {:.4} cycles at K = 4, 2 and 1, against the destination link's shortfall {:.4} ± {}, {:.4} ± {}, {:.4} ± {}",
        residual(4),
        residual(2),
        residual(1),
        -v("4", "drawn_destination_less_fifo"),
        s("4", "drawn_destination_less_fifo_se"),
        -v("2", "drawn_destination_less_fifo"),
        s("2", "drawn_destination_less_fifo_se"),
        -v("1", "drawn_destination_less_fifo"),
        s("1", "drawn_destination_less_fifo_se")
    ));
    let off = |k: &str, n: usize| residual(n) + v(k, "drawn_destination_less_fifo");
    has(format!("the correction less the shortfall: {}, {}, {}", signed(off("4", 4), 2), signed(off("2", 2), 2), signed(off("1", 1), 2)));
    // Not closed: the correction is almost the same at every K, the
    // shortfall is not; at K = 2 it falls short by more than 1 standard
    // error, at K = 4 and 1 it overshoots by more than 1.
    check(off("2", 2) < -v("2", "drawn_destination_less_fifo_se"), format!("K = 2: the correction does not fall short ({})", off("2", 2)));
    check(off("4", 4) > v("4", "drawn_destination_less_fifo_se") && off("1", 1) > v("1", "drawn_destination_less_fifo_se"), format!("K = 4, 1: the correction does not overshoot ({}, {})", off("4", 4), off("1", 1)));
    let fails = fails.into_inner();
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}
