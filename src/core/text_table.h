// A plain-text table with aligned columns: text columns left-aligned, numbers right-aligned.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace paraplan {

class TextTable {
 public:
  // right_aligned[i]: whether column i is right-aligned (numbers).
  TextTable(std::vector<std::string> header, std::vector<bool> right_aligned);
  void AddRow(std::vector<std::string> cells);
  // Rows joined by '\n', columns separated by two spaces, no trailing spaces.
  std::string Render() const;

 private:
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

// A Markdown table: the first row is the header; cells are written as given.
std::string MarkdownTable(const std::vector<std::vector<std::string>>& rows);

// 1234567 → "1,234,567".
std::string GroupThousands(int64_t value);

// text padded with spaces to width, and at least one space after it (a plain-text column).
std::string PadColumn(const std::string& text, size_t width);

}  // namespace paraplan
