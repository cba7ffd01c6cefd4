#!/usr/bin/env bash
# Records the golden netsim results that tests/golden.rs compares the model
# against. Each experiment is a shortened copy of a file in experiments/
# (optionally with router fields changed), run with the netsim binary given
# as $1; the JSON results are kept as written (the test ignores the two
# wall-clock fields).
# These files were recorded with the binary built from commit a7976de (the
# last one with two model engines) and must not be re-recorded with a newer
# model unless a change of cycle behaviour is intended.
# usage: record.sh /path/to/netsim
set -euo pipefail
NETSIM=${1:?path to a netsim binary}
cd "$(dirname "$0")"
ROOT=../../../..
# name | source experiment | cycles | warm-up | sed expression on the file
while IFS='|' read -r name src cycles warm edit; do
  [ -z "$name" ] && continue
  awk -v c="$cycles" -v w="$warm" '
    /^\[/ { inrun = ($0 == "[run]") }
    inrun && /^(cycles|warmup_cycles|seconds|warmup_seconds) *=/ { next }
    { print }
    $0 == "[run]" { print "cycles = " c; print "warmup_cycles = " w }
  ' "$ROOT/experiments/$src" | sed -e "s/^name = .*/name = \"$name\"/" ${edit:+-e "$edit"} > "$name.toml"
  "$NETSIM" sim --experiment "$name.toml" --json "$name.json" --force > /dev/null
done <<'LIST'
mesh8_rr|bench/mesh8_uniform.toml|3000|300|s/^load = .*/load = 0.3/
mesh8_fifo|bench/mesh8_uniform.toml|3000|300|s/^scheduler = .*/scheduler = "fifo"/
mesh8_full_fifo|bench/mesh8_uniform.toml|3000|300|s/^crossbar = .*/crossbar = "full"/;s/^scheduler = .*/scheduler = "fifo"/
mesh8_full_rr|bench/mesh8_uniform.toml|3000|300|s/^crossbar = .*/crossbar = "full"/
mesh8_block3|bench/mesh8_uniform.toml|3000|300|s/^scheduler = .*/scheduler = "round_robin"\nblock_size = 3/
mesh8_full_block3|bench/mesh8_uniform.toml|3000|300|s/^crossbar = .*/crossbar = "full"\nblock_size = 3/
fig4_000|fig4_000.toml|6000|600|
fig4_000_full|fig4_000_full.toml|6000|600|
fig4_000_np|fig4_000_np.toml|6000|600|
fig4_003|fig4_003.toml|6000|600|
fig6_003|fig6_003.toml|6000|600|
fig7_003|fig7_003.toml|6000|600|
fig7_003_accel|fig7_003.toml|6000|600|s/^acceleration = .*/acceleration = true/
fig6_003_block4|fig6_003.toml|6000|600|s/^block_size = .*/block_size = 4/
fig11a_000|fig11a_000_cube6_buffers.toml|3000|300|
fig6_004|fig6_004.toml|4000|400|
torus4_dateline|torus4_dateline.toml|4000|400|
table2_001|table2_001.toml|6000|600|
table2_001_fgfq|table2_001.toml|6000|600|s/^scheduler = "router"/scheduler = "fgfq"/
LIST
