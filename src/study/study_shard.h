// Shards of a study (`paraplan study FILE --shard I/N`): each writes its rows, exactly, to
// DIR/shard-I-of-N.tsv; `paraplan study merge DIR...` reads every shard back and writes what one
// unsharded run writes, byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "study/study_table.h"

namespace paraplan {

struct StudyShard {
  int64_t shard = 0;
  int64_t count = 1;
  StudyTable table;  // only this shard's rows
};

// The file name a shard writes in its output directory ("shard-0-of-4.tsv").
std::string ShardFileName(int64_t shard, int64_t count);

// Exact text form (numbers in shortest round-trip form, strings escaped).
std::string SerializeShard(const StudyShard& shard);
// `origin` names the text in messages. Throws InputError when the text is not a shard file.
StudyShard ParseShard(const std::string& text, const std::string& origin);

// Joins shards of one study: the same metadata and count, every shard exactly once. Throws
// InputError naming what is missing or inconsistent.
StudyTable MergeShards(std::vector<StudyShard> shards);

// The shard files inside each directory (or the paths themselves when they are files), sorted.
std::vector<std::string> FindShardFiles(const std::vector<std::string>& paths);

}  // namespace paraplan
