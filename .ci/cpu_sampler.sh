#!/usr/bin/env bash
# Samples /proc/stat every 2 s while process PID runs (a CI run, e.g. `CI=true bash .ci/run
# > LOG 2>&1 & PID=$!`): one line per sample, "epoch busy_jiffies total_jiffies <what LOG
# names last>" (the test binary running, or the build). Summarize with .ci/cpu_util.py OUT.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 LOG OUT PID" >&2
  exit 2
fi
log=$1; out=$2; pid=$3
if [ -e "$out" ]; then
  echo "$0: $out exists; not overwriting it" >&2
  exit 2
fi
while kill -0 "$pid" 2>/dev/null; do
  read -r _ u n s i w q sq st _ < /proc/stat
  what=$(grep -a "Running \|Compiling\|Doc-tests" "$log" 2>/dev/null | tail -1 | awk '{print $1" "$2}' || true)
  echo "$(date +%s) $((u+n+s+q+sq+st)) $((u+n+s+q+sq+st+i+w)) $what" >> "$out"
  sleep 2
done
