// Expanding a study's dimensions into points: the cartesian product of the dimensions, the
// first outermost (so the last varies fastest), each zip dimension contributing its i-th values
// together. Point i of a study is the same whatever the shard.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/study_spec.h"

namespace paraplan {

struct StudyPoint {
  int64_t index = 0;
  std::vector<size_t> choice;  // per dimension, the index into its values
};

// Throws InputError (at the offending key) when a zip dimension's lists differ in length or a
// dimension has no values.
void CheckDimension(const SweepDimension& dimension);

// The number of points (the product of the dimension sizes; 1 with no dimensions).
int64_t CountPoints(const std::vector<SweepDimension>& dimensions);

// Every point, in order. With no dimensions: one point (the base study).
std::vector<StudyPoint> ExpandPoints(const std::vector<SweepDimension>& dimensions);

// Points with index % count == shard (0-based shard).
std::vector<StudyPoint> ShardPoints(const std::vector<StudyPoint>& points, int64_t shard,
                                    int64_t count);

// The swept axes flattened in dimension order (the CSV's key columns), and the dimension each
// belongs to.
std::vector<const SweepAxis*> FlattenAxes(const std::vector<SweepDimension>& dimensions,
                                          std::vector<size_t>* dimension_of = nullptr);

// The point's value for each flattened axis.
std::vector<const SweepValue*> PointValues(const std::vector<SweepDimension>& dimensions,
                                           const StudyPoint& point);

// Parses "I/N" (0 ≤ I < N); throws InputError naming --shard otherwise.
void ParseShardFlag(const std::string& text, int64_t* shard, int64_t* count);

}  // namespace paraplan
