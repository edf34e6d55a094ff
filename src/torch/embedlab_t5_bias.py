"""T5's relative position bias buckets for embedlab_gpt.py (positions "t5"), with Hugging Face transformers' semantics
(T5Attention._relative_position_bucket, after Raffel et al. 2020 and Mesh TensorFlow). Needs only torch."""
import math

import torch


def check_buckets(num_buckets, max_distance, bidirectional):
    """T5's bucket rule needs E = (num_buckets / 2 if bidirectional) / 2 >= 1 exact buckets and max_distance > E."""
    if not (4 if bidirectional else 2) <= num_buckets <= 4096:
        raise ValueError(f"relative_attention_num_buckets must be in [{4 if bidirectional else 2}, 4096] "
                         f"({'bidirectional' if bidirectional else 'causal'}), got {num_buckets}")
    exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
    if not exact < max_distance <= 2 ** 30:
        raise ValueError(f"relative_attention_max_distance must be in [{exact + 1}, {2 ** 30}], got {max_distance}")


def relative_position_bucket(offset, bidirectional, num_buckets, max_distance):
    """T5's bucket of each offset (key - query; int64 tensor), as transformers' _relative_position_bucket: half the
    buckets per sign if bidirectional, else keys after the query in bucket 0; E = buckets / 2 exact offsets, then
    log-spaced (in float32) up to max_distance, past which all share the last bucket."""
    bucket = torch.zeros_like(offset)
    if bidirectional:
        num_buckets //= 2
        bucket = bucket + (offset > 0).long() * num_buckets
        n = offset.abs()
    else:
        n = (-offset).clamp(min=0)
    exact = num_buckets // 2
    large = exact + (torch.log(n.float() / exact) / math.log(max_distance / exact) * (num_buckets - exact)).long()
    return bucket + torch.where(n < exact, n, large.clamp(max=num_buckets - 1))


def compute_bias(attention, length, config):
    """T5Attention.compute_bias: the first layer's nn.Embedding relative_attention_bias (buckets, heads) read at the
    bucket of every (query i, key j) -> (1, heads, length, length), added to the scores in every layer; causal
    buckets for a causal model, bidirectional otherwise. None for the other schemes."""
    if config.positions != "t5":
        return None
    table = attention.relative_attention_bias
    position = torch.arange(length, device=table.weight.device)
    bucket = relative_position_bucket(position[None, :] - position[:, None], not config.causal,
                                      config.relative_attention_num_buckets, config.relative_attention_max_distance)
    return table(bucket).permute(2, 0, 1).unsqueeze(0)
