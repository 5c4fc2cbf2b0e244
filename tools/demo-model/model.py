"""The demo VLM in PyTorch, computing exactly what seer computes for a
LLaVA-1.5-layout GGUF pair: a CLIP-style ViT (class token first, pre-LN, all
blocks, quick-GELU, no post-LN), the mm.0 -> GELU(tanh) -> mm.2 projector,
and a LLaMA decoder (RMSNorm, RoPE in GGML's "normal" mode: adjacent pairs,
GQA, SwiGLU, untied output)."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)


class Config:
    # vision tower
    image_size = 64
    patch_size = 8
    v_width = 128
    v_heads = 4
    v_ff = 384
    v_blocks = 3
    v_eps = 1e-5
    # language model
    n_vocab = 0          # set from the tokenizer
    d_model = 128
    n_layers = 3
    n_heads = 4
    n_kv_heads = 2
    d_ff = 384
    rms_eps = 1e-5
    rope_base = 10000.0
    n_ctx = 2048

    def __init__(self, **kw):
        for k, v in kw.items():
            assert hasattr(self, k), k
            setattr(self, k, v)

    @property
    def n_patches(self):
        return (self.image_size // self.patch_size) ** 2


def quick_gelu(x):
    return x * torch.sigmoid(1.702 * x)


class VisionBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        w = c.v_width
        self.ln1 = nn.LayerNorm(w, eps=c.v_eps)
        self.q = nn.Linear(w, w)
        self.k = nn.Linear(w, w)
        self.v = nn.Linear(w, w)
        self.o = nn.Linear(w, w)
        self.ln2 = nn.LayerNorm(w, eps=c.v_eps)
        self.fc1 = nn.Linear(w, c.v_ff)   # GGUF "ffn_down" (legacy converter's swapped name)
        self.fc2 = nn.Linear(c.v_ff, w)   # GGUF "ffn_up"
        self.heads = c.v_heads

    def forward(self, x):
        b, n, w = x.shape
        h = self.ln1(x)
        hd = w // self.heads
        q = self.q(h).view(b, n, self.heads, hd).transpose(1, 2)
        k = self.k(h).view(b, n, self.heads, hd).transpose(1, 2)
        v = self.v(h).view(b, n, self.heads, hd).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(hd), dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(b, n, w))
        return x + self.fc2(quick_gelu(self.fc1(self.ln2(x))))


class Vision(nn.Module):
    """Pixels [B, 3, S, S] (already normalised) -> image embeddings [B, n_patches, d_model]."""

    def __init__(self, c):
        super().__init__()
        w = c.v_width
        self.patch = nn.Conv2d(3, w, c.patch_size, c.patch_size, bias=False)
        self.cls = nn.Parameter(torch.randn(w) * 0.02)
        self.pos = nn.Parameter(torch.randn(c.n_patches + 1, w) * 0.02)
        self.pre_ln = nn.LayerNorm(w, eps=c.v_eps)
        self.blocks = nn.ModuleList(VisionBlock(c) for _ in range(c.v_blocks))
        self.mm0 = nn.Linear(w, c.d_model)
        self.mm2 = nn.Linear(c.d_model, c.d_model)

    def forward(self, px):
        x = self.patch(px).flatten(2).transpose(1, 2)          # [B, n, w], patches row-major
        cls = self.cls.expand(x.shape[0], 1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos                # class token first, row 0
        x = self.pre_ln(x)
        for blk in self.blocks:
            x = blk(x)
        x = x[:, 1:]                                             # patch rows to the projector
        return self.mm2(F.gelu(self.mm0(x), approximate="tanh"))


class RMSNorm(nn.Module):
    def __init__(self, d, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_normal(x, pos, base):
    """GGML 'normal' RoPE: pairs (2i, 2i+1) rotate by pos * base^(-2i/d). x [B, H, T, d]."""
    d = x.shape[-1]
    inv = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    ang = pos.float()[:, None] * inv[None, :]                   # [T, d/2]
    cos, sin = torch.cos(ang), torch.sin(ang)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1)
    return out.flatten(-2)


class DecoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        d, hd = c.d_model, c.d_model // c.n_heads
        self.attn_norm = RMSNorm(d, c.rms_eps)
        self.wq = nn.Linear(d, c.n_heads * hd, bias=False)
        self.wk = nn.Linear(d, c.n_kv_heads * hd, bias=False)
        self.wv = nn.Linear(d, c.n_kv_heads * hd, bias=False)
        self.wo = nn.Linear(c.n_heads * hd, d, bias=False)
        self.ffn_norm = RMSNorm(d, c.rms_eps)
        self.gate = nn.Linear(d, c.d_ff, bias=False)
        self.up = nn.Linear(d, c.d_ff, bias=False)
        self.down = nn.Linear(c.d_ff, d, bias=False)
        self.c = c

    def forward(self, x, pos, mask):
        c = self.c
        b, t, d = x.shape
        hd = d // c.n_heads
        h = self.attn_norm(x)
        # scaling q (not the T x T scores) by 1/sqrt(hd): same function, cheaper
        q = rope_normal(self.wq(h).view(b, t, c.n_heads, hd).transpose(1, 2), pos, c.rope_base) \
            * (1.0 / math.sqrt(hd))
        k = rope_normal(self.wk(h).view(b, t, c.n_kv_heads, hd).transpose(1, 2), pos, c.rope_base)
        v = self.wv(h).view(b, t, c.n_kv_heads, hd).transpose(1, 2)
        rep = c.n_heads // c.n_kv_heads                          # head h reads kv head h // rep
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        att = q @ k.transpose(-1, -2) + mask
        att = torch.softmax(att, dim=-1)
        x = x + self.wo((att @ v).transpose(1, 2).reshape(b, t, d))
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class DemoVLM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.vision = Vision(c)
        self.embed = nn.Embedding(c.n_vocab, c.d_model)
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.d_model, c.rms_eps)
        self.output = nn.Linear(c.d_model, c.n_vocab, bias=False)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
            if getattr(m, "bias", None) is not None:
                nn.init.zeros_(m.bias)

    def forward(self, ids, img_mask, pixels, img_embd=None, at=None, keep=None):
        """ids [B, T] (image slots hold any id), img_mask [B, T] bool with
        n_patches True per row, pixels [B, 3, S, S] normalised -> logits [B, T, V].
        With `at` (bool [B, T]) only those positions' logits [N, V]: training
        needs the answer positions only, and the output layer is not cheap.
        With `keep` = k, also returns the hidden states after layer k."""
        x = self.embed(ids)
        img = self.vision(pixels) if img_embd is None else img_embd   # [B, n, d]
        x = x.masked_scatter(img_mask.unsqueeze(-1), img.reshape(-1).to(x.dtype))
        t = ids.shape[1]
        pos = torch.arange(t)
        mask = torch.full((t, t), float("-inf")).triu(1)
        kept = None
        for i, layer in enumerate(self.layers):
            x = layer(x, pos, mask)
            if i == keep:
                kept = x
        if at is not None:
            x = x[at]
        logits = self.output(self.norm(x))
        return logits if keep is None else (logits, kept)


def normalise(pixels_u8):
    """uint8 [B, S, S, 3] -> float [B, 3, S, S] with CLIP mean/std (as seer does)."""
    x = torch.as_tensor(np.ascontiguousarray(pixels_u8)).permute(0, 3, 1, 2).float() / 255.0
    mean = torch.tensor(CLIP_MEAN).view(1, 3, 1, 1)
    std = torch.tensor(CLIP_STD).view(1, 3, 1, 1)
    return (x - mean) / std
