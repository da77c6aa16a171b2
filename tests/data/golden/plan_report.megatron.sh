# Megatron-LM arguments for the best plan paraplan found: gpt3-175b on 1024 GPUs (dgx-h100)
# predicted: step 10.500 s, peak memory 61.2 GiB per GPU, MFU 46.7 %
# data-parallel size is implied: 1024 GPUs / (tp 8 x pp 8 x cp 1) = 16
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
