#!/usr/bin/env python3
"""Checks of experiments/prose_census.py's filter and mutation on a small
document written by hand (the expected numbers are read off the text, not
computed by the census). Prints "all checks passed" or FAIL lines; exit 1
on any failure. Run by `cargo test` (tests/rerun_check.rs)."""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("prose_census", os.path.join(here, "prose_census.py"))
census = importlib.util.module_from_spec(spec)
spec.loader.exec_module(census)

DOC = """# Title 42

Accepted 0.649 flits at load 0.8 (Fig. 7(b), Eqs (16)–(23), §9.6, Table VI).
Run on 2026-11-29 13:15:50 UTC, commit e188a76, paper `000_…` and 000_x.
`cargo run -- --jobs 2` took 1,534.2 s; see [16] and [link](../a/b1.png).

| load | x |
|---|---|
| 0.6 | 33.3 |

```sh
run 77
```

Figs 11 and 12 agree within 5 %; issue 23 item 3 says 12.5 to 31.7 %, as Fig.
7 shows: 2.5 cycles.
"""

failures = []


def check(name, got, want):
    if got != want:
        failures.append(f"FAIL {name}: got {got!r}, want {want!r}")


found = census.prose_numbers(DOC)
check("numbers counted", [n for _, _, _, n in found], ["0.649", "0.8", "1,534.2", "5", "12.5", "31.7", "2.5"])
# Positions point at the number in the document's own line.
lines = DOC.split("\n")
for no, a, b, num in found:
    check(f"position of {num}", lines[no - 1][a:b], num)
# A reference that wraps keeps the lines below it in place.
check("line of 2.5", [no for no, _, _, n in found if n == "2.5"], [len(lines) - 1])
# `recheck` finds a number by its census context (40 characters either side
# of it on its line, stripped: here the line's first 72), and not when the
# context differs (the sentence was edited).
whole = "Accepted 0.649 flits at load 0.8 (Fig. 7(b), Eqs (16)–(23), §9.6, Table"
check("locate by context", census.locate(found, lines, "0.8", whole), (3, 29, 32))
check("locate an edited context", census.locate(found, lines, "0.8", whole.replace("0.649", "0.648")), None)
# The same on the real document: every counted number is where it says.
real = open(os.path.join(here, "..", "docs", "reproduction.md"), encoding="utf-8").read()
real_lines = real.split("\n")
misplaced = [(no, n) for no, a, b, n in census.prose_numbers(real) if real_lines[no - 1][a:b] != n]
check("numbers of docs/reproduction.md in place", misplaced[:3], [])
check("lines A:B", census.parse_lines("12:40"), (12, 40))
check("lines one line", census.parse_lines("7:7"), (7, 7))
check("lines reversed", census.parse_lines("40:12"), None)
check("lines zero", census.parse_lines("0:3"), None)
check("lines not a range", census.parse_lines("12-40"), None)
check("mutate last digit", census.mutate("0.649"), "0.640")
check("mutate a 9 wraps", census.mutate("19"), "10")
check("mutate thousands", census.mutate("1,534.2"), "1,534.3")

# run_tests: the slow tests run second and only when the rest passed. A fake
# test binary (a shell script) logs its arguments and fails as told.
import stat
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "calls")
    fake = os.path.join(tmp, "fake_tests")

    def make_fake(fail_first, fail_second, fail_catchers=False):
        # The whole binary's first stage carries --skip, its second --exact
        # and the slow tests' names; a catchers' run --exact and other names.
        # Each prints a libtest failure header for a named test when told to
        # fail.
        with open(fake, "w") as f:
            f.write("#!/bin/sh\n"
                    f"echo \"$* root=$WORMQOS_REPRO_ROOT\" >> {log}\n"
                    "case \"$*\" in\n"
                    f"  *--skip*) [ {int(fail_first)} = 1 ] && "
                    "{ echo '---- fast_one stdout ----'; exit 101; } ;;\n"
                    f"  *--exact*every_results_table_is_tied*) [ {int(fail_second)} = 1 ] && "
                    "{ echo '---- every_results_table_is_tied stdout ----'; exit 101; } ;;\n"
                    f"  *--exact*) [ {int(fail_catchers)} = 1 ] && "
                    "{ echo '---- near_one stdout ----'; exit 101; } ;;\n"
                    "esac\nexit 0\n")
        os.chmod(fake, stat.S_IRWXU)
        if os.path.exists(log):
            os.remove(log)

    def calls():
        return open(log).read().split("\n")[:-1] if os.path.exists(log) else []

    make_fake(True, False)
    check("caught by the fast tests", census.run_tests(fake, tmp), (101, ["fast_one"]))
    check("slow tests not run once caught", len(calls()), 1)
    check("slow tests skipped first", all(("--skip " + t) in calls()[0] for t in census.SLOW_TESTS), True)
    make_fake(False, True)
    check("caught by a slow test", census.run_tests(fake, tmp), (101, ["every_results_table_is_tied"]))
    check("slow tests run exactly", calls()[-1].split()[-4:-1], ["--exact", *census.SLOW_TESTS])
    check("the binary reads this checkout", calls()[-1].split()[-1], "root=" + tmp)
    make_fake(False, False)
    check("caught by none", census.run_tests(fake, tmp)[0], 0)
    check("both stages ran", len(calls()), 2)

    # Catchers: the tests that caught the last numbers run first, alone.
    near = census.Catchers(size=2)
    make_fake(True, False)
    check("no catchers yet: the whole binary", census.run_tests(fake, tmp, near), (101, ["fast_one"]))
    check("no catchers yet: one run", len(calls()), 1)
    check("the catch is remembered", near.names, ["fast_one"])
    make_fake(False, False, fail_catchers=True)
    check("caught by a catcher", census.run_tests(fake, tmp, near), (101, ["near_one"]))
    check("caught by a catcher: one run", calls(), ["--test-threads 2 -q --exact fast_one root=" + tmp])
    check("most recent first", near.names, ["near_one", "fast_one"])
    make_fake(False, False, fail_catchers=False)
    check("catchers pass: the whole binary decides", census.run_tests(fake, tmp, near)[0], 0)
    check("catchers pass: the most recent alone, then the rest, then both stages",
          [c.split(" root=")[0] for c in calls()[:2]],
          ["--test-threads 2 -q --exact near_one", "--test-threads 2 -q --exact fast_one"])
    check("catchers pass: then both stages", len(calls()), 4)
    make_fake(False, True, fail_catchers=False)
    check("catchers pass, a slow test fails", census.run_tests(fake, tmp, near),
          (101, ["every_results_table_is_tied"]))
    check("at most `size` catchers", near.names, ["every_results_table_is_tied", "near_one"])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all checks passed")
