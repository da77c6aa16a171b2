#include "core/format.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace paraplan {

std::string FormatShortest(double value) {
  if (!std::isfinite(value)) return "null";
  if (value == 0.0) return "0";
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  if (ec != std::errc()) return "null";
  return std::string(buf.data(), end);
}

std::string FormatFixed(double value, int digits) {
  if (!std::isfinite(value)) return "null";
  std::array<char, 128> buf{};
  auto [end, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::fixed, digits);
  if (ec != std::errc()) return "null";
  std::string out(buf.data(), end);
  if (out.size() > 1 && out[0] == '-' && out.find_first_not_of("-0.") == std::string::npos) {
    out.erase(0, 1);  // no "-0.00"
  }
  return out;
}

std::string JsonEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          std::array<char, 8> esc{};
          std::snprintf(esc.data(), esc.size(), "\\u%04x", static_cast<unsigned>(c));
          out += esc.data();
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace paraplan
