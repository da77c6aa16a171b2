# Included by CTest after catch_discover_tests' list (tests/CMakeLists.txt): the longest tests
# start first. A fresh build directory (CI's) has no Testing/Temporary/CTestCostData.txt, so
# `ctest -j 2` would start the tests in the order Catch lists them, and the two cross-validation
# bound tests (minutes each; most tests take well under a second) would start near the end, the
# leave-one-source-out test then running on while the other slot has nothing left to run. The
# costs are seconds measured on the development machine (docs/performance.md, "Stop 42: CI
# time"): the Release figures for the two bound tests, the sanitizer build's for the others (the
# sanitizer run leaves the bound tests out, so its longest tests are these); only their order
# matters, and a build directory's own measured costs replace them after its first run. CTest
# ignores a name it does not know: ctest_costs_named (tools/ctest_costs_check.py) fails instead.
set(_paraplan_long_tests
  "Public runs: leave-one-source-out step-time error bounds and the shipped bands" 420
  "Public runs: cross-validation by GPU family, framework and scale error bounds and the unfitted-GPU band" 180
  "hostile: the largest documented batches and GPU counts finish" 44
  "cached rule verdicts equal the plan's own" 35
  "cached layer costs give the plan's own memory and step time" 34
  "GPT-3 175B on 1,024 A100: DeepSpeed's ZeRO-3 plan ranks below Megatron-LM's best" 32
  "shipped studies run and chart" 30
  "Megatron-LM export parses back to the predicted plan and model" 23)
while(_paraplan_long_tests)
  list(POP_FRONT _paraplan_long_tests _name _cost)
  set_tests_properties("${_name}" PROPERTIES COST ${_cost})
endwhile()
