// The host references of the harness's `ops` kernels (calibrate/op_reference.h), which the
// harness compares every kernel with before timing it: checked here against identities and
// finite differences, without CUDA.
#include "op_reference.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace paraplan::calibrate {
namespace {

TEST_CASE("bf16 conversion rounds to nearest even", "[calib]") {
  CHECK(RoundToBf16(1.0f) == 1.0f);
  CHECK(FloatToBf16Bits(1.0f) == 0x3F80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even mantissa (1).
  CHECK(RoundToBf16(1.0f + std::ldexp(1.0f, -8)) == 1.0f);
  CHECK(RoundToBf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 1.0f + std::ldexp(1.0f, -6));
  CHECK(Bf16BitsToFloat(0xC000) == -2.0f);
  CHECK(std::isnan(RoundToBf16(std::nanf(""))));
}

TEST_CASE("host inputs are deterministic, bounded and never zero", "[calib]") {
  const Floats a = HostRandom(1000, 7, 2.0f, true), b = HostRandom(1000, 7, 2.0f, true);
  CHECK(a == b);
  CHECK(a != HostRandom(1000, 8, 2.0f, true));
  for (float v : a) {
    CHECK(v != 0.0f);
    CHECK(std::fabs(v) <= 2.0f);
    CHECK(RoundToBf16(v) == v);
  }
}

TEST_CASE("RMSNorm: unit rms after the norm, gradients match finite differences", "[calib]") {
  const int64_t rows = 2, hidden = 16;
  const Floats x = HostRandom(rows * hidden, 1, 3.0f, false);
  const Floats w(hidden, 1.0f);
  Floats y, rs;
  RmsNormFwdRef(x, w, rows, hidden, &y, &rs);
  double ss = 0;
  for (int64_t i = 0; i < hidden; ++i) ss += double{y[i]} * y[i];
  CHECK(ss / hidden == Approx(1.0).epsilon(1e-3));
  // Loss L = Σ dy · y; dL/dx and dL/dw by central differences.
  const Floats wr = HostRandom(hidden, 2, 1.0f, false),
               dy = HostRandom(rows * hidden, 3, 1.0f, false);
  Floats dx, dw;
  RmsNormBwdRef(x, wr, dy, rows, hidden, &dx, &dw);
  auto loss = [&](const Floats& xx, const Floats& ww) {
    Floats yy, rr;
    RmsNormFwdRef(xx, ww, rows, hidden, &yy, &rr);
    double s = 0;
    for (size_t i = 0; i < yy.size(); ++i) s += double{dy[i]} * yy[i];
    return s;
  };
  const float h = 1e-2f;
  for (size_t i : {size_t{0}, size_t{5}, size_t{21}}) {
    Floats up = x, down = x;
    up[i] += h;
    down[i] -= h;
    CHECK(dx[i] == Approx((loss(up, wr) - loss(down, wr)) / (2 * h)).margin(2e-3));
  }
  for (size_t i : {size_t{0}, size_t{9}}) {
    Floats up = wr, down = wr;
    up[i] += h;
    down[i] -= h;
    CHECK(dw[i] == Approx((loss(x, up) - loss(x, down)) / (2 * h)).margin(2e-3));
  }
}

TEST_CASE("LayerNorm: zero mean, unit variance, then the affine", "[calib]") {
  const int64_t hidden = 64;
  const Floats x = HostRandom(hidden, 4, 5.0f, false);
  Floats y;
  LayerNormFwdRef(x, Floats(hidden, 2.0f), Floats(hidden, 1.0f), 1, hidden, &y);
  double sum = 0, sq = 0;
  for (float v : y) {
    sum += (v - 1.0) / 2.0;
    sq += ((v - 1.0) / 2.0) * ((v - 1.0) / 2.0);
  }
  CHECK(sum / hidden == Approx(0).margin(1e-5));
  CHECK(sq / hidden == Approx(1).epsilon(1e-3));
}

TEST_CASE("RoPE: identity at position 0, rotation keeps each pair's length", "[calib]") {
  const int64_t tokens = 3, heads = 2, dim = 8, seq = 2;
  Floats c, s, y;
  RopeTable(seq, dim, 10000.0, &c, &s);
  CHECK(c[0] == 1.0f);
  CHECK(s[0] == 0.0f);
  CHECK(c[4] == Approx(std::cos(1.0)));  // position 1, pair 0: angle 1 · theta⁰
  const Floats x = HostRandom(tokens * heads * dim, 5, 1.0f, false);
  RopeFwdRef(x, c, s, tokens, heads, dim, seq, &y);
  for (int64_t i = 0; i < heads * dim; ++i) CHECK(y[i] == x[i]);  // token 0
  for (int64_t i = 0; i < heads * dim; ++i)
    CHECK(y[2 * heads * dim + i] == x[2 * heads * dim + i]);  // token 2 wraps to 0
  const int64_t b = heads * dim;                              // token 1, head 0
  for (int64_t i = 0; i < dim / 2; ++i) {
    const double before = std::hypot(x[b + i], x[b + i + dim / 2]);
    CHECK(std::hypot(y[b + i], y[b + i + dim / 2]) == Approx(before).epsilon(1e-5));
  }
  CHECK(y[b] != x[b]);
}

TEST_CASE("SwiGLU and GeLU values and the SwiGLU gradient", "[calib]") {
  CHECK(SiluRef(0) == 0);
  CHECK(SiluRef(1) == Approx(1 / (1 + std::exp(-1.0))));
  CHECK(GeluTanhRef(0) == 0);
  CHECK(GeluTanhRef(10) == Approx(10).epsilon(1e-6));
  CHECK(GeluTanhRef(1) == Approx(0.841192).epsilon(1e-5));  // tanh form at 1
  const Floats g = {-2.0f, 0.5f, 3.0f}, u = {1.5f, -1.0f, 0.25f}, dy = {1.0f, 2.0f, -1.0f};
  Floats y, dg, du;
  SwigluFwdRef(g, u, &y);
  CHECK(y[1] == Approx(SiluRef(0.5f) * -1.0f));
  SwigluBwdRef(g, u, dy, &dg, &du);
  const float h = 1e-3f;
  for (size_t i = 0; i < g.size(); ++i) {
    const double dsilu = (SiluRef(g[i] + h) - SiluRef(g[i] - h)) / (2 * h);
    CHECK(dg[i] == Approx(dy[i] * u[i] * dsilu).epsilon(1e-3));
    CHECK(du[i] == Approx(dy[i] * SiluRef(g[i])).epsilon(1e-6));
  }
  Floats sum;
  ResidualAddRef(g, u, &sum);
  CHECK(sum == Floats{-0.5f, -0.5f, 3.25f});
}

TEST_CASE("softmax cross-entropy: log V on flat logits, gradients sum to zero", "[calib]") {
  const int64_t rows = 2, vocab = 100;
  Floats logits(rows * vocab, 0.0f);
  for (int64_t j = 0; j < vocab; ++j) logits[vocab + j] = 0.1f * static_cast<float>(j);
  const std::vector<int32_t> targets = {3, 99};
  Floats loss, lse, grad;
  CrossEntropyFwdRef(logits, targets, rows, vocab, &loss, &lse);
  CHECK(loss[0] == Approx(std::log(100.0)));
  CHECK(loss[1] < loss[0]);  // the target is the largest logit
  CrossEntropyBwdRef(logits, targets, lse, rows, vocab, 0.5f, &grad);
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t j = 0; j < vocab; ++j) s += grad[r * vocab + j];
    CHECK(s == Approx(0).margin(1e-6));
  }
  CHECK(grad[3] == Approx((0.01 - 1) * 0.5));
  CHECK(grad[4] == Approx(0.01 * 0.5));
}

TEST_CASE("Adam's first step moves each weight by about lr, against its gradient", "[calib]") {
  AdamConfig config;
  config.weight_decay = 0;
  const Floats g = {0.5f, -2.0f, 1e-3f};
  Floats p = {1.0f, 1.0f, 1.0f}, m(3, 0.0f), v(3, 0.0f), copy;
  AdamStepRef(config, g, &p, &m, &v, &copy);
  // Bias-corrected m/sqrt(v) = g/|g| at step 1.
  CHECK(p[0] == Approx(1.0 - 1e-3).epsilon(1e-6));
  CHECK(p[1] == Approx(1.0 + 1e-3).epsilon(1e-6));
  CHECK(p[2] == Approx(1.0 - 1e-3).epsilon(1e-4));
  CHECK(m[0] == Approx(0.05));
  CHECK(v[1] == Approx(0.05 * 4));
  CHECK(copy[0] == RoundToBf16(p[0]));
  // Decoupled weight decay pulls a weight with a zero gradient towards zero by lr · wd · p.
  AdamConfig decay;
  Floats q = {2.0f}, qm = {0.0f}, qv = {1.0f}, qcopy;
  AdamStepRef(decay, {0.0f}, &q, &qm, &qv, &qcopy);
  CHECK(q[0] == Approx(2.0 - 1e-3 * 0.1 * 2.0).epsilon(1e-7));
}

TEST_CASE("grad norm and the comparison helper", "[calib]") {
  CHECK(GradNormRef({3.0f, 4.0f}) == Approx(5.0));
  std::string why;
  CHECK(AllClose({1.0f, 2.0f}, {1.0f, 2.001f}, 0, 1e-3f, "x", &why));
  CHECK_FALSE(AllClose({1.0f, 2.1f}, {1.0f, 2.0f}, 0, 1e-3f, "x", &why));
  CHECK(why == "x[1]: got 2.1, want 2");
  CHECK_FALSE(AllClose({std::nanf("")}, {1.0f}, 1, 1, "y", &why));
  CHECK_FALSE(AllClose({1.0f}, {1.0f, 2.0f}, 1, 1, "z", &why));
}

}  // namespace
}  // namespace paraplan::calibrate
