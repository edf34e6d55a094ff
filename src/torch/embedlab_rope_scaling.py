"""RoPE frequency scaling for embedlab_gpt.py, with Hugging Face transformers' semantics (modeling_rope_utils).

A scaling is the dict a checkpoint's metadata holds under "rope_scaling" (JSON, transformers' key names):
  linear   inv_freq / factor (Position Interpolation)
  ntk      base * factor^(d/(d-2)) in place of base (static NTK-aware)
  dynamic  base * (factor * T / L0 - (factor - 1))^(d/(d-2)) when T > L0, else unscaled (T: sequence length)
  yarn     a ramp from inv_freq (pairs turning more than beta_fast times inside L0) to inv_freq / factor (fewer
           than beta_slow); cos and sin multiplied by attention_factor (default 0.1 ln(factor) + 1)
  llama3   wavelengths above L0 / low_freq_factor divided by factor, below L0 / high_freq_factor kept, a blend
with L0 = original_max_position_embeddings. Everything in float64, as the C++ model computes it.
"""
import math

import torch

ROPE_TYPES = ("linear", "ntk", "dynamic", "yarn", "llama3")
KEYS = {"rope_type", "factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "attention_factor",
        "truncate", "low_freq_factor", "high_freq_factor"}


def check_rope_scaling(scaling):
    """Raises ValueError naming the key when the dict is not a scaling this module computes."""
    unknown = sorted(set(scaling) - KEYS)
    if unknown:
        raise ValueError(f"rope_scaling has unknown keys {unknown}")
    if scaling.get("rope_type") not in ROPE_TYPES:
        raise ValueError(f"rope_scaling rope_type must be one of {', '.join(ROPE_TYPES)}, got "
                         f"{scaling.get('rope_type')!r}")
    if not 1 <= scaling.get("factor", 0) <= 1e6:
        raise ValueError(f"rope_scaling factor must be in [1, 1e6], got {scaling.get('factor')!r}")
    if scaling["rope_type"] in ("dynamic", "yarn", "llama3") and not scaling.get("original_max_position_embeddings"):
        raise ValueError("rope_scaling needs original_max_position_embeddings for " + scaling["rope_type"])


def rope_frequencies(dim, base, scaling, length):
    """(inverse frequencies, float64 tensor of dim/2; attention factor) for a head size dim and sequence length."""
    if not scaling:
        return 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim), 1.0
    kind, factor = scaling["rope_type"], float(scaling["factor"])
    original = scaling.get("original_max_position_embeddings")
    if kind == "ntk":
        base = base * factor ** (dim / (dim - 2))
    elif kind == "dynamic" and length > original:
        base = base * (factor * length / original - (factor - 1)) ** (dim / (dim - 2))
    inv_freq = 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    if kind == "linear":
        return inv_freq / factor, 1.0
    if kind == "yarn":
        attention = scaling.get("attention_factor") or (0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0)

        def turns_to_pair(turns):  # the (fractional) pair that turns `turns` times inside the original length
            return dim * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(base))

        low, high = turns_to_pair(scaling.get("beta_fast", 32)), turns_to_pair(scaling.get("beta_slow", 1))
        if scaling.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001  # transformers' guard against a zero-width ramp
        ramp = ((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0, 1)
        return inv_freq * (1 - ramp) + inv_freq / factor * ramp, attention
    if kind == "llama3":
        low_factor, high_factor = scaling.get("low_freq_factor", 1.0), scaling.get("high_freq_factor", 4.0)
        wavelength = 2 * math.pi / inv_freq
        smooth = (original / wavelength - low_factor) / (high_factor - low_factor)
        blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
        banded = torch.where(wavelength > original / low_factor, inv_freq / factor, inv_freq)
        medium = (wavelength >= original / high_factor) & (wavelength <= original / low_factor)
        return torch.where(medium, blended, banded), 1.0
    return inv_freq, 1.0
