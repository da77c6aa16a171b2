// The profile of Aleph Alpha's Scaling trainer (github.com/Aleph-Alpha/scaling), read at 737f855
// (2024-10-30), the first public release of the trainer Hagemann et al. 2023 measured with (their
// 2023 code is not public; the sweep sheets' column and metric names are this code's). Every
// default and refusal cites the file it is read from (paths relative to that repository);
// docs/frameworks.md, "Aleph Alpha Scaling 737f855".
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

using W = DefaultWhen;

constexpr const char* kTopology = "src/scaling/core/topology/topology_config.py: TopologyConfig";

std::vector<Refusal> ScalingRefusals() {
  const char* only =
      ": Scaling's PipelineScheduleTrain is the only training schedule, 1F1B in "
      "2 x (micro-batches + pp - 1) instruction steps "
      "(src/scaling/core/nn/pipeline_schedule/train.py)";
  static const std::string gpipe = std::string("schedule=gpipe") + only;
  static const std::string inter = std::string("schedule=interleaved") + only;
  static const std::string zb = std::string("schedule=zero-bubble") + only;
  static const std::string dual = std::string("schedule=dualpipe") + only;
  const char* ckpt =
      ": Scaling checkpoints every layer or every pipe stage or nothing "
      "(ActivationCheckpointingType, src/scaling/core/topology/topology_config.py)";
  static const std::string selective = std::string("recompute=selective") + ckpt;
  static const std::string op = std::string("recompute=op") + ckpt;
  const char* zero =
      ": Scaling's optimizer has ZeRO stage 1 only (`zero: bool`, \"enable zero stage 1 "
      "optimizer\", src/scaling/core/optimizer/optimizer_config.py)";
  static const std::string zero2 = std::string("zero=2") + zero;
  static const std::string zero3 = std::string("zero=3") + zero;
  return {
      {KnobName(Knob::kSchedule), "gpipe", gpipe.c_str()},
      {KnobName(Knob::kSchedule), "interleaved", inter.c_str()},
      {KnobName(Knob::kSchedule), "zero-bubble", zb.c_str()},
      {KnobName(Knob::kSchedule), "dualpipe", dual.c_str()},
      {KnobName(Knob::kRecompute), "selective", selective.c_str()},
      {KnobName(Knob::kRecompute), "op", op.c_str()},
      {KnobName(Knob::kZero), "2", zero2.c_str()},
      {KnobName(Knob::kZero), "3", zero3.c_str()},
      {KnobName(Knob::kOverlapTpComm), "true",
       "overlap_tp_comm=true: Scaling's tensor-parallel collectives are plain blocking "
       "torch.distributed all_reduce / reduce_scatter_tensor / all_gather_into_tensor calls "
       "(src/scaling/core/nn/linear/utils.py)"},
  };
}

}  // namespace

// Aleph Alpha Scaling 737f855. `zero` has a parser default (false) but no default here: the
// sweeps' 13B runs at TP 1, PP 1 hold 14B parameters' fp32 master weights and Adam moments on
// every GPU without it, so a run that leaves it out is searched over the trainer's two values
// (zero=2 and zero=3 are refused above; validate's framework conventions keep refused values
// out of the search).
FrameworkProfile ScalingProfile() {
  FrameworkProfile p;
  p.framework = Framework::kScaling;
  p.version = "737f855";
  p.date = "2024-10-30";
  p.what =
      "Aleph Alpha Scaling (PyTorch tensor/pipeline/data parallelism, a DeepSpeed-style 1F1B "
      "instruction schedule, FlashAttention-2) as first released; Hagemann et al. 2023 ran it";
  const char* pipe = "src/scaling/core/nn/pipeline_schedule/train.py: PipelineScheduleTrain";
  p.defaults = {
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways, "Scaling's only training schedule", pipe},
      {KnobName(Knob::kVpp), "1", W::kAlways, "Scaling's only training schedule", pipe},
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "Scaling default: topology.sequence_parallel = False", kTopology},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "Scaling default: activation_checkpointing_type = disabled", kTopology},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways,
       "Scaling's TP collectives are blocking torch.distributed calls on the compute stream",
       "src/scaling/core/nn/linear/utils.py: _all_reduce, _reduce_scatter_along_sequence_dim, "
       "_gather_along_sequence_dim"},
      {KnobName(Knob::kOverlapPpComm), "false", W::kAlways,
       "Scaling's pipeline sends and receives are blocking torch.distributed.send/recv",
       "src/scaling/core/nn/parallel_module/communicator.py: send_data, recv_data, "
       "send_gradients, recv_gradients"},
      {KnobName(Knob::kOverlapGradReduce), "false", W::kAlways,
       "Scaling all-reduces the data-parallel gradients inside optimizer.step(), after the "
       "last backward",
       "src/scaling/core/optimizer/optimizer.py: Optimizer.step -> allreduce_gradients; "
       "src/scaling/core/nn/parallel_module/parallel_module.py: InstructionOptimizerStep"},
      {KnobName(Knob::kOverlapParamGather), "false", W::kAlways,
       "Scaling's ZeRO-1 all-gathers the updated parameters inside optimizer.step()",
       "src/scaling/core/optimizer/parameter_group.py: ParameterGroup.step_sequel "
       "(torch.distributed.all_gather per shard)"},
      // Gradients accumulate in the parameters' bf16 (param.grad) over the micro-batches; the
      // step casts each bucket to an fp32 copy and all-reduces that (allreduce.py). The buffer
      // is what decides memory: grad_reduce_in_fp32 false (stating true puts 16 sweep runs that
      // ran over 80 GiB); the fp32 reduction and its copies are the runtime's dp_reduce_fp32_copy,
      // below.
      {KnobName(Knob::kGradReduceInFp32), "false", W::kAlways,
       "Scaling accumulates gradients in the parameters' bf16 (each bucket is reduced in an fp32 "
       "copy: dp_reduce_fp32_copy)",
       "src/scaling/core/optimizer/optimizer.py: Optimizer.backward (loss.backward into "
       "param.grad); src/scaling/core/optimizer/allreduce.py: allreduce_tensor_in_float32"},
      // 500,000,000 floats per bucket (allreduce_bucket_size), reduced in fp32: 2,000 MB.
      {KnobName(Knob::kDpBucketMB), "2000", W::kAlways,
       "Scaling default: optimizer.allreduce_bucket_size = 500,000,000 elements, fp32",
       "src/scaling/core/optimizer/optimizer_config.py: allreduce_bucket_size; "
       "src/scaling/core/optimizer/allreduce.py: allreduce_no_retain"},
  };
  p.refusals = ScalingRefusals();
  p.runtime.fusion = Fusion::kEager;
  p.runtime.fusion_why =
      "Scaling's RMSNorm, RoPE and SwiGLU are PyTorch ops (src/scaling/core/nn/norm/"
      "rms_norm.py, LayerNormOptimizationType.TORCH only); attention is flash_attn_varlen_func "
      "(src/scaling/core/nn/attention/attention.py)";
  // ZeRO-1 (optimizer.zero) all-reduces the bf16 gradients of the original parameters in fp32
  // buckets, as without it, and only then steps its shard and all-gathers the updated parameters
  // (src/scaling/core/optimizer/optimizer.py, Optimizer.step: allreduce_gradients(
  // optimized_grads=False) when config.zero): no reduce-scatter.
  p.runtime.zero1_all_reduce = true;
  // With or without ZeRO each bf16 gradient bucket is flattened, divided by dp, cast to an fp32
  // copy, all-reduced and copied back (src/scaling/core/optimizer/allreduce.py: allreduce_and_copy
  // -> allreduce_bucket -> allreduce_tensor_in_float32; without ZeRO the gradients are the fp32
  // master copies already): the wire carries fp32 (kernel_recipe.h, dp_reduce_fp32_copy).
  p.runtime.dp_reduce_fp32_copy = true;
  p.runtime.collectives =
      "all-reduce of fp32 gradient buckets inside the optimizer step (ZeRO-1 too: it "
      "all-reduces, then all-gathers the updated bf16 parameters), blocking TP all-reduce or "
      "all-gather/reduce-scatter (sequence parallelism), blocking P2P for PP";
  return p;
}

}  // namespace paraplan
