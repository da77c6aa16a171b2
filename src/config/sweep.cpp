#include "config/sweep.h"

#include <charconv>

#include "config/count_bounds.h"
#include "core/format.h"

namespace paraplan {

const NameTable<StudyMode>& StudyModeNames() {
  static const NameTable<StudyMode> kTable = {{"plan", StudyMode::kPlan},
                                              {"simulate", StudyMode::kSimulate}};
  return kTable;
}

const char* ToString(StudyMode mode) {
  return NameOf(StudyModeNames(), mode);
}

void CheckDimension(const SweepDimension& dimension) {
  if (dimension.axes.empty()) throw InputError("a sweep dimension has no keys");
  const SweepAxis& first = dimension.axes.front();
  for (const SweepAxis& axis : dimension.axes) {
    if (axis.values.empty()) {
      throw InputError(axis.where, axis.key, "needs at least one value");
    }
    if (axis.values.size() != first.values.size()) {
      throw InputError(axis.where, axis.key,
                       "zip lists must have equal length: " + first.key + " has " +
                           std::to_string(first.values.size()) + " values, " + axis.key + " has " +
                           std::to_string(axis.values.size()));
    }
  }
}

int64_t CountPoints(const std::vector<SweepDimension>& dimensions) {
  // Saturates just past kMaxStudyPoints (ReadStudy refuses more), so it cannot overflow.
  int64_t count = 1;
  for (const auto& d : dimensions) {
    count *= static_cast<int64_t>(d.Size());
    if (count > kMaxStudyPoints) return kMaxStudyPoints + 1;
  }
  return count;
}

std::vector<StudyPoint> ExpandPoints(const std::vector<SweepDimension>& dimensions) {
  for (const auto& d : dimensions) CheckDimension(d);
  const int64_t count = CountPoints(dimensions);
  std::vector<StudyPoint> points;
  points.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    StudyPoint p;
    p.index = i;
    p.choice.assign(dimensions.size(), 0);
    int64_t rest = i;
    for (size_t d = dimensions.size(); d-- > 0;) {  // the last dimension varies fastest
      const auto size = static_cast<int64_t>(dimensions[d].Size());
      if (size == 0) continue;  // never: CheckDimension above rejects an empty dimension
      p.choice[d] = static_cast<size_t>(rest % size);
      rest /= size;
    }
    points.push_back(std::move(p));
  }
  return points;
}

std::vector<StudyPoint> ShardPoints(const std::vector<StudyPoint>& points, int64_t shard,
                                    int64_t count) {
  std::vector<StudyPoint> out;
  for (const auto& p : points) {
    if (p.index % count == shard) out.push_back(p);
  }
  return out;
}

std::vector<const SweepAxis*> FlattenAxes(const std::vector<SweepDimension>& dimensions,
                                          std::vector<size_t>* dimension_of) {
  std::vector<const SweepAxis*> axes;
  if (dimension_of) dimension_of->clear();
  for (size_t d = 0; d < dimensions.size(); ++d) {
    for (const auto& a : dimensions[d].axes) {
      axes.push_back(&a);
      if (dimension_of) dimension_of->push_back(d);
    }
  }
  return axes;
}

std::vector<const SweepValue*> PointValues(const std::vector<SweepDimension>& dimensions,
                                           const StudyPoint& point) {
  std::vector<const SweepValue*> values;
  for (size_t d = 0; d < dimensions.size(); ++d) {
    for (const auto& a : dimensions[d].axes) values.push_back(&a.values[point.choice[d]]);
  }
  return values;
}

void ParseShardFlag(const std::string& text, int64_t* shard, int64_t* count) {
  const auto slash = text.find('/');
  auto parse = [&](const char* begin, const char* end, int64_t* v) {
    auto [ptr, ec] = std::from_chars(begin, end, *v);
    return ec == std::errc() && ptr == end && begin != end;
  };
  const char* s = text.data();
  if (slash == std::string::npos || !parse(s, s + slash, shard) ||
      !parse(s + slash + 1, s + text.size(), count) || *count < 1 || *shard < 0 ||
      *shard >= *count) {
    throw InputError("--shard: expected I/N with 0 <= I < N (e.g. 0/4), got '" + text + "'");
  }
}

}  // namespace paraplan
