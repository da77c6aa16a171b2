// Writing fitted efficiencies into the hardware/efficiency.yaml format without disturbing it:
// only the numbers of the fitted parameters change; keys, order and comments stay as they are.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hardware/efficiency.h"

namespace paraplan {

// The parameter names of an Efficiency as its YAML keys: "gemm_max", ..., "link.nvlink".
std::vector<std::string> EfficiencyKeys(const Efficiency& efficiency);

// `text` with every number that belongs to a family of `defaults` replaced by the fitted value:
// under a family key ("H100:\n  gemm_max: 0.8  # comment") or in a list item whose `match` is the
// family ("gpus:\n  - match: H100\n    gemm_max: 0.75"), block or flow style ("link: {nvlink:
// 0.8}"). Keys the text lacks are not added; `missing` (when given) receives "FAMILY.key" for
// each fitted value that had no place in the text.
std::string UpdateEfficiencyYaml(const std::string& text,
                                 const std::map<std::string, Efficiency>& defaults,
                                 std::vector<std::string>* missing = nullptr);

// A fresh file (used when there is none to update): one mapping per family.
std::string NewEfficiencyYaml(const std::map<std::string, Efficiency>& defaults,
                              const std::string& header_comment);

}  // namespace paraplan
