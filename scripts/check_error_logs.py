#!/usr/bin/env python3
"""Counts the error returns in source/ that have no log line (docs/robustness.md, "One line per failure").

Every `return <error code>;` (INVALID_VALUE, NOT_SUPPORT, OUT_OF_MEMORY, INPUT_DATA_ERROR, ...) in
source/backend, core, shape and cv must be covered by exactly one log line. A return counts as covered when
  - a log call (MNN_ERROR, ShapeUtils::error / error(op, ...), a `fail(...)` helper, or an Execution's
    `error(code, ...)` whose reason the Session prints) comes before it in the same block (nested blocks
    that closed before it do not count), or the return itself is such a call;
  - it is in an Execution's onResize / onExecute (the Session prints "op X (Type): resize / execution failed
    with code N (NAME): <reason>; inputs <name shape type>, outputs ..." for it);
  - the line, or the comment lines right above it, say `// reported by <who>`: the caller that logs it
    (a creator returning nullptr to the backend, a helper whose caller names the op).
`return false;` and `return nullptr;` are counted in functions that log on some other path (a function that
reports errors must report all of them); elsewhere they are answers (a predicate, "no kernel for this
case"), not failures. Those can be marked `// reported by ...` or `// not an error: ...`.

usage: scripts/check_error_logs.py [--list] [--all-returns] [--strict] [DIR...]   (exit 1 when any is uncovered)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ["source/backend", "source/core", "source/shape", "source/cv"]
CODES = ("INVALID_VALUE|NOT_SUPPORT|OUT_OF_MEMORY|COMPUTE_SIZE_ERROR|NO_EXECUTION|INPUT_DATA_ERROR|"
         "TENSOR_NOT_SUPPORT|TENSOR_NEED_DIVIDE")
RET_CODE = re.compile(r"\breturn\s+(?:ErrorCode::)?(" + CODES + r")\s*;")
# `return error(CODE, ...)` (an Execution's reason) and `return ShapeUtils::error(op, CODE, ...)`: covered
RET_CALL = re.compile(r"\breturn\s+(?:ShapeUtils::)?error\s*\(\s*(?:op\s*,\s*)?(" + CODES + r")\b")
RET_OTHER = re.compile(r"\breturn\s+(false|nullptr)\s*;")
LOG = re.compile(r"\b(MNN_ERROR|ShapeUtils::error|error|fail)\s*\(")
MARK = re.compile(r"//.*\b(reported by|not an error)\b")
STRICT = False  # --strict: Session's line does not count (the metric of the original issue)
CONTROL = re.compile(r"\b(if|for|while|switch|catch|else|do)\s*(\(|$)")


def strip(text):
    """comments and string / char literals blanked (same length, newlines kept)"""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(n, j + 1)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blocks(code):
    """(open, close, header) per brace block; header: the text between the previous ; { } and the {"""
    stack, res = [], []
    for i, c in enumerate(code):
        if c == "{":
            k = i - 1
            while k >= 0 and code[k] not in ";{}":
                k -= 1
            stack.append((i, code[k + 1:i]))
        elif c == "}" and stack:
            o, h = stack.pop()
            res.append((o, i, h))
    return res


def functionOf(header):
    """the function name when a block header is a function (or lambda) definition, else None"""
    h = " ".join(header.split())
    if not h or CONTROL.search(h.split("(")[0] + "(") or re.match(r"^(else|do|try)\b", h):
        return None
    if re.search(r"\]\s*(\([^)]*\))?\s*(mutable)?\s*(->\s*[\w:<>*& ]+)?$", h):
        return "<lambda>"
    m = re.search(r"([~\w:]+)\s*\([^;]*\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(final)?\s*(->\s*[\w:<>*& ]+)?"
                  r"(\s*:\s*.*)?$", h)
    if not m or re.match(r"^(if|for|while|switch|return|sizeof)$", m.group(1).split("::")[-1]):
        return None
    if re.search(r"\b(class|struct|namespace|enum|union)\b", h.split("(")[0]):
        return None
    return m.group(1).split("::")[-1]


def sameLevel(code, start, end):
    """code[start:end] with nested {...} blocks removed"""
    out, depth = [], 0
    for c in code[start:end]:
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def scan(path, allReturns):
    text = open(path, encoding="utf-8", errors="replace").read()
    code = strip(text)
    lines = text.split("\n")
    lineStarts = [0]
    for ln in lines:
        lineStarts.append(lineStarts[-1] + len(ln) + 1)
    bl = blocks(code)
    results = []
    for regex, kind in ((RET_CODE, "code"), (RET_CALL, "call"), (RET_OTHER, "other")):
        for m in regex.finditer(code):
            pos = m.start()
            enclosing = sorted([b for b in bl if b[0] < pos < b[1]], key=lambda b: b[0])
            if not enclosing:
                continue
            func, funcBlock = None, None
            for b in reversed(enclosing):
                f = functionOf(b[2])
                if f:
                    func, funcBlock = f, b
                    break
            if func is None:
                continue
            inner = enclosing[-1]
            lineNo = next(i for i in range(len(lineStarts)) if lineStarts[i + 1] > pos) + 1
            raw = lines[lineNo - 1]
            # the statement: a brace-less `if (...) return X;` has only its condition before it
            stmtStart = pos
            while stmtStart > inner[0] + 1 and code[stmtStart - 1] not in ";{}":
                stmtStart -= 1
            before = sameLevel(code, inner[0] + 1, stmtStart)
            braceless = re.match(r"\s*(if|else|for|while)\b", code[stmtStart:pos]) is not None
            logged = not braceless and LOG.search(before) is not None
            marked = MARK.search(raw) is not None
            k = lineNo - 2
            while not marked and k >= 0 and lines[k].strip().startswith("//"):
                marked = MARK.search(lines[k]) is not None
                k -= 1
            bySession = func in ("onResize", "onExecute") and not STRICT
            funcLogs = LOG.search(code[funcBlock[0]:funcBlock[1]]) is not None or \
                "reported by" in text[funcBlock[0]:funcBlock[1]]
            if kind == "other" and not allReturns and not funcLogs:
                continue
            logged = logged or kind == "call"
            covered = logged or marked or bySession
            results.append((path, lineNo, func, m.group(1), covered,
                            "logged" if logged else "marked" if marked else "Session" if bySession else "-"))
    return results


def main(argv):
    global STRICT
    STRICT = "--strict" in argv
    listAll = "--list" in argv
    allReturns = "--all-returns" in argv
    dirs = [a for a in argv if not a.startswith("--")] or DIRS
    rows = []
    for d in dirs:
        for base, _, files in os.walk(os.path.join(ROOT, d)):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp", ".h", ".inl")):
                    rows += scan(os.path.join(base, f), allReturns)
    rows.sort()
    codes = [r for r in rows if r[3] not in ("false", "nullptr")]
    others = [r for r in rows if r[3] in ("false", "nullptr")]
    for name, group in (("error-code returns", codes), ("false / nullptr returns in logging functions", others)):
        bad = [r for r in group if not r[4]]
        print("%s: %d, without a log line: %d" % (name, len(group), len(bad)))
        for r in (group if listAll else bad):
            print("  %s:%d %s() return %s [%s]" % (os.path.relpath(r[0], ROOT), r[1], r[2], r[3], r[5]))
    perDir = {}
    for r in rows:
        d = os.path.relpath(r[0], ROOT).split("/")[1]
        t = perDir.setdefault(d, [0, 0])
        t[0] += 1
        t[1] += 0 if r[4] else 1
    print("per folder (returns, without a log line): " + ", ".join("%s %d/%d" % (d, v[0], v[1])
                                                                    for d, v in sorted(perDir.items())))
    return 1 if any(not r[4] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
