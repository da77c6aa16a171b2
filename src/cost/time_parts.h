// The step's time breakdown as named parts: the one list of names that explain's table, its
// advice and the "dominant cost" note all print (issue 36: three copies had drifted, one saying
// "exposed DP communication" where the others said "DP communication (exposed)").
#pragma once

#include <algorithm>
#include <array>

#include "cost/step_result.h"

namespace paraplan {

struct TimePart {
  const char* name;
  double seconds;
};

inline std::array<TimePart, 8> TimeParts(const TimeBreakdown& t) {
  return {{{"compute", t.compute_s},
           {"pipeline bubble", t.bubble_s},
           {"TP communication", t.tp_comm_s},
           {"CP communication", t.cp_comm_s},
           {"EP communication", t.ep_comm_s},
           {"PP communication", t.pp_comm_s},
           {"DP communication (exposed)", t.dp_comm_exposed_s},
           {"optimizer step", t.optimizer_s}}};
}

// The largest part; the first of equal ones.
inline TimePart DominantTimePart(const TimeBreakdown& t) {
  const std::array<TimePart, 8> parts = TimeParts(t);
  return *std::max_element(parts.begin(), parts.end(), [](const TimePart& a, const TimePart& b) {
    return a.seconds < b.seconds;
  });
}

}  // namespace paraplan
