//! The NIC (docs/nic.md) under the host-memory model, the AXI4-Lite
//! driver and the router peer: random doorbells and descriptors (some
//! malformed), AXI backpressure and error responses, received messages
//! (split by dummy flits in P mode); the scoreboard checks every message
//! and completion, the protocol checks every AXI channel the NIC drives.
//! `model_*` tests run the golden model alone.

use wormqos_config::RouterConfig;
use wormqos_sim::Nic;
use wormqos_testbench::nic::driver::{run_nic, NicReport, NicRunOptions};
use wormqos_testbench::nic::NicDut;

fn config(router: &str, nic: &str) -> RouterConfig {
    let text = format!("name = \"nicm\"\n[router]\n{router}[nic]\n{nic}");
    RouterConfig::from_toml_str(&text, "nic_lockstep").unwrap()
}

const QOS_NP: &str = "ports = 4\nvcs = 4\nflit_width = 64\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
    crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"non_preemptive\"\nvc_ratio = [1, 1, 2]\nvtick_width = 8\nclock_width = 8\n";
const P_MODE: &str = "ports = 5\nvcs = 3\nflit_width = 96\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
    crossbar = \"multiplexed\"\nscheduler = \"virtualclock\"\nmode = \"preemptive\"\n";
const TR_MODE: &str = "ports = 3\nvcs = 3\nflit_width = 64\ninput_buffer_depth = 5\noutput_buffer_depth = 2\n\
    crossbar = \"multiplexed\"\nscheduler = \"fifo\"\nmode = \"traditional\"\nvc_ratio = [1, 1, 1]\n";
const PLAIN: &str = "ports = 4\nvcs = 2\nflit_width = 64\ninput_buffer_depth = 4\noutput_buffer_depth = 2\n\
    crossbar = \"full\"\nscheduler = \"round_robin\"\n";

/// The configurations: both variants, AXW 32 and 64, every injection
/// granularity, the partitioned modes and P mode, small queues (overflows).
pub fn configs() -> Vec<(&'static str, RouterConfig)> {
    vec![
        ("qos_flit_np", config(QOS_NP, "variant = \"qos\"\ndoorbell_depth = 2\nbuffer_depth = 3\nmax_message_flits = 16\nmax_burst = 4\nrx_contexts = 2\nrx_post_depth = 2\nrx_completion_depth = 2\n")),
        ("qos_block_p64", config(P_MODE, "variant = \"qos\"\ninjection = \"block\"\nblock_size = 2\naxi_data_width = 64\nmax_message_flits = 12\nrx_contexts = 4\n")),
        ("qos_message_plain", config(PLAIN, "variant = \"qos\"\ninjection = \"message\"\nmax_message_flits = 8\nmax_burst = 3\n")),
        ("traditional_tr", config(TR_MODE, "variant = \"traditional\"\ndoorbell_depth = 3\nbuffer_depth = 2\nmax_message_flits = 10\nrx_contexts = 1\n")),
        ("traditional_p64", config(P_MODE, "variant = \"traditional\"\naxi_data_width = 64\nmax_message_flits = 6\nmax_burst = 2\nrx_contexts = 3\n")),
    ]
}

fn check(name: &str, cfg: &RouterConfig, r: &NicReport) {
    eprintln!("{name}: {r}");
    let c = &r.counts;
    assert!(c.sends_by_code[0] > 20, "{name}: too few good sends: {r}");
    assert!(c.sends_by_code[1..].iter().filter(|&&n| n > 0).count() >= 6, "{name}: too few error kinds: {r}");
    assert!(c.received_by_status[0] > 20 && c.received_by_status[1] + c.received_by_status[3] > 0, "{name}: {r}");
    // The receive-side error paths (docs/nic.md §13) are reached: an AXI
    // error on a payload write, an index-0 flit, a flit dropped on a full
    // FIFO and, where the link can name a VC >= M, one dropped there.
    assert!(c.received_by_status[2] > 0, "{name}: no RX_WR_ERR: {r}");
    assert!(c.zero_index_messages > 0, "{name}: no index-0 flit: {r}");
    assert!(r.strays.1 > 0, "{name}: no flit dropped on a full FIFO: {r}");
    if cfg.vcs() < 1 << cfg.vc_width() {
        assert!(r.strays.0 > 0, "{name}: no flit dropped on a VC >= M: {r}");
    }
}

fn model_run(name: &str, cfg: &RouterConfig, seed: u64) -> NicReport {
    let mut m = Nic::new(cfg);
    let opts = NicRunOptions { seed, ..NicRunOptions::default() };
    let duts: &mut [&mut dyn NicDut] = &mut [&mut m];
    run_nic(cfg, duts, &opts).unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

#[test]
fn model_alone_passes_the_scoreboard_on_every_configuration() {
    for (k, (name, cfg)) in configs().into_iter().enumerate() {
        let r = model_run(name, &cfg, 100 + k as u64);
        check(name, &cfg, &r);
    }
}

/// Two copies of the model in lockstep agree (the comparison path itself).
#[test]
fn model_against_itself_in_lockstep() {
    let (name, cfg) = configs().remove(0);
    let (mut a, mut b) = (Nic::new(&cfg), Nic::new(&cfg));
    let duts: &mut [&mut dyn NicDut] = &mut [&mut a, &mut b];
    let r = run_nic(&cfg, duts, &NicRunOptions { cycles: 5_000, ..NicRunOptions::default() }).unwrap();
    eprintln!("{name}: {r}");
    assert_eq!(r.compared, r.cycles);
}

use wormqos_testbench::verilator::nic::VerilatedNic;

/// RTL and model side by side, every output compared every cycle, driven
/// by the environment from the model's outputs.
fn lockstep(name: &str, cfg: &RouterConfig, seed: u64, cycles: u64) -> NicReport {
    let mut rtl = VerilatedNic::build(cfg, None).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    let mut model = Nic::new(cfg);
    let opts = NicRunOptions { seed, cycles, ..NicRunOptions::default() };
    let duts: &mut [&mut dyn NicDut] = &mut [&mut model, &mut rtl];
    let r = run_nic(cfg, duts, &opts).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    assert_eq!(r.compared, r.cycles);
    r
}

fn rtl(k: usize) {
    let (name, cfg) = configs().remove(k);
    check(name, &cfg, &lockstep(name, &cfg, 1 + k as u64, 20_000));
}

#[test]
fn rtl_lockstep_qos_flit_np() {
    rtl(0);
}
#[test]
fn rtl_lockstep_qos_block_p64() {
    rtl(1);
}
#[test]
fn rtl_lockstep_qos_message_plain() {
    rtl(2);
}
#[test]
fn rtl_lockstep_traditional_tr() {
    rtl(3);
}
#[test]
fn rtl_lockstep_traditional_p64() {
    rtl(4);
}

/// Each fault planted in the RTL generator (issue 20 item 7) is caught by
/// lockstep against the model; the message says which check fired.
fn fault_caught(fault: wormqos_hdl::NicFault, k: usize, credit_delay: u32) {
    let (name, cfg) = configs().remove(k);
    let mut rtl = VerilatedNic::build(&cfg, Some(fault)).unwrap();
    let mut model = Nic::new(&cfg);
    let opts = NicRunOptions { seed: 7, cycles: 20_000, credit_delay, ..NicRunOptions::default() };
    let duts: &mut [&mut dyn NicDut] = &mut [&mut model, &mut rtl];
    match run_nic(&cfg, duts, &opts) {
        Ok(r) => panic!("{name}: fault {} not caught: {r}", fault.name()),
        Err(e) => eprintln!("{name}: fault {} caught: {e:#}", fault.name()),
    }
}

#[test]
fn rtl_faults_are_caught_by_lockstep() {
    use wormqos_hdl::NicFault;
    for &f in NicFault::every() {
        // The HoL skip needs full VC queues: the small buffers of config 0
        // and slow credits; the rest on the P-mode configuration (dummy flits).
        if f == NicFault::NoHeadOfLineSkip {
            fault_caught(f, 0, 40);
        } else {
            fault_caught(f, 1, 6);
        }
    }
}

/// The environment's own checks, without the model: the faults that break
/// a rule the scoreboard, the peer or the protocol checks know are caught
/// by the RTL alone (credit leak: the peer; drop after a dummy tail: the
/// drain; completion before the last flit: the RTL's own pending-FIFO assertion fires
/// first; a moving araddr: the AR stability check). The two scheduling
/// faults need the model (lockstep above).
#[test]
fn rtl_faults_are_caught_by_the_environment_alone() {
    use wormqos_hdl::NicFault;
    let (name, cfg) = configs().remove(1);
    for (f, what) in [
        (NicFault::CreditLeak, "without a credit"),
        (NicFault::DropAfterDummyTail, "did not drain"),
        (NicFault::CompletionBeforeLastFlit, "before its tail left"),
        (NicFault::ArAddrMovesWhileStalled, "payload changed while stalled"),
    ] {
        let mut rtl = VerilatedNic::build(&cfg, Some(f)).unwrap();
        let opts = NicRunOptions { seed: 7, cycles: 20_000, drain_limit: 5_000, ..NicRunOptions::default() };
        let duts: &mut [&mut dyn NicDut] = &mut [&mut rtl];
        let e = run_nic(&cfg, duts, &opts).map(|r| r.to_string()).unwrap_err().to_string();
        eprintln!("{name}: fault {}: {e}", f.name());
        assert!(e.contains(what) || e.contains("own check failed"), "{name}: fault {}: {e}", f.name());
    }
}
