#!/usr/bin/env bash
# Router-cycles per CPU-second of the netsim (golden-model routers) and of
# booksim2 on the same 8x8 mesh workload, back to back (docs/benchmarks.md).
# usage: speed_vs_booksim.sh /path/to/booksim2/src/booksim [repeats]
set -euo pipefail
BOOKSIM=${1:?path to the booksim binary}
REPS=${2:-3}
cd "$(dirname "$0")/../.."
NETSIM=${NETSIM:-target/release/examples/netsim}
[ -x "$NETSIM" ] || cargo build --release -p wormqos-netsim --example netsim
for rep in $(seq "$REPS"); do
  for rate in 0.01 0.015; do
    load=$(awk "BEGIN{print $rate*20}")
    sed "s/^load = .*/load = $load/" experiments/bench/mesh8_uniform.toml > /tmp/netsim_speed.toml
    t0=$( { /usr/bin/time -f "%U" "$NETSIM" sim --experiment /tmp/netsim_speed.toml > /tmp/netsim_speed.out; } 2>&1 | tail -1)
    cyc=$(grep -o '[0-9]* cycles (' /tmp/netsim_speed.out | head -1 | grep -o '^[0-9]*')
    lat=$(grep -o 'latency [0-9.]* cycles' /tmp/netsim_speed.out | head -1)
    acc=$(grep -o 'accepted [0-9.]*' /tmp/netsim_speed.out)
    t1=$( { /usr/bin/time -f "%U" "$BOOKSIM" experiments/bench/booksim_mesh88_uniform.cfg injection_rate=$rate > /tmp/booksim_speed.out || true; } 2>&1 | tail -1)
    bcyc=$(grep -o 'Time taken is [0-9]*' /tmp/booksim_speed.out | grep -o '[0-9]*$')
    blat=$(grep 'Packet latency average' /tmp/booksim_speed.out | tail -1 | awk '{print $5}')
    bacc=$(grep 'Accepted flit rate average' /tmp/booksim_speed.out | tail -1 | awk '{print $6}')
    awk -v r=$rate -v c=$cyc -v t=$t0 -v bc=$bcyc -v bt=$t1 -v l="$lat" -v a="$acc" -v bl=$blat -v ba=$bacc 'BEGIN{
      n=64*c/t; b=64*bc/bt;
      printf "rate %s: netsim %d cycles %.2f s CPU = %.0f router-cycles/s (%s, %s); booksim %d cycles %.2f s CPU = %.0f router-cycles/s (latency %s, accepted %s); ratio %.1fx\n", r, c, t, n, l, a, bc, bt, b, bl, ba, n/b }'
  done
done
