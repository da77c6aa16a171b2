# Megatron-LM arguments for the best plan paraplan found: gpt3-175b on 1024 GPUs (dgx-h100)
# predicted: step 10.500 s, peak memory 61.2 GiB per GPU, MFU 46.7 %
# re-run: paraplan simulate -m gpt3-175b -c dgx-h100 -g 1024 --plan "tp=8,pp=8,dp=16,cp=1,ep=1,etp=1,vpp=3,micro_batch=1,global_batch=1536,seq_len=2048,recompute=selective,sequence_parallel=true,zero=1,precision=bf16,schedule=interleaved,overlap_grad_reduce=true,overlap_param_gather=true,overlap_tp_comm=true,overlap_ep_comm=false,overlap_pp_comm=true"
# data-parallel size is implied: 1024 GPUs / (tp 8 x pp 8 x cp 1) = 16
export CUDA_DEVICE_MAX_CONNECTIONS=1
--tensor-model-parallel-size 8 \
--pipeline-model-parallel-size 8 \
--num-layers-per-virtual-pipeline-stage 4 \
--context-parallel-size 1 \
--micro-batch-size 1 \
--global-batch-size 1536 \
--seq-length 2048 \
--sequence-parallel \
--recompute-granularity selective \
--use-distributed-optimizer \
--overlap-grad-reduce \
--overlap-param-gather \
--tp-comm-overlap \
--bf16
