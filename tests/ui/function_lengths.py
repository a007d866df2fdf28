#!/usr/bin/env python3
"""Lists the functions of C++ and CUDA files longer than a limit (the style's 80 lines), longest
first; with --check, fails (exit 1) on any of them that its file does not excuse.

    function_lengths.py [--limit 80] [--check] DIR_OR_FILE...

A file excuses a function by a comment naming it and saying why it is longer (ctest
style.function_lengths runs the check over app, kernels and tests):
    // matrixMulKernel is longer than 80 lines: lesson 17 reads its whole loop on one page, ...
Only a kernel whose lesson needs the whole loop in view has one (kernels/README.md).

A function's length runs from the first line of its signature to its closing brace. The scan
strips comments, strings and character literals, then follows the braces: a brace opened after
a parenthesised signature at namespace, class or file level opens a function (lambdas and blocks
inside it count towards it). Good enough for this code base's style (no macros that open braces).
"""
import pathlib
import re
import sys

STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
CONTAINER = re.compile(r'\b(namespace|struct|class|enum|union)\b[^()]*$|^\s*extern\s+"C"\s*$')
SUFFIXES = (".cpp", ".h", ".cc", ".cu", ".cuh")
EXCUSE = re.compile(r"//\s*(\w+) is longer than 80 lines: \S")
NOT_FUNCTION = re.compile(r'^\s*(if|for|while|switch|catch|do|else|return)\b|=\s*$|\[\]|\]\s*\(')


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def functions(text):
    """(name, first line, last line) of every function defined in text."""
    code = STRIP.sub(blank, text)
    stack = []  # kinds: "container", "function", "block"
    start = 0   # index where the text before the next brace begins
    out = []
    for i, ch in enumerate(code):
        if ch == ";":
            start = i + 1
        elif ch == "{":
            head = code[start:i]
            in_function = "function" in stack
            stripped = " ".join(head.split())
            if CONTAINER.search(stripped) and not in_function:
                kind = "container"
            elif not in_function and "(" in head and not NOT_FUNCTION.search(stripped):
                kind = "function"
                first = code.count("\n", 0, start + len(head) - len(head.lstrip()))
                name = [n for n in re.findall(r"([~\w:]+)\s*\(", head) if n != "__launch_bounds__"]
                stack.append(("function", first + 1, name[0] if name else "?"))
                start = i + 1
                continue
            else:
                kind = "block"
            stack.append((kind, 0, ""))
            start = i + 1
        elif ch == "}":
            if stack:
                kind, first, name = stack.pop()
                if kind == "function":
                    out.append((name, first, code.count("\n", 0, i) + 1))
            start = i + 1
    return out


def main(argv):
    limit, check = 80, False
    while argv and argv[0] in ("--limit", "--check"):
        if argv[0] == "--check":
            check, argv = True, argv[1:]
        else:
            limit, argv = int(argv[1]), argv[2:]
    files = []
    for a in argv or ["."]:
        p = pathlib.Path(a)
        files += [p] if p.is_file() else sorted(q for q in p.rglob("*") if q.suffix in SUFFIXES)
    long, unexcused = [], 0
    for f in files:
        text = f.read_text(errors="replace")
        excused = set(EXCUSE.findall(text))
        for name, first, last in functions(text):
            if last - first + 1 > limit:
                long.append((last - first + 1, f"{f}:{first}", name, name in excused))
                unexcused += name not in excused
    for n, where, name, ok in sorted(long, reverse=True):
        print(f"{n:4d}  {name}  {where}{'  (its file says why)' if ok else ''}")
    print(f"{len(long)} functions over {limit} lines, {unexcused} without a reason in their file")
    return 1 if check and unexcused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
