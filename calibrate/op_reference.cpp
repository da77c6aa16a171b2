#include "op_reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace paraplan::calibrate {
namespace {

// A 32-bit mix of (seed, index) (the finalizer of MurmurHash3, Appleby 2011).
uint32_t Mix(uint32_t seed, uint64_t index) {
  uint64_t h = index * 0x9E3779B97F4A7C15ull + seed;
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return static_cast<uint32_t>(h);
}

double Sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

size_t Size(int64_t n) {
  return static_cast<size_t>(n);
}

}  // namespace

uint16_t FloatToBf16Bits(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof(bits));
  if (std::isnan(value)) return static_cast<uint16_t>((bits >> 16) | 0x40);
  const uint32_t rounding = 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float Bf16BitsToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value = 0;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

float RoundToBf16(float value) {
  return Bf16BitsToFloat(FloatToBf16Bits(value));
}

Floats HostRandom(int64_t count, uint32_t seed, float scale, bool bf16) {
  Floats out(Size(count));
  for (int64_t i = 0; i < count; ++i) {
    // 24 random bits → [0, 1), shifted by half a step so that no value is exactly zero.
    const float unit = (static_cast<float>(Mix(seed, static_cast<uint64_t>(i)) >> 8) + 0.5f) /
                       static_cast<float>(1 << 24);
    const float v = (2.0f * unit - 1.0f) * scale;
    out[Size(i)] = bf16 ? RoundToBf16(v) : v;
  }
  return out;
}

void RmsNormFwdRef(const Floats& x, const Floats& w, int64_t rows, int64_t hidden, Floats* y,
                   Floats* rsigma) {
  y->assign(Size(rows * hidden), 0);
  rsigma->assign(Size(rows), 0);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t i = 0; i < hidden; ++i)
      sum += double{x[Size(r * hidden + i)]} * x[Size(r * hidden + i)];
    const double rs = 1.0 / std::sqrt(sum / static_cast<double>(hidden) + kNormEps);
    (*rsigma)[Size(r)] = static_cast<float>(rs);
    for (int64_t i = 0; i < hidden; ++i) {
      (*y)[Size(r * hidden + i)] = static_cast<float>(x[Size(r * hidden + i)] * rs * w[Size(i)]);
    }
  }
}

void RmsNormBwdRef(const Floats& x, const Floats& w, const Floats& dy, int64_t rows, int64_t hidden,
                   Floats* dx, Floats* dw) {
  Floats y, rsigma;
  RmsNormFwdRef(x, w, rows, hidden, &y, &rsigma);
  dx->assign(Size(rows * hidden), 0);
  std::vector<double> dw_sum(Size(hidden), 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    const double rs = rsigma[Size(r)];
    double dot = 0;  // Σ dy·w·x
    for (int64_t i = 0; i < hidden; ++i) {
      const size_t at = Size(r * hidden + i);
      dot += double{dy[at]} * w[Size(i)] * x[at];
      dw_sum[Size(i)] += double{dy[at]} * x[at] * rs;
    }
    const double c = rs * rs * rs * dot / static_cast<double>(hidden);
    for (int64_t i = 0; i < hidden; ++i) {
      const size_t at = Size(r * hidden + i);
      (*dx)[at] = static_cast<float>(rs * w[Size(i)] * dy[at] - x[at] * c);
    }
  }
  dw->assign(dw_sum.begin(), dw_sum.end());
}

void LayerNormFwdRef(const Floats& x, const Floats& w, const Floats& b, int64_t rows,
                     int64_t hidden, Floats* y) {
  y->assign(Size(rows * hidden), 0);
  const double n = static_cast<double>(hidden);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t i = 0; i < hidden; ++i) sum += x[Size(r * hidden + i)];
    const double mean = sum / n;
    double var = 0;
    for (int64_t i = 0; i < hidden; ++i) {
      const double d = x[Size(r * hidden + i)] - mean;
      var += d * d;
    }
    const double rstd = 1.0 / std::sqrt(var / n + kNormEps);
    for (int64_t i = 0; i < hidden; ++i) {
      const size_t at = Size(r * hidden + i);
      (*y)[at] = static_cast<float>((x[at] - mean) * rstd * w[Size(i)] + b[Size(i)]);
    }
  }
}

void RopeTable(int64_t seq, int64_t head_dim, double theta, Floats* cos_table, Floats* sin_table) {
  const int64_t half = head_dim / 2;
  cos_table->assign(Size(seq * half), 0);
  sin_table->assign(Size(seq * half), 0);
  for (int64_t pos = 0; pos < seq; ++pos) {
    for (int64_t i = 0; i < half; ++i) {
      const double inv_freq =
          std::pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
      const double angle = static_cast<double>(pos) * inv_freq;
      (*cos_table)[Size(pos * half + i)] = static_cast<float>(std::cos(angle));
      (*sin_table)[Size(pos * half + i)] = static_cast<float>(std::sin(angle));
    }
  }
}

void RopeFwdRef(const Floats& x, const Floats& cos_table, const Floats& sin_table, int64_t tokens,
                int64_t heads, int64_t head_dim, int64_t seq, Floats* y) {
  y->assign(x.size(), 0);
  const int64_t half = head_dim / 2;
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t pos = t % seq;
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t base = (t * heads + h) * head_dim;
      for (int64_t i = 0; i < half; ++i) {
        const float c = cos_table[Size(pos * half + i)], s = sin_table[Size(pos * half + i)];
        const float a = x[Size(base + i)], b = x[Size(base + i + half)];
        (*y)[Size(base + i)] = a * c - b * s;
        (*y)[Size(base + i + half)] = b * c + a * s;
      }
    }
  }
}

float SiluRef(float x) {
  return static_cast<float>(x * Sigmoid(x));
}

float GeluTanhRef(float x) {
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  const double xd = x;
  return static_cast<float>(0.5 * xd * (1.0 + std::tanh(k * (xd + 0.044715 * xd * xd * xd))));
}

void SwigluFwdRef(const Floats& gate, const Floats& up, Floats* y) {
  y->resize(gate.size());
  for (size_t i = 0; i < gate.size(); ++i) (*y)[i] = SiluRef(gate[i]) * up[i];
}

void SwigluBwdRef(const Floats& gate, const Floats& up, const Floats& dy, Floats* dgate,
                  Floats* dup) {
  dgate->resize(gate.size());
  dup->resize(gate.size());
  for (size_t i = 0; i < gate.size(); ++i) {
    const double s = Sigmoid(gate[i]);
    const double dsilu = s * (1.0 + gate[i] * (1.0 - s));
    (*dgate)[i] = static_cast<float>(dy[i] * up[i] * dsilu);
    (*dup)[i] = static_cast<float>(dy[i] * gate[i] * s);
  }
}

void GeluFwdRef(const Floats& x, Floats* y) {
  y->resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) (*y)[i] = GeluTanhRef(x[i]);
}

void ResidualAddRef(const Floats& a, const Floats& b, Floats* y) {
  y->resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) (*y)[i] = a[i] + b[i];
}

void CrossEntropyFwdRef(const Floats& logits, const std::vector<int32_t>& targets, int64_t rows,
                        int64_t vocab, Floats* loss, Floats* lse) {
  loss->assign(Size(rows), 0);
  lse->assign(Size(rows), 0);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = logits.data() + r * vocab;
    const double max = *std::max_element(row, row + vocab);
    double sum = 0;
    for (int64_t j = 0; j < vocab; ++j) sum += std::exp(row[j] - max);
    const double l = max + std::log(sum);
    (*lse)[Size(r)] = static_cast<float>(l);
    (*loss)[Size(r)] = static_cast<float>(l - row[targets[Size(r)]]);
  }
}

void CrossEntropyBwdRef(const Floats& logits, const std::vector<int32_t>& targets,
                        const Floats& lse, int64_t rows, int64_t vocab, float scale, Floats* grad) {
  grad->assign(logits.size(), 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < vocab; ++j) {
      const size_t at = Size(r * vocab + j);
      const double p = std::exp(double{logits[at]} - lse[Size(r)]);
      (*grad)[at] = static_cast<float>((p - (j == targets[Size(r)] ? 1.0 : 0.0)) * scale);
    }
  }
}

void AdamStepRef(const AdamConfig& c, const Floats& g, Floats* p, Floats* m, Floats* v,
                 Floats* p_bf16) {
  const double bias1 = 1.0 - std::pow(double{c.beta1}, c.step);
  const double bias2 = 1.0 - std::pow(double{c.beta2}, c.step);
  p_bf16->resize(g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    const float mi = c.beta1 * (*m)[i] + (1.0f - c.beta1) * g[i];
    const float vi = c.beta2 * (*v)[i] + (1.0f - c.beta2) * g[i] * g[i];
    const double update = (mi / bias1) / (std::sqrt(vi / bias2) + c.eps);
    const float pi = static_cast<float>((*p)[i] - c.lr * (update + c.weight_decay * (*p)[i]));
    (*m)[i] = mi;
    (*v)[i] = vi;
    (*p)[i] = pi;
    (*p_bf16)[i] = RoundToBf16(pi);
  }
}

double GradNormRef(const Floats& g) {
  double sum = 0;
  for (float x : g) sum += double{x} * x;
  return std::sqrt(sum);
}

bool AllClose(const Floats& got, const Floats& want, float atol, float rtol,
              const std::string& what, std::string* why) {
  if (got.size() != want.size()) {
    *why =
        what + ": " + std::to_string(got.size()) + " values, want " + std::to_string(want.size());
    return false;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]))) {
      std::ostringstream text;
      text << what << "[" << i << "]: got " << got[i] << ", want " << want[i];
      *why = text.str();
      return false;
    }
  }
  return true;
}

}  // namespace paraplan::calibrate
