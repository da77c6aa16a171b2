#include "cli/cli_checks.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/format.h"
#include "core/strings.h"

namespace paraplan {

CLI::Validator CountRange(int64_t max) {
  return IntRange(1, max);
}

CLI::Validator IntRange(int64_t min, int64_t max) {
  const std::string range = "from " + std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
          return "must be a whole number " + range + ", got '" + text + "'";
        }
        return "";
      },
      "[" + std::to_string(min) + ", " + std::to_string(max) + "]");
}

CLI::Validator NumberRange(double min, double max) {
  const std::string range = "from " + FormatShortest(min) + " to " + FormatShortest(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
            value < min || value > max) {
          return "must be a number " + range + ", got '" + text + "'";
        }
        return "";
      },
      "[" + FormatShortest(min) + ", " + FormatShortest(max) + "]");
}

std::string NearestName(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& name : names) {
    const size_t d = EditDistance(word, name);
    if (d < best_distance || (name.rfind(word, 0) == 0 && !word.empty() && best.empty())) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::string UnknownCommandMessage(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* current = &app;
  std::string path = "paraplan";
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (!word.empty() && word[0] == '-') continue;  // -v, -q, --help, --version
    std::vector<std::string> names;
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : current->get_subcommands([](const CLI::App*) { return true; })) {
      names.push_back(sub->get_name());
      if (sub->get_name() == word) next = sub;
    }
    if (names.empty()) return "";  // a leaf command: the rest are its arguments
    if (next == nullptr) {
      std::string message = "unknown command '";
      message.append(path).append(" ").append(word).append("'");
      const std::string near = NearestName(word, names);
      if (!near.empty()) {
        message.append(" (did you mean '").append(path).append(" ").append(near).append("'?)");
      }
      message.append("; commands: ").append(Join(names)).append(" (").append(path);
      return message.append(" --help)");
    }
    current = next;
    path += " " + word;
  }
  std::vector<std::string> names;
  for (const CLI::App* sub : current->get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--help" || word == "-h" || word == "--version") return "";
  }
  if (names.empty()) return "";
  return "'" + path + "' needs a command: " + Join(names) + " (" + path + " --help)";
}

std::string LeftoverArgumentMessage(const CLI::App& app) {
  const std::vector<std::string> rest = app.remaining(true);
  if (rest.empty()) return "";
  const std::string& word = rest.front();
  return (word.rfind('-', 0) == 0 ? "unknown option '" : "unexpected argument '") + word +
         "' (--help lists the options)";
}

}  // namespace paraplan
