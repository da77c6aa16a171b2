#!/usr/bin/env python3
"""Checks that no two test files define a file-scope helper of one name.

Usage: test_helper_names_check.py TESTS_DIR

Without ccache (CI) the test files compile in unity batches of eight (PARAPLAN_UNITY,
tests/CMakeLists.txt): one batch is one translation unit, so two files of a batch that both define
a helper `Plan` or a constant `kMarginPct` at file scope (anonymous namespace included) fail to
compile, or make a call ambiguous. Which files share a batch moves whenever a test file is added,
so this check asks more than any one batching does: a name is defined at file scope in one test
file only. Rename one (a name that says what it builds) or share it in a tests/ header. A file
that wraps its helpers in a namespace of its own (public_runs_cv_test.cpp) is exempt, and so are
using-declarations and aliases of one type or namespace, which may repeat.

It reads clang-formatted code: namespaces open and close at column 0 and their contents are not
indented, so a definition at file scope starts at column 0.
"""
import collections
import pathlib
import re
import sys

TYPE = re.compile(r"^(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*(?:\{|:|final\b|$)")
ALIAS = re.compile(r"^(?:using|namespace)\s+(\w+)\s*=\s*(.*?);")
DECL = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:\[\[\w+\]\]\s*)?"
                  r"(?:(?:static|inline|constexpr|const|extern)\s+)*"
                  r"[\w:]+(?:<[^;=(]*>)?(?:\s*const)?[\s&*]+(\w+)\s*(?:\(|=|\{|\[)")
OPEN = re.compile(r"^namespace\s*([\w:]*)\s*\{")
SKIP = ("TEST_CASE", "SCENARIO", "TEMPLATE_TEST_CASE", "CATCH_", "using namespace", "return")


def strip_comment(line):
    return line.split("//", 1)[0].rstrip()


def definitions(path):
    """(name, line number, alias target or None) of each file-scope definition."""
    stack = []
    in_block_comment = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if in_block_comment:
            in_block_comment = "*/" not in raw
            continue
        if raw.startswith("/*"):
            in_block_comment = "*/" not in raw
            continue
        line = strip_comment(raw)
        if not line or line[0] in " \t#":
            continue
        opened = OPEN.match(line)
        if opened:
            stack.append(opened.group(1))
            continue
        if line.startswith("}") and raw.lstrip("} ").startswith("// namespace"):
            if stack:
                stack.pop()
            continue
        if any(name not in ("", "paraplan") for name in stack) or line.startswith(SKIP):
            continue
        alias = ALIAS.match(line)
        if alias:
            yield alias.group(1), number, alias.group(2)
            continue
        for pattern in (TYPE, DECL):
            found = pattern.match(line)
            if found:
                yield found.group(1), number, None
                break


def main():
    tests = pathlib.Path(sys.argv[1])
    files = sorted(p for p in tests.rglob("*_test.cpp")
                   if not {"bench", "fuzz"} & set(p.relative_to(tests).parts[:-1]))
    files.append(tests / "fuzz" / "fuzz_entries.cpp")
    where = collections.defaultdict(list)  # name -> [(file, line, alias target)]
    for path in files:
        seen = set()
        for name, number, target in definitions(path):
            if name == "main" or name in seen:  # overloads within one file are that file's own
                continue
            seen.add(name)
            where[name].append((path.relative_to(tests.parent), number, target))
    clashes = 0
    for name, places in sorted(where.items()):
        if len(places) < 2:
            continue
        targets = {target for _, _, target in places}
        if len(targets) == 1 and None not in targets:
            continue  # one alias repeated: `using F = Framework;`, `namespace fs = std::filesystem;`
        clashes += 1
        print(f"'{name}' is defined at file scope in " +
              ", ".join(f"{path}:{number}" for path, number, _ in places) +
              ": a unity batch that compiles two of them fails; rename or share it")
    print(f"{len(files)} test files, {clashes} helper names defined in more than one")
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main())
