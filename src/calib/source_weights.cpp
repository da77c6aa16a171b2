// The fit's weight of each run by its source's share (efficiency_fit.h, SourceWeights).
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "calib/efficiency_fit.h"
#include "validate/validation_text.h"

namespace paraplan {

std::vector<double> SourceWeights(const std::vector<const RunSpec*>& runs, double exponent) {
  std::vector<std::string> groups;
  groups.reserve(runs.size());
  std::map<std::string, int64_t> per_source;
  for (const RunSpec* run : runs) ++per_source[groups.emplace_back(SourceGroup(run->source))];
  std::vector<double> weights;
  weights.reserve(runs.size());
  double sum = 0;
  for (const std::string& group : groups) {
    const auto n = static_cast<double>(per_source.at(group));
    weights.push_back(std::pow(n, -exponent));
    sum += weights.back();
  }
  for (double& w : weights) w *= static_cast<double>(runs.size()) / sum;
  return weights;
}

}  // namespace paraplan
