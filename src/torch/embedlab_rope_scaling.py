"""RoPE frequency scaling for embedlab_gpt.py, with Hugging Face transformers' semantics (modeling_rope_utils).

A scaling is the dict a checkpoint's metadata holds under "rope_scaling" (JSON, transformers' key names):
  linear   inv_freq / factor (Position Interpolation)
  ntk      base * factor^(d/(d-2)) in place of base (static NTK-aware)
  dynamic  base * (factor * T / L0 - (factor - 1))^(d/(d-2)) when T > L0, else unscaled (T: sequence length)
  yarn     a ramp from inv_freq (pairs turning more than beta_fast times inside L0) to inv_freq / factor (fewer
           than beta_slow); cos and sin multiplied by attention_factor (default 0.1 ln(factor) + 1)
  llama3   wavelengths above L0 / low_freq_factor divided by factor, below L0 / high_freq_factor kept, a blend
with L0 = original_max_position_embeddings. Everything in float64, as the C++ model computes it.

No defaults here: embedlab writes every key a type reads (defaults included; the C++ core holds the only copy of
transformers' defaults), so a dict that lacks one is refused rather than completed with a second copy. The one
optional key is yarn's attention_factor, whose absence means the formula 0.1 ln(factor) + 1, not a constant.
Ranges are the C++ core's too: it checks them again when a checkpoint comes back.
"""
import math

import torch

# The keys each type reads, as the C++ core writes them (training/rope_scaling_json.h).
REQUIRED_KEYS = {
    "linear": ("factor",),
    "ntk": ("factor",),
    "dynamic": ("factor", "original_max_position_embeddings"),
    "yarn": ("factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "truncate"),
    "llama3": ("factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"),
}
ROPE_TYPES = tuple(REQUIRED_KEYS)
KEYS = {"rope_type", "attention_factor", *(key for keys in REQUIRED_KEYS.values() for key in keys)}


def check_rope_scaling(scaling):
    """Raises ValueError naming the key when the dict is not a scaling this module computes."""
    unknown = sorted(set(scaling) - KEYS)
    if unknown:
        raise ValueError(f"rope_scaling has unknown keys {unknown}")
    if scaling.get("rope_type") not in ROPE_TYPES:
        raise ValueError(f"rope_scaling rope_type must be one of {', '.join(ROPE_TYPES)}, got "
                         f"{scaling.get('rope_type')!r}")
    missing = [key for key in REQUIRED_KEYS[scaling["rope_type"]] if key not in scaling]
    if missing:
        raise ValueError(f"rope_scaling {scaling['rope_type']} needs {missing} (embedlab writes every key a type "
                         "reads; load the checkpoint in embedlab and save it to complete it)")


def rope_frequencies(dim, base, scaling, length):
    """(inverse frequencies, float64 tensor of dim/2; attention factor) for a head size dim and sequence length."""
    if not scaling:
        return 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim), 1.0
    kind, factor = scaling["rope_type"], float(scaling["factor"])
    original = scaling.get("original_max_position_embeddings")  # linear and ntk have none
    if kind == "ntk":
        base = base * factor ** (dim / (dim - 2))
    elif kind == "dynamic" and length > original:
        base = base * (factor * length / original - (factor - 1)) ** (dim / (dim - 2))
    inv_freq = 1.0 / base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    if kind == "linear":
        return inv_freq / factor, 1.0
    if kind == "yarn":
        attention = scaling.get("attention_factor") or 0.1 * math.log(factor) + 1.0  # absent or 0: YaRN's formula

        def turns_to_pair(turns):  # the (fractional) pair that turns `turns` times inside the original length
            return dim * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(base))

        low, high = turns_to_pair(scaling["beta_fast"]), turns_to_pair(scaling["beta_slow"])
        if scaling["truncate"]:
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001  # transformers' guard against a zero-width ramp
        ramp = ((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0, 1)
        return inv_freq * (1 - ramp) + inv_freq / factor * ramp, attention
    if kind == "llama3":
        low_factor, high_factor = scaling["low_freq_factor"], scaling["high_freq_factor"]
        wavelength = 2 * math.pi / inv_freq
        smooth = (original / wavelength - low_factor) / (high_factor - low_factor)
        blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
        banded = torch.where(wavelength > original / low_factor, inv_freq / factor, inv_freq)
        medium = (wavelength >= original / high_factor) & (wavelength <= original / low_factor)
        return torch.where(medium, blended, banded), 1.0
    return inv_freq, 1.0
