// The raw CSV the harness writes: `kind,op,dtype,m,n,k,bytes,ranks,tier,time_us` then the
// metadata columns `gpu,driver,cuda,nccl,date`. Every Add rewrites the file atomically (temp
// file + rename), so an interrupted sweep leaves a valid file; with resume, rows already in the
// file (same kind..tier) are kept and reported by Has() so that the sweep skips them.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace paraplan::calibrate {

struct RowKey {
  std::string kind, op, dtype;
  int64_t m = 0, n = 0, k = 0, bytes = 0;
  int ranks = 1;
  std::string tier;

  std::string Text() const;  // the first nine CSV fields
};

struct Metadata {
  std::string gpu, driver, cuda, nccl, date;
};

class CsvWriter {
 public:
  // Loads `path` when resume is set and the file exists (its header must match).
  CsvWriter(std::string path, bool resume, Metadata metadata);

  bool Has(const RowKey& key) const { return done_.count(key.Text()) > 0; }
  void Add(const RowKey& key, double time_us);
  // When false (an MPI rank other than 0), Add only records and never writes.
  void SetWriter(bool writes) { writes_ = writes; }
  size_t rows() const { return lines_.size(); }

 private:
  void Flush() const;

  std::string path_;
  Metadata metadata_;
  std::vector<std::string> lines_;
  std::set<std::string> done_;
  bool writes_ = true;
};

// A CSV field with commas and quotes replaced, so that it stays one field.
std::string CsvSafe(const std::string& text);

}  // namespace paraplan::calibrate
