#!/usr/bin/env python3
"""Build the generated NIC under Icarus Verilog and run the cocotb test
(test_nic.py) against it: cocotbext-axi drives the AXI4-Lite slave and
serves the AXI4 master from a RAM with random backpressure, a behavioural
router port sinks the injection link and loops every message back into the
ejection link (split by dummy tail / dummy header in P mode).

Usage: run_nic.py --rtl DIR --params FILE --build DIR [--seed N] [--test MODULE]
  DIR    the files of `wormqos generate` for a configuration with [nic]
         (or, with --test test_network, of a network with a NIC per endpoint)
  FILE   the configuration-derived sizes (JSON, written by
         testbench/tests/nic_cocotb.rs or nic_network_cocotb.rs)
  MODULE the cocotb test module in this directory (default test_nic)
  --no-rtl-checks  define SYNTHESIS: the RTL's simulation-only checks are
         left out, so that only the cocotb test's own checks can fail
Exit status 0 iff every cocotb test passed.
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
PORT = re.compile(r"^\s*(input|output)\s+wire\s+(\[[^\]]+\]\s*)?(\w+)\s*,?\s*$")


def wrapper(top_file: Path, top: str) -> str:
    """A testbench top with the NIC's ports minus their _i/_o suffixes
    (cocotbext-axi finds bus signals by prefix and name)."""
    ports = []
    in_ports = False
    for line in top_file.read_text().splitlines():
        if line.startswith(f"module {top}"):
            in_ports = True
            continue
        if in_ports and line.strip() == ");":
            break
        m = PORT.match(line) if in_ports else None
        if m:
            ports.append((m.group(1), (m.group(2) or "").strip(), m.group(3)))
    assert ports, f"no ports found in {top_file}"
    decl, conn = [], []
    for d, rng, name in ports:
        short = {"clk_i": "clk", "rst_i": "rst"}.get(name, re.sub(r"_[io]$", "", name))
        decl.append(f"  {d} wire {rng + ' ' if rng else ''}{short}")
        conn.append(f"    .{name}({short})")
    return ("`default_nettype none\nmodule tb_nic (\n" + ",\n".join(decl) + "\n);\n"
            f"  {top} u_nic (\n" + ",\n".join(conn) + "\n  );\nendmodule\n`default_nettype wire\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtl", required=True, type=Path)
    ap.add_argument("--params", required=True, type=Path)
    ap.add_argument("--build", required=True, type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--test", default="test_nic")
    ap.add_argument("--no-rtl-checks", action="store_true")
    a = ap.parse_args()
    from cocotb_tools.runner import get_runner

    params = json.loads(a.params.read_text())
    top = params["top"]
    a.build.mkdir(parents=True, exist_ok=True)
    tb = a.build / "tb_nic.v"
    tb.write_text(wrapper(a.rtl / f"{top}.v", top))
    # DIR holds only generated files: the top and every module under it.
    sources = sorted(str(p) for p in a.rtl.glob("*.v")) + [str(tb)]
    runner = get_runner("icarus")
    defines = {"SYNTHESIS": 1} if a.no_rtl_checks else {}
    runner.build(sources=sources, hdl_toplevel="tb_nic", build_dir=a.build, timescale=("1ns", "1ps"), always=True,
                 defines=defines)
    results = a.build / "results.xml"
    if results.exists():
        results.unlink()
    sys.path.insert(0, str(HERE))
    runner.test(
        hdl_toplevel="tb_nic",
        test_module=a.test,
        test_dir=HERE,
        build_dir=a.build,
        results_xml=str(results),
        # vvp -n: a failed RTL check ($stop) ends the run instead of waiting for input.
        test_args=["-n"],
        extra_env={"NIC_PARAMS": str(a.params.resolve()), "NIC_SEED": str(a.seed), "PYTHONPATH": str(HERE)},
    )
    tree = ET.parse(results)
    cases = tree.findall(".//testcase")
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    print(f"run_nic: {len(cases)} test(s), {len(failed)} failed {failed}")
    return 0 if cases and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
