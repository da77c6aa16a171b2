// GEMM shapes of a transformer layer under tensor parallelism (Megatron-LM column/row split:
// Shoeybi et al. 2019, §3) and the size parser.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <tuple>

#include "harness_error.h"
#include "options.h"

namespace paraplan::calibrate {
namespace {

// Forward y = x·W (tokens × in → tokens × out), its input gradient and its weight gradient.
void AddLinear(int64_t tokens, int64_t in, int64_t out, std::vector<GemmShape>* shapes) {
  if (in < 1 || out < 1) return;
  shapes->push_back({tokens, out, in});  // forward
  shapes->push_back({tokens, in, out});  // dgrad
  shapes->push_back({in, out, tokens});  // wgrad
}

}  // namespace

std::vector<GemmShape> LayerGemmShapes(const HarnessOptions& o) {
  std::vector<GemmShape> shapes;
  if (o.hidden < 1) return shapes;
  const int64_t heads = o.heads > 0 ? o.heads : std::max<int64_t>(1, o.hidden / 128);
  const int64_t head_dim = o.head_dim > 0 ? o.head_dim : o.hidden / heads;
  const int64_t kv_heads = o.kv_heads > 0 ? o.kv_heads : heads;
  const int64_t ffn = o.ffn > 0 ? o.ffn : 4 * o.hidden;
  for (int64_t tp : o.tp_list) {
    if (tp < 1 || heads % tp != 0) continue;
    for (int64_t mb : o.mb_list) {
      const int64_t tokens = mb * o.seq;
      const int64_t qkv_out = (heads + 2 * std::max<int64_t>(kv_heads, tp)) * head_dim / tp;
      AddLinear(tokens, o.hidden, qkv_out, &shapes);                // QKV (column)
      AddLinear(tokens, heads * head_dim / tp, o.hidden, &shapes);  // attention out (row)
      AddLinear(tokens, o.hidden, (o.gated_mlp ? 2 : 1) * ffn / tp, &shapes);  // MLP up
      AddLinear(tokens, ffn / tp, o.hidden, &shapes);                          // MLP down (row)
    }
  }
  // Unique, in a fixed order.
  std::sort(shapes.begin(), shapes.end(), [](const GemmShape& a, const GemmShape& b) {
    return std::tie(a.m, a.n, a.k) < std::tie(b.m, b.n, b.k);
  });
  shapes.erase(std::unique(shapes.begin(), shapes.end(),
                           [](const GemmShape& a, const GemmShape& b) {
                             return a.m == b.m && a.n == b.n && a.k == b.k;
                           }),
               shapes.end());
  return shapes;
}

std::vector<GemmShape> GenericGemmGrid() {
  std::vector<GemmShape> grid;
  for (int64_t s : {512, 1024, 2048, 4096, 8192, 16384}) grid.push_back({s, s, s});
  for (int64_t m : {1024, 4096, 16384}) {
    for (int64_t nk : {1024, 4096, 8192}) {
      grid.push_back({m, nk, 4 * nk});
      grid.push_back({m, 4 * nk, nk});
    }
  }
  return grid;
}

int64_t ParseBytes(const std::string& text) {
  if (text.empty()) throw HarnessError("empty size");
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) throw HarnessError("bad size '" + text + "'");
  int64_t value = std::stoll(text.substr(0, digits));
  const std::string suffix = text.substr(digits);
  if (suffix == "K" || suffix == "k") {
    value <<= 10;
  } else if (suffix == "M" || suffix == "m") {
    value <<= 20;
  } else if (suffix == "G" || suffix == "g") {
    value <<= 30;
  } else if (!suffix.empty()) {
    throw HarnessError("bad size suffix in '" + text + "' (use K, M or G)");
  }
  return value;
}

}  // namespace paraplan::calibrate
