#!/usr/bin/env python3
"""Per-binary CPU use of a CI run from .ci/cpu_sampler.sh's samples: the busy share of the
jiffies between consecutive samples, attributed to what the log named at the later sample,
and the core-seconds left idle (on this machine's core count, or --cores N)."""
import argparse, collections, os, sys

ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("samples")
ap.add_argument("--cores", type=int, default=os.cpu_count())
a = ap.parse_args()
try:
    rows = [l.split(None, 3) for l in open(a.samples) if l.strip()]
    data = [(int(r[0]), int(r[1]), int(r[2]), r[3].strip() if len(r) > 3 else "?") for r in rows]
except (OSError, ValueError, IndexError) as e:
    print(f"{a.samples}: not cpu_sampler.sh samples: {e}", file=sys.stderr)
    sys.exit(2)
if len(data) < 2:
    print(f"{a.samples}: fewer than two samples", file=sys.stderr)
    sys.exit(2)
agg = collections.OrderedDict()
for (t0, b0, n0, _), (t1, b1, n1, what) in zip(data, data[1:]):
    what = "build" if what.startswith("Compiling") else what
    g = agg.setdefault(what, [0, 0, 0])
    g[0] += t1 - t0; g[1] += b1 - b0; g[2] += n1 - n0
print(f"{'binary':45s} {'wall s':>7s} {'busy':>6s} {'idle core-s':>11s}")
idle_all = 0.0
for k, (w, b, t) in sorted(agg.items(), key=lambda kv: -kv[1][0]):
    busy = b / t if t else 0.0
    idle = w * a.cores * (1 - busy)
    idle_all += idle
    print(f"{k[:45]:45s} {w:7d} {busy:6.2f} {idle:11.0f}")
print(f"total wall {sum(g[0] for g in agg.values())} s, idle {idle_all:.0f} core-s on {a.cores} cores")
