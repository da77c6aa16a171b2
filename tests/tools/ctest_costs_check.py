#!/usr/bin/env python3
"""Checks that every test tests/ctest_costs.cmake gives a cost to exists.

Usage: ctest_costs_check.py CTEST_COSTS_CMAKE PARAPLAN_TESTS

CTest ignores set_tests_properties on a name it does not know, so a renamed long test would
silently lose its cost and start last again on a fresh build directory (CI's). This compares the
quoted names in the cost list with `PARAPLAN_TESTS --list-test-names-only`.
"""
import re
import subprocess
import sys


def main():
    costs_file, tests_bin = sys.argv[1], sys.argv[2]
    text = open(costs_file, encoding="utf-8").read()
    listed = re.findall(r'^\s*"([^"]+)"\s+(\d+)\)?\s*$', text, re.MULTILINE)
    if not listed:
        print(f"{costs_file}: no test names with costs found")
        return 1
    # Catch2 exits with the number of tests listed: the exit status says nothing here.
    names = set(
        subprocess.run([tests_bin, "--list-test-names-only"], capture_output=True,
                       text=True).stdout.splitlines())
    missing = [name for name, _ in listed if name not in names]
    for name in missing:
        print(f"{costs_file}: no test named '{name}'")
    print(f"{len(listed)} costs, {len(missing)} unknown names")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
