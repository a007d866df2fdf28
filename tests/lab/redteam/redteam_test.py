#!/usr/bin/env python3
"""The hostile student files of this folder against `tilescope-cli lab check` (README.md says
what each tries). For each row of expected.txt: the lab answers within its time limit, without
a crash (no signal, no abort), never with a pass, and with the named message where one is
given. usage: redteam_test.py TILESCOPE_CLI"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TIME_LIMIT_S = 120  # a file the lab stops at its own 5 s limit per size still answers well within this


def rows():
    with open(os.path.join(HERE, "expected.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, exercise, text = (part.strip() for part in line.split("|"))
                yield name, exercise, text


def check(cli, name, exercise, text):
    path = os.path.join(HERE, name)
    try:
        run = subprocess.run([cli, "lab", "check", exercise, path], capture_output=True, timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        return f"no answer within {TIME_LIMIT_S} s"
    said = (run.stdout + run.stderr).decode("utf-8", "replace")
    if run.returncode < 0 or run.returncode >= 128:
        return f"crashed (exit {run.returncode}): {said[-300:]}"
    if run.returncode == 0:
        return f"passed, exit 0: {said[-300:]}"
    if text and text not in said:
        return f"does not say '{text}': {said[-400:]}"
    return None


def main():
    cli = sys.argv[1]
    failures = 0
    for name, exercise, text in rows():
        problem = check(cli, name, exercise, text)
        print(("FAIL " if problem else "ok   ") + f"{name} ({exercise})" + (f": {problem}" if problem else ""))
        failures += problem is not None
    print(f"{failures} of the hostile files were not contained")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
