// ops mode: the memory-bound ops of a training step (norms, RoPE, activations, residual add,
// softmax-cross-entropy, Adam, grad-norm) timed with our own kernels (ops_kernels.h) over model
// sizes. Each row is `memory,<op>,<dtype>,m,n,k,bytes,...` with the bytes the cost model counts
// for the op (src/hardware/memory_ops.h). Before timing, every kernel is compared with its host
// reference (op_reference.h) on a small case; a mismatch throws HarnessError (exit 1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.h"
#include "hardware/memory_ops.h"
#include "modes.h"
#include "ops_kernels.h"
#include "random_fill.h"
#include "timing.h"

namespace paraplan::calibrate {
namespace {

constexpr int64_t kHeadDim = 128;   // Llama 3's head dimension
constexpr int64_t kKvHeads = 8;     // and its key/value heads (GQA)
constexpr int64_t kRopeSeq = 8192;  // positions of the RoPE table; tokens wrap around it
constexpr double kRopeTheta = 5e5;  // Llama 3's rope_theta

// A device allocation freed when it goes out of scope.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(int64_t bytes) {
    CUDA_CHECK(cudaMalloc(&ptr_, static_cast<size_t>(std::max<int64_t>(bytes, 16))));
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  DeviceBuffer& operator=(DeviceBuffer&&) = delete;
  void* get() const { return ptr_; }
  float* f() const { return static_cast<float*>(ptr_); }

 private:
  void* ptr_ = nullptr;
};

// --- the small-case comparison with the host references ----------------------------------

DeviceBuffer UploadBf16(const Floats& values) {
  std::vector<uint16_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i) bits[i] = FloatToBf16Bits(values[i]);
  DeviceBuffer out(static_cast<int64_t>(bits.size() * 2));
  CUDA_CHECK(cudaMemcpy(out.get(), bits.data(), bits.size() * 2, cudaMemcpyHostToDevice));
  return out;
}

DeviceBuffer UploadF32(const Floats& values) {
  DeviceBuffer out(static_cast<int64_t>(values.size() * 4));
  CUDA_CHECK(cudaMemcpy(out.get(), values.data(), values.size() * 4, cudaMemcpyHostToDevice));
  return out;
}

Floats DownloadBf16(const DeviceBuffer& buffer, int64_t count) {
  std::vector<uint16_t> bits(static_cast<size_t>(count));
  CUDA_CHECK(cudaMemcpy(bits.data(), buffer.get(), bits.size() * 2, cudaMemcpyDeviceToHost));
  Floats out(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) out[i] = Bf16BitsToFloat(bits[i]);
  return out;
}

Floats DownloadF32(const DeviceBuffer& buffer, int64_t count) {
  Floats out(static_cast<size_t>(count));
  CUDA_CHECK(cudaMemcpy(out.data(), buffer.get(), out.size() * 4, cudaMemcpyDeviceToHost));
  return out;
}

void Expect(bool close, const std::string& why) {
  if (!close) throw HarnessError("ops: a kernel's output differs from its host reference: " + why);
}

// bf16 outputs carry 8 significant bits (relative step 2^-8).
constexpr float kBf16Tol = 1e-2f;

void CheckNorms(cudaStream_t stream) {
  const int64_t rows = 8, hidden = 2048, n = rows * hidden;
  const Floats x = HostRandom(n, 1, 2.0f, true), w = HostRandom(hidden, 2, 1.0f, true);
  const Floats b = HostRandom(hidden, 3, 0.5f, true), dy = HostRandom(n, 4, 1.0f, true);
  const DeviceBuffer dx_in = UploadBf16(x), dw_in = UploadBf16(w), db_in = UploadBf16(b);
  const DeviceBuffer ddy = UploadBf16(dy);
  DeviceBuffer y(2 * n), rsigma(4 * rows), dx(2 * n), dw(4 * hidden), mean(4 * rows);
  DeviceBuffer partial(4 * hidden * RmsNormBwdPartialRows(rows));
  LaunchRmsNormFwd(dx_in.get(), dw_in.get(), y.get(), rsigma.f(), rows, hidden, stream);
  LaunchRmsNormBwd(dx_in.get(), dw_in.get(), ddy.get(), rsigma.f(), dx.get(), partial.f(), dw.f(),
                   rows, hidden, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  Floats ref_y, ref_rs, ref_dx, ref_dw;
  RmsNormFwdRef(x, w, rows, hidden, &ref_y, &ref_rs);
  RmsNormBwdRef(x, w, dy, rows, hidden, &ref_dx, &ref_dw);
  std::string why;
  Expect(AllClose(DownloadBf16(y, n), ref_y, kBf16Tol, kBf16Tol, "rmsnorm_fwd y", &why), why);
  Expect(AllClose(DownloadF32(rsigma, rows), ref_rs, 1e-5f, 1e-4f, "rmsnorm_fwd rsigma", &why),
         why);
  Expect(AllClose(DownloadBf16(dx, n), ref_dx, 2 * kBf16Tol, kBf16Tol, "rmsnorm_bwd dx", &why),
         why);
  Expect(AllClose(DownloadF32(dw, hidden), ref_dw, 1e-3f, 1e-3f, "rmsnorm_bwd dw", &why), why);
  LaunchLayerNormFwd(dx_in.get(), dw_in.get(), db_in.get(), y.get(), mean.f(), rsigma.f(), rows,
                     hidden, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  Floats ref_ln;
  LayerNormFwdRef(x, w, b, rows, hidden, &ref_ln);
  Expect(AllClose(DownloadBf16(y, n), ref_ln, kBf16Tol, kBf16Tol, "layernorm_fwd y", &why), why);
}

void CheckRope(cudaStream_t stream) {
  const int64_t tokens = 16, heads = 4, seq = 8, n = tokens * heads * kHeadDim;
  const Floats x = HostRandom(n, 5, 1.0f, true);
  Floats cos_table, sin_table, ref;
  RopeTable(seq, kHeadDim, kRopeTheta, &cos_table, &sin_table);
  const DeviceBuffer dx = UploadBf16(x), dc = UploadF32(cos_table), ds = UploadF32(sin_table);
  DeviceBuffer y(2 * n);
  LaunchRopeFwd(dx.get(), dc.f(), ds.f(), y.get(), tokens, heads, kHeadDim, seq, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  RopeFwdRef(x, cos_table, sin_table, tokens, heads, kHeadDim, seq, &ref);
  std::string why;
  Expect(AllClose(DownloadBf16(y, n), ref, kBf16Tol, kBf16Tol, "rope_fwd y", &why), why);
}

void CheckElementwise(cudaStream_t stream) {
  const int64_t n = 4096;
  const Floats g = HostRandom(n, 6, 4.0f, true), u = HostRandom(n, 7, 2.0f, true);
  const Floats dy = HostRandom(n, 8, 1.0f, true);
  const DeviceBuffer dg = UploadBf16(g), du = UploadBf16(u), ddy = UploadBf16(dy);
  DeviceBuffer y(2 * n), dgate(2 * n), dup(2 * n);
  std::string why;
  Floats ref, ref_dg, ref_du;
  LaunchSwigluFwd(dg.get(), du.get(), y.get(), n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  SwigluFwdRef(g, u, &ref);
  Expect(AllClose(DownloadBf16(y, n), ref, kBf16Tol, kBf16Tol, "swiglu_fwd y", &why), why);
  LaunchSwigluBwd(dg.get(), du.get(), ddy.get(), dgate.get(), dup.get(), n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  SwigluBwdRef(g, u, dy, &ref_dg, &ref_du);
  Expect(AllClose(DownloadBf16(dgate, n), ref_dg, kBf16Tol, kBf16Tol, "swiglu_bwd dgate", &why),
         why);
  Expect(AllClose(DownloadBf16(dup, n), ref_du, kBf16Tol, kBf16Tol, "swiglu_bwd dup", &why), why);
  LaunchGeluFwd(dg.get(), y.get(), n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  GeluFwdRef(g, &ref);
  Expect(AllClose(DownloadBf16(y, n), ref, kBf16Tol, kBf16Tol, "gelu_fwd y", &why), why);
  LaunchResidualAdd(dg.get(), du.get(), y.get(), n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  ResidualAddRef(g, u, &ref);
  Expect(AllClose(DownloadBf16(y, n), ref, kBf16Tol, kBf16Tol, "residual_add y", &why), why);
}

void CheckCrossEntropy(cudaStream_t stream) {
  const int64_t rows = 4, vocab = 1000, n = rows * vocab;
  const Floats logits = HostRandom(n, 9, 8.0f, false);
  std::vector<int32_t> targets(rows);
  for (int64_t r = 0; r < rows; ++r)
    targets[static_cast<size_t>(r)] = static_cast<int32_t>(r * 337 % vocab);
  const DeviceBuffer dl = UploadF32(logits);
  DeviceBuffer dt(4 * rows), loss(4 * rows), lse(4 * rows), grad(4 * n);
  CUDA_CHECK(cudaMemcpy(dt.get(), targets.data(), targets.size() * 4, cudaMemcpyHostToDevice));
  const float scale = 1.0f / static_cast<float>(rows);
  LaunchCrossEntropyFwd(dl.f(), static_cast<const int32_t*>(dt.get()), loss.f(), lse.f(), rows,
                        vocab, stream);
  LaunchCrossEntropyBwd(dl.f(), static_cast<const int32_t*>(dt.get()), lse.f(), grad.f(), rows,
                        vocab, scale, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  Floats ref_loss, ref_lse, ref_grad;
  CrossEntropyFwdRef(logits, targets, rows, vocab, &ref_loss, &ref_lse);
  CrossEntropyBwdRef(logits, targets, ref_lse, rows, vocab, scale, &ref_grad);
  std::string why;
  Expect(AllClose(DownloadF32(loss, rows), ref_loss, 1e-3f, 1e-4f, "cross_entropy loss", &why),
         why);
  Expect(AllClose(DownloadF32(grad, n), ref_grad, 1e-6f, 1e-3f, "cross_entropy grad", &why), why);
}

void CheckOptimizer(cudaStream_t stream) {
  const int64_t n = 65544;
  const Floats g = HostRandom(n, 10, 1e-2f, false);
  Floats p = HostRandom(n, 11, 1.0f, false), m = HostRandom(n, 12, 1e-3f, false);
  Floats v = HostRandom(n, 13, 1e-4f, false);
  for (float& x : v) x = std::fabs(x);
  AdamConfig config;
  config.step = 3;
  const DeviceBuffer dg = UploadF32(g), dp = UploadF32(p), dm = UploadF32(m), dv = UploadF32(v);
  DeviceBuffer bf16(2 * n), partial(4 * kGradNormBlocks), sum_sq(4);
  LaunchAdamStep(config, dg.f(), dp.f(), dm.f(), dv.f(), bf16.get(), n, stream);
  LaunchGradNorm(dg.f(), partial.f(), sum_sq.f(), n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  Floats ref_bf16;
  AdamStepRef(config, g, &p, &m, &v, &ref_bf16);
  std::string why;
  Expect(AllClose(DownloadF32(dp, n), p, 1e-6f, 1e-5f, "adam_step p", &why), why);
  Expect(AllClose(DownloadF32(dm, n), m, 1e-9f, 1e-5f, "adam_step m", &why), why);
  Expect(AllClose(DownloadF32(dv, n), v, 1e-12f, 1e-5f, "adam_step v", &why), why);
  Expect(AllClose(DownloadBf16(bf16, n), ref_bf16, 0, kBf16Tol, "adam_step bf16 copy", &why), why);
  const Floats norm = {std::sqrt(DownloadF32(sum_sq, 1)[0])};
  Expect(AllClose(norm, {static_cast<float>(GradNormRef(g))}, 0, 1e-4f, "grad_norm", &why), why);
}

// --- the timed sweep ----------------------------------------------------------------------

struct Sweep {
  const HarnessOptions& options;
  CsvWriter& writer;
  cudaStream_t stream;
  uint32_t seed = 1000;

  RowKey Key(const char* op, int64_t m, int64_t n, int64_t k) const {
    const MemoryOpSpec* spec = FindMemoryOp(op);
    if (spec == nullptr) throw HarnessError(std::string("ops: no byte count for op ") + op);
    const double bytes = spec->bytes_per_element * static_cast<double>(m) * static_cast<double>(n);
    return {"memory", op, std::string(spec->dtype), m, n, k, std::llround(bytes), 1, ""};
  }

  template <typename Launch>
  void Time(const RowKey& key, Launch&& launch) {
    if (writer.Has(key)) return;
    const double t = MedianTimeUs(stream, options.warmup, options.iters, launch);
    writer.Add(key, t);
    std::fprintf(stderr, "ops %s %ldx%ld: %.1f us, %.1f GB/s at the cost model's bytes\n",
                 key.op.c_str(), static_cast<long>(key.m), static_cast<long>(key.n), t,
                 static_cast<double>(key.bytes) / t * 1e-3);
  }

  void Fill(const DeviceBuffer& buffer, int64_t count, const char* dtype, float scale) {
    FillRandom(buffer.get(), count, dtype, seed++, scale, stream);
  }
};

bool AllDone(const Sweep& s, const std::vector<RowKey>& keys) {
  for (const auto& key : keys) {
    if (!s.writer.Has(key)) return false;
  }
  return true;
}

// RMSNorm forward and backward, LayerNorm forward and the residual add on [tokens, hidden].
void NormCases(Sweep& s, int64_t tokens, int64_t hidden) {
  const RowKey fwd = s.Key("rmsnorm_fwd", tokens, hidden, 0);
  const RowKey bwd = s.Key("rmsnorm_bwd", tokens, hidden, 0);
  const RowKey ln = s.Key("layernorm_fwd", tokens, hidden, 0);
  const RowKey add = s.Key("residual_add", tokens, hidden, 0);
  if (AllDone(s, {fwd, bwd, ln, add})) return;
  const int64_t n = tokens * hidden;
  DeviceBuffer x(2 * n), dy(2 * n), y(2 * n), w(2 * hidden), b(2 * hidden), dw(4 * hidden);
  DeviceBuffer rsigma(4 * tokens), mean(4 * tokens);
  DeviceBuffer partial(4 * hidden * RmsNormBwdPartialRows(tokens));
  s.Fill(x, n, "bf16", 2.0f);
  s.Fill(dy, n, "bf16", 1.0f);
  s.Fill(w, hidden, "bf16", 1.0f);
  s.Fill(b, hidden, "bf16", 0.5f);
  LaunchRmsNormFwd(x.get(), w.get(), y.get(), rsigma.f(), tokens, hidden, s.stream);
  s.Time(fwd, [&] {
    LaunchRmsNormFwd(x.get(), w.get(), y.get(), rsigma.f(), tokens, hidden, s.stream);
  });
  s.Time(bwd, [&] {
    LaunchRmsNormBwd(x.get(), w.get(), dy.get(), rsigma.f(), y.get(), partial.f(), dw.f(), tokens,
                     hidden, s.stream);
  });
  s.Time(ln, [&] {
    LaunchLayerNormFwd(x.get(), w.get(), b.get(), y.get(), mean.f(), rsigma.f(), tokens, hidden,
                       s.stream);
  });
  s.Time(add, [&] { LaunchResidualAdd(x.get(), dy.get(), y.get(), n, s.stream); });
}

// RoPE on the queries and keys of a Llama-3-like attention: hidden / 128 query heads and 8
// key/value heads of 128.
void RopeCase(Sweep& s, int64_t tokens, int64_t hidden) {
  const int64_t heads = hidden / kHeadDim + kKvHeads, width = heads * kHeadDim;
  const RowKey key = s.Key("rope_fwd", tokens, width, kHeadDim);
  if (s.writer.Has(key)) return;
  Floats cos_table, sin_table;
  RopeTable(kRopeSeq, kHeadDim, kRopeTheta, &cos_table, &sin_table);
  const DeviceBuffer dc = UploadF32(cos_table), ds = UploadF32(sin_table);
  const int64_t n = tokens * width;
  DeviceBuffer x(2 * n), y(2 * n);
  s.Fill(x, n, "bf16", 1.0f);
  s.Time(key, [&] {
    LaunchRopeFwd(x.get(), dc.f(), ds.f(), y.get(), tokens, heads, kHeadDim, kRopeSeq, s.stream);
  });
}

// SwiGLU at ffn = 3.5 · hidden (Llama 3: 14336 for 4096, 28672 for 8192), GeLU at 4 · hidden.
void ActivationCases(Sweep& s, int64_t tokens, int64_t hidden) {
  const int64_t ffn = hidden * 7 / 2, n = tokens * ffn;
  const RowKey fwd = s.Key("swiglu_fwd", tokens, ffn, 0);
  const RowKey bwd = s.Key("swiglu_bwd", tokens, ffn, 0);
  if (!AllDone(s, {fwd, bwd})) {
    DeviceBuffer gate(2 * n), up(2 * n), dy(2 * n), dgate(2 * n), dup(2 * n);
    s.Fill(gate, n, "bf16", 4.0f);
    s.Fill(up, n, "bf16", 2.0f);
    s.Fill(dy, n, "bf16", 1.0f);
    s.Time(fwd, [&] { LaunchSwigluFwd(gate.get(), up.get(), dgate.get(), n, s.stream); });
    s.Time(bwd, [&] {
      LaunchSwigluBwd(gate.get(), up.get(), dy.get(), dgate.get(), dup.get(), n, s.stream);
    });
  }
  const int64_t gelu_ffn = 4 * hidden, gelu_n = tokens * gelu_ffn;
  const RowKey gelu = s.Key("gelu_fwd", tokens, gelu_ffn, 0);
  if (s.writer.Has(gelu)) return;
  DeviceBuffer x(2 * gelu_n), y(2 * gelu_n);
  s.Fill(x, gelu_n, "bf16", 4.0f);
  s.Time(gelu, [&] { LaunchGeluFwd(x.get(), y.get(), gelu_n, s.stream); });
}

void CrossEntropyCases(Sweep& s, int64_t tokens, int64_t vocab) {
  const RowKey fwd = s.Key("cross_entropy_fwd", tokens, vocab, 0);
  const RowKey bwd = s.Key("cross_entropy_bwd", tokens, vocab, 0);
  if (AllDone(s, {fwd, bwd})) return;
  const int64_t n = tokens * vocab;
  DeviceBuffer logits(4 * n), grad(4 * n), targets(4 * tokens), loss(4 * tokens), lse(4 * tokens);
  s.Fill(logits, n, "fp32", 8.0f);
  std::vector<int32_t> host_targets(static_cast<size_t>(tokens));
  for (int64_t t = 0; t < tokens; ++t) {
    host_targets[static_cast<size_t>(t)] = static_cast<int32_t>((t * 7919) % vocab);
  }
  CUDA_CHECK(cudaMemcpy(targets.get(), host_targets.data(), host_targets.size() * 4,
                        cudaMemcpyHostToDevice));
  const auto* t = static_cast<const int32_t*>(targets.get());
  LaunchCrossEntropyFwd(logits.f(), t, loss.f(), lse.f(), tokens, vocab, s.stream);
  s.Time(fwd,
         [&] { LaunchCrossEntropyFwd(logits.f(), t, loss.f(), lse.f(), tokens, vocab, s.stream); });
  const float scale = 1.0f / static_cast<float>(tokens);
  s.Time(bwd, [&] {
    LaunchCrossEntropyBwd(logits.f(), t, lse.f(), grad.f(), tokens, vocab, scale, s.stream);
  });
}

// Adam and the gradient norm over `params` fp32 parameters (one flat buffer, as a multi-tensor
// apply over the whole model).
void OptimizerCases(Sweep& s, int64_t params) {
  const RowKey adam = s.Key("adam_step", 1, params, 0);
  const RowKey norm = s.Key("grad_norm", 1, params, 0);
  if (AllDone(s, {adam, norm})) return;
  DeviceBuffer g(4 * params), p(4 * params), m(4 * params), v(4 * params), copy(2 * params);
  DeviceBuffer partial(4 * kGradNormBlocks), sum_sq(4);
  s.Fill(g, params, "fp32", 1e-2f);
  s.Fill(p, params, "fp32", 1.0f);
  CUDA_CHECK(cudaMemsetAsync(m.get(), 0, static_cast<size_t>(4 * params), s.stream));
  CUDA_CHECK(cudaMemsetAsync(v.get(), 0, static_cast<size_t>(4 * params), s.stream));
  const AdamConfig config;
  s.Time(adam,
         [&] { LaunchAdamStep(config, g.f(), p.f(), m.f(), v.f(), copy.get(), params, s.stream); });
  s.Time(norm, [&] { LaunchGradNorm(g.f(), partial.f(), sum_sq.f(), params, s.stream); });
}

}  // namespace

void RunOpsMode(const HarnessOptions& options, CsvWriter& writer) {
  CUDA_CHECK(cudaSetDevice(0));
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  if (options.ops_check) {
    CheckNorms(stream);
    CheckRope(stream);
    CheckElementwise(stream);
    CheckCrossEntropy(stream);
    CheckOptimizer(stream);
    std::fprintf(stderr, "ops: every kernel matches its host reference on the small case\n");
  }
  Sweep sweep{options, writer, stream};
  for (int64_t hidden : options.ops_hidden) {
    for (int64_t tokens : options.ops_tokens) {
      NormCases(sweep, tokens, hidden);
      RopeCase(sweep, tokens, hidden);
      ActivationCases(sweep, tokens, hidden);
    }
  }
  for (int64_t tokens : options.ops_tokens) CrossEntropyCases(sweep, tokens, options.ops_vocab);
  for (int64_t params : options.ops_params) OptimizerCases(sweep, params);
  CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace paraplan::calibrate
