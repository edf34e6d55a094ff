"""embedlab's tiny GPT as a plain PyTorch module, with the AdamW of its C++ trainer.

Reads and writes embedlab's safetensors checkpoints (the files `model.save()` makes and `lab.loadModel` reads):
weights with GPT-2 names, the config in the metadata, the optimizer's moments and step. Only torch and numpy are
needed; the safetensors format is read and written here by hand (8-byte header length, JSON header, raw data).

    model, optimizer = load_checkpoint("model.safetensors")
    logits, loss = model(ids, targets)          # ids, targets: (B, T) int64; targets -1 are ignored
    loss.backward(); optimizer.step(); optimizer.zero_grad()
    save_checkpoint("out.safetensors", model, optimizer)

The model (llm.c / nanoGPT): x = embedding_scale * wte[id] (+ wpe[t] or a sinusoid), pre-LN blocks (attention
with RoPE, ALiBi, T5 bias or nothing inside; MLP with tanh-GELU), final LayerNorm, output head tied to wte (unscaled).
"""
import json
import math
import struct
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from embedlab_rope_scaling import check_rope_scaling, rope_frequencies
from embedlab_t5_bias import check_buckets, compute_bias

POSITION_SCHEMES = ("learned", "sinusoidal", "rope", "alibi", "t5", "none")
ROPE_LAYOUTS = ("interleaved", "rotate_half")
ADAMW_KEYS = ("learning_rate", "beta1", "beta2", "eps", "weight_decay", "max_grad_norm")
ADAMW_DEFAULTS = dict(learning_rate=1e-3, beta1=0.9, beta2=0.95, eps=1e-8, weight_decay=0.1, max_grad_norm=1.0)
CONFIG_KEYS = ("vocab_size", "context_length", "channels", "layers", "heads", "positions", "rope_layout",
               "rope_base", "causal", "seed", "embedding_scale")
# Anything else in a checkpoint's metadata comes from a newer embedlab, which may compute differently:
# refuse it rather than run a different model.
T5_KEYS = ("relative_attention_num_buckets", "relative_attention_max_distance")  # T5Config's names; t5 models only
KNOWN_METADATA = {"format", "adamw_step", "rope_scaling", *CONFIG_KEYS, *T5_KEYS, *("adamw_" + k for k in ADAMW_KEYS)}
EXP_AVG, EXP_AVG_SQ = "optimizer.exp_avg.", "optimizer.exp_avg_sq."


def read_safetensors(path):
    """(name -> float32 numpy array, metadata dict of strings). Only F32 tensors, as embedlab writes them."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"{path}: not a safetensors file ({len(data)} bytes)")
    (length,) = struct.unpack("<Q", data[:8])
    if 8 + length > len(data):
        raise ValueError(f"{path}: header length {length} runs past the end of the file ({len(data)} bytes)")
    header = json.loads(data[8:8 + length])
    metadata = header.pop("__metadata__", {})
    tensors, base = {}, 8 + length
    for name, entry in header.items():
        if entry["dtype"] != "F32":
            raise ValueError(f"{path}: tensor {name} is {entry['dtype']}, embedlab checkpoints hold F32 only")
        begin, end = entry["data_offsets"]
        count = int(np.prod(entry["shape"], dtype=np.int64))
        if end - begin != 4 * count or base + end > len(data):
            raise ValueError(f"{path}: tensor {name} has bad data_offsets {entry['data_offsets']}")
        tensors[name] = np.frombuffer(data, dtype="<f4", count=count, offset=base + begin).reshape(entry["shape"])
    return tensors, metadata


def write_safetensors(path, tensors, metadata):
    """tensors: name -> float32 numpy array, written in the order given; metadata: dict of strings."""
    header, offset = {"__metadata__": metadata}, 0
    blobs = [np.ascontiguousarray(t, dtype="<f4").tobytes() for t in tensors.values()]
    for (name, t), blob in zip(tensors.items(), blobs):
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned, as the format recommends
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


@dataclass
class GPTConfig:
    vocab_size: int
    context_length: int = 32  # the learned table's length; other schemes run longer sequences
    channels: int = 32
    layers: int = 2
    heads: int = 2
    positions: str = "learned"
    rope_layout: str = "interleaved"
    rope_base: float = 10000.0
    causal: bool = True
    seed: int = 0  # the seed of the C++ model's initial weights, kept so the file says where it came from
    embedding_scale: float = 1.0  # 1 (GPT-2) or sqrt(channels) (Vaswani et al. 2017, section 3.4)
    rope_scaling: dict = None  # transformers' rope_scaling dict (embedlab_rope_scaling.py); None: unscaled
    relative_attention_num_buckets: int = 32  # positions "t5": T5Config's bucket count and max distance
    relative_attention_max_distance: int = 128

    def __post_init__(self):
        if self.positions not in POSITION_SCHEMES:
            raise ValueError(f"positions must be one of {', '.join(POSITION_SCHEMES)}, got {self.positions!r}")
        if self.rope_layout not in ROPE_LAYOUTS:
            raise ValueError(f"rope_layout must be one of {', '.join(ROPE_LAYOUTS)}, got {self.rope_layout!r}")
        if self.channels % self.heads:
            raise ValueError(f"channels ({self.channels}) must be a multiple of heads ({self.heads})")
        if self.positions == "rope" and (self.channels // self.heads) % 2:
            raise ValueError("RoPE rotates pairs, so channels / heads must be even")
        if self.positions == "sinusoidal" and self.channels % 2:
            raise ValueError(f"the sinusoidal encoding needs an even channels, got {self.channels}")
        if not 0 < self.embedding_scale <= 1024:
            raise ValueError(f"embedding_scale must be in (0, 1024], got {self.embedding_scale}")
        if self.rope_scaling is not None:
            if self.positions != "rope":
                raise ValueError(f"rope_scaling needs positions 'rope', got {self.positions!r}")
            check_rope_scaling(self.rope_scaling)
        if self.positions == "t5":
            check_buckets(self.relative_attention_num_buckets, self.relative_attention_max_distance, not self.causal)

    @classmethod
    def from_metadata(cls, metadata):
        unknown = sorted(set(metadata) - KNOWN_METADATA)
        if unknown:
            raise ValueError(f"checkpoint metadata {unknown} is not known to this embedlab_gpt.py (a newer "
                             "embedlab wrote it); export again with `npx embedlab export-torch`")
        if metadata.get("format", "embedlab-gpt") != "embedlab-gpt":
            raise ValueError(f"checkpoint format must be embedlab-gpt, got {metadata['format']!r}")
        missing = [k for k in CONFIG_KEYS if k not in metadata and k not in ("seed", "embedding_scale")]
        if missing:
            raise ValueError(f"checkpoint metadata lacks {missing}")
        m = metadata
        if m["causal"] not in ("true", "True", "1", "false", "False", "0"):
            raise ValueError(f"checkpoint metadata causal must be true or false, got {m['causal']!r}")
        return cls(vocab_size=int(m["vocab_size"]), context_length=int(m["context_length"]),
                   channels=int(m["channels"]), layers=int(m["layers"]), heads=int(m["heads"]),
                   positions=m["positions"], rope_layout=m["rope_layout"], rope_base=float(m["rope_base"]),
                   causal=m["causal"] in ("true", "True", "1"), seed=int(m.get("seed", "0")),
                   embedding_scale=float(m.get("embedding_scale", "1")),
                   rope_scaling=json.loads(m["rope_scaling"]) if "rope_scaling" in m else None,
                   **{k: int(m[k]) for k in T5_KEYS if m["positions"] == "t5"})

    def to_metadata(self):
        m = {"format": "embedlab-gpt"}
        for key in CONFIG_KEYS:
            value = getattr(self, key)
            if isinstance(value, bool):
                m[key] = "true" if value else "false"
            else:
                m[key] = value if isinstance(value, str) else repr(value)
        if self.rope_scaling is not None:  # absent when unscaled, as the C++ model writes it
            m["rope_scaling"] = json.dumps(self.rope_scaling, separators=(",", ":"), sort_keys=True)
        if self.positions == "t5":  # absent for other schemes, as the C++ model writes it
            m.update({k: str(getattr(self, k)) for k in T5_KEYS})
        return m


def alibi_slopes(heads):
    """Press et al.'s get_slopes: 2^(-8h/H) for H a power of two; otherwise those of the largest power of two
    n < H, then every other slope of 2n for the remaining heads."""
    def power_of_two(n):
        return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]
    n = 2 ** int(math.floor(math.log2(heads)))
    return power_of_two(n) + power_of_two(2 * n)[0::2][:heads - n]


def sinusoidal_table(length, channels):
    """PE(t, 2i) = sin(t / 10000^(2i/C)), PE(t, 2i+1) = cos(...); angles in double, as the C++ forms them."""
    position = torch.arange(length, dtype=torch.float64)[:, None]
    angle = position * torch.exp(-(torch.arange(0, channels, 2, dtype=torch.float64) / channels) * math.log(1e4))
    table = torch.empty(length, channels, dtype=torch.float64)
    table[:, 0::2], table[:, 1::2] = torch.sin(angle), torch.cos(angle)
    return table.float()


def rotate(x, config):
    """RoPE on x (B, H, T, hs): pairs rotated by t * inv_freq_i (base^(-2i/hs), scaled by config.rope_scaling);
    angles in double, then float; cos and sin times the scaling's attention factor (YaRN; else 1)."""
    T, hs = x.shape[2], x.shape[3]
    frequency, attention = rope_frequencies(hs, config.rope_base, config.rope_scaling, T)
    angle = torch.arange(T, dtype=torch.float64)[:, None] * frequency[None, :]
    cos = (attention * torch.cos(angle)).float().to(x.device)
    sin = (attention * torch.sin(angle)).float().to(x.device)
    if config.rope_layout == "interleaved":  # pairs (x0, x1), (x2, x3), ...
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1).flatten(-2)
    x0, x1 = x[..., :hs // 2], x[..., hs // 2:]  # pairs (x_i, x_{i + hs/2}), as LLaMA in HF transformers
    return torch.cat((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1)


class CausalSelfAttention(nn.Module):
    def __init__(self, config, first=False):
        super().__init__()
        self.config = config
        self.c_attn = nn.Linear(config.channels, 3 * config.channels)
        self.c_proj = nn.Linear(config.channels, config.channels)
        if config.positions == "alibi":
            self.register_buffer("slopes", torch.tensor(alibi_slopes(config.heads)), persistent=False)
        if config.positions == "t5" and first:  # T5: the first layer holds the table, every layer adds it
            self.relative_attention_bias = nn.Embedding(config.relative_attention_num_buckets, config.heads)

    def forward(self, x, position_bias=None):
        B, T, C = x.shape
        H = self.config.heads
        q, k, v = (t.view(B, T, H, C // H).transpose(1, 2) for t in self.c_attn(x).split(C, dim=2))
        if self.config.positions == "rope":
            q, k = rotate(q, self.config), rotate(k, self.config)
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // H))
        if self.config.positions == "alibi":  # score(i, j) -= m_h |i - j| (only j <= i survive a causal mask)
            position = torch.arange(T, device=x.device)
            distance = (position[:, None] - position[None, :]).abs().float()
            scores = scores - self.slopes[None, :, None, None] * distance
        if position_bias is not None:  # T5: (1, H, T, T), added to the scaled scores
            scores = scores + position_bias
        if self.config.causal:
            future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
            scores = scores.masked_fill(future, float("-inf"))
        y = (F.softmax(scores, dim=-1) @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.channels, 4 * config.channels)
        self.c_proj = nn.Linear(4 * config.channels, config.channels)

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate="tanh"))


class Block(nn.Module):
    def __init__(self, config, first=False):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.channels, eps=1e-5)
        self.attn = CausalSelfAttention(config, first)
        self.ln_2 = nn.LayerNorm(config.channels, eps=1e-5)
        self.mlp = MLP(config)

    def forward(self, x, position_bias=None):
        x = x + self.attn(self.ln_1(x), position_bias)
        return x + self.mlp(self.ln_2(x))


class EmbedlabGPT(nn.Module):
    """The tiny GPT. Parameter names are the checkpoint's (wte.weight, h.0.attn.c_attn.weight, ...); the block
    matrices are nn.Linear (out, in) here and Conv1D (in, out) in the file, as in Hugging Face's GPT-2."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        C = config.channels
        self.wte = nn.Embedding(config.vocab_size, C)
        if config.positions == "learned":
            self.wpe = nn.Embedding(config.context_length, C)
        self.h = nn.ModuleList(Block(config, first=i == 0) for i in range(config.layers))
        self.ln_f = nn.LayerNorm(C, eps=1e-5)
        self._init_gpt2()

    def _init_gpt2(self):
        """GPT-2's init (N(0, 0.02), the residual projections scaled by 1/sqrt(2L)), for a model made here
        rather than loaded; torch's generator, so not the same numbers as the C++ model's seed."""
        for name, p in self.named_parameters():
            if p.dim() < 2 and name.endswith("weight"):  # LayerNorm gains
                nn.init.ones_(p)
            elif p.dim() < 2:
                nn.init.zeros_(p)
            else:
                residual = name.endswith("c_proj.weight")
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * self.config.layers) if residual else 0.02)

    def forward(self, ids, targets=None):
        """ids (B, T) int64 -> logits (B, T, vocab_size), and the mean cross-entropy over the targets that are
        not -1 (None without targets)."""
        B, T = ids.shape
        if self.config.positions == "learned" and T > self.config.context_length:
            raise ValueError(f"length must be in [1, {self.config.context_length}] (learned positions end at "
                             f"context_length), got {T}")
        x = self.config.embedding_scale * self.wte(ids)
        if self.config.positions == "learned":
            x = x + self.wpe.weight[:T]
        elif self.config.positions == "sinusoidal":
            x = x + sinusoidal_table(T, self.config.channels).to(x.device)
        position_bias = compute_bias(self.h[0].attn, T, self.config)  # T5: the first layer's, for every layer
        for block in self.h:
            x = block(x, position_bias)
        logits = self.ln_f(x) @ self.wte.weight.t()  # tied head: wte itself, no bias, no embedding_scale
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1), ignore_index=-1)


class AdamW:
    """The C++ trainer's AdamW: torch.optim.AdamW's update with bias correction, decoupled weight decay on 2-D
    tensors only (matrices, wte, wpe), global-norm clipping as clip_grad_norm_ (per-tensor sums of squares in
    double), and a refused step when a gradient is NaN or infinite. Scalars are rounded to float32 where the
    C++ keeps them in float, so both sides take the same steps. State per parameter name, as in checkpoints."""

    def __init__(self, model, step=0, **options):
        unknown = set(options) - set(ADAMW_KEYS)
        if unknown:
            raise TypeError(f"unknown AdamW options {sorted(unknown)}; allowed: {', '.join(ADAMW_KEYS)}")
        self.options = {k: float(np.float32(options.get(k, ADAMW_DEFAULTS[k]))) for k in ADAMW_KEYS}
        self.parameters = dict(model.named_parameters())
        self.exp_avg = {n: torch.zeros_like(p) for n, p in self.parameters.items()}
        self.exp_avg_sq = {n: torch.zeros_like(p) for n, p in self.parameters.items()}
        self.step_count = step

    def zero_grad(self):
        for p in self.parameters.values():
            p.grad = None

    @torch.no_grad()
    def step(self):
        """Clips, updates every parameter and returns the gradient norm before clipping."""
        o, f32 = self.options, np.float32
        squares = 0.0
        for name, p in self.parameters.items():
            tensor_squares = float(p.grad.double().square().sum()) if p.grad is not None else 0.0
            if not math.isfinite(tensor_squares):
                raise FloatingPointError(f"training step {self.step_count + 1}: the gradient of {name} holds NaN "
                                         f"or Inf; no update was made")
            squares += tensor_squares
        norm = f32(math.sqrt(squares))
        if not np.isfinite(norm):
            raise FloatingPointError(f"training step {self.step_count + 1}: the gradient norm overflows float")
        clip = f32(o["max_grad_norm"]) / (norm + f32(1e-6)) if o["max_grad_norm"] > 0 else f32(1)
        self.step_count += 1
        beta1_power, beta2_power = 1.0, 1.0
        for _ in range(self.step_count):  # repeated products in double, as the C++ (not pow)
            beta1_power *= o["beta1"]
            beta2_power *= o["beta2"]
        lr, beta1, beta2 = f32(o["learning_rate"]), f32(o["beta1"]), f32(o["beta2"])
        step_size = float(lr / f32(1.0 - beta1_power))
        correction2_sqrt = float(np.sqrt(f32(1.0 - beta2_power)))
        for name, p in self.parameters.items():
            g = p.grad if p.grad is not None else torch.zeros_like(p)
            if clip < 1:
                g = g * float(clip)
            decay = float(f32(1) - lr * f32(o["weight_decay"])) if p.dim() >= 2 else 1.0
            m, v = self.exp_avg[name], self.exp_avg_sq[name]
            m.mul_(float(beta1)).add_(g, alpha=float(f32(1) - beta1))
            v.mul_(float(beta2)).addcmul_(g, g, value=float(f32(1) - beta2))
            p.mul_(decay).addcdiv_(m, v.sqrt().div_(correction2_sqrt).add_(o["eps"]), value=-step_size)
        return float(norm)

    def set_learning_rate(self, learning_rate):
        if not 0 <= learning_rate <= 10:
            raise ValueError(f"learning_rate must be in [0, 10], got {learning_rate}")
        self.options["learning_rate"] = float(np.float32(learning_rate))


def _is_conv1d(name, shape):
    """Block matrices are stored as HF Conv1D (in, out); nn.Linear holds (out, in). T5's table is an nn.Embedding."""
    return name.startswith("h.") and len(shape) == 2 and "relative_attention_bias" not in name


def load_checkpoint(path, device="cpu"):
    """(EmbedlabGPT, AdamW) from an embedlab checkpoint; without optimizer state in the file, a fresh AdamW with
    the C++ defaults at step 0."""
    tensors, metadata = read_safetensors(path)
    model = EmbedlabGPT(GPTConfig.from_metadata(metadata))

    def tensor(prefix, name, shape):
        if prefix + name not in tensors:
            raise ValueError(f"{path}: checkpoint lacks tensor {prefix + name}")
        value = tensors[prefix + name].T if _is_conv1d(name, shape) else tensors[prefix + name]
        if tuple(value.shape) != tuple(shape):
            raise ValueError(f"{path}: tensor {prefix + name} has shape {list(value.shape)}, the model needs "
                             f"{list(shape)}")
        return torch.from_numpy(np.array(value, dtype=np.float32))  # a writable, contiguous copy

    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(tensor("", name, p.shape))
    model.to(device)
    if "adamw_step" not in metadata:
        return model, AdamW(model)
    options = {k: float(metadata["adamw_" + k]) for k in ADAMW_KEYS}
    optimizer = AdamW(model, step=int(metadata["adamw_step"]), **options)
    for name, p in model.named_parameters():
        optimizer.exp_avg[name].copy_(tensor(EXP_AVG, name, p.shape))
        optimizer.exp_avg_sq[name].copy_(tensor(EXP_AVG_SQ, name, p.shape))
    return model, optimizer


def save_checkpoint(path, model, optimizer=None):
    """Writes the layout `lab.loadModel` reads: weights, and with an optimizer its settings, step and moments."""
    model = getattr(model, "module", model)  # a DistributedDataParallel wrapper saves its module
    metadata = model.config.to_metadata()

    def layout(name, t):
        a = t.detach().cpu().numpy()
        return a.T if _is_conv1d(name, a.shape) else a

    tensors = {n: layout(n, p) for n, p in model.named_parameters()}
    if optimizer is not None:
        for k in ADAMW_KEYS:  # "%.9g" of the float, the text the C++ writes
            metadata["adamw_" + k] = format(optimizer.options[k], ".9g")
        metadata["adamw_step"] = str(optimizer.step_count)
        for n in optimizer.parameters:
            tensors[EXP_AVG + n] = layout(n, optimizer.exp_avg[n])
            tensors[EXP_AVG_SQ + n] = layout(n, optimizer.exp_avg_sq[n])
    write_safetensors(path, tensors, metadata)
