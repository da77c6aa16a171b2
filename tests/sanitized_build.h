// Whether this test binary was built with AddressSanitizer (clang or GCC). The sanitizer pass
// runs every test for crashes and undefined behaviour at several times the Release cost, so the
// tests that time a run, or repeat one property over thousands of plans, check less there: the
// Release pass asserts the limits and the whole property.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PARAPLAN_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARAPLAN_SANITIZED_BUILD 1
#endif
#endif
#ifndef PARAPLAN_SANITIZED_BUILD
#define PARAPLAN_SANITIZED_BUILD 0
#endif

namespace paraplan::testing {

inline constexpr bool kSanitizedBuild = PARAPLAN_SANITIZED_BUILD != 0;

}  // namespace paraplan::testing
