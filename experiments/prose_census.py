#!/usr/bin/env python3
"""Which numbers in docs/reproduction.md's prose does a test check?

Issue 23 item 3 asks that text and data cannot drift apart. The tables are
counted by `every_results_table_is_tied`; the prose has no such census,
because its checks are spread over many tests that do not say which
numbers they read. This tool measures it from the outside, by mutation: it
draws a random sample of the numbers in the prose, changes each one (its
last digit + 1, mod 10) in the document, runs the `reproduction_numbers`
test binary, and records whether some test fails. A number no test notices
is one that could drift from its data.

    experiments/prose_census.py list  [--doc D]
        every prose number the census counts, one per line (line, number,
        context): to inspect the filter.
    experiments/prose_census.py run --bin B --n N [--seed S] --out F.csv
        the mutation run. B is the built test binary of
        `cargo test --release --test reproduction_numbers --no-run`, built in
        any checkout of the same commit: it is run with WORMQOS_REPRO_ROOT
        set to this script's checkout, whose document and results it then
        reads. The document is restored after every run and on exit.
    experiments/prose_census.py run --bin B --lines A:B --out F.csv
        the same, for every counted number on lines A..B of the document (a
        section, not a sample): to tie the prose section by section.
    experiments/prose_census.py recheck --bin B --sample S.csv --kind K --out F.csv
        the numbers of a committed sample that were not caught and are of
        kind K (its hand-written `kind` column), mutated again in today's
        document: each is found by its number and its census context (the
        40 characters either side on its line, as `run` wrote them), so
        lines moved since do not matter; a row whose context is no longer
        in the document (the sentence was edited) is written with
        caught = "edited" and not run.

A number is caught when some test of the binary fails. The tests that
caught the last numbers run first, alone; only when none of them fails does
the whole binary run (`Catchers`), so the `failing_tests` column names the
failing tests of the run that decided, not every test that would fail.

Prose is every line outside fenced code blocks, tables, headings and image
lines. Not counted (not quoted results): numbers in inline code spans and
link targets, in references (Fig./Figs/Eq./Eqs/§/Table/issue/line/item
followed by numbers, a bracketed citation [16]), dates and clock times,
and digits glued to a letter or underscore (commit hashes, `000_…`, v2).
Configuration parameters and run lengths are counted: run lengths are
checked by `run_lengths.rs`, so a mutated one is caught like any number.
"""
import argparse
import csv
import os
import random
import re
import signal
import subprocess
import sys
import time

REF_WORD = r"(?:Figs?\.?|Figures?|Eqs?\.?|Equations?|§|Tables?|issues?|lines?|items?|Appendix|footnotes?|Sections?|stops?)"
REF_ATOM = r"\(?\d+(?:\.\d+)*\)?(?:\s?\([a-z]\))?[a-z]?"
REF = re.compile(REF_WORD + r"\s*" + REF_ATOM + r"(?:\s*(?:,|and|or|–|-|/|to)\s*" + REF_ATOM + r")*")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(?::\d{2})?")
CITATION = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def blank(text, pattern):
    """`pattern`'s matches replaced by spaces, line breaks kept (a reference
    may wrap), so every position stays where it was in the document."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def prose_numbers(doc):
    """(line number, start column, end column, number) of every counted
    number, in document order."""
    out = []
    in_code = False
    lines = doc.split("\n")
    # Inline code spans may cross line breaks: blank them over the whole text
    # of each paragraph-free view by working on the document with code
    # blocks kept (their fences have three backticks, spans one).
    masked = []
    for line in lines:
        if line.lstrip().startswith("```"):
            in_code = not in_code
            masked.append(None)
            continue
        s = line.strip()
        if in_code or s.startswith("|") or s.startswith("#") or s.startswith("![") or s.startswith("<!--"):
            masked.append(None)
        else:
            masked.append(line)
    # Blank inline code spans across lines within runs of prose lines.
    text = "\n".join(m if m is not None else "" for m in masked)
    text = re.sub(r"`[^`]*`", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    for pattern in (LINK_TARGET, CITATION, DATE, REF):
        text = blank(text, pattern)
    for no, line in enumerate(text.split("\n"), 1):
        if masked[no - 1] is None:
            continue
        for m in NUMBER.finditer(line):
            a, b = m.start(), m.end()
            before = line[a - 1] if a > 0 else " "
            after = line[b] if b < len(line) else " "
            if before.isalpha() or before == "_" or after.isalpha() or after == "_":
                continue
            out.append((no, a, b, m.group(0)))
    return out


def mutate(number):
    """The number with its last digit + 1 (mod 10): a change every exact
    tie must notice."""
    d = int(number[-1])
    return number[:-1] + str((d + 1) % 10)


def heading_of(lines, no):
    for i in range(no - 1, -1, -1):
        if lines[i].startswith("#") and not lines[i].startswith("#!"):
            return lines[i].strip()
    return ""


# The two slowest tests of the binary (1.2 s and 1.0 s of its 5 s of CPU on
# an idle machine) read the tables and the census's own plant, not the prose:
# in the first 1,030 mutations of prose numbers neither caught one. They run
# second, and only when the rest of the binary caught nothing, so "caught"
# still means "some test of the whole binary fails" at about half the cost.
SLOW_TESTS = ("the_census_catches_a_row_planted_in_the_document", "every_results_table_is_tied")


def run_binary(binary, cwd, extra):
    # No backtraces: a failure is all the census needs, and resolving one
    # costs as much as a fast test.
    env = dict(os.environ, WORMQOS_REPRO_ROOT=cwd, RUST_BACKTRACE="0")
    p = subprocess.run([binary, "--test-threads", "2", "-q", *extra], cwd=cwd, capture_output=True, text=True,
                       env=env)
    failed = re.findall(r"^---- (\S+) stdout ----", p.stdout, flags=re.M)
    return p.returncode, failed


class Catchers:
    """The tests that caught the last mutations, most recent first (at most
    `size`). The census walks a section line by line, so the test that
    caught one number mostly catches its neighbours: running those few tests
    first (0.2 s where the whole binary takes 4.5 s on an idle machine) decides
    most caught numbers. A pass there decides nothing; the whole binary
    still runs."""

    def __init__(self, size=4):
        self.size = size
        self.names = []

    def saw(self, failed):
        for name in reversed(failed):
            if name in self.names:
                self.names.remove(name)
            self.names.insert(0, name)
        del self.names[self.size:]


def run_tests(binary, cwd, catchers=None):
    """(exit code, failing test names) of the whole binary; the slow tests
    only when the others all pass (a failure already decides "caught").
    With `catchers`, their tests run first, alone (`--exact`): when one of
    them fails the number is caught (a test that fails alone fails in the
    whole binary: the tests only read) and the failing names are those of
    that first run; otherwise the whole binary runs as without them."""
    # The most recent catcher alone first (about 0.2 s), then the others
    # together: run together, the slowest of them sets the time of every run.
    first = catchers.names[:1] if catchers is not None else []
    rest = catchers.names[1:] if catchers is not None else []
    for names in (first, rest):
        if not names:
            continue
        code, failed = run_binary(binary, cwd, ["--exact", *names])
        if code != 0:
            catchers.saw(failed)
            return code, failed
    code, failed = run_tests_whole(binary, cwd)
    if catchers is not None and code != 0:
        catchers.saw(failed)
    return code, failed


def run_tests_whole(binary, cwd):
    skips = [a for name in SLOW_TESTS for a in ("--skip", name)]
    code, failed = run_binary(binary, cwd, skips)
    if code != 0:
        return code, failed
    return run_binary(binary, cwd, ["--exact", *SLOW_TESTS])


def context_of(line, a, b):
    """The census's context column: 40 characters either side, stripped."""
    return line[max(0, a - 40):b + 40].strip()


def locate(found, lines, number, context):
    """The (line, start, end) of the counted `number` whose census context
    is `context`, or None when there is none or more than one."""
    hits = [(no, a, b) for no, a, b, num in found if num == number and context_of(lines[no - 1], a, b) == context]
    return hits[0] if len(hits) == 1 else None


def parse_lines(text):
    """(A, B) from "A:B" with 1 <= A <= B, or None."""
    m = re.fullmatch(r"(\d+):(\d+)", text.strip())
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return (a, b) if 1 <= a <= b else None


def read_sample(path, kind):
    """The sample's rows not caught and of `kind`; exit 2 naming the file,
    line and field on bad input."""
    try:
        f = open(path, newline="", encoding="utf-8")
    except OSError as e:
        print(f"prose_census: --sample {path}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    with f:
        rows = list(csv.DictReader(f))
    need = ["line", "number", "caught", "kind", "context"]
    missing = [c for c in need if rows and c not in rows[0]]
    if not rows or missing:
        print(f"prose_census: {path}: line 1: columns {missing or need} missing (want {', '.join(need)})", file=sys.stderr)
        sys.exit(2)
    for k, r in enumerate(rows, 2):
        if r["caught"] not in ("yes", "no"):
            print(f"prose_census: {path}: line {k}: field caught = {r['caught']!r}, allowed: yes, no", file=sys.stderr)
            sys.exit(2)
    return [r for r in rows if r["caught"] == "no" and r["kind"] == kind]


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("--doc", default=None)
    rn = sub.add_parser("run")
    rn.add_argument("--bin", required=True)
    rn.add_argument("--n", type=int, default=None)
    rn.add_argument("--lines", default=None,
                    help="A:B, every counted number on lines A..B (inclusive) instead of a sample")
    rn.add_argument("--seed", type=int, default=1)
    rn.add_argument("--out", required=True)
    rc = sub.add_parser("recheck")
    rc.add_argument("--bin", required=True)
    rc.add_argument("--sample", required=True)
    rc.add_argument("--kind", default="result")
    rc.add_argument("--out", required=True)
    args = ap.parse_args()

    root = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--show-toplevel"],
                          capture_output=True, text=True, check=True).stdout.strip()
    doc_path = os.path.join(root, "docs", "reproduction.md")
    if args.cmd == "list":
        path = args.doc or doc_path
        doc = open(path, encoding="utf-8").read()
        lines = doc.split("\n")
        for no, a, b, num in prose_numbers(doc):
            print(f"{no}\t{num}\t{lines[no - 1][max(0, a - 30):b + 30]}")
        return 0

    span = None
    if args.cmd == "run":
        if (args.n is None) == (args.lines is None):
            print("prose_census: run: give exactly one of --n N (a sample) or --lines A:B (a section)",
                  file=sys.stderr)
            return 2
        if args.n is not None and args.n < 1:
            print(f"prose_census: --n {args.n}: want at least 1", file=sys.stderr)
            return 2
        if args.lines is not None:
            span = parse_lines(args.lines)
            if span is None:
                print(f"prose_census: --lines {args.lines!r}: want A:B with 1 <= A <= B", file=sys.stderr)
                return 2
    if not os.access(args.bin, os.X_OK):
        print(f"prose_census: --bin {args.bin}: not an executable", file=sys.stderr)
        return 2
    original = open(doc_path, encoding="utf-8").read()

    def restore(*_):
        with open(doc_path, "w", encoding="utf-8") as f:
            f.write(original)
        if _:
            sys.exit(130)

    signal.signal(signal.SIGINT, restore)
    signal.signal(signal.SIGTERM, restore)
    code, failed = run_tests(args.bin, root)
    catchers = Catchers()
    if code != 0:
        print(f"prose_census: the unchanged document already fails: {failed}", file=sys.stderr)
        return 1
    found = prose_numbers(original)
    lines = original.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    if args.cmd == "recheck":
        targets = read_sample(args.sample, args.kind)
        with open(args.out, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["sample_line", "line", "number", "mutated", "caught", "failing_tests", "context"])
            try:
                for r in targets:
                    at = locate(found, lines, r["number"], r["context"])
                    if at is None:
                        w.writerow([r["line"], "", r["number"], "", "edited", "", r["context"]])
                        continue
                    no, a, b = at
                    start = offsets[no - 1] + a
                    with open(doc_path, "w", encoding="utf-8") as g:
                        g.write(original[:start] + mutate(r["number"]) + original[start + (b - a):])
                    code, failed = run_tests(args.bin, root, catchers)
                    w.writerow([r["line"], no, r["number"], mutate(r["number"]), "yes" if code != 0 else "no", " ".join(failed), r["context"]])
                    f.flush()
                    print(f"line {no} {r['number']}: {'caught' if code else 'NOT caught'}", file=sys.stderr)
            finally:
                restore()
        return 0
    if span is not None:
        sample = [i for i, (no, _, _, _) in enumerate(found) if span[0] <= no <= span[1]]
    else:
        rng = random.Random(args.seed)
        sample = sorted(rng.sample(range(len(found)), min(args.n, len(found))))
    with open(args.out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["line", "number", "mutated", "caught", "failing_tests", "heading", "context", "seconds"])
        try:
            for k, i in enumerate(sample, 1):
                no, a, b, num = found[i]
                start = offsets[no - 1] + a
                if original[start:start + (b - a)] != num:
                    raise SystemExit(f"prose_census: line {no}: {num!r} is not at its position (filter bug)")
                changed = original[:start] + mutate(num) + original[start + (b - a):]
                with open(doc_path, "w", encoding="utf-8") as g:
                    g.write(changed)
                t = time.time()
                code, failed = run_tests(args.bin, root, catchers)
                context = context_of(lines[no - 1], a, b)
                w.writerow([no, num, mutate(num), "yes" if code != 0 else "no", " ".join(failed),
                            heading_of(lines, no), context, f"{time.time() - t:.1f}"])
                f.flush()
                print(f"{k}/{len(sample)} line {no} {num}: {'caught' if code else 'NOT caught'}", file=sys.stderr)
        finally:
            restore()
    return 0


if __name__ == "__main__":
    sys.exit(main())
