// attention mode, cuDNN backend: times cuDNN's fused flash attention (causal, bf16), forward and
// backward, over sequence lengths. Rows: attention,fwd_causal|bwd_causal,bf16,SEQ,HEADS,HEAD_DIM,
// 0,1,,µs per sequence (one launch over --batch sequences, or --tokens / seq, divided by the
// batch). Before timing, a small case is checked against a double-precision host reference
// (--skip-check leaves it out). All forward rows are measured before the backward ones.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "cuda_check.h"
#include "cudnn_sdpa_graph.h"
#include "modes.h"
#include "random_fill.h"
#include "timing.h"

namespace paraplan::calibrate {
namespace {

constexpr double kTolerance = 1e-2;  // relative (Frobenius) error allowed by the check

// The device buffers of one shape.
struct SdpaBuffers {
  explicit SdpaBuffers(const SdpaShape& s) {
    const size_t io = static_cast<size_t>(s.batch * s.heads * s.seq * s.head_dim);
    for (void** p : {&q, &k, &v, &o, &d_o, &dq, &dk, &dv}) CUDA_CHECK(cudaMalloc(p, io * 2));
    CUDA_CHECK(cudaMalloc(&dq_accum, io * 4));
    accum_bytes = io * 4;
    CUDA_CHECK(cudaMalloc(&stats, static_cast<size_t>(s.batch * s.heads * s.seq) * 4));
  }
  ~SdpaBuffers() {
    for (void* p : {q, k, v, o, d_o, dq, dk, dv, dq_accum, stats, workspace}) cudaFree(p);
  }
  SdpaBuffers(const SdpaBuffers&) = delete;
  SdpaBuffers& operator=(const SdpaBuffers&) = delete;

  void Workspace(int64_t bytes) {
    if (bytes <= workspace_bytes) return;
    CUDA_CHECK(cudaFree(workspace));
    workspace = nullptr;
    CUDA_CHECK(cudaMalloc(&workspace, static_cast<size_t>(bytes)));
    workspace_bytes = bytes;
  }

  void *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr, *d_o = nullptr;
  void *dq = nullptr, *dk = nullptr, *dv = nullptr, *dq_accum = nullptr, *stats = nullptr;
  void* workspace = nullptr;
  int64_t workspace_bytes = 0;
  size_t accum_bytes = 0;
};

// Host scalars bound by value; they outlive every run.
struct Scalars {
  float scale = 1, lowest = std::numeric_limits<float>::lowest(), one = 1;
};

void BindForward(CudnnGraph& g, SdpaBuffers& b, Scalars& c) {
  b.Workspace(g.workspace_bytes());
  g.Bind({{kSdpaQ, b.q},
          {kSdpaK, b.k},
          {kSdpaV, b.v},
          {kSdpaO, b.o},
          {kSdpaStats, b.stats},
          {kSdpaScale, &c.scale},
          {kSdpaLowest, &c.lowest}},
         b.workspace);
}

void BindBackward(CudnnGraph& g, SdpaBuffers& b, Scalars& c) {
  b.Workspace(g.workspace_bytes());
  g.Bind({{kSdpaQ, b.q},
          {kSdpaK, b.k},
          {kSdpaV, b.v},
          {kSdpaO, b.o},
          {kSdpaDO, b.d_o},
          {kSdpaStats, b.stats},
          {kSdpaDQ, b.dq},
          {kSdpaDK, b.dk},
          {kSdpaDV, b.dv},
          {kSdpaDQAccum, b.dq_accum},
          {kSdpaScale, &c.scale},
          {kSdpaLowest, &c.lowest},
          {kSdpaOne, &c.one}},
         b.workspace);
}

void RunBackward(const CudnnGraph& g, const SdpaBuffers& b, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(b.dq_accum, 0, b.accum_bytes, stream));
  g.Run();
}

std::vector<double> Download(const void* device, int64_t count, bool bf16) {
  std::vector<double> out(static_cast<size_t>(count));
  if (bf16) {
    std::vector<uint16_t> raw(out.size());
    CUDA_CHECK(cudaMemcpy(raw.data(), device, raw.size() * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < raw.size(); ++i) {
      const uint32_t bits = static_cast<uint32_t>(raw[i]) << 16;
      float f = 0;
      std::memcpy(&f, &bits, 4);
      out[i] = f;
    }
  } else {
    std::vector<float> raw(out.size());
    CUDA_CHECK(cudaMemcpy(raw.data(), device, raw.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < raw.size(); ++i) out[i] = raw[i];
  }
  return out;
}

double RelativeError(const std::vector<double>& got, const std::vector<double>& want) {
  double diff = 0, norm = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    diff += (got[i] - want[i]) * (got[i] - want[i]);
    norm += want[i] * want[i];
  }
  return std::sqrt(diff / std::max(norm, 1e-300));
}

// Causal attention forward and backward in double on the host, per (batch·head) slice.
struct Reference {
  std::vector<double> o, lse, dq, dk, dv;
};

Reference HostAttention(const SdpaShape& s, double scale, const std::vector<double>& q,
                        const std::vector<double>& k, const std::vector<double>& v,
                        const std::vector<double>& d_o) {
  const int64_t n = s.seq, d = s.head_dim, slices = s.batch * s.heads;
  Reference r;
  r.o.assign(q.size(), 0);
  r.dq.assign(q.size(), 0);
  r.dk.assign(q.size(), 0);
  r.dv.assign(q.size(), 0);
  r.lse.assign(static_cast<size_t>(slices * n), 0);
  std::vector<double> p(static_cast<size_t>(n));
  for (int64_t z = 0; z < slices; ++z) {
    const size_t base = static_cast<size_t>(z * n * d);
    auto at = [&](const std::vector<double>& t, int64_t row, int64_t col) {
      return t[base + static_cast<size_t>(row * d + col)];
    };
    for (int64_t i = 0; i < n; ++i) {
      double m = -1e300;
      for (int64_t j = 0; j <= i; ++j) {
        double dot = 0;
        for (int64_t c = 0; c < d; ++c) dot += at(q, i, c) * at(k, j, c);
        p[j] = dot * scale;
        m = std::max(m, p[j]);
      }
      double sum = 0;
      for (int64_t j = 0; j <= i; ++j) sum += std::exp(p[j] - m);
      const double lse = m + std::log(sum);
      r.lse[static_cast<size_t>(z * n + i)] = lse;
      for (int64_t j = 0; j <= i; ++j) p[j] = std::exp(p[j] - lse);
      double delta = 0;  // rowsum(dO ∘ O)
      for (int64_t c = 0; c < d; ++c) {
        double acc = 0;
        for (int64_t j = 0; j <= i; ++j) acc += p[j] * at(v, j, c);
        r.o[base + static_cast<size_t>(i * d + c)] = acc;
        delta += acc * at(d_o, i, c);
      }
      for (int64_t j = 0; j <= i; ++j) {
        double dp = 0;
        for (int64_t c = 0; c < d; ++c) dp += at(d_o, i, c) * at(v, j, c);
        const double ds = p[j] * (dp - delta) * scale;
        for (int64_t c = 0; c < d; ++c) {
          r.dv[base + static_cast<size_t>(j * d + c)] += p[j] * at(d_o, i, c);
          r.dq[base + static_cast<size_t>(i * d + c)] += ds * at(k, j, c);
          r.dk[base + static_cast<size_t>(j * d + c)] += ds * at(q, i, c);
        }
      }
    }
  }
  return r;
}

// Runs the forward (and the backward) once on a small shape and compares with the host reference.
void CheckAgainstHost(cudnnHandle_t handle, int64_t head_dim, cudaStream_t stream, bool backward) {
  const SdpaShape s{1, 2, 256, head_dim};
  SdpaBuffers b(s);
  Scalars c;
  c.scale = 1.0f / std::sqrt(static_cast<float>(head_dim));
  const int64_t count = s.batch * s.heads * s.seq * s.head_dim;
  uint32_t seed = 7;
  for (void* p : {b.q, b.k, b.v, b.d_o}) FillRandom(p, count, "bf16", seed++, 1.0f, stream);
  auto fwd = BuildSdpaForward(handle, s);
  BindForward(*fwd, b, c);
  fwd->Run();
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto q = Download(b.q, count, true), k = Download(b.k, count, true);
  const auto v = Download(b.v, count, true), d_o = Download(b.d_o, count, true);
  const Reference ref = HostAttention(s, c.scale, q, k, v, d_o);
  const double err_o = RelativeError(Download(b.o, count, true), ref.o);
  const double err_lse =
      RelativeError(Download(b.stats, s.batch * s.heads * s.seq, false), ref.lse);
  std::fprintf(stderr,
               "attention cudnn check (seq %ld, heads %ld, head_dim %ld): forward relative error "
               "O %.2e, log-sum-exp %.2e\n",
               static_cast<long>(s.seq), static_cast<long>(s.heads), static_cast<long>(head_dim),
               err_o, err_lse);
  if (!(err_o < kTolerance && err_lse < kTolerance)) {
    throw HarnessError("attention: cuDNN forward disagrees with the host reference");
  }
  if (!backward) return;
  auto bwd = BuildSdpaBackward(handle, s);
  BindBackward(*bwd, b, c);
  RunBackward(*bwd, b, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  const double err_dq = RelativeError(Download(b.dq, count, true), ref.dq);
  const double err_dk = RelativeError(Download(b.dk, count, true), ref.dk);
  const double err_dv = RelativeError(Download(b.dv, count, true), ref.dv);
  std::fprintf(stderr, "attention cudnn check: backward relative error dQ %.2e, dK %.2e, dV %.2e\n",
               err_dq, err_dk, err_dv);
  if (!(err_dq < kTolerance && err_dk < kTolerance && err_dv < kTolerance)) {
    throw HarnessError("attention: cuDNN backward disagrees with the host reference");
  }
}

// Executions per timed sample, so that short shapes are not dominated by launch gaps.
int Repetitions(const SdpaShape& s) {
  const double work = static_cast<double>(s.seq) * static_cast<double>(s.seq) *
                      static_cast<double>(s.heads * s.batch);
  return static_cast<int>(std::clamp(std::floor(double{1 << 26} / work), 1.0, 8.0));
}

void Sweep(const HarnessOptions& options, CsvWriter& writer, cudnnHandle_t handle,
           cudaStream_t stream, bool backward) {
  const char* op = backward ? "bwd_causal" : "fwd_causal";
  uint32_t seed = backward ? 2001 : 1001;
  for (int64_t seq : options.seq_list) {
    const RowKey key{"attention",           op, "bf16", seq, options.attn_heads,
                     options.attn_head_dim, 0,  1,      ""};
    if (writer.Has(key)) continue;
    const int64_t batch = options.attn_tokens > 0 ? std::max<int64_t>(1, options.attn_tokens / seq)
                                                  : options.attn_batch;
    const SdpaShape s{batch, options.attn_heads, seq, options.attn_head_dim};
    SdpaBuffers b(s);
    Scalars c;
    c.scale = 1.0f / std::sqrt(static_cast<float>(s.head_dim));
    const int64_t count = s.batch * s.heads * s.seq * s.head_dim;
    for (void* p : {b.q, b.k, b.v, b.d_o}) FillRandom(p, count, "bf16", seed++, 1.0f, stream);
    auto fwd = BuildSdpaForward(handle, s);
    BindForward(*fwd, b, c);
    std::unique_ptr<CudnnGraph> bwd;
    if (backward) {
      fwd->Run();  // O and the log-sum-exp the backward reads
      bwd = BuildSdpaBackward(handle, s);
      BindBackward(*bwd, b, c);
    }
    const int reps = Repetitions(s);
    const double t = MedianTimeUs(stream, options.warmup, options.iters, [&] {
      for (int r = 0; r < reps; ++r) backward ? RunBackward(*bwd, b, stream) : fwd->Run();
    });
    const double per_sequence_us = t / reps / static_cast<double>(s.batch);
    writer.Add(key, per_sequence_us);
    // Causal: half of the 2 (forward) or 5 (backward) s²·d matmul pairs.
    const double flops = (backward ? 5.0 : 2.0) * static_cast<double>(seq) *
                         static_cast<double>(seq) * static_cast<double>(s.heads * s.head_dim);
    std::fprintf(stderr, "attention cudnn %s seq %ld batch %ld: %.1f us/sequence, %.1f TFLOP/s\n",
                 op, static_cast<long>(seq), static_cast<long>(batch), per_sequence_us,
                 flops / per_sequence_us * 1e-6);
  }
}

}  // namespace

void RunCudnnAttentionMode(const HarnessOptions& options, CsvWriter& writer) {
  CUDA_CHECK(cudaSetDevice(0));
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cudnnHandle_t handle = nullptr;
  CUDNN_CHECK(cudnnCreate(&handle));
  CUDNN_CHECK(cudnnSetStream(handle, stream));
  std::fprintf(stderr, "paraplan-calibrate: cuDNN %zu (built against %d)\n", cudnnGetVersion(),
               CUDNN_VERSION);
  // All forward rows first: a backward failure still leaves them in the output.
  for (bool backward : {false, true}) {
    if (options.attn_check) CheckAgainstHost(handle, options.attn_head_dim, stream, backward);
    Sweep(options, writer, handle, stream, backward);
  }
  CUDNN_CHECK(cudnnDestroy(handle));
  CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace paraplan::calibrate
