// Predicted against measured: the cost model's kernel times (GemmSeconds, AttentionSeconds,
// MemoryBoundSeconds, CollectiveSeconds) for each row of raw harness CSVs, once with a cluster's
// calibration profile and once with its built-in defaults. Run it on rows that were not fitted to
// see how well a profile carries over to new shapes (`paraplan calibrate check`).
#pragma once

#include <string>
#include <vector>

#include "calib/raw_csv.h"
#include "core/json.h"
#include "hardware/cluster.h"

namespace paraplan {

struct CheckedRow {
  RawRow row;
  double profile_us = 0;  // predicted with the cluster's profile
  double default_us = 0;  // predicted with the built-in datasheet × efficiency defaults
};

struct ProfileCheck {
  std::vector<CheckedRow> rows;
  int skipped = 0;  // rows with no prediction: naive attention, the own norm kernel, collectives
                    // on a tier the cluster lacks
};

// `calibrated` is the cluster as loaded (its profile, if any, in use); the defaults are the same
// cluster with the profile removed. Rows of kinds the cost model does not time alone are skipped.
ProfileCheck CheckProfile(const Cluster& calibrated, const std::vector<RawRow>& rows);

// One line per row (kind, op, dtype, shape, measured µs, predicted µs and error % for both), then
// the mean absolute percentage error of each kind for both.
std::string ProfileCheckTable(const ProfileCheck& check);

// {"rows": [{kind, op, dtype, m, n, k, bytes, measured_us, profile_us, default_us}],
//  "summary": [{kind, rows, profile_mape_pct, default_mape_pct}], "skipped": N}
Json ProfileCheckJson(const ProfileCheck& check);

}  // namespace paraplan
