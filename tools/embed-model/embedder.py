"""The search demo's embedding model in PyTorch, computing what seer computes
for a Qwen2.5-VL GGUF pair (qwen2vl LLM + qwen2.5vl_merger mmproj) in
`seer embed`:
- vision: 14 px patches in 2x2 merge-cell order, no patch bias, RMSNorm
  pre-norm blocks with q/k/v/out biases, 2-D RoPE (NEOX pairs; the first
  half of the pairs the patch row, the second the column), SiLU-gated MLP
  with biases, no window attention (n_wa_pattern 0), RMSNorm post_ln, the
  merger mm.0 -> GELU(tanh) -> mm.2 over each cell's 4 rows;
- LLM: Qwen2 blocks (RMSNorm, q/k/v biases, GQA, SwiGLU) with M-RoPE
  (sections in pairs, NEOX rotation), causal by token index;
- pooling: mean of the final-norm rows (all rows of a text, <|vision_start|>
  .. <|vision_end|> of an image), L2-normalised; multi-vectors: mv_proj on
  every row, each row L2-normalised."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

import prompts  # noqa: F401  (puts tools/demo-model on the path)
from model import CLIP_MEAN, CLIP_STD, RMSNorm, normalise  # noqa: E402,F401  (the demo model's)


class Config:
    image_side = 112          # the scenes' pixels: a multiple of 28, so smart_resize keeps it
    patch = 14
    v_width = 96
    v_heads = 4
    v_ff = 256
    v_blocks = 3
    eps = 1e-6
    n_vocab = 0               # set from the tokenizer
    d_model = 128
    n_layers = 3
    n_heads = 4
    n_kv_heads = 2
    d_ff = 384
    rope_base = 10000.0
    sections = (4, 6, 6, 0)   # M-RoPE sections in pairs of the 32-wide heads
    mv_dim = 32

    def __init__(self, **kw):
        for k, v in kw.items():
            assert hasattr(self, k), k
            setattr(self, k, v)


def rope_neox(x, cos, sin):
    """x [..., T, d]; cos/sin [T, d/2]: pairs (i, i + d/2)."""
    h = x.shape[-1] // 2
    a, b = x[..., :h], x[..., h:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)


def cell_order(gw, gh):
    """(row, col) of every patch in the merger's order: 2x2 cells row-major,
    the 4 patches of a cell row-major."""
    out = []
    for cy in range(gh // 2):
        for cx in range(gw // 2):
            for dy in range(2):
                for dx in range(2):
                    out.append((2 * cy + dy, 2 * cx + dx))
    return out


def vision_rope(order, d, base):
    q = d // 4
    rows = torch.tensor([r for r, _ in order], dtype=torch.float64)
    cols = torch.tensor([c for _, c in order], dtype=torch.float64)
    inv = base ** (-4.0 * torch.arange(q, dtype=torch.float64) / d)
    ang = torch.cat([rows[:, None] * inv, cols[:, None] * inv], dim=1)        # [n, d/2]
    return torch.cos(ang).float(), torch.sin(ang).float()


class VisionBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        w = c.v_width
        self.ln1, self.ln2 = RMSNorm(w, c.eps), RMSNorm(w, c.eps)
        self.q, self.k, self.v, self.o = (nn.Linear(w, w) for _ in range(4))
        self.gate, self.up = nn.Linear(w, c.v_ff), nn.Linear(w, c.v_ff)
        self.down = nn.Linear(c.v_ff, w)
        self.heads = c.v_heads

    def forward(self, x, cos, sin):
        b, n, w = x.shape
        hd = w // self.heads
        h = self.ln1(x)
        q, k, v = (lin(h).view(b, n, self.heads, hd).transpose(1, 2) for lin in (self.q, self.k, self.v))
        q, k = rope_neox(q, cos, sin), rope_neox(k, cos, sin)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(hd), dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(b, n, w))
        h = self.ln2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Vision(nn.Module):
    """Normalised pixels [B, 3, S, S] -> merged image rows [B, (S/28)^2, d_model], raster order."""

    def __init__(self, c):
        super().__init__()
        w = c.v_width
        self.c = c
        self.patch = nn.Conv2d(3, w, c.patch, c.patch, bias=False)   # both temporal kernels summed
        self.blocks = nn.ModuleList(VisionBlock(c) for _ in range(c.v_blocks))
        self.post_ln = RMSNorm(w, c.eps)
        self.mm0 = nn.Linear(4 * w, 4 * w)
        self.mm2 = nn.Linear(4 * w, c.d_model)
        g = c.image_side // c.patch
        order = cell_order(g, g)
        self.register_buffer("gather", torch.tensor([r * g + col for r, col in order]), persistent=False)
        cos, sin = vision_rope(order, w // c.v_heads, 10000.0)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def forward(self, px):
        x = self.patch(px).flatten(2).transpose(1, 2)[:, self.gather]  # [B, n, w] in cell order
        for blk in self.blocks:
            x = blk(x, self.cos, self.sin)
        x = self.post_ln(x)
        b, n, w = x.shape
        x = x.reshape(b, n // 4, 4 * w)
        return self.mm2(F.gelu(self.mm0(x), approximate="tanh"))


class DecoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, hd = c.d_model, c.d_model // c.n_heads
        self.attn_norm, self.ffn_norm = RMSNorm(d, c.eps), RMSNorm(d, c.eps)
        self.wq = nn.Linear(d, c.n_heads * hd)
        self.wk = nn.Linear(d, c.n_kv_heads * hd)
        self.wv = nn.Linear(d, c.n_kv_heads * hd)
        self.wo = nn.Linear(c.n_heads * hd, d, bias=False)
        self.gate = nn.Linear(d, c.d_ff, bias=False)
        self.up = nn.Linear(d, c.d_ff, bias=False)
        self.down = nn.Linear(c.d_ff, d, bias=False)
        self.c = c

    def forward(self, x, cos, sin, mask):
        c = self.c
        b, t, d = x.shape
        hd = d // c.n_heads
        h = self.attn_norm(x)
        q = rope_neox(self.wq(h).view(b, t, c.n_heads, hd).transpose(1, 2), cos, sin) * (1.0 / math.sqrt(hd))
        k = rope_neox(self.wk(h).view(b, t, c.n_kv_heads, hd).transpose(1, 2), cos, sin)
        v = self.wv(h).view(b, t, c.n_kv_heads, hd).transpose(1, 2)
        rep = c.n_heads // c.n_kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        att = torch.softmax(q @ k.transpose(-1, -2) + mask, dim=-1)
        x = x + self.wo((att @ v).transpose(1, 2).reshape(b, t, d))
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def mrope_angles(pos3, c):
    """pos3 [B, T, 3] (t, row, col) -> cos, sin [B, 1, T, hd/2]: pair i takes
    the section's position and the frequency base^(-2i/hd)."""
    hd = c.d_model // c.n_heads
    sec = []
    for s, n in enumerate(c.sections):
        sec += [min(s, 2)] * n
    sec = torch.tensor(sec[:hd // 2])
    inv = c.rope_base ** (-2.0 * torch.arange(hd // 2, dtype=torch.float64) / hd)
    p = pos3.double()[..., sec]                                 # [B, T, hd/2]
    ang = p * inv
    return torch.cos(ang).float().unsqueeze(1), torch.sin(ang).float().unsqueeze(1)


class EmbedVLM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.vision = Vision(c)
        self.embed = nn.Embedding(c.n_vocab, c.d_model)
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.d_model, c.eps)
        self.mv_proj = nn.Linear(c.d_model, c.mv_dim)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
            if getattr(m, "bias", None) is not None:
                nn.init.zeros_(m.bias)

    def hidden(self, ids, pos3, img_mask=None, pixels=None):
        """ids [B, T] right-padded, pos3 [B, T, 3] -> final-norm rows [B, T, d]."""
        x = self.embed(ids)
        if pixels is not None:
            img = self.vision(pixels)
            x = x.masked_scatter(img_mask.unsqueeze(-1), img.reshape(-1).to(x.dtype))
        t = ids.shape[1]
        mask = torch.full((t, t), float("-inf")).triu(1)
        cos, sin = mrope_angles(pos3, self.c)
        for layer in self.layers:
            x = layer(x, cos, sin, mask)
        return self.norm(x)

    def embed_batch(self, batch):
        """batch from Prompts.*_batch -> (single [B, d], multi [B, T, mv], row mask [B, T])."""
        h = self.hidden(batch["ids"], batch["pos"], batch.get("img_mask"), batch.get("pixels"))
        pool = batch["pool"].unsqueeze(-1).float()
        single = F.normalize((h * pool).sum(1) / pool.sum(1), dim=-1)
        multi = F.normalize(self.mv_proj(h), dim=-1)
        return single, multi, batch["valid"]
