#include "plan/framework_profile.h"

namespace paraplan {

const FrameworkProfile* FindProfile(Framework framework, const std::string& version) {
  const FrameworkProfile* newest = nullptr;
  for (const FrameworkProfile& p : FrameworkProfiles()) {
    if (p.framework != framework) continue;
    if (!version.empty() && version == p.version) return &p;
    newest = &p;
  }
  return version.empty() ? newest : nullptr;
}

std::string ProfileVersions(Framework framework) {
  std::string out;
  for (const FrameworkProfile& p : FrameworkProfiles()) {
    if (p.framework == framework) out += (out.empty() ? "" : ", ") + std::string(p.version);
  }
  return out;
}

std::string RefusalReason(const FrameworkProfile& profile, const std::string& knob,
                          const std::string& value) {
  for (const Refusal& r : profile.refusals) {
    if (knob == r.knob && value == r.value) return r.reason;
  }
  return "";
}

}  // namespace paraplan
