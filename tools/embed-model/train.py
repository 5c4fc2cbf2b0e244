"""Trains the search demo's embedding model (model.py) contrastively on the
demo's scenes: each batch pairs scene images with descriptions of them
("Query: A red circle and a blue square."), and a symmetric InfoNCE loss over
the single vectors (cosine) plus one over the multi-vectors (MaxSim, per
query token) pulls each pair together and the batch's other pairs apart.
Seeded, CPU, one thread, a time budget (the cosine decay follows the elapsed
time). Writes model.pt and the export (manifest.txt + weights.bin) for
tools/demo-model/export_gguf, which writes the GGUF pair; the multi-vector
projector goes to a third file (mv_proj.gguf) through the same tool."""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

import embedder as M
import prompts as P


class ScenePool:
    """Rendered scenes, a few replaced by fresh ones every step: rendering
    costs ten times a training step, and a fixed set would be memorised."""

    def __init__(self, rng, n):
        self.rng = rng
        self.scenes = [P.make_scene(rng) for _ in range(n)]
        self.pixels = np.stack([P.render(s) for s in self.scenes])

    def refresh(self, k):
        for i in self.rng.choice(len(self.scenes), size=k, replace=False):
            self.scenes[i] = P.make_scene(self.rng)
            self.pixels[i] = P.render(self.scenes[i])

    def batch(self, b):
        idx = self.rng.choice(len(self.scenes), size=b, replace=False)
        return [self.scenes[i] for i in idx], self.pixels[idx]


def maxsim(q, q_valid, d, d_valid):
    """q [A, Tq, m], d [B, Td, m] -> [A, B]: sum over query rows of the best dot with a document row."""
    s = torch.einsum("atm,bsm->abts", q, d)
    s = s.masked_fill(~d_valid[None, :, None, :], -1e4).amax(-1)      # [A, B, Tq]
    return (s * q_valid[:, None, :].float()).sum(-1)


def losses(net, prompts, scenes_, pixels, texts, tau=0.05, tau_mv=0.1):
    img = net.embed_batch(prompts.image_batch(M.normalise(pixels)))
    txt = net.embed_batch(prompts.text_batch(texts))
    target = torch.arange(len(texts))
    sim = txt[0] @ img[0].T / tau
    single = (F.cross_entropy(sim, target) + F.cross_entropy(sim.T, target)) / 2
    ms = maxsim(txt[1], txt[2], img[1], img[2]) / txt[2].sum(1, keepdim=True).float() / tau_mv
    multi = (F.cross_entropy(ms, target) + F.cross_entropy(ms.T, target)) / 2
    return single, multi, (sim.argmax(1) == target).float().mean().item()


def recall_at_1(net, prompts, seed, n=64, multi=False):
    """Canonical descriptions of n fresh scenes against their images, by
    cosine or by MaxSim over all of them (PyTorch's own figure)."""
    rng = np.random.default_rng(seed)
    sc = [P.make_scene(rng) for _ in range(n)]
    with torch.no_grad():
        img = net.embed_batch(prompts.image_batch(M.normalise(np.stack([P.render(s) for s in sc]))))
        txt = net.embed_batch(prompts.text_batch([P.describe(s) for s in sc]))
    score = maxsim(txt[1], txt[2], img[1], img[2]) if multi else txt[0] @ img[0].T
    return (score.argmax(1) == torch.arange(n)).float().mean().item()


class Manifest:
    """manifest.txt + weights.bin as tools/demo-model/export_gguf.c reads them."""

    def __init__(self, path_dir):
        os.makedirs(path_dir, exist_ok=True)
        self.dir = path_dir
        self.lines = []
        self.blob = open(os.path.join(path_dir, "weights.bin"), "wb")
        self.off = 0

    def tensor(self, file, name, t, gtype="f32"):
        a = t.detach().float().contiguous().numpy()
        ne = list(reversed(a.shape))
        self.lines.append("tensor %s %s %s %d %s %d" % (file, name, gtype, len(ne), " ".join(map(str, ne)), self.off))
        self.blob.write(a.astype("<f4").tobytes())
        self.off += a.size * 4

    def kv(self, file, typ, key, val):
        hx = lambda s: s.encode("utf-8").hex() or "-"  # noqa: E731
        if typ == "str":
            v = hx(val)
        elif typ == "arr_str":
            v = "%d %s" % (len(val), " ".join(hx(x) for x in val))
        elif typ in ("arr_i32", "arr_f32"):
            v = "%d %s" % (len(val), " ".join(repr(x) for x in val))
        elif typ == "bool":
            v = "1" if val else "0"
        else:
            v = repr(val)
        self.lines.append("kv %s %s %s %s" % (file, typ, key, v))

    def close(self):
        self.blob.close()
        with open(os.path.join(self.dir, "manifest.txt"), "w") as f:
            f.write("\n".join(self.lines) + "\n")


NAME = "seer search demo embedder"


def write_export(out, net, prompts):
    c = net.c
    m = Manifest(os.path.join(out, "export"))
    L, V = "llm", "mmproj"
    a = "qwen2vl"
    for k, t, v in (("general.architecture", "str", a), ("general.name", "str", NAME),
                    ("general.file_type", "u32", 1),
                    (a + ".block_count", "u32", c.n_layers), (a + ".context_length", "u32", 4096),
                    (a + ".embedding_length", "u32", c.d_model), (a + ".feed_forward_length", "u32", c.d_ff),
                    (a + ".attention.head_count", "u32", c.n_heads),
                    (a + ".attention.head_count_kv", "u32", c.n_kv_heads),
                    (a + ".rope.dimension_sections", "arr_i32", list(c.sections)),
                    (a + ".rope.freq_base", "f32", c.rope_base),
                    (a + ".attention.layer_norm_rms_epsilon", "f32", c.eps),
                    ("tokenizer.ggml.model", "str", "gpt2"), ("tokenizer.ggml.pre", "str", "gpt-2"),
                    ("tokenizer.ggml.tokens", "arr_str", prompts.tokens),
                    ("tokenizer.ggml.token_type", "arr_i32",
                     [3 if t in prompts.special else 1 for t in prompts.tokens]),
                    ("tokenizer.ggml.merges", "arr_str", ["%s %s" % mm for mm in prompts.tok.merges]),
                    ("tokenizer.ggml.bos_token_id", "u32", prompts.special["<|endoftext|>"]),
                    ("tokenizer.ggml.eos_token_id", "u32", prompts.special["<|im_end|>"]),
                    ("tokenizer.ggml.padding_token_id", "u32", prompts.special["<|endoftext|>"]),
                    ("tokenizer.ggml.add_bos_token", "bool", False)):
        m.kv(L, t, k, v)
    m.tensor(L, "token_embd.weight", net.embed.weight, "f16")
    for i, l in enumerate(net.layers):
        p = "blk.%d." % i
        m.tensor(L, p + "attn_norm.weight", l.attn_norm.weight)
        for g, lin in (("attn_q", l.wq), ("attn_k", l.wk), ("attn_v", l.wv)):
            m.tensor(L, p + g + ".weight", lin.weight, "f16")
            m.tensor(L, p + g + ".bias", lin.bias)
        m.tensor(L, p + "attn_output.weight", l.wo.weight, "f16")
        m.tensor(L, p + "ffn_norm.weight", l.ffn_norm.weight)
        for g, lin in (("ffn_gate", l.gate), ("ffn_up", l.up), ("ffn_down", l.down)):
            m.tensor(L, p + g + ".weight", lin.weight, "f16")
    m.tensor(L, "output_norm.weight", net.norm.weight)
    m.tensor(L, "output.weight", net.embed.weight, "f16")   # unused by embeddings; chat needs a head

    v = net.vision
    for k, t, val in (("general.architecture", "str", "clip"), ("general.name", "str", NAME + " vision"),
                      ("general.file_type", "u32", 1), ("clip.has_vision_encoder", "bool", True),
                      ("clip.projector_type", "str", "qwen2.5vl_merger"), ("clip.use_silu", "bool", True),
                      ("clip.vision.projection_dim", "u32", c.d_model),
                      ("clip.vision.image_size", "u32", 560), ("clip.vision.patch_size", "u32", c.patch),
                      ("clip.vision.embedding_length", "u32", c.v_width),
                      ("clip.vision.feed_forward_length", "u32", c.v_ff),
                      ("clip.vision.block_count", "u32", c.v_blocks),
                      ("clip.vision.attention.head_count", "u32", c.v_heads),
                      ("clip.vision.attention.layer_norm_epsilon", "f32", c.eps),
                      ("clip.vision.n_wa_pattern", "u32", 0),
                      ("clip.vision.image_mean", "arr_f32", list(M.CLIP_MEAN)),
                      ("clip.vision.image_std", "arr_f32", list(M.CLIP_STD))):
        m.kv(V, t, k, val)
    half = v.patch.weight / 2                                   # the two temporal kernels sum to the 2-D one
    m.tensor(V, "v.patch_embd.weight", half, "f16")
    m.tensor(V, "v.patch_embd.weight.1", v.patch.weight - half.half().float(), "f16")
    for i, b in enumerate(v.blocks):
        p = "v.blk.%d." % i
        m.tensor(V, p + "ln1.weight", b.ln1.weight)
        m.tensor(V, p + "ln2.weight", b.ln2.weight)
        for g, lin in (("attn_q", b.q), ("attn_k", b.k), ("attn_v", b.v), ("attn_out", b.o),
                       ("ffn_gate", b.gate), ("ffn_up", b.up), ("ffn_down", b.down)):
            m.tensor(V, p + g + ".weight", lin.weight, "f16")
            m.tensor(V, p + g + ".bias", lin.bias)
    m.tensor(V, "v.post_ln.weight", v.post_ln.weight)
    for g, lin in (("mm.0", v.mm0), ("mm.2", v.mm2)):
        m.tensor(V, g + ".weight", lin.weight, "f16")
        m.tensor(V, g + ".bias", lin.bias)
    m.close()

    mv = Manifest(os.path.join(out, "export-mv"))
    mv.kv(L, "str", "general.architecture", "mv_proj")
    mv.kv(L, "str", "general.name", NAME + " multi-vector projector")
    mv.tensor(L, "mv_proj.weight", net.mv_proj.weight)
    mv.tensor(L, "mv_proj.bias", net.mv_proj.bias)
    mv.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--steps", type=int, default=0, help="stop after this many steps (0: the time budget)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--pool", type=int, default=3000)
    ap.add_argument("--eval-seed", type=int, default=4242)
    ap.add_argument("--export-only", action="store_true", help="write the export of OUT/model.pt, no training")
    ap.add_argument("--init", help="start from this model.pt (a second stage)")
    ap.add_argument("--mv-weight", type=float, default=1.0, help="weight of the multi-vector (MaxSim) loss")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    prompts = P.Prompts()
    net = M.EmbedVLM(M.Config(n_vocab=prompts.n_vocab))
    if a.init:
        net.load_state_dict(torch.load(a.init))
    if a.export_only:
        net.load_state_dict(torch.load(os.path.join(a.out, "model.pt")))
        net.eval()
        print("held-out recall@1 (64 scenes): %.3f single, %.3f multi" %
              (recall_at_1(net, prompts, a.eval_seed), recall_at_1(net, prompts, a.eval_seed, multi=True)))
        write_export(a.out, net, prompts)
        return
    print("parameters: %.2f M" % (sum(p.numel() for p in net.parameters()) / 1e6), flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=0.01)
    pool = ScenePool(rng, a.pool)
    t0 = time.time()
    budget = a.minutes * 60
    step = 0
    while True:
        frac = (time.time() - t0) / budget
        if (a.steps and step >= a.steps) or (not a.steps and frac >= 1):
            break
        if a.steps:
            frac = step / a.steps
        lr = a.lr * min(1.0, (step + 1) / a.warmup) * 0.5 * (1 + np.cos(np.pi * min(frac, 1.0)))
        for g in opt.param_groups:
            g["lr"] = lr
        sc, px = pool.batch(a.batch)
        texts = [P.describe_variant(s, rng) for s in sc]
        single, multi, acc = losses(net, prompts, sc, px, texts)
        opt.zero_grad()
        (single + a.mv_weight * multi).backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        pool.refresh(4)
        if step % 50 == 0:
            print("step %d %.1f min lr %.2e loss %.3f + %.3f batch acc %.2f" %
                  (step, (time.time() - t0) / 60, lr, single.item(), multi.item(), acc), flush=True)
        if step % 500 == 0 and step:
            net.eval()
            print("  held-out recall@1 (64 scenes): %.3f single, %.3f multi" %
                  (recall_at_1(net, prompts, a.eval_seed), recall_at_1(net, prompts, a.eval_seed, multi=True)),
                  flush=True)
            net.train()
            torch.save(net.state_dict(), os.path.join(a.out, "model.pt"))
        step += 1
    net.eval()
    print("done: %d steps, %.1f min, held-out recall@1 (64 scenes) %.3f single, %.3f multi" %
          (step, (time.time() - t0) / 60, recall_at_1(net, prompts, a.eval_seed),
           recall_at_1(net, prompts, a.eval_seed, multi=True)), flush=True)
    torch.save(net.state_dict(), os.path.join(a.out, "model.pt"))
    write_export(a.out, net, prompts)


if __name__ == "__main__":
    main()
