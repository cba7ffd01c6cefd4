#!/usr/bin/env bash
# Verilator network top against the network simulator on the same network
# (issue 21 item 4; docs/benchmarks.md "Verilator network top against the
# network simulator"), measured side by side in one run:
#   experiments/bench/verilator_vs_netsim.sh [WORMQOS_BINARY] [CYCLES] [LOADS] [SIM_CYCLES]
# For each network file and offered load (flits per endpoint per cycle):
#  - `wormqos cosim --experiment F --injection-rate LOAD --cycles CYCLES`: the
#    Verilated network top in lockstep with the composed golden model under
#    the lockstep's random traffic (its printed rate, wall clock, covers the
#    RTL, the composed model, the stimulus and the scoreboard: a lower bound
#    for the Verilated top alone). Built once first (cached), so the timed
#    run does not include the Verilator build.
#  - `wormqos sim --experiment F'` with F' = F at `workload.load = LOAD`,
#    `run.cycles = SIM_CYCLES` (default 20 x CYCLES, so that its CPU time
#    is long enough to measure): the simulator's engine, sources and metrics.
# Both rates are also given per user-CPU second of the process
# (/usr/bin/time), which is what one free core would deliver.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/target/release/wormqos}
cycles=${2:-50000}
loads=${3:-"0.1 0.3"}
sim_cycles=${4:-$((20 * cycles))}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| network | routers | offered load | cosim (lockstep) cycles/s, wall | cosim cycles per user-CPU s | sim network cycles/s, wall | sim cycles per user-CPU s | sim / cosim (CPU) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for net in net_fatmesh2x2 net_mesh4x4; do
  f=$root/experiments/bench/$net.toml
  "$bin" cosim --experiment "$f" --cycles 200 --waveform-dir "$tmp/waves" > /dev/null 2>&1
  for load in $loads; do
    /usr/bin/time -f "%U" -o "$tmp/cosim.time" "$bin" cosim --experiment "$f" --cycles "$cycles" \
      --injection-rate "$load" --waveform-dir "$tmp/waves" > "$tmp/cosim.out" 2> "$tmp/cosim.err"
    line=$(grep 'RTL == model' "$tmp/cosim.out")
    c_cycles=$(echo "$line" | sed -E 's/.* for ([0-9]+) cycles.*/\1/')
    c_rate=$(echo "$line" | sed -E 's/.*\(([0-9]+) cycles\/s.*/\1/')
    c_cpu=$(cat "$tmp/cosim.time")
    sed -E -e "s/^load = .*/load = $load/" "$f" > "$tmp/$net.toml"
    printf '[run]\ncycles = %s\n' "$sim_cycles" >> "$tmp/$net.toml"
    /usr/bin/time -f "%U" -o "$tmp/sim.time" "$bin" sim --experiment "$tmp/$net.toml" > "$tmp/sim.out"
    routers=$(sed -nE 's/^[^:]+: ([0-9]+) routers.*/\1/p' "$tmp/sim.out")
    s_cycles=$(sed -nE 's/.* routers, [0-9]+ endpoints, ([0-9]+) cycles.*/\1/p' "$tmp/sim.out")
    s_rc=$(sed -nE 's/^([0-9]+) router-cycles\/s.*/\1/p' "$tmp/sim.out")
    s_cpu=$(cat "$tmp/sim.time")
    awk -v n="$net" -v r="$routers" -v l="$load" -v cc="$c_cycles" -v cr="$c_rate" -v ccpu="$c_cpu" \
        -v sc="$s_cycles" -v src="$s_rc" -v scpu="$s_cpu" 'BEGIN {
      cpc = cc / (ccpu > 0.01 ? ccpu : 0.01); spc = sc / (scpu > 0.01 ? scpu : 0.01);
      printf "| %s | %d | %s | %d | %.0f | %.0f | %.0f | %.0fx |\n", n, r, l, cr, cpc, src / r, spc, spc / cpc }'
  done
done
