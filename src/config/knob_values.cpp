#include "config/knob_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "core/format.h"

namespace paraplan {

int64_t ParseInt(const std::string& text, int64_t min_value) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isdigit(c) != 0;
  });
  if (ec == std::errc::result_out_of_range && digits) {
    value = kMaxKnobCount + 1;  // past int64: past the bound
  } else if (ec != std::errc() || end != text.data() + text.size()) {
    throw InputError("expected an integer, got '" + text + "'");
  }
  if (value < min_value) {
    throw InputError("must be >= " + std::to_string(min_value) + ", got " + text);
  }
  if (value > kMaxKnobCount) {
    throw InputError("must be at most " + std::to_string(kMaxKnobCount) +
                     " (paraplan's bound), got " + text);
  }
  return value;
}

double ParseNumber(const std::string& text, double min_value, bool inclusive, double max_value) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw InputError("expected a number, got '" + text + "'");
  }
  if (inclusive ? value < min_value : value <= min_value) {
    throw InputError(std::string("must be ") + (inclusive ? ">= " : "> ") +
                     FormatShortest(min_value) + ", got " + text);
  }
  if (value > max_value) {
    throw InputError("must be at most " + BoundText(max_value) + " (paraplan's bound), got " +
                     text);
  }
  return value;
}

bool ParseBool(const std::string& text) {
  return ParseEnum<bool>(text, {{"true", true}, {"false", false}});
}

std::vector<int64_t> Ints(const std::vector<std::string>& values, int64_t min_value) {
  return Each<int64_t>(values, [&](const std::string& v) { return ParseInt(v, min_value); });
}

std::string OneValue(const std::vector<std::string>& values) {
  if (values.size() != 1) throw InputError("takes one value, not alternatives");
  return values[0];
}

std::array<ParallelDim, 5> ParsePlacement(const std::string& text) {
  const NameTable<ParallelDim>& dims = ParallelDimNames();
  std::array<ParallelDim, 5> order{};
  size_t count = 0;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t dash = std::min(text.find('-', start), text.size());
    const ParallelDim dim = ParseEnum(text.substr(start, dash - start), dims);
    for (size_t i = 0; i < count; ++i) {
      if (order[i] == dim) throw InputError("'" + text + "' names a dimension twice");
    }
    if (count == 5) throw InputError("'" + text + "' has more than 5 dimensions");
    order[count++] = dim;
    start = dash + 1;
  }
  if (count != 5) {
    throw InputError("'" + text + "' must order all of tp, cp, ep, dp, pp (e.g. tp-cp-ep-dp-pp)");
  }
  return order;
}

std::vector<int64_t> ParseLayerSplit(const std::vector<std::string>& values) {
  if (values.size() != 1) throw InputError("takes one split (e.g. 15/16/16/15), not alternatives");
  std::vector<int64_t> out;
  std::string current;
  for (char c : values[0] + "/") {
    if (c != '/') {
      current += c;
      continue;
    }
    const size_t star = current.find('*');
    const int64_t n = ParseInt(current.substr(0, star), 0);
    const int64_t repeat = star == std::string::npos ? 1 : ParseInt(current.substr(star + 1), 1);
    if (repeat > 1 << 20) throw InputError("repeat count " + std::to_string(repeat) + " too large");
    out.insert(out.end(), static_cast<size_t>(repeat), n);
    current.clear();
  }
  return out;
}

uint32_t ParseRecomputeModules(const std::string& text) {
  uint32_t bits = 0;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t plus = std::min(text.find('+', begin), text.size());
    bits |=
        static_cast<uint32_t>(ParseEnum(text.substr(begin, plus - begin), RecomputeModuleNames()));
    begin = plus + 1;
  }
  return bits;
}

}  // namespace paraplan
