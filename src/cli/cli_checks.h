// Command-line mistakes caught before (or instead of) CLI11's own messages, so that each one
// names the flag or word that is wrong and says what would be right: counts with a sane bound
// (`-g 0` → "--gpus: must be a whole number from 1 to 1048576, got 0"), an unknown subcommand
// with "did you mean", an unknown option whatever its position.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace paraplan {

inline constexpr int64_t kMaxGpus = int64_t{1} << 20;         // 1,048,576 GPUs
inline constexpr int64_t kMaxGlobalBatch = int64_t{1} << 24;  // sequences per step
inline constexpr int64_t kMaxSeqLen = int64_t{1} << 24;       // tokens per sequence
inline constexpr int64_t kMaxThreads = 1024;                  // worker threads (0 = all cores)
inline constexpr int64_t kMaxListed = 100000;                 // --top, --pareto, --simulate-top

// A validator for an integer flag in [1, max]: "must be a whole number from 1 to MAX, got X".
CLI::Validator CountRange(int64_t max);

// A validator for an integer flag in [min, max]: "must be a whole number from MIN to MAX, got X".
CLI::Validator IntRange(int64_t min, int64_t max);

// A validator for a real-valued flag in [min, max] (finite): "must be a number from MIN to MAX,
// got X", X as typed (so `nan` reads as nan).
CLI::Validator NumberRange(double min, double max);

// The closest name within a small edit distance, or "".
std::string NearestName(const std::string& word, const std::vector<std::string>& names);

// Walks the words that name (nested) subcommands: when one names none of the commands at its level
// ("unknown command 'paraplan foo' (did you mean ...?); commands: plan, simulate, ..."), or the
// line stops at a command that needs a subcommand ("'paraplan model' needs a command: list,
// show"), the message; else "" (also with --help or --version).
std::string UnknownCommandMessage(const CLI::App& app, int argc, const char* const* argv);

// After CLI11 reported a missing required option: if the command line also held an argument no
// option takes, the message naming it (CLI11 checks requirements first), else "".
std::string LeftoverArgumentMessage(const CLI::App& app);

}  // namespace paraplan
