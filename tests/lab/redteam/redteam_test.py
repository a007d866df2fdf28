#!/usr/bin/env python3
"""The hostile student files of this folder against `tilescope-cli lab check` (README.md says
what each tries). For each row of expected.txt: the lab answers within its time limit, without
a crash (no signal, no abort), never with a pass, and with the named message where one is
given. usage: redteam_test.py TILESCOPE_CLI"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TIME_LIMIT_S = 120  # a file the lab stops at its own 5 s limit per size still answers well within this


def slow_loop_body():
    """A loop whose body is 30 000 statements (3 000 lines of ten): were the time limit read only
    per loop step, the first look would come after about 2 billion statements. Written here
    rather than kept as a 3 000-line file."""
    line = "        " + "s = s * 0.5f + 1.0f; " * 10 + "\n"
    return ("// A loop whose body is 30 000 statements (written by redteam_test.py).\n"
            "__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {\n"
            "    float s = 0;\n"
            "    for (int i = 0; i < 1000000000; ++i) {\n" + line * 3000 + "    }\n    P[0] = s;\n}\n")


# Hostile files too long to keep as files: written into a scratch folder before the run.
GENERATED = {"slow_loop_body.cu": slow_loop_body}


def rows():
    with open(os.path.join(HERE, "expected.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, exercise, text = (part.strip() for part in line.split("|"))
                yield name, exercise, text


def check(cli, name, exercise, text, scratch):
    path = os.path.join(HERE, name)
    if name in GENERATED:
        path = os.path.join(scratch, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(GENERATED[name]())
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
    scratch = tempfile.mkdtemp(prefix="tilescope-redteam-")
    for name, exercise, text in rows():
        problem = check(cli, name, exercise, text, scratch)
        print(("FAIL " if problem else "ok   ") + f"{name} ({exercise})" + (f": {problem}" if problem else ""))
        failures += problem is not None
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"{failures} of the hostile files were not contained")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
