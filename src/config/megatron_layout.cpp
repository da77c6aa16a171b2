#include "config/megatron_layout.h"

#include <charconv>

#include "core/error.h"

namespace paraplan {
namespace {

constexpr size_t kMaxExpanded = 1 << 20;  // guards "(t*1000)*1000..." against blowing up

class Expander {
 public:
  explicit Expander(const std::string& text) : text_(text) {}

  std::string Run() {
    std::string out = Sequence();
    if (pos_ < text_.size()) Fail("unbalanced ')'");
    return out;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw InputError("pp_layout '" + text_ + "': " + what + " at character " +
                     std::to_string(pos_ + 1));
  }

  // A repeat count after '*'.
  size_t Count() {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    size_t n = 0;
    const auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, n);
    if (start == pos_ || ec != std::errc() || end != text_.data() + pos_) {
      Fail("'*' needs a repeat count");
    }
    return n;
  }

  std::string Repeat(const std::string& unit) {
    if (pos_ >= text_.size() || text_[pos_] != '*') return unit;
    ++pos_;
    const size_t n = Count();
    if (unit.size() * n > kMaxExpanded) Fail("expands past " + std::to_string(kMaxExpanded));
    std::string out;
    for (size_t i = 0; i < n; ++i) out += unit;
    return out;
  }

  std::string Sequence() {
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != ')') {
      const char c = text_[pos_];
      if (c == ',' || c == ' ') {
        ++pos_;
      } else if (c == '(') {
        ++pos_;
        std::string inner = Sequence();
        if (pos_ >= text_.size()) Fail("unbalanced '('");
        ++pos_;  // ')'
        out += Repeat(inner);
      } else if (c == 'E' || c == 't' || c == 'm' || c == 'L' || c == '|') {
        ++pos_;
        out += Repeat(std::string(1, c));
      } else {
        Fail(std::string("unknown character '") + c +
             "' (valid: E embedding, t layer, m MTP, L loss, | stage break, *n, ( ))");
      }
      if (out.size() > kMaxExpanded) Fail("expands past " + std::to_string(kMaxExpanded));
    }
    return out;
  }

  const std::string& text_;
  size_t pos_ = 0;
};

}  // namespace

MegatronLayout ParseMegatronLayout(const std::string& text) {
  const std::string flat = Expander(text).Run();
  MegatronLayout out;
  out.layers.push_back(0);
  auto fail = [&](const std::string& what) {
    throw InputError("pp_layout '" + text + "': " + what);
  };
  for (char c : flat) {
    const auto stage = static_cast<int64_t>(out.layers.size()) - 1;
    if (c == '|') {
      out.layers.push_back(0);
    } else if (c == 't') {
      ++out.layers.back();
    } else if (c == 'E' && stage != 0) {
      fail("'E' (embedding) must be in the first stage, found in stage " + std::to_string(stage));
    } else if (c == 'm') {
      if (out.mtp_stage >= 0 && out.mtp_stage != stage) fail("'m' (MTP) in two stages");
      out.mtp_stage = stage;
      ++out.mtp_layers;
    }
  }
  // 'L' must sit in the last stage: find every 'L' and its stage.
  int64_t stage = 0;
  const auto last = static_cast<int64_t>(out.layers.size()) - 1;
  bool has_embedding = false, has_loss = false;
  for (char c : flat) {
    if (c == '|') ++stage;
    if (c == 'E') has_embedding = true;
    if (c != 'L') continue;
    has_loss = true;
    if (stage != last) {
      fail("'L' (loss) must be in the last stage, found in stage " + std::to_string(stage));
    }
  }
  if (!has_embedding || !has_loss) fail("needs 'E' in the first stage and 'L' in the last");
  return out;
}

std::vector<int64_t> ParseSplitPoints(const std::string& text) {
  std::vector<int64_t> out;
  std::string item;
  for (char c : text + "/") {
    if (c != '/') {
      item += c;
      continue;
    }
    const std::string digits = item.rfind("layers.", 0) == 0 ? item.substr(7) : item;
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || v < 1) {
      throw InputError("expected a split point 'layers.N' (N >= 1), got '" + item + "'");
    }
    out.push_back(v);
    item.clear();
  }
  return out;
}

}  // namespace paraplan
