// nccl mode: all_reduce, all_gather, reduce_scatter, all_to_all (grouped send/recv) and send_recv
// (a ring of sends) over a -b/-e/-f size sweep, like nccl-tests. One process drives all visible
// GPUs (ncclCommInitAll), or, when built with MPI and started by mpirun/srun with more than one
// rank, one rank per process (ncclCommInitRank). Size conventions follow nccl-tests: all_gather
// counts the gathered output, reduce_scatter the input, all_to_all the whole per-rank buffer.
#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "modes.h"
#include "random_fill.h"
#include "timing.h"

#ifdef PARAPLAN_WITH_MPI
#include <mpi.h>
#endif

#define NCCL_CHECK(call)                                               \
  do {                                                                 \
    const ncclResult_t nccl_status = (call);                           \
    if (nccl_status != ncclSuccess) {                                  \
      throw ::paraplan::calibrate::HarnessError(                       \
          ::paraplan::calibrate::CallSite(#call, __FILE__, __LINE__) + \
          ncclGetErrorString(nccl_status));                            \
    }                                                                  \
  } while (0)

namespace paraplan::calibrate {
namespace {

// The GPUs this process drives: one entry per local rank.
struct Local {
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  void* send = nullptr;
  void* recv = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
};

struct Group {
  std::vector<Local> locals;
  int ranks = 0;        // all ranks in the communicator
  int first_rank = 0;   // global rank of locals[0]
  std::string tier;     // nvlink (one host) or scaleout
  bool is_root = true;  // writes the CSV
};

// Elements each rank sends and receives for a payload of `bytes` (nccl-tests sizes).
void Counts(const std::string& op, int64_t bytes, int ranks, size_t* send, size_t* recv) {
  const auto n = static_cast<size_t>(ranks);
  const auto elems = static_cast<size_t>(bytes / 2);  // bf16
  if (op == "all_gather") {
    *send = elems / n;
    *recv = elems;
  } else if (op == "reduce_scatter") {
    *send = elems;
    *recv = elems / n;
  } else {
    *send = elems;
    *recv = elems;
  }
}

void Enqueue(const std::string& op, const Group& g, size_t send, size_t recv) {
  NCCL_CHECK(ncclGroupStart());
  for (size_t i = 0; i < g.locals.size(); ++i) {
    const Local& l = g.locals[i];
    const int rank = g.first_rank + static_cast<int>(i);
    if (op == "all_reduce") {
      NCCL_CHECK(ncclAllReduce(l.send, l.recv, send, ncclBfloat16, ncclSum, l.comm, l.stream));
    } else if (op == "all_gather") {
      NCCL_CHECK(ncclAllGather(l.send, l.recv, send, ncclBfloat16, l.comm, l.stream));
    } else if (op == "reduce_scatter") {
      NCCL_CHECK(ncclReduceScatter(l.send, l.recv, recv, ncclBfloat16, ncclSum, l.comm, l.stream));
    } else if (op == "all_to_all") {
      const size_t chunk = send / static_cast<size_t>(g.ranks);
      for (int peer = 0; peer < g.ranks; ++peer) {
        const size_t offset = static_cast<size_t>(peer) * chunk * 2;
        NCCL_CHECK(ncclSend(static_cast<char*>(l.send) + offset, chunk, ncclBfloat16, peer, l.comm,
                            l.stream));
        NCCL_CHECK(ncclRecv(static_cast<char*>(l.recv) + offset, chunk, ncclBfloat16, peer, l.comm,
                            l.stream));
      }
    } else {  // send_recv: a ring
      NCCL_CHECK(ncclSend(l.send, send, ncclBfloat16, (rank + 1) % g.ranks, l.comm, l.stream));
      NCCL_CHECK(
          ncclRecv(l.recv, recv, ncclBfloat16, (rank + g.ranks - 1) % g.ranks, l.comm, l.stream));
    }
  }
  NCCL_CHECK(ncclGroupEnd());
}

// One timed run: the slowest local GPU, between events around the grouped launch.
double TimeOnce(const std::string& op, const Group& g, size_t send, size_t recv) {
  for (const Local& l : g.locals) {
    CUDA_CHECK(cudaSetDevice(l.device));
    CUDA_CHECK(cudaEventRecord(l.start, l.stream));
  }
  Enqueue(op, g, send, recv);
  double slowest_us = 0;
  for (const Local& l : g.locals) {
    CUDA_CHECK(cudaSetDevice(l.device));
    CUDA_CHECK(cudaEventRecord(l.stop, l.stream));
  }
  for (const Local& l : g.locals) {
    CUDA_CHECK(cudaSetDevice(l.device));
    CUDA_CHECK(cudaEventSynchronize(l.stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, l.start, l.stop));
    slowest_us = std::max(slowest_us, static_cast<double>(ms) * 1e3);
  }
  return slowest_us;
}

// Median over iterations; under MPI each iteration takes the slowest rank.
double MeasureUs(const std::string& op, const Group& g, size_t send, size_t recv,
                 const HarnessOptions& options) {
  for (int i = 0; i < options.warmup; ++i) TimeOnce(op, g, send, recv);
  std::vector<double> times;
  for (int i = 0; i < options.iters; ++i) {
    double t = TimeOnce(op, g, send, recv);
#ifdef PARAPLAN_WITH_MPI
    if (g.locals.size() < static_cast<size_t>(g.ranks)) {
      MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
#endif
    times.push_back(t);
  }
  return Median(times);
}

void AllocateBuffers(Group* g, int64_t max_bytes) {
  for (Local& l : g->locals) {
    CUDA_CHECK(cudaSetDevice(l.device));
    CUDA_CHECK(cudaStreamCreate(&l.stream));
    CUDA_CHECK(cudaEventCreate(&l.start));
    CUDA_CHECK(cudaEventCreate(&l.stop));
    CUDA_CHECK(cudaMalloc(&l.send, static_cast<size_t>(max_bytes)));
    CUDA_CHECK(cudaMalloc(&l.recv, static_cast<size_t>(max_bytes)));
    FillRandom(l.send, max_bytes / 2, "bf16", static_cast<uint32_t>(l.device) + 1, 1.0f, l.stream);
    CUDA_CHECK(cudaStreamSynchronize(l.stream));
  }
}

void FreeGroup(Group* g) {
  for (Local& l : g->locals) {
    cudaSetDevice(l.device);
    if (l.comm) ncclCommDestroy(l.comm);
    cudaFree(l.send);
    cudaFree(l.recv);
    cudaEventDestroy(l.start);
    cudaEventDestroy(l.stop);
    cudaStreamDestroy(l.stream);
  }
}

// Largest per-buffer size that leaves 1 GiB free on every local GPU.
int64_t FittingMaxBytes(const Group& g, int64_t wanted) {
  int64_t limit = wanted;
  for (const Local& l : g.locals) {
    CUDA_CHECK(cudaSetDevice(l.device));
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    const int64_t usable = (static_cast<int64_t>(free_bytes) - (int64_t{1} << 30)) / 2;
    while (limit > usable && limit > 1024) limit /= 2;
  }
  return limit;
}

Group MakeSingleProcessGroup() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  Group g;
  g.ranks = count;
  g.tier = "nvlink";
  g.locals.resize(static_cast<size_t>(count));
  std::vector<ncclComm_t> comms(static_cast<size_t>(count));
  std::vector<int> devices(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) devices[static_cast<size_t>(i)] = i;
  NCCL_CHECK(ncclCommInitAll(comms.data(), count, devices.data()));
  for (int i = 0; i < count; ++i) {
    g.locals[static_cast<size_t>(i)].device = i;
    g.locals[static_cast<size_t>(i)].comm = comms[static_cast<size_t>(i)];
  }
  return g;
}

#ifdef PARAPLAN_WITH_MPI
// One rank per process; the device is the rank's index among the ranks of its host.
Group MakeMpiGroup() {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm host_comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host_comm);
  int local_rank = 0, local_size = 0;
  MPI_Comm_rank(host_comm, &local_rank);
  MPI_Comm_size(host_comm, &local_size);
  MPI_Comm_free(&host_comm);
  int devices = 0;
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  Group g;
  g.ranks = size;
  g.first_rank = rank;
  g.is_root = rank == 0;
  int min_local = 0;
  MPI_Allreduce(&local_size, &min_local, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  g.tier = min_local == size ? "nvlink" : "scaleout";  // all ranks on one host, or not
  Local l;
  l.device = local_rank % devices;
  CUDA_CHECK(cudaSetDevice(l.device));
  ncclUniqueId id;
  if (rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
  NCCL_CHECK(ncclCommInitRank(&l.comm, size, id, rank));
  g.locals.push_back(l);
  return g;
}
#endif

Group MakeGroup(int* argc, char*** argv) {
#ifdef PARAPLAN_WITH_MPI
  MPI_Init(argc, argv);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) return MakeMpiGroup();
#else
  (void)argc;
  (void)argv;
#endif
  return MakeSingleProcessGroup();
}

// Whether to skip a row already measured: rank 0 (which owns the CSV) decides for all.
bool AgreeSkip(const Group& g, bool have) {
  int skip = have ? 1 : 0;
#ifdef PARAPLAN_WITH_MPI
  if (g.locals.size() < static_cast<size_t>(g.ranks)) {
    MPI_Bcast(&skip, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
#else
  (void)g;
#endif
  return skip != 0;
}

void Sweep(const HarnessOptions& options, Group& g, CsvWriter& writer) {
  const int64_t max_bytes = FittingMaxBytes(g, options.max_bytes);
  if (max_bytes < options.max_bytes && g.is_root) {
    std::fprintf(stderr, "nccl: sizes above %ld bytes do not fit in GPU memory; skipped\n",
                 static_cast<long>(max_bytes));
  }
  AllocateBuffers(&g, max_bytes);
  for (const std::string& op : options.ops) {
    for (int64_t bytes = options.min_bytes; bytes <= max_bytes;
         bytes = std::max(bytes + 2 * g.ranks,
                          static_cast<int64_t>(static_cast<double>(bytes) * options.factor))) {
      // Whole bf16 elements, divisible by the rank count where the op splits the buffer.
      const int64_t unit = 2 * static_cast<int64_t>(g.ranks);
      const int64_t size = std::max(unit, bytes / unit * unit);
      const RowKey key{"collective", op, "bf16", 0, 0, 0, size, g.ranks, g.tier};
      if (AgreeSkip(g, writer.Has(key))) continue;
      size_t send = 0, recv = 0;
      Counts(op, size, g.ranks, &send, &recv);
      const double t = MeasureUs(op, g, send, recv, options);
      writer.Add(key, t);
      if (g.is_root) {
        const double algbw = static_cast<double>(size) / t * 1e-3;
        std::fprintf(stderr, "nccl %s %d ranks %s %ld bytes: %.2f us, algbw %.2f GB/s\n",
                     op.c_str(), g.ranks, g.tier.c_str(), static_cast<long>(size), t, algbw);
      }
      if (bytes >= max_bytes) break;
    }
  }
}

}  // namespace

void RunNcclMode(const HarnessOptions& options, CsvWriter& writer, int* argc, char*** argv) {
  for (const auto& op : options.ops) {
    if (op != "all_reduce" && op != "all_gather" && op != "reduce_scatter" && op != "all_to_all" &&
        op != "send_recv") {
      throw HarnessError("nccl: unknown op '" + op +
                         "' (valid: all_reduce, all_gather, reduce_scatter, all_to_all, "
                         "send_recv)");
    }
  }
  Group g = MakeGroup(argc, argv);
  writer.SetWriter(g.is_root);
  if (g.ranks < 2) {
    FreeGroup(&g);
    throw HarnessError("nccl: only one GPU/rank: collectives need at least two");
  }
  try {
    Sweep(options, g, writer);
  } catch (...) {
    FreeGroup(&g);
    throw;
  }
  FreeGroup(&g);
#ifdef PARAPLAN_WITH_MPI
  MPI_Finalize();
#endif
}

}  // namespace paraplan::calibrate
