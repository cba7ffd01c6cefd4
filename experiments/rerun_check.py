#!/usr/bin/env python3
"""Helpers of experiments/rerun_check.sh (see there for usage).

`find FOLDER [EXPERIMENT]`: print, as one shell-quoted line, the arguments
after the binary of the one command in docs/reproduction.md or
docs/benchmarks.md (whose benchmark folders are under the same
experiments/results/) that writes
experiments/results/FOLDER (`sweep` or `model`, the root binary or the
netsim example, which runs the same sweep code); exit 2 naming the problem
when there is none, several, or one that is not a plain run of them.

`compare COMMITTED RERUN`: compare every CSV the rerun wrote (and
results.json when it is committed) with the committed folder, column by
column, exact text; exit 1 and list the differing points and columns.
"""
import csv
import json
import os
import re
import shlex
import subprocess
import sys

# Where commands are documented: the results of docs/reproduction.md, and
# the benchmark folders docs/benchmarks.md writes into experiments/results/.
DOCS = ("docs/reproduction.md", "docs/benchmarks.md")
WHERE = " or ".join(DOCS)
# Columns that measure the machine, not the model: never compared.
IGNORED_COLUMNS = {"wall_seconds", "router_cycles_per_second"}
# Leading CSV columns that name a point rather than measure it (besides any
# dotted or `+`-joined sweep key such as `workload.load`).
KEY_COLUMNS = {"source", "point", "phase", "router", "nic", "class",
               "realtime_percent", "deadline_cycles", "stream", "label"}
# Prefixes (tokens) that run the root binary's or the netsim example's
# subcommands; the netsim example is documented as the same sweep code.
RUNNERS = [
    ["cargo", "run", "--release", "--"],
    ["cargo", "run", "--release", "-p", "wormqos-netsim", "--example", "netsim", "--"],
    ["netsim"],
    ["wormqos"],
]
# Options each subcommand may carry in a plain run, and whether they take a value.
OPTIONS = {
    "sweep": {"--experiment": True, "--out": True, "--jobs": True, "--force": False},
    "model": {"--experiment": True, "--out": True, "--jobs": True, "--force": False,
              "--with-sim": False, "--deadline": True, "--ring-strategy": True,
              "--hops": True},
}


def fail(msg, code=2):
    print(f"rerun_check: {msg}", file=sys.stderr)
    sys.exit(code)


def doc_snippets(text):
    """Each code-block line and each inline backtick span (whitespace
    collapsed, since prose wraps long commands), with its line number."""
    out = []
    in_block = False
    for no, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            out.append((no, line.strip()))
    # Inline spans may cross line breaks; blocks are skipped by construction
    # because their fences hold three backticks.
    stripped = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for m in re.finditer(r"`([^`]+)`", stripped):
        no = stripped.count("\n", 0, m.start()) + 1
        out.append((no, " ".join(m.group(1).split())))
    return out


def parse_command(snippet):
    """(subcommand, args) of a runner invocation, or a refusal reason."""
    try:
        tokens = shlex.split(snippet)
    except ValueError as e:
        return None, f"cannot be split into words ({e})"
    if any(t in ("|", "&&", ";", ">", ">>", "||") for t in tokens):
        return None, "is not a single plain command (pipe, redirection or chain)"
    if tokens[:2] == ["nice", "-n"] and len(tokens) > 2:
        tokens = tokens[3:]
    for prefix in RUNNERS:
        if tokens[:len(prefix)] == prefix:
            rest = tokens[len(prefix):]
            break
    else:
        return None, "does not run the root binary or the netsim example"
    if not rest or rest[0] not in OPTIONS:
        return None, f"runs `{rest[0] if rest else ''}`, not `sweep` or `model`"
    sub, args, allowed = rest[0], rest[1:], OPTIONS[rest[0]]
    i = 0
    while i < len(args):
        opt = args[i]
        if opt not in allowed:
            return None, f"has option `{opt}`, not one of a plain `{sub}` run"
        i += 2 if allowed[opt] else 1
    if i != len(args):
        return None, f"option `{args[-1]}` has no value"
    return (sub, args), None


def option(args, name):
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == name]


def without_run_options(sub, args):
    """The command up to --jobs and --force, which do not change results."""
    out, i = [], 0
    while i < len(args):
        if args[i] == "--jobs":
            i += 2
            continue
        if args[i] != "--force":
            out.append(args[i])
        i += 1
    return (sub, tuple(out))


def find(folder, experiment):
    target = f"experiments/results/{folder}"
    found, refused = {}, []
    pattern = re.compile(r"--out\s+" + re.escape(target) + r"/?(\s|$)")
    for doc in DOCS:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for no, snippet in doc_snippets(text):
            if not pattern.search(snippet):
                continue
            cmd, why = parse_command(snippet)
            if cmd is None:
                refused.append(f"{doc}:{no}: `{snippet}` {why}")
                continue
            found.setdefault(without_run_options(*cmd), (f"{doc}:{no}", cmd))
    if experiment is not None:
        found = {k: v for k, v in found.items()
                 if option(v[1][1], "--experiment") == [experiment]}
    if refused and not found:
        fail("the command that writes " + target + " is not a plain sweep/model run:\n  "
             + "\n  ".join(refused))
    if not found:
        which = f" with --experiment {experiment}" if experiment else ""
        fail(f"{WHERE} has no sweep/model command with --out {target}{which}")
    if len(found) > 1:
        lines = [f"{at}: {cmd[0]} {' '.join(cmd[1])}" for at, cmd in found.values()]
        fail(f"{WHERE} has {len(found)} different commands with --out {target} "
             "(name the experiment file to choose one):\n  " + "\n  ".join(lines))
    at, (sub, args) = next(iter(found.values()))
    sub, kept = without_run_options(sub, args)
    print(at, file=sys.stderr)
    print(shlex.join([sub, *kept]))


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    return rows[0], rows[1:]


def point_label(header, row, index):
    keys = []
    for name, value in zip(header, row):
        if "." in name or "+" in name or name in KEY_COLUMNS:
            keys.append(f"{name}={value}")
        else:
            break
    return f"row {index + 1}" + (f" ({', '.join(keys)})" if keys else "")


def compare_csv(name, committed, rerun, report):
    h0, rows0 = read_csv(committed)
    h1, rows1 = read_csv(rerun)
    if h0 != h1:
        # Still compare the columns both have, by name: a column added since
        # the commit should not hide changed values in the others.
        gone = [c for c in h0 if c not in h1]
        new = [c for c in h1 if c not in h0]
        report.append(f"{name}: header differs (only committed: {', '.join(gone) or '-'}; "
                      f"only rerun: {', '.join(new) or '-'}); the common columns compared below")
    common = [c for c in h0 if c in h1 and c not in IGNORED_COLUMNS]
    at0, at1 = {c: i for i, c in enumerate(h0)}, {c: i for i, c in enumerate(h1)}
    if len(rows0) != len(rows1):
        report.append(f"{name}: {len(rows0)} committed rows, {len(rows1)} rerun rows")
    columns = set()
    for i, (r0, r1) in enumerate(zip(rows0, rows1)):
        if len(r0) != len(h0) or len(r1) != len(h1):
            report.append(f"{name} row {i + 1}: {len(r0)} committed / {len(r1)} rerun fields, "
                          f"header {len(h0)} / {len(h1)}")
            continue
        diffs = [(c, r0[at0[c]], r1[at1[c]]) for c in common if r0[at0[c]] != r1[at1[c]]]
        if diffs:
            columns.update(c for c, _, _ in diffs)
            shown = "; ".join(f"{c}: {a} -> {b}" for c, a, b in diffs[:4])
            more = f"; and {len(diffs) - 4} more columns" if len(diffs) > 4 else ""
            report.append(f"{name} {point_label(h0, r0, i)}: {len(diffs)} columns differ: "
                          f"{shown}{more}")
    return columns


def json_leaves(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in IGNORED_COLUMNS:
                yield from json_leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def compare_json(name, committed, rerun, report):
    with open(committed, encoding="utf-8") as f:
        a = dict(json_leaves(json.load(f)))
    with open(rerun, encoding="utf-8") as f:
        b = dict(json_leaves(json.load(f)))
    keys = list(a) + [k for k in b if k not in a]
    diffs = [(k, a.get(k, "(absent)"), b.get(k, "(absent)")) for k in keys
             if a.get(k, "(absent)") != b.get(k, "(absent)")]
    for k, x, y in diffs[:20]:
        report.append(f"{name} {k}: {x} -> {y}")
    if len(diffs) > 20:
        report.append(f"{name}: and {len(diffs) - 20} more differing values")


def committed_files(folder):
    out = subprocess.run(["git", "ls-files", "--", folder], capture_output=True,
                         text=True, check=True).stdout.split()
    return {os.path.relpath(p, folder) for p in out}


def written_files(rerun):
    manifest = os.path.join(rerun, ".wormqos-manifest")
    with open(manifest, encoding="utf-8") as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


def compare(folder, rerun):
    committed = committed_files(folder)
    if not committed:
        fail(f"{folder} has no committed files")
    written = written_files(rerun)
    report, compared = [], []
    old_manifest = os.path.join(folder, ".wormqos-manifest")
    should_write = set()
    if os.path.exists(old_manifest):
        should_write = written_files(folder)
    for name in sorted(committed):
        is_csv = name.endswith(".csv")
        is_json = name == "results.json"
        if not (is_csv or is_json):
            continue
        if name not in written:
            if name in should_write:
                report.append(f"{name}: committed and listed in the committed manifest, "
                              "but the rerun did not write it")
            else:
                print(f"  not compared: {name} (not written by this command)")
            continue
        compared.append(name)
        a, b = os.path.join(folder, name), os.path.join(rerun, name)
        (compare_csv if is_csv else compare_json)(name, a, b, report)
    if not compared and not report:
        fail(f"{folder}: no committed CSV written by the rerun: nothing to compare")
    print(f"  compared: {', '.join(compared)}")
    if report:
        print("differs:")
        for line in report:
            print("  " + line)
        sys.exit(1)
    print("reproduces")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "find" and len(sys.argv) <= 4:
        find(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        fail("usage: rerun_check.py find FOLDER [EXPERIMENT] | compare COMMITTED RERUN")


if __name__ == "__main__":
    main()
