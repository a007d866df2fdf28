#!/usr/bin/env python3
"""The autograders `tilescope-cli lab autograder` makes, run as their platforms run them.

Gradescope: the zip is unpacked (with its Unix permissions, as unzip does) into a fresh
/autograder layout under a temporary root (AUTOGRADER_ROOT moves it there), setup.sh runs (its
package install skipped: TILESCOPE_SKIP_PACKAGES), run_autograder is copied to the root as
Gradescope copies it and run for a submission; results.json is checked against Gradescope's
schema and the scores the exercise's own text implies. GitHub Classroom: the .github tree is
copied into a fresh repository holding a submission, the workflow's grading step (grade.sh) runs
with GITHUB_OUTPUT, and the reporter's input (the step's base64 `result`) is decoded and checked.

Expected scores come from the exercise file, not the grader: its checks (one "correct at" per
size, "no hazards", one per metric line) are the tests; the reference solution passes every
one; the starter (fig. 5.9 without boundary checks) is right at 8x8x8, where the tiles divide
P, and wrong at 5x7x3, where they do not (the exercise's goal says so).

usage: platform_test.py --cli TILESCOPE_CLI --source REPO_ROOT
"""
import argparse
import base64
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile

EXERCISE = "bounds_jkl"


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def exercise_facts(source):
    """The tests the exercise defines and its starter, read from its file."""
    text = open(os.path.join(source, "assets", "exercises", EXERCISE + ".exercise")).read()
    lines = text.split("\n")
    sizes = next(l for l in lines if l.startswith("sizes:")).split()[1:]
    names = ["correct at " + s.replace(",", "x") for s in sizes]
    names.append("no hazards")
    for l in lines:  # a metric check is named by its line, its sizes written 5x7x3 and listed with commas
        if l.startswith("check: max ") or l.startswith("check: min "):
            check, _, at = l[len("check: "):].partition(" at ")
            names.append(check + (" at " + ", ".join(s.replace(",", "x") for s in at.split()) if at else ""))
    starter = text[text.index("\nstarter:\n") + len("\nstarter:\n"):]
    return names, starter


def unzip_as_unzip_does(archive, into):
    with zipfile.ZipFile(archive) as z:
        expect(z.testzip() is None, "the zip has a corrupt entry")
        for info in z.infolist():
            path = z.extract(info, into)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(path, mode)


def check_gradescope_schema(results):
    expect(isinstance(results.get("score"), (int, float)), "results.json: score is a number")
    expect(isinstance(results.get("tests"), list) and results["tests"], "results.json: tests is a non-empty list")
    for t in results["tests"]:
        expect(set(t) >= {"name", "score", "max_score", "status", "output"}, "a test lacks a field: %r" % t)
        expect(isinstance(t["name"], str) and isinstance(t["output"], str), "name and output are text: %r" % t)
        expect(t["status"] in ("passed", "failed"), "status is passed or failed: %r" % t)
        expect(t["score"] == (t["max_score"] if t["status"] == "passed" else 0), "a test's score follows its status: %r" % t)
    expect(abs(results["score"] - sum(t["score"] for t in results["tests"])) < 1e-9, "score is the tests' sum")


def run_gradescope(bundle, submission_files, env):
    root = tempfile.mkdtemp(prefix="gradescope-")
    try:
        ag = os.path.join(root, "autograder")
        for d in ("source", "submission", "results"):
            os.makedirs(os.path.join(ag, d))
        unzip_as_unzip_does(os.path.join(bundle, "autograder.zip"), os.path.join(ag, "source"))
        for name in ("setup.sh", "run_autograder"):
            expect(os.stat(os.path.join(ag, "source", name)).st_mode & stat.S_IXUSR, name + " is executable in the zip")
        subprocess.run([os.path.join(ag, "source", "setup.sh")], env=dict(env, TILESCOPE_SKIP_PACKAGES="1"), check=True)
        shutil.copy2(os.path.join(ag, "source", "run_autograder"), os.path.join(ag, "run_autograder"))
        for name, text in submission_files.items():
            with open(os.path.join(ag, "submission", name), "w") as f:
                f.write(text)
        done = subprocess.run([os.path.join(ag, "run_autograder")], cwd=ag, env=dict(env, AUTOGRADER_ROOT=ag),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        expect(done.returncode == 0, "run_autograder exits 0 (a grade is in results.json):\n" + done.stdout)
        with open(os.path.join(ag, "results", "results.json")) as f:
            return json.load(f), done.stdout
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_gradescope(cli, names, solution, starter, env):
    bundle = tempfile.mkdtemp(prefix="bundle-")
    try:
        subprocess.run([cli, "lab", "autograder", "gradescope", bundle, "--exercise", EXERCISE], env=env, check=True)
        results, log = run_gradescope(bundle, {"matmul.cu": solution}, env)
        check_gradescope_schema(results)
        expect([t["name"] for t in results["tests"]] == names, "one test per check: %r" % [t["name"] for t in results["tests"]])
        expect(results["score"] == len(names) == results["max_score"], "the solution scores every point:\n" + log)

        results, log = run_gradescope(bundle, {"matmul.cu": starter}, env)
        check_gradescope_schema(results)
        status = {t["name"]: t["status"] for t in results["tests"]}
        expect(status["correct at 8x8x8"] == "passed", "the starter is right at 8x8x8: %r" % status)
        expect(status["correct at 5x7x3"] == "failed", "the starter is wrong at 5x7x3: %r" % status)
        expect(0 < results["score"] < results["max_score"], "the starter scores some points, not all")

        results, log = run_gradescope(bundle, {"notes.txt": "no kernel here"}, env)
        check_gradescope_schema(results)
        expect(results["score"] == 0 and "no .cu files" in results["tests"][0]["output"],
               "a submission without a kernel scores 0 and says why: %r" % results)
    finally:
        shutil.rmtree(bundle, ignore_errors=True)


def run_classroom(template, submission, env):
    repo = tempfile.mkdtemp(prefix="classroom-")
    try:
        shutil.copytree(os.path.join(template, ".github"), os.path.join(repo, ".github"), symlinks=True)
        with open(os.path.join(repo, "matmul.cu"), "w") as f:
            f.write(submission)
        output = os.path.join(repo, "github_output")
        open(output, "w").close()
        subprocess.run(["bash", ".github/classroom/grade.sh"], cwd=repo, timeout=600, check=True,
                       env=dict(env, GITHUB_OUTPUT=output, GITHUB_WORKSPACE=repo))
        lines = [l for l in open(output).read().split("\n") if l.startswith("result=")]
        expect(len(lines) == 1, "the step sets its output `result` once")
        return json.loads(base64.b64decode(lines[0][len("result="):]))
    finally:
        shutil.rmtree(repo, ignore_errors=True)


def test_classroom(cli, names, solution, starter, env):
    template = tempfile.mkdtemp(prefix="template-")
    try:
        subprocess.run([cli, "lab", "autograder", "classroom", template, "--exercise", EXERCISE], env=env, check=True)
        workflow = open(os.path.join(template, ".github", "workflows", "classroom.yml")).read()
        # The reporter reads runner R's result from the environment variable R_RESULTS (uppercased).
        for needle in ("id: tilescope", "run: bash .github/classroom/grade.sh", "runners: tilescope",
                       'TILESCOPE_RESULTS: "${{ steps.tilescope.outputs.result }}"',
                       "uses: classroom-resources/autograding-grading-reporter@v1"):
            expect(needle in workflow, "the workflow has " + needle)
        result = run_classroom(template, solution, env)
        expect(result["version"] == 1 and result["status"] == "pass", "the solution passes: %r" % result)
        expect(result["max_score"] == len(names) and [t["name"] for t in result["tests"]] == names, "one test per check")
        expect(all(t["status"] == "pass" and t["score"] == 1 for t in result["tests"]), "every test passed")
        result = run_classroom(template, starter, env)
        expect(result["status"] == "fail", "the starter fails: %r" % result)
    finally:
        shutil.rmtree(template, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--source", required=True)
    args = parser.parse_args()
    names, starter = exercise_facts(args.source)
    solution = open(os.path.join(args.source, "tests", "fixtures", "lab", "solutions", EXERCISE + ".cu")).read()
    # The bundle finds its own runner and exercises: nothing may point it at the build's.
    env = {k: v for k, v in os.environ.items() if k not in ("TILESCOPE_ASSETS", "TILESCOPE_LAB_RUNNER")}
    test_gradescope(args.cli, names, solution, starter, env)
    test_classroom(args.cli, names, solution, starter, env)
    print("ok: Gradescope's and GitHub Classroom's autograders grade as their platforms run them")


if __name__ == "__main__":
    main()
