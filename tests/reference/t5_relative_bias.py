"""T5's relative position bias for the PyTorch references, written from the paper and transformers' code, not
from embedlab's C++.

Raffel et al. 2020 (section 2.1): "we use a simplified form of position embeddings where each 'embedding' is
simply a scalar that is added to the corresponding logit used for computing the attention weights ... we share
the position embedding parameters across all layers ... each attention head uses a different learned position
embedding ... we use 32 embeddings for all of our models with ranges that increase in size logarithmically up
to an offset of 128 beyond which we assign all relative positions to the same embedding."
The bucket rule below is transformers' T5Attention._relative_position_bucket (itself Mesh TensorFlow's), and
bias() is T5Attention.compute_bias: relative_position = memory_position - context_position.

write_buckets (called by gpt_reference.py, or run this as a script) writes tests/reference/data/
t5_buckets.safetensors: the buckets of every offset in [-OFFSETS, OFFSETS] for a grid of (num_buckets,
max_distance), both ways, for the C++ and node tests.
"""
import json
import math
import os
import struct

import torch

OFFSETS = 1024


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """transformers' T5Attention._relative_position_bucket, verbatim in substance (int64 tensor in, out)."""
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    # now relative_position is in the range [0, inf)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def bias(table, length, bidirectional, num_buckets, max_distance):
    """T5Attention.compute_bias: table (num_buckets, H) -> (1, H, length, length), added to the scores."""
    context_position = torch.arange(length, dtype=torch.long)[:, None]
    memory_position = torch.arange(length, dtype=torch.long)[None, :]
    relative_position = memory_position - context_position
    buckets = relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance)
    values = torch.nn.functional.embedding(buckets, table)  # (length, length, H)
    return values.permute([2, 0, 1]).unsqueeze(0)


# (num_buckets, max_distance): T5's defaults, small and odd counts, max_distance just above the exact buckets,
# and ones whose log edges fall on integers (E 2^(k/2) for 32/128), where float rounding decides the bucket.
GRID = [(32, 128), (32, 64), (16, 32), (8, 16), (64, 256), (4, 5), (5, 7), (7, 100), (2, 2), (3, 9), (100, 1000),
        (33, 128), (6, 4), (128, 4096)]


def write_buckets(path):
    offsets = torch.arange(-OFFSETS, OFFSETS + 1)
    tensors, cases = {}, []
    for bidirectional in (False, True):
        for num_buckets, max_distance in GRID:
            exact = (num_buckets // 2 if bidirectional else num_buckets) // 2
            if exact < 1 or max_distance <= exact:
                continue
            name = f"{'bidirectional' if bidirectional else 'causal'}/{num_buckets}/{max_distance}"
            tensors[name] = relative_position_bucket(offsets, bidirectional, num_buckets, max_distance).int()
            cases.append(name)
    header, blobs, offset = {"__metadata__": {"offsets": str(OFFSETS), "cases": json.dumps(cases),
                                              "torch": torch.__version__}}, [], 0
    for name, t in tensors.items():
        data = t.numpy().astype("<i4").tobytes()
        header[name] = {"dtype": "I32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
    print(f"{path}: {len(cases)} bucketings of offsets -{OFFSETS}..{OFFSETS}, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    write_buckets(os.path.join(os.path.dirname(__file__), "data", "t5_buckets.safetensors"))
