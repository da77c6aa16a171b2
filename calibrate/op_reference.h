// Host references of the `ops` mode's kernels (mode_ops.cu): the same math in plain C++ on
// float vectors, so that the harness checks each kernel on a small case before timing it and the
// tests check the references themselves without CUDA. Layouts are row-major [rows, width].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace paraplan::calibrate {

using Floats = std::vector<float>;

// bfloat16 bits of a float, rounded to nearest even (NaN stays NaN), and back.
uint16_t FloatToBf16Bits(float value);
float Bf16BitsToFloat(uint16_t bits);
// The float nearest to `value` that bf16 can hold.
float RoundToBf16(float value);

// Deterministic inputs: `count` values uniform in [-scale, scale), none zero, from a
// counter-based hash of (seed, index), rounded to bf16 when `bf16`.
Floats HostRandom(int64_t count, uint32_t seed, float scale, bool bf16);

constexpr float kNormEps = 1e-5f;

// y = x · rsqrt(mean(x²) + eps) · w, per row (Zhang & Sennrich 2019); rsigma per row.
void RmsNormFwdRef(const Floats& x, const Floats& w, int64_t rows, int64_t hidden, Floats* y,
                   Floats* rsigma);
// With r = rsigma: dx = r·w·dy − x·r³·mean(dy·w·x); dw = Σ_rows dy·x·r.
void RmsNormBwdRef(const Floats& x, const Floats& w, const Floats& dy, int64_t rows, int64_t hidden,
                   Floats* dx, Floats* dw);
// y = (x − mean) · rsqrt(var + eps) · w + b, per row (Ba et al. 2016).
void LayerNormFwdRef(const Floats& x, const Floats& w, const Floats& b, int64_t rows,
                     int64_t hidden, Floats* y);

// cos and sin of position · theta^(−2i/head_dim), [seq, head_dim / 2] each (Su et al. 2021).
void RopeTable(int64_t seq, int64_t head_dim, double theta, Floats* cos_table, Floats* sin_table);
// x: [tokens, heads, head_dim]; token t is at position t mod seq; rotates the pair (i, i + D/2)
// (the rotate-half layout of Llama / GPT-NeoX).
void RopeFwdRef(const Floats& x, const Floats& cos_table, const Floats& sin_table, int64_t tokens,
                int64_t heads, int64_t head_dim, int64_t seq, Floats* y);

float SiluRef(float x);
// GeLU, tanh approximation (Hendrycks & Gimpel 2016).
float GeluTanhRef(float x);
// y = silu(gate) · up (Shazeer 2020), element-wise.
void SwigluFwdRef(const Floats& gate, const Floats& up, Floats* y);
// d gate = dy · up · silu'(gate), d up = dy · silu(gate).
void SwigluBwdRef(const Floats& gate, const Floats& up, const Floats& dy, Floats* dgate,
                  Floats* dup);
void GeluFwdRef(const Floats& x, Floats* y);
void ResidualAddRef(const Floats& a, const Floats& b, Floats* y);

// Per row of fp32 logits [rows, vocab]: lse = log Σ exp(l), loss = lse − l[target].
void CrossEntropyFwdRef(const Floats& logits, const std::vector<int32_t>& targets, int64_t rows,
                        int64_t vocab, Floats* loss, Floats* lse);
// grad = (softmax(l) − onehot(target)) · scale (scale = 1 / rows for a mean loss).
void CrossEntropyBwdRef(const Floats& logits, const std::vector<int32_t>& targets,
                        const Floats& lse, int64_t rows, int64_t vocab, float scale, Floats* grad);

// AdamW (Loshchilov & Hutter 2019) with bias correction at step `step` (>= 1).
struct AdamConfig {
  float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.95f, eps = 1e-8f, weight_decay = 0.1f;
  int step = 1;
};
// Updates the fp32 master weights p and moments m, v from the fp32 gradient g in place and
// writes the bf16 copy of the weights (as floats) to p_bf16.
void AdamStepRef(const AdamConfig& config, const Floats& g, Floats* p, Floats* m, Floats* v,
                 Floats* p_bf16);

// sqrt(Σ g²), accumulated in double.
double GradNormRef(const Floats& g);

// Compares a kernel's output with its reference: |got − want| <= atol + rtol·|want| everywhere.
// On the first failure returns false and sets *why to "<what>[i]: got G, want W".
bool AllClose(const Floats& got, const Floats& want, float atol, float rtol,
              const std::string& what, std::string* why);

}  // namespace paraplan::calibrate
