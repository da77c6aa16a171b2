#include "plan/framework_profile.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "plan/framework_caps.h"

using namespace paraplan;

TEST_CASE("every framework profile is dated and its defaults and refusals cite a source",
          "[plan][framework]") {
  std::set<std::string> seen;
  for (const FrameworkProfile& p : FrameworkProfiles()) {
    CHECK(p.framework != Framework::kUnstated);
    CHECK(std::string(p.version).size() > 0);
    CHECK(seen.insert(std::string(ToString(p.framework)) + "@" + p.version).second);
    for (const KnobDefault& d : p.defaults) {
      INFO(p.version << " " << d.knob);
      CHECK(std::string(d.source).size() > 10);
      CHECK(std::string(d.why).size() > 0);
    }
    for (const Refusal& r : p.refusals) {
      INFO(p.version << " " << r.knob << "=" << r.value);
      CHECK(std::string(r.reason).find(r.value) != std::string::npos);
    }
  }
  for (Framework f : {Framework::kMegatron, Framework::kNemo, Framework::kTorchtitan,
                      Framework::kDeepSpeed, Framework::kMegatronDeepSpeed, Framework::kNanotron,
                      Framework::kAutomodel, Framework::kScaling, Framework::kOlmoCore}) {
    CHECK(FindProfile(f) != nullptr);
  }
  CHECK(FindProfile(Framework::kUnstated) == nullptr);
  CHECK(FindProfile(Framework::kTorchtitan, "nope") == nullptr);
  CHECK(ProfileVersions(Framework::kTorchtitan) == "9dec370, 238fa99, b5bcd76");
  CHECK(FindProfile(Framework::kTorchtitan)->export_form == ExportForm::kTorchtitanPython);
  CHECK(FindProfile(Framework::kTorchtitan, "238fa99")->export_form == ExportForm::kTorchtitanToml);
}

TEST_CASE("plan --framework refuses what the profile refuses", "[plan][framework]") {
  const FrameworkProfile& megatron = *FindProfile(Framework::kMegatron);
  ParallelPlan p;
  p.pp = 4;
  p.schedule = Schedule::kGpipe;
  const std::vector<std::string> why = FrameworkViolations(Framework::kMegatron, nullptr, p);
  REQUIRE_FALSE(why.empty());
  CHECK(why.front() == RefusalReason(megatron, "schedule", "gpipe"));
  CHECK(RefusalReason(megatron, "schedule", "1f1b").empty());
  CHECK(FrameworkViolations(Framework::kAny, nullptr, p).empty());
}
