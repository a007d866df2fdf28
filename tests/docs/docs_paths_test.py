#!/usr/bin/env python3
"""Every path the documentation names exists, and no document cites a file outside the
repository (a reader of the repository has only the repository).

  tests/docs/docs_paths_test.py REPO_ROOT

Read: every tracked Markdown file except recorded results (bench/results/, tests/fixtures/),
whose texts are records of what was true when they were written. Checked in each:
  - every relative link target, [text](path), from the document's folder;
  - every `code span` that starts with one of the repository's top-level folders (app/,
    kernels/, tests/, ...), from the repository's root; a span with a wildcard or a brace
    ({a,b}) must match at least one file;
  - no mention of the design notes and folders that live beside the repository, not in it.
A placeholder a guide invents for the reader (kernels/my_kernel.cuh) is named in PLACEHOLDERS; a
path git ignores (what a build or an install step makes, e.g. tests/web/node_modules/) is not
looked for: a fresh clone has none.
Exit 1 with every missing path as FILE:LINE: PATH."""
import glob
import os
import re
import subprocess
import sys

PLACEHOLDERS = {"kernels/my_kernel.cuh", "app/ui/panels/warps.cpp"}
OUTSIDE = [re.compile(r"\bDESIGN\.md\b"), re.compile(r"\.\./shared\b"), re.compile(r"\bdocs-notes/")]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
SPAN = re.compile(r"`([^`]+)`")


def top_folders(root):
    return tuple(name + "/" for name in os.listdir(root)
                 if os.path.isdir(os.path.join(root, name)) and not name.startswith(".git") and not name.startswith("build"))


def exists(root, path):
    if any(c in path for c in "*?{"):
        patterns = [path]
        brace = re.search(r"\{([^}]*)\}", path)
        if brace:
            patterns = [path[:brace.start()] + alt + path[brace.end():] for alt in brace.group(1).split(",")]
        return all(glob.glob(os.path.join(root, p)) for p in patterns)
    return os.path.exists(os.path.join(root, path))


def ignored(root, path):
    return subprocess.run(["git", "-C", root, "check-ignore", "-q", path]).returncode == 0


def problems_in(root, doc, tops):
    found = []
    folder = os.path.dirname(doc)
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            for pattern in OUTSIDE:
                if pattern.search(line):
                    found.append(f"{doc}:{number}: names '{pattern.pattern}', which is not in the repository")
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue  # a web address
                if not os.path.exists(os.path.normpath(os.path.join(root, folder, target))):
                    found.append(f"{doc}:{number}: link to {target}, which does not exist")
            for span in SPAN.findall(line):
                for word in span.split():
                    word = word.strip(".,;:()'\"")
                    if not word.startswith(tops) or word in PLACEHOLDERS or "$" in word or "<" in word:
                        continue
                    if not exists(root, word.rstrip("/")) and not ignored(root, word):
                        found.append(f"{doc}:{number}: {word} does not exist")
    return found


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    docs = subprocess.run(["git", "-C", root, "ls-files", "*.md"], capture_output=True, text=True, check=True).stdout.split()
    docs = [d for d in docs if not d.startswith(("bench/results/", "tests/fixtures/"))]
    tops = top_folders(root)
    problems = [p for d in docs for p in problems_in(root, d, tops)]
    for p in problems:
        print(p)
    print(f"docs paths: {len(docs)} documents read, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
