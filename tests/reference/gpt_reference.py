#!/usr/bin/python3
"""PyTorch reference for src/model: the same tiny GPT, written with plain torch ops in float32.

For each positional scheme it writes tests/reference/data/gpt_<case>.safetensors holding the weights
(param/<name>), a batch (ids, targets; one target is -1 = ignored), the logits, the loss, every parameter
gradient (grad/<name>) and the losses of 10 AdamW steps (adamw_losses); and t5_buckets.safetensors, T5's bucket
rule for a grid of settings (t5_relative_bias.py). The file is written with struct +
json (no safetensors package); the model's configuration and the optimiser's settings are in
__metadata__. Run with Debian's python3 (torch 1.13, numpy): scripts/generate-model-references.sh.

Conventions that the C++ model shares (llm.c / nanoGPT):
  * Hugging Face GPT-2 names (wte.weight, wpe.weight, h.{i}.attn.c_attn.weight, ...); the reference files
    hold matrices in nn.Linear's (out, in) layout, the model's memory layout, while checkpoints use HF's
    Conv1D (in, out) layout for the block matrices (verify_checkpoints transposes them back);
  * the output head is wte (tied), GELU is the tanh approximation, LayerNorm eps is 1e-5;
  * the input is embedding_scale * wte[id] + position (Vaswani et al. 2017, section 3.4: sqrt(d_model));
    the tied head uses wte unscaled;
  * ALiBi's slopes are Press et al.'s reference construction (alibi_slopes below);
  * T5's bias is transformers' bucket rule and compute_bias (t5_relative_bias.py), one table
    h.0.attn.relative_attention_bias.weight (num_buckets, H) shared by every layer, added to the scaled scores;
  * AdamW decays 2-D tensors (matrices, wte, wpe) and not biases or LayerNorm parameters (nanoGPT's
    configure_optimizers); gradients are clipped to a global norm with clip_grad_norm_.
"""
import argparse
import json
import math
import os
import struct

import torch
import torch.nn.functional as F

import t5_relative_bias

def T5_BUCKETS(num_buckets, max_distance):
    return dict(relative_attention_num_buckets=num_buckets, relative_attention_max_distance=max_distance)


CASES = {
    "learned": dict(positions="learned"),
    "sinusoidal": dict(positions="sinusoidal"),
    "rope_interleaved": dict(positions="rope", rope_layout="interleaved"),
    "rope_rotate_half": dict(positions="rope", rope_layout="rotate_half"),
    "alibi": dict(positions="alibi"),
    "none": dict(positions="none"),
    "learned_bidirectional": dict(positions="learned", causal=False),
    # Head counts that are not powers of two take Press et al.'s interleaved slopes; 8 is geometric.
    "alibi_3_heads": dict(positions="alibi", heads=3, channels=24),
    "alibi_6_heads": dict(positions="alibi", heads=6, channels=24),
    "alibi_8_heads": dict(positions="alibi", heads=8),
    # The 2017 Transformer's sqrt(d_model) (inexact in float for C = 24), and a learned table with it.
    "sinusoidal_scaled": dict(positions="sinusoidal", channels=24, embedding_scale=math.sqrt(24)),
    "learned_scaled": dict(positions="learned", embedding_scale=math.sqrt(16)),
    # T < context_length: the learned table's later rows get no gradient.
    "learned_short": dict(positions="learned", length=5),
    # RoPE scaling, as transformers' rope_scaling JSON (head size 8). Dynamic NTK at T = 8 > its L0 = 4; YaRN
    # with base 100 and L0 = 64 ramps over pairs 0..3 (0, 1/3, 2/3, 1); Llama 3's L0 = 64 puts pair 0 in the
    # kept band, pair 1 in the blend and pairs 2-3 in the interpolated band.
    "rope_linear": dict(positions="rope", rope_scaling='{"rope_type":"linear","factor":4.0}'),
    "rope_ntk": dict(positions="rope", rope_scaling='{"rope_type":"ntk","factor":4.0}'),
    "rope_dynamic": dict(positions="rope", rope_scaling=json.dumps(
        {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4})),
    "rope_yarn": dict(positions="rope", rope_base=100.0, rope_scaling=json.dumps(
        {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64})),
    "rope_llama3": dict(positions="rope", rope_layout="rotate_half", rope_scaling=json.dumps(
        {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 64, "low_freq_factor": 1.0,
         "high_freq_factor": 4.0})),
    # T5's bias (T5Config's key names). T = 12 with 8 causal buckets and max_distance 8: offsets 0-3 exact, 4-6
    # log-spaced, 7-11 share the last bucket; bidirectional, 4 buckets per sign (E = 2); T5's 32/128 with 1 head;
    # 3 and 4 heads.
    "t5": dict(T5_BUCKETS(8, 8), positions="t5", length=12, context_length=12),
    "t5_bidirectional": dict(T5_BUCKETS(8, 6), positions="t5", causal=False, length=12, context_length=12),
    "t5_1_head": dict(T5_BUCKETS(32, 128), positions="t5", heads=1),
    "t5_3_heads": dict(T5_BUCKETS(6, 5), positions="t5", heads=3, channels=24, length=12, context_length=12),
    "t5_4_heads": dict(T5_BUCKETS(16, 10), positions="t5", heads=4, length=12, context_length=12),
}

BASE = dict(vocab_size=64, context_length=8, channels=16, layers=2, heads=2, rope_layout="interleaved",
            rope_base=10000.0, causal=True, embedding_scale=1.0, batch=2, length=8)
ADAMW = dict(learning_rate=1e-2, beta1=0.9, beta2=0.95, eps=1e-8, weight_decay=0.1, max_grad_norm=1.0, steps=10)


def parameter_shapes(cfg):
    c, shapes = cfg["channels"], {}
    shapes["wte.weight"] = (cfg["vocab_size"], c)
    if cfg["positions"] == "learned":
        shapes["wpe.weight"] = (cfg["context_length"], c)
    if cfg["positions"] == "t5":  # T5 keeps it in the first layer and shares it (nn.Embedding layout)
        shapes["h.0.attn.relative_attention_bias.weight"] = (cfg["relative_attention_num_buckets"], cfg["heads"])
    for i in range(cfg["layers"]):
        p = f"h.{i}."
        shapes.update({
            p + "ln_1.weight": (c,), p + "ln_1.bias": (c,),
            p + "attn.c_attn.weight": (3 * c, c), p + "attn.c_attn.bias": (3 * c,),
            p + "attn.c_proj.weight": (c, c), p + "attn.c_proj.bias": (c,),
            p + "ln_2.weight": (c,), p + "ln_2.bias": (c,),
            p + "mlp.c_fc.weight": (4 * c, c), p + "mlp.c_fc.bias": (4 * c,),
            p + "mlp.c_proj.weight": (c, 4 * c), p + "mlp.c_proj.bias": (c,),
        })
    shapes["ln_f.weight"] = (c,)
    shapes["ln_f.bias"] = (c,)
    return shapes


def init_parameters(cfg, generator):
    """GPT-2 init, then small random biases and LayerNorm parameters so every gradient path is non-trivial."""
    params = {}
    residual_std = 0.02 / math.sqrt(2 * cfg["layers"])
    for name, shape in parameter_shapes(cfg).items():
        if name.endswith("ln_1.weight") or name.endswith("ln_2.weight") or name == "ln_f.weight":
            t = 1.0 + 0.1 * torch.randn(shape, generator=generator)
        elif name.endswith(".bias"):
            t = 0.02 * torch.randn(shape, generator=generator)
        elif name.endswith("c_proj.weight"):
            t = residual_std * torch.randn(shape, generator=generator)
        else:
            t = 0.02 * torch.randn(shape, generator=generator)
        params[name] = t.float().requires_grad_(True)
    return params


def sinusoidal_table(length, dim):
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    pair = torch.arange(0, dim, 2, dtype=torch.float64)
    angle = pos / (10000.0 ** (pair / dim))
    table = torch.zeros(length, dim, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle)
    return table.float()


def alibi_slopes(heads):
    """Press et al.'s get_slopes (github.com/ofirpress/attention_with_linear_biases): for a power of two n,
    the geometric sequence 2^(-8/n), 2^(-16/n), ...; otherwise the slopes of the closest power of two below,
    then every other slope of twice that power, as many as are missing."""
    def power_of_two(n):
        start = 2.0 ** (-(2.0 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(heads).is_integer():
        return power_of_two(heads)
    closest = 2 ** math.floor(math.log2(heads))
    return power_of_two(closest) + alibi_slopes(2 * closest)[0::2][:heads - closest]


def rope_frequencies(dim, base, scaling, length):
    """(inverse frequencies in float64, attention factor) for a transformers rope_scaling dict (None: unscaled),
    from the formulas of modeling_rope_utils; 'ntk' is static NTK-aware scaling, base * factor^(d/(d-2))."""
    kind = scaling["rope_type"] if scaling else "default"
    factor = scaling.get("factor", 1.0) if scaling else 1.0
    original = scaling.get("original_max_position_embeddings") if scaling else None
    if kind == "ntk":
        base = base * factor ** (dim / (dim - 2))
    if kind == "dynamic" and length > original:
        base = base * (factor * length / original - (factor - 1)) ** (dim / (dim - 2))
    pos_freqs = base ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim)
    inv_freq = 1.0 / pos_freqs
    if kind == "linear":
        return inv_freq / factor, 1.0
    if kind == "yarn":
        attention = scaling.get("attention_factor") or (0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0)
        def correction_dim(rotations):
            return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))
        low, high = correction_dim(scaling.get("beta_fast", 32)), correction_dim(scaling.get("beta_slow", 1))
        if scaling.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = ((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0, 1)
        return inv_freq / factor * ramp + inv_freq * (1 - ramp), attention
    if kind == "llama3":
        low_wavelen = original / scaling.get("low_freq_factor", 1.0)
        high_wavelen = original / scaling.get("high_freq_factor", 4.0)
        wavelen = 2 * math.pi / inv_freq
        smooth = (original / wavelen - scaling.get("low_freq_factor", 1.0)) / (
            scaling.get("high_freq_factor", 4.0) - scaling.get("low_freq_factor", 1.0))
        blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
        scaled = torch.where(wavelen > low_wavelen, inv_freq / factor, inv_freq)
        medium = (wavelen >= high_wavelen) & (wavelen <= low_wavelen)
        return torch.where(medium, blended, scaled), 1.0
    return inv_freq, 1.0


def rope(x, cfg):
    """x: (B, H, T, hs). Rotates pairs by angle t * inv_freq_i (scaled as cfg["rope_scaling"] says); cos and sin
    times the attention factor, as transformers applies YaRN's."""
    T, hs = x.shape[2], x.shape[3]
    scaling = json.loads(cfg["rope_scaling"]) if cfg.get("rope_scaling") else None
    freq, attention = rope_frequencies(hs, cfg["rope_base"], scaling, T)
    angle = torch.arange(T, dtype=torch.float64)[:, None] * freq[None, :]
    cos, sin = (attention * torch.cos(angle)).float(), (attention * torch.sin(angle)).float()
    if cfg["rope_layout"] == "interleaved":
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1).flatten(-2)
    half = hs // 2
    x0, x1 = x[..., :half], x[..., half:]
    return torch.cat((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1)


def forward(params, ids, cfg):
    B, T = ids.shape
    C, H = cfg["channels"], cfg["heads"]
    hs = C // H
    x = params["wte.weight"][ids] * cfg["embedding_scale"]
    if cfg["positions"] == "learned":
        x = x + params["wpe.weight"][:T]
    elif cfg["positions"] == "sinusoidal":
        x = x + sinusoidal_table(T, C)
    distance = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).abs().float()
    for i in range(cfg["layers"]):
        p = lambda n: params[f"h.{i}.{n}"]
        h = F.layer_norm(x, (C,), p("ln_1.weight"), p("ln_1.bias"), eps=1e-5)
        qkv = h @ p("attn.c_attn.weight").t() + p("attn.c_attn.bias")
        q, k, v = (t.view(B, T, H, hs).transpose(1, 2) for t in qkv.split(C, dim=2))
        if cfg["positions"] == "rope":
            q, k = rope(q, cfg), rope(k, cfg)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        if cfg["positions"] == "alibi":
            slopes = torch.tensor(alibi_slopes(H), dtype=torch.float32)
            att = att - slopes[None, :, None, None] * distance
        if cfg["positions"] == "t5":  # the first layer's table, for every layer
            att = att + t5_relative_bias.bias(
                params["h.0.attn.relative_attention_bias.weight"], T, not cfg["causal"],
                cfg["relative_attention_num_buckets"], cfg["relative_attention_max_distance"])
        if cfg["causal"]:
            att = att.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        x = x + y @ p("attn.c_proj.weight").t() + p("attn.c_proj.bias")
        h = F.layer_norm(x, (C,), p("ln_2.weight"), p("ln_2.bias"), eps=1e-5)
        f = F.gelu(h @ p("mlp.c_fc.weight").t() + p("mlp.c_fc.bias"), approximate="tanh")
        x = x + f @ p("mlp.c_proj.weight").t() + p("mlp.c_proj.bias")
    x = F.layer_norm(x, (C,), params["ln_f.weight"], params["ln_f.bias"], eps=1e-5)
    return x @ params["wte.weight"].t()


def loss_of(logits, targets):
    return F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1), ignore_index=-1)


def write_safetensors(path, tensors, metadata):
    """tensors: name -> torch tensor (float32 or int32). Data in the order given, no padding."""
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        t = t.detach().contiguous()
        dtype = {torch.float32: "F32", torch.int32: "I32"}[t.dtype]
        data = t.numpy().astype("<f4" if dtype == "F32" else "<i4").tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the format aligns the data to 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def read_safetensors(path):
    """name -> torch tensor, plus the metadata dict; F32 and I32 only (what the project writes)."""
    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        dtype = {"F32": "<f4", "I32": "<i4"}[entry["dtype"]]
        raw = np.frombuffer(data[8 + length + begin:8 + length + end], dtype=dtype).reshape(entry["shape"])
        tensors[name] = torch.from_numpy(raw.copy())
    return tensors, metadata


def verify_checkpoints(directory):
    """Loads every <case>.checkpoint.safetensors the C++ tests wrote, runs its batch in PyTorch and
    compares the logits with the C++ model's. Returns the number of failures."""
    failures = 0
    for file in sorted(os.listdir(directory)):
        if not file.endswith(".checkpoint.safetensors"):
            continue
        case = file[: -len(".checkpoint.safetensors")]
        tensors, metadata = read_safetensors(os.path.join(directory, file))
        batch, _ = read_safetensors(os.path.join(directory, case + ".batch.safetensors"))
        cfg = {k: metadata[k] for k in ("positions", "rope_layout")}
        for k in ("vocab_size", "context_length", "channels", "layers", "heads"):
            cfg[k] = int(metadata[k])
        cfg["rope_base"] = float(metadata["rope_base"])
        cfg["rope_scaling"] = metadata.get("rope_scaling")  # absent: unscaled
        cfg["embedding_scale"] = float(metadata.get("embedding_scale", "1"))
        cfg["causal"] = metadata["causal"] == "true"
        if cfg["positions"] == "t5":
            for k in ("relative_attention_num_buckets", "relative_attention_max_distance"):
                cfg[k] = int(metadata[k])
        # Block matrices are stored as HF Conv1D (in, out); the forward here takes nn.Linear (out, in).
        params = {n: (t.t().contiguous() if n.startswith("h.") and t.dim() == 2 and "relative_attention_bias" not in n
                      else t)
                  for n, t in tensors.items() if not n.startswith("optimizer.")}
        expected = set(parameter_shapes(cfg))
        assert set(params) == expected, f"{case}: tensors differ: {sorted(set(params) ^ expected)}"
        with torch.no_grad():
            logits = forward(params, batch["ids"].long(), cfg)
        error = (logits - batch["logits"]).abs().max().item()
        ok = error <= 1e-5
        failures += not ok
        print(f"{case:22s} PyTorch logits from our checkpoint: max abs error {error:.2e} {'ok' if ok else 'FAIL'}")
    return failures


def make_case(name, overrides, out_dir, seed):
    cfg = dict(BASE, positions="learned")
    cfg.update(overrides)
    generator = torch.Generator().manual_seed(seed)
    params = init_parameters(cfg, generator)
    initial = {n: t.detach().clone() for n, t in params.items()}
    B, T, V = cfg["batch"], cfg["length"], cfg["vocab_size"]
    ids = torch.randint(0, V, (B, T), generator=generator)
    targets = torch.randint(0, V, (B, T), generator=generator)
    targets[1, 3] = -1  # exercises ignore_index
    logits = forward(params, ids, cfg)
    loss = loss_of(logits, targets)
    loss.backward()
    grads = {n: t.grad.detach().clone() for n, t in params.items()}

    # 10 AdamW steps from the same weights on the same batch.
    for t in params.values():
        t.grad = None
    decay = [t for t in params.values() if t.dim() >= 2]
    no_decay = [t for t in params.values() if t.dim() < 2]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": ADAMW["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0}],
        lr=ADAMW["learning_rate"], betas=(ADAMW["beta1"], ADAMW["beta2"]), eps=ADAMW["eps"])
    losses, norms = [], []
    for _ in range(ADAMW["steps"]):
        optimizer.zero_grad(set_to_none=True)
        step_loss = loss_of(forward(params, ids, cfg), targets)
        step_loss.backward()
        norms.append(float(torch.nn.utils.clip_grad_norm_(list(params.values()), ADAMW["max_grad_norm"])))
        optimizer.step()
        losses.append(step_loss.item())

    tensors = {"ids": ids.int(), "targets": targets.int(), "logits": logits, "loss": loss.reshape(1),
               "adamw_losses": torch.tensor(losses, dtype=torch.float32),
               "adamw_grad_norms": torch.tensor(norms, dtype=torch.float32)}
    for n, t in initial.items():
        tensors["param/" + n] = t
    for n, t in grads.items():
        tensors["grad/" + n] = t
    for n, t in params.items():  # after the 10th update, which the losses alone never observe
        tensors["final/" + n] = t.detach().clone()
    metadata = {k: str(v) for k, v in cfg.items()}
    metadata.update({"adamw_" + k: repr(v) for k, v in ADAMW.items()})
    metadata["torch"] = torch.__version__
    path = os.path.join(out_dir, f"gpt_{name}.safetensors")
    write_safetensors(path, tensors, metadata)
    print(f"{path}: loss {loss.item():.6f}, 10 AdamW steps end at {losses[-1]:.6f}, "
          f"{os.path.getsize(path)} bytes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "data"))
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--verify-checkpoints", metavar="DIR",
                        help="instead of writing references, check the C++ checkpoints in DIR against PyTorch")
    args = parser.parse_args()
    if args.verify_checkpoints:
        raise SystemExit(1 if verify_checkpoints(args.verify_checkpoints) else 0)
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    for i, (name, overrides) in enumerate(CASES.items()):
        make_case(name, overrides, args.out, args.seed + i)
    t5_relative_bias.write_buckets(os.path.join(args.out, "t5_buckets.safetensors"))


if __name__ == "__main__":
    main()
