// Does paraplan order alternative plans as they measured? `validate`'s ranking figure
// (docs/validation/README.md, "Ranking of alternative plans"). Runs are grouped into jobs: the
// same source group (SourceGroup), model, cluster, GPU count, sequence length and global batch in
// tokens, i.e. several plans one source measured for one job. Within each job of >= 2 runs, every
// pair whose measured times differ by more than kRankTolerance is checked against the prediction
// (pairwise order agreement, Harrell's concordance: a predicted tie counts half), and the run
// predicted fastest is checked against the one measured fastest (top-1).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "plan/plan_string.h"
#include "validate/run_evaluation.h"

namespace paraplan {

// Two measured runs are ordered only when their times differ by more than this fraction of the
// faster one's (3 %): a stated choice, not fitted. Closer pairs are left unordered, since a
// published step time is one measurement (often the mean over some steps of one job) and two
// plans a few percent apart may swap on a rerun; docs/validation/README.md gives the figure at
// other tolerances.
inline constexpr double kRankTolerance = 0.03;

// Predicted times within this fraction of each other are a tie (the same plan predicted twice).
inline constexpr double kRankPredictedTie = 1e-9;

// Whether two predicted times are a tie (kRankPredictedTie).
bool RankPredictedTie(double a, double b);

// One run's place in its job: the time-like value (seconds per step, or 1 / throughput when the
// job is ranked by throughput), measured and predicted; lower is faster.
struct RankedRun {
  std::string id;
  double measured = 0;
  double predicted = 0;
  // The chosen plan as PlanString's knob=value items (plan/plan_string.h; ranking_by_knob.h).
  PlanKnobItems knobs;
};

// A measured pair the prediction orders the other way round (or ties): `faster` measured faster.
struct MisorderedPair {
  std::string faster;
  std::string slower;
  bool tied = false;  // predicted equal rather than reversed
};

// (concordant + tied / 2) / pairs: the share of measured pairs the prediction orders as
// measured, a predicted tie counting half; 0 without pairs.
double Concordance(int64_t concordant, int64_t tied, int64_t pairs);

// How the prediction orders two runs of one job.
enum class PairOrder {
  kWithinTolerance,  // measured within the tolerance: not ordered
  kConcordant,
  kDiscordant,
  kTied,  // predicted equal (RankPredictedTie)
};
struct JudgedPair {
  const RankedRun* faster = nullptr;  // measured faster (of equals, `a`)
  const RankedRun* slower = nullptr;
  PairOrder order = PairOrder::kWithinTolerance;
};
JudgedPair JudgePair(const RankedRun& a, const RankedRun& b, double tolerance);

struct RankingGroup {
  std::string source;  // SourceGroup of the runs
  std::string job;     // "llama3-8b on dgx-h100, 8 GPUs, seq 8192, 1048576 tokens per step"
  std::string metric;  // the measured metric the job is ranked by (step_time_s, ...)
  std::vector<RankedRun> runs;  // file order
  int64_t pairs = 0;            // pairs measured more than kRankTolerance apart
  int64_t concordant = 0;
  int64_t discordant = 0;
  int64_t tied = 0;  // predicted tie
  std::vector<MisorderedPair> misordered;
  bool top1_counted = false;  // pairs > 0
  bool top1_hit = false;      // the predicted fastest is within tolerance of the measured fastest
  std::string measured_best;  // the measured fastest run (first of equals)
  std::vector<std::string> predicted_best;  // the runs tied for predicted fastest, file order
  double regret_pct = 0;  // measured time of the predicted fastest over the fastest, - 1
  // (concordant + tied / 2) / pairs; 0 when pairs == 0.
  double Agreement() const;
};

struct RankingSummary {
  int64_t groups = 0;  // jobs with >= 2 ranked runs
  int64_t runs = 0;    // runs in them
  int64_t pairs = 0;
  int64_t concordant = 0;
  int64_t discordant = 0;
  int64_t tied = 0;
  int64_t top1_groups = 0;  // jobs with at least one ordered pair
  int64_t top1_hits = 0;
  double agreement = 0;        // (concordant + tied / 2) / pairs; 0 without pairs
  double mean_regret_pct = 0;  // over the top1_groups
};

// The unweighted mean of `sources`' agreement (those with pairs): one large sweep does not decide
// it; 0 when none has pairs.
double SourceMeanAgreement(const std::vector<std::pair<std::string, RankingSummary>>& sources);

struct RankingReport {
  double tolerance = kRankTolerance;
  std::vector<RankingGroup> groups;  // by first appearance of the job in the runs
  RankingSummary pooled;
  std::vector<std::pair<std::string, RankingSummary>> sources;  // by first appearance
  double source_mean_agreement = 0;                             // SourceMeanAgreement(sources)
};

// The job key of a run: runs with equal keys are alternative plans for the same job.
std::string RankingJobKey(const RunOutcome& run);

// Groups `runs` (in their order) by job and ranks each job of >= 2 runs that have a prediction
// (status ok) and its ranking metric: the first of step_time_s, tokens_per_s_per_gpu, mfu that
// the most of its runs measured (runs without it are left out of the job). Deterministic.
RankingReport RankPlans(const std::vector<RunOutcome>& runs, double tolerance = kRankTolerance);

// The summary of a set of groups.
RankingSummary SummarizeRanking(const std::vector<const RankingGroup*>& groups);

// Groups ordered most mis-ordered first: by (discordant + tied / 2) / pairs, then by the number
// of such pairs, then by position; only groups with a mis-ordered pair or a top-1 miss.
std::vector<const RankingGroup*> MostMisordered(const RankingReport& report, size_t limit);

}  // namespace paraplan
