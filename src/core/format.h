// Deterministic number formatting for every reporter: the same double always prints the same
// text, whatever the locale or thread.
#pragma once

#include <string>

namespace paraplan {

// Shortest text that reads back to the same double ("0.1", "1e+20"); non-finite values are a
// programming error and print as "null" so that JSON stays valid.
std::string FormatShortest(double value);

// Fixed decimals ("12.35" for digits = 2), locale-independent.
std::string FormatFixed(double value, int digits);

// Text escaped for a JSON string literal, without the quotes.
std::string JsonEscape(const std::string& text);

}  // namespace paraplan
