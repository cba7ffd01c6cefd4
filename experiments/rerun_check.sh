#!/usr/bin/env bash
# Does a committed result still come out of today's code?
#
#   experiments/rerun_check.sh <results-folder> [<experiment file>]
#
# Finds the one `sweep` / `model` command in docs/reproduction.md (or, for
# the benchmark folders, docs/benchmarks.md) whose --out is the folder (the experiment file chooses among several), reruns it into a
# temp dir and compares every CSV the run writes (and results.json when it is
# committed) with the committed files, column by column, exact text, ignoring
# only wall_seconds, router_cycles_per_second and the plots.
#
# Prints "reproduces" (exit 0) or the differing points and columns with their
# committed -> rerun values (exit 1; the rerun is kept and its path printed).
# Exit 2: no such command, several, or not a plain sweep/model run (or a bad
# argument); exit 3: the rerun failed without writing its outputs (its log is
# printed). A rerun that exits non-zero after writing them (failed points,
# their error in the `error` column) is compared like any other.
#
# Environment: WORMQOS_BIN, the binary to run (default
# ${CARGO_TARGET_DIR:-target}/release/wormqos; build it first); RERUN_JOBS,
# --jobs of the rerun (default 1); RERUN_OUT, the rerun's directory (default a
# new temp dir). Run from anywhere inside the repository.
set -euo pipefail

die() { echo "rerun_check: $*" >&2; exit 2; }

[[ $# -ge 1 && $# -le 2 ]] || die "usage: experiments/rerun_check.sh <results-folder> [<experiment file>]"
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not inside the repository"
cd "$root"
helper="experiments/rerun_check.py"

folder=${1%/}
folder=${folder#./}
folder=${folder#experiments/results/}
[[ -d "experiments/results/$folder" ]] || die "no folder experiments/results/$folder"
experiment=${2:-}
if [[ -n $experiment && ! -f $experiment ]]; then
  die "no experiment file $experiment"
fi

bin=${WORMQOS_BIN:-${CARGO_TARGET_DIR:-target}/release/wormqos}
[[ -x $bin ]] || die "no binary $bin (cargo build --release, or set WORMQOS_BIN)"
jobs=${RERUN_JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "RERUN_JOBS=$jobs: want a positive integer"

# The command's words after the binary, one shell-quoted line.
cmd=$(python3 "$helper" find "$folder" ${experiment:+"$experiment"})
out=${RERUN_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/rerun_check.XXXXXX")}
mkdir -p "$out"
# Send --out to the temp dir (the folder's path is the only --out value).
eval "args=($cmd)"
for i in "${!args[@]}"; do
  if [[ ${args[$i]} == "--out" ]]; then args[$((i + 1))]=$out; fi
done
echo "rerun: $bin ${args[*]} --jobs $jobs"
start=$(date +%s)
run_status=0
"$bin" "${args[@]}" --jobs "$jobs" --force >"$out/rerun.log" 2>&1 || run_status=$?
if [[ $run_status -ne 0 ]]; then
  # A sweep whose points fail (e.g. model_torus_002's documented deadlocks
  # near saturation) exits non-zero but still writes every point, its error
  # in the `error` column: compare that; without outputs there is nothing to.
  if [[ ! -f "$out/.wormqos-manifest" ]]; then
    tail -n 20 "$out/rerun.log" >&2
    echo "rerun_check: the rerun failed (exit $run_status) and wrote nothing; log in $out/rerun.log" >&2
    exit 3
  fi
  echo "rerun exited $run_status ($(tail -n 1 "$out/rerun.log")); comparing what it wrote"
fi
echo "rerun wall: $(( $(date +%s) - start )) s"

status=0
python3 "$helper" compare "experiments/results/$folder" "$out" || status=$?
if [[ $status -eq 0 && -z ${RERUN_OUT:-} ]]; then
  rm -rf "$out"
elif [[ $status -ne 0 ]]; then
  echo "rerun kept in $out"
fi
exit "$status"
