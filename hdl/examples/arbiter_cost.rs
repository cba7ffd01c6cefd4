//! Cost of the point-A/C schedulers, synthesized alone with Yosys:
//! `<name>_vclock_sched` (C = 16, VTW = 16) against `<name>_rr_arbiter` at
//! N = 4, 8 and 16 inputs.
//!
//! `cargo run --release -p wormqos-hdl --example arbiter_cost [-- <work_dir>]`
//!
//! Per design: `synth_xilinx -top X; stat` (LUTs = LUT1..LUT6, flip-flops =
//! FD*, CARRY4, MUXF7/8), and the logic depth in 6-input LUT levels with
//! flip-flops cut: `synth -top X -noabc; abc -fast -lut 6; ltp -noff`
//! (`ltp -noff` only knows Yosys' internal flip-flops, not FDRE, so the depth
//! is measured on the generic flow; carry chains count as LUT levels there;
//! the gate-level ABC of plain `synth` takes over 15 minutes at N = 16).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use wormqos_hdl::verilog::Module;

const C: u32 = 16;
const VTW: u32 = 16;

fn yosys(dir: &Path, script: &str) -> String {
    let out = Command::new("yosys").current_dir(dir).args(["-p", script]).output().unwrap_or_else(|e| {
        eprintln!("cannot run yosys: {e}");
        std::process::exit(1)
    });
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        eprintln!("yosys failed:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
        std::process::exit(1);
    }
    text
}

/// Cell counts of the last `stat` in `log`.
fn cells(log: &str) -> BTreeMap<String, u64> {
    let start = log.rfind("Number of cells:").unwrap_or(0);
    let mut map = BTreeMap::new();
    for line in log[start..].lines().skip(1) {
        let mut it = line.split_whitespace();
        match (it.next(), it.next(), it.next()) {
            (Some(name), Some(n), None) => match n.parse::<u64>() {
                Ok(n) => {
                    map.insert(name.to_string(), n);
                }
                Err(_) => break,
            },
            (None, ..) => continue,
            _ => break,
        }
    }
    map
}

/// The lengths of every `ltp` report in `log`, in order.
fn ltps(log: &str) -> Vec<u64> {
    log.lines()
        .filter_map(|l| l.split("(length=").nth(1).and_then(|x| x.trim_end_matches("):").trim_end_matches(')').parse().ok()))
        .collect()
}

struct Row {
    n: u32,
    kind: &'static str,
    luts: u64,
    ffs: u64,
    carry: u64,
    muxf: u64,
    lut_depth: u64,
}

fn measure(dir: &Path, m: &Module, n: u32, kind: &'static str) -> Row {
    let f = wormqos_hdl::standalone_file(m);
    std::fs::write(dir.join(&f.file_name), &f.text).unwrap();
    let top = m.name();
    let x = yosys(dir, &format!("read_verilog {}; synth_xilinx -top {top}; stat", f.file_name));
    let c = cells(&x);
    let sum = |pred: &dyn Fn(&str) -> bool| c.iter().filter(|(k, _)| pred(k)).map(|(_, v)| *v).sum::<u64>();
    let g = yosys(dir, &format!("read_verilog {}; synth -top {top} -noabc; abc -fast -lut 6; ltp -noff", f.file_name));
    let l = ltps(&g);
    Row {
        n,
        kind,
        luts: sum(&|k| k.starts_with("LUT")),
        ffs: sum(&|k| k.starts_with("FD")),
        carry: sum(&|k| k.starts_with("CARRY")),
        muxf: sum(&|k| k.starts_with("MUXF")),
        lut_depth: l.first().copied().unwrap_or(0),
    }
}

fn main() {
    let dir: PathBuf = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("wormqos_arbiter_cost_{}", std::process::id())));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rows = vec![];
    for n in [4u32, 8, 16] {
        let prefix = format!("cost{n}");
        let vc = wormqos_hdl::vclock::vclock_sched(&prefix, n, C, VTW, None).unwrap();
        let rr = wormqos_hdl::arbiters::rr_arbiter(&prefix, n, None).unwrap();
        rows.push(measure(&dir, &rr, n, "rr_arbiter"));
        rows.push(measure(&dir, &vc, n, "vclock_sched"));
        eprintln!("N = {n} done");
    }
    println!("Standalone schedulers, Yosys synth_xilinx (C = {C}, VTW = {VTW} for vclock_sched); depth with flip-flops cut:");
    println!("depth = LUT6 levels of `synth -noabc; abc -fast -lut 6; ltp -noff`.");
    println!();
    println!("| N | arbiter | LUTs | flip-flops | CARRY4 | MUXF7/8 | depth (LUT6 levels) |");
    println!("|---:|---|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.n, r.kind, r.luts, r.ffs, r.carry, r.muxf, r.lut_depth
        );
    }
    if std::env::args().nth(1).is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
