#include "hardware/scaleout_measurements.h"

#include <catch2/catch.hpp>
#include <string>

#include "calib/efficiency_fit.h"

using namespace paraplan;

TEST_CASE("The scale-out fraction's range is what the published nccl-tests rings span",
          "[hardware]") {
  const auto& rows = ScaleoutMeasurements();
  REQUIRE(rows.size() >= 4);
  bool h100 = false, a100 = false, b200 = false;
  for (const auto& row : rows) {
    CAPTURE(row.source);
    CHECK(std::string(row.source).size() > 10);
    CHECK(row.nodes >= 2);
    // Taking the ring's latency out of the measured time only raises the fraction, and a ring
    // never runs faster than the NICs it crosses.
    const double raw = row.busbw_GBps / (8.0 * row.nic_GBps);
    CHECK(ScaleoutFraction(row) >= raw);
    CHECK(ScaleoutFraction(row) <= 1.0);
    h100 |= std::string(row.gpu) == "H100";
    a100 |= std::string(row.gpu) == "A100";
    b200 |= std::string(row.gpu) == "B200";
  }
  CHECK((h100 && a100 && b200));
  // By hand, Together's B200 ring all-gather at 46 nodes, 16 GiB, 293.3 GB/s: bus bytes
  // 16 GiB x 367/368, measured 58.42 ms; NCCL's ring latency 8.4 + 322 x 3.4 + 45 x 14 µs =
  // 1.733 ms; f = bus bytes / (56.69 ms x 400 GB/s) = 0.7557. The top: NVIDIA's DGX A100,
  // 192 / (8 x 25) = 0.96, and the maintainer's 48 GB/s per NDR NIC, 48 / 50.
  const MeasuredRange range = ScaleoutFractionRange();
  CHECK(range.lo == Approx(0.75567).epsilon(1e-4));
  CHECK(range.hi == Approx(0.96));
  // The same cluster's 2-node ring all-reduce at 16 GiB, 344.7 GB/s: latency 0.2% of the time.
  CHECK(ScaleoutFraction(rows[4]) == Approx(0.86373).epsilon(1e-4));
}

TEST_CASE("The fit moves link.scaleout only within the measured range", "[hardware]") {
  const MeasuredRange range = ScaleoutFractionRange();
  for (const char* family : {"H100", "A100", "B200"}) {
    CAPTURE(family);
    int seen = 0;
    for (const auto& p : FittedParameters(family, {"nvlink", "scaleout"})) {
      if (p.name != "link.scaleout") continue;
      ++seen;
      CHECK(p.lower == range.lo);
      CHECK(p.upper == range.hi);
    }
    CHECK(seen == 1);
    // The prior the fit starts from lies inside it.
    const double prior = PriorEfficiency(family, {"nvlink", "scaleout"}).LinkFraction("scaleout");
    CHECK(prior >= range.lo);
    CHECK(prior <= range.hi);
  }
}
