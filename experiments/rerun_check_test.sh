#!/usr/bin/env bash
# Test of experiments/rerun_check.sh, in a throwaway clone of HEAD (the repo
# itself is never touched) with the working copy's script copied in:
#  1. model_torus_002_fig1 (model only, seconds) reproduces: exit 0;
#  2. one planted cell (accepted_throughput of row 2) is caught: exit 1,
#     naming the column and both values;
#     the same with a column the commit lacks: both reported;
#  3. a planted wall_seconds change alone is ignored: exit 0;
#     a run exiting non-zero after writing is compared, before writing exit 3;
#  4. a folder the doc gives no command for, one whose command is not a
#     plain sweep/model run, and one with two commands: exit 2; the
#     experiment file chooses between the two;
#  5. a command documented only in docs/benchmarks.md is found there.
# Needs WORMQOS_BIN (or ${CARGO_TARGET_DIR:-target}/release/wormqos).
set -uo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
bin=${WORMQOS_BIN:-${CARGO_TARGET_DIR:-target}/release/wormqos}
[[ $bin = /* ]] || bin=$root/$bin
export WORMQOS_BIN=$bin
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rerun_check_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
check() { # name, expected exit, actual exit, output, expected text
  if [[ $2 -ne $3 ]] || ! grep -qF -- "$5" <<<"$4"; then
    echo "FAIL $1: exit $3 (want $2), output lacks '$5':"; echo "$4" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $1"
  fi
}

folder=experiments/results/model_torus_002_fig1
git clone -q --shared --no-checkout "$root" "$tmp/repo"
cd "$tmp/repo"
git checkout -q HEAD -- docs experiments/torus_002_fig1.toml "$folder"
cp "$root/experiments/rerun_check.sh" "$root/experiments/rerun_check.py" experiments/

out=$(experiments/rerun_check.sh model_torus_002_fig1 2>&1); rc=$?
check "committed folder reproduces" 0 $rc "$out" "reproduces"

# Plant: row 2's accepted_throughput gets a 9 appended (a different number).
cp "$folder/results.csv" "$tmp/results.csv"
python3 - "$folder/results.csv" accepted_throughput <<'EOF'
import csv, sys
path, column = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(path, newline="")))
i = rows[0].index(column)
planted = rows[2][i] + "9"
print(f"planted {column} row 2: {rows[2][i]} -> {planted}", file=sys.stderr)
rows[2][i] = planted
csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
EOF
out=$(experiments/rerun_check.sh model_torus_002_fig1 2>&1); rc=$?
check "planted cell caught" 1 $rc "$out" "results.csv row 2"
check "planted cell's column named" 1 $rc "$out" "accepted_throughput: "

# A column the commit lacks (written by a newer binary) must not hide the
# planted cell: drop block_holds from the committed file as well.
python3 - "$folder/results.csv" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
i = rows[0].index("block_holds")
rows = [r[:i] + r[i + 1:] for r in rows]
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
EOF2
out=$(experiments/rerun_check.sh model_torus_002_fig1 2>&1); rc=$?
check "added column reported" 1 $rc "$out" "only rerun: block_holds"
check "planted cell caught beside an added column" 1 $rc "$out" "accepted_throughput: "

# wall_seconds is the machine's, not the model's: a change there alone passes.
cp "$tmp/results.csv" "$folder/results.csv"
python3 - "$folder/results.csv" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
i = rows[0].index("wall_seconds")
rows[1][i] = "123456.0"
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
EOF
out=$(experiments/rerun_check.sh model_torus_002_fig1 2>&1); rc=$?
check "wall_seconds ignored" 0 $rc "$out" "reproduces"

# A run that exits non-zero after writing its outputs (failed points) is
# compared; one that writes nothing is exit 3. Fake binaries wrap the real one.
cp "$tmp/results.csv" "$folder/results.csv"
printf '#!/bin/sh\n"%s" "$@"; exit 1\n' "$bin" > "$tmp/fails_after"
printf '#!/bin/sh\nexit 1\n' > "$tmp/fails_before"
chmod +x "$tmp/fails_after" "$tmp/fails_before"
out=$(WORMQOS_BIN=$tmp/fails_after experiments/rerun_check.sh model_torus_002_fig1 2>&1); rc=$?
check "failed points compared" 0 $rc "$out" "rerun exited 1"
out=$(WORMQOS_BIN=$tmp/fails_before experiments/rerun_check.sh model_torus_002_fig1 2>&1); rc=$?
check "a run that writes nothing" 3 $rc "$out" "wrote nothing"

# Refusals (exit 2 before any run).
mkdir -p experiments/results/no_command experiments/results/not_plain experiments/results/twice
out=$(experiments/rerun_check.sh no_command 2>&1); rc=$?
check "no command refused" 2 $rc "$out" "has no sweep/model command"
cat >> docs/reproduction.md <<'EOF'

```sh
cargo run --release -p wormqos-netsim --example fig6a_004 -- --out experiments/results/not_plain
cargo run --release -- sweep --experiment experiments/a.toml --out experiments/results/twice --jobs 1
cargo run --release -- sweep --experiment experiments/b.toml --out experiments/results/twice --jobs 2
cargo run --release -- sweep --experiment experiments/a.toml --out experiments/results/twice --jobs 2
```
EOF
out=$(experiments/rerun_check.sh not_plain 2>&1); rc=$?
check "not a plain run refused" 2 $rc "$out" "does not run the root binary"
out=$(experiments/rerun_check.sh twice 2>&1); rc=$?
check "two commands refused" 2 $rc "$out" "has 2 different commands"
out=$(python3 experiments/rerun_check.py find twice experiments/b.toml 2>&1); rc=$?
check "the experiment file chooses" 0 $rc "$out" "sweep --experiment experiments/b.toml"

# The benchmark folders' commands live in docs/benchmarks.md.
cat >> docs/benchmarks.md <<'EOF'

`netsim sweep --experiment experiments/bench/c.toml
--out experiments/results/bench_only --jobs 1`
EOF
out=$(python3 experiments/rerun_check.py find bench_only 2>&1); rc=$?
check "a command in docs/benchmarks.md is found" 0 $rc "$out" "sweep --experiment experiments/bench/c.toml"
check "its place is named" 0 $rc "$out" "docs/benchmarks.md:"

if [[ $failures -ne 0 ]]; then echo "$failures checks failed"; exit 1; fi
echo "all checks passed"
