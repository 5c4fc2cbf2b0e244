"""Trains the demo VLM on procedurally generated scenes (seeded, CPU, one
thread) in one run with one warm-up and one cosine decay, and writes the
weights plus everything the GGUF exporter needs."""
import argparse
import math
import os
import struct
import time

import numpy as np
import torch
import torch.nn.functional as F

import data
import model as M
import scenes


class PatchProbe(torch.nn.Module):
    """Training-only auxiliary head (not exported): from each image embedding
    the LLM receives, predict which quadrant the patch lies in, the colour
    and shape of the object covering most of the patch and whether a shape's
    centre lies in it (one mark per object, for counting). Dense labels teach the
    vision tower to see, and to tag every embedding with its place, so the LLM
    can find "the red circle" or "the top left" by content."""

    def __init__(self, cfg):
        super().__init__()
        side = cfg.image_size // cfg.patch_size
        quad = [(r * 2 // side) * 2 + (c * 2 // side) for r in range(side) for c in range(side)]
        self.register_buffer("quad", torch.tensor(quad))
        self.where = torch.nn.Linear(cfg.d_model, 4)
        self.color = torch.nn.Linear(cfg.d_model, len(scenes.COLOR_NAMES) + 1)
        self.shape = torch.nn.Linear(cfg.d_model, len(scenes.SHAPES) + 1)
        self.centre = torch.nn.Linear(cfg.d_model, 2)

    def forward(self, img_embd, labels):
        b, n, _ = img_embd.shape
        col, shp, ctr = labels[:, 0], labels[:, 1], labels[:, 2]   # [B, n]
        wq = self.quad.expand(b, n)
        pc, ps, pw = self.color(img_embd), self.shape(img_embd), self.where(img_embd)
        loss = (F.cross_entropy(pc.reshape(b * n, -1), col.reshape(-1)) +
                F.cross_entropy(ps.reshape(b * n, -1), shp.reshape(-1)) +
                F.cross_entropy(pw.reshape(b * n, -1), wq.reshape(-1)) +
                F.cross_entropy(self.centre(img_embd).reshape(b * n, -1), ctr.reshape(-1)))
        acc = (pc.argmax(-1) == col) & (ps.argmax(-1) == shp) & (pw.argmax(-1) == wq)
        return loss, acc.float().mean().item()


class WordProbe(torch.nn.Module):
    """Training-only auxiliary head (not exported): from the hidden state
    after an early decoder layer at the last colour/shape word of a question,
    predict the quadrant of the object that matches the question's words
    (or that none does), how many do, that object's colour and shape, and
    how many of each shape the picture holds. It asks the early layers to do
    the search a conjunction question needs ("the red circle": colour AND
    shape bound to one object; "the star": its colour, not another
    object's) where the words are, so the later layers only read the result
    out."""

    def __init__(self, cfg):
        super().__init__()
        self.quad = torch.nn.Linear(cfg.d_model, 5)
        self.count = torch.nn.Linear(cfg.d_model, 7)
        self.color = torch.nn.Linear(cfg.d_model, len(scenes.COLOR_NAMES) + 1)
        self.shape = torch.nn.Linear(cfg.d_model, len(scenes.SHAPES) + 1)
        self.inventory = torch.nn.Linear(cfg.d_model, 7 * len(scenes.SHAPES))

    def forward(self, hidden, words):
        h = F.layer_norm(hidden[words[:, 0], words[:, 1]], hidden.shape[-1:])
        pq, pc, pcol, pshp = self.quad(h), self.count(h), self.color(h), self.shape(h)
        inv = self.inventory(h).reshape(-1, 7)
        loss = (F.cross_entropy(pq, words[:, 2], ignore_index=-100) + F.cross_entropy(pc, words[:, 3]) +
                F.cross_entropy(pcol, words[:, 4], ignore_index=-100) +
                F.cross_entropy(pshp, words[:, 5], ignore_index=-100) +
                F.cross_entropy(inv, words[:, 6:].reshape(-1)))
        ok = ((words[:, 2] == -100) | (pq.argmax(-1) == words[:, 2])) & \
             ((words[:, 4] == -100) | (pcol.argmax(-1) == words[:, 4])) & \
             ((words[:, 5] == -100) | (pshp.argmax(-1) == words[:, 5]))
        return loss, (ok & (pc.argmax(-1) == words[:, 3])).float().mean().item()


def regrid(state, cfg):
    """A checkpoint with a coarser patch grid (patch size k * cfg.patch_size)
    made to fit cfg: each new patch embeds what the old kernel saw when the
    patch is blown up k times (the kernel's k x k pixel blocks summed), and
    each old position embedding covers its k x k new patches. Warm starts a
    finer grid with the old tower's features instead of random ones."""
    w = state["vision.patch.weight"]
    k = w.shape[-1] // cfg.patch_size
    if k <= 1 or w.shape[-1] != k * cfg.patch_size:
        return state
    state = dict(state)
    o, c, s, _ = w.shape
    state["vision.patch.weight"] = w.reshape(o, c, s // k, k, s // k, k).sum((3, 5))
    pos = state["vision.pos"]
    side = int(round((pos.shape[0] - 1) ** 0.5))
    grid = pos[1:].reshape(side, side, -1).repeat_interleave(k, 0).repeat_interleave(k, 1)
    state["vision.pos"] = torch.cat([pos[:1], grid.reshape(side * side * k * k, -1)])
    return state


def one_question(sc, rng):
    """One question of a uniformly drawn type (as the held-out sets are
    balanced over types; training draws weighted by scenes.TRAIN_WEIGHT)."""
    qa = scenes.questions(sc, rng)
    types = [t for t in scenes.QTYPES if qa[t] and t != "describe"]
    t = types[int(rng.integers(len(types)))]
    return [(t,) + scenes.pick(t, qa[t], rng)]


def evaluate(net, tok, cfg, n=256, seed=999):
    """Teacher-forced exact match of single-turn answers on fresh scenes: an
    answer counts when every answer token (and <|im_end|>) is the argmax."""
    rng = np.random.default_rng(seed)
    net.eval()
    ok = tot = 0
    per = {}
    with torch.no_grad():
        for start in range(0, n, 64):
            b = min(64, n - start)
            pix, ids, img, labels = [], [], [], []
            qtypes = []
            for _ in range(b):
                sc = scenes.make_scene(rng)
                qa = one_question(sc, rng)
                qtypes.append(qa[0][0])
                s, m, g = data.conversation(tok, qa, rng, cfg.n_patches)
                pix.append(scenes.render_model_resized(sc))
                ids.append(s), img.append(m), labels.append(g)
            t = max(len(s) for s in ids)
            I = torch.zeros(b, t, dtype=torch.long)
            Mk = torch.zeros(b, t, dtype=torch.bool)
            for i in range(b):
                I[i, :len(ids[i])] = torch.tensor(ids[i])
                Mk[i, :len(ids[i])] = torch.tensor(img[i])
            logits = net(I, Mk, M.normalise(np.stack(pix)))
            pred = logits.argmax(-1)
            for i in range(b):
                g = labels[i]
                good = all(pred[i, j - 1].item() == ids[i][j] for j in range(1, len(g)) if g[j])
                ok += good
                tot += 1
                c = per.setdefault(qtypes[i], [0, 0])
                c[0] += good
                c[1] += 1
    net.train()
    return ok / tot, {k: "%d/%d" % tuple(v) for k, v in sorted(per.items())}


# ---------------------------------------------------------------- export

def write_export(path_dir, net, tok, cfg):
    """weights.bin (raw float32 tensors) + manifest.txt for export_gguf.c.
    Manifest lines: `tensor <file> <name> <type> <ndim> <ne0..> <offset>` with
    ne in GGUF order (ne0 = row length) and `kv <file> <type> <key> <value>`
    (strings hex-encoded; arrays as `arr_str`/`arr_i32`/`arr_f32` with n then items)."""
    os.makedirs(path_dir, exist_ok=True)
    lines = []
    blob = open(os.path.join(path_dir, "weights.bin"), "wb")
    off = 0

    def tensor(file, name, t, gtype):
        nonlocal off
        a = t.detach().float().contiguous().numpy()
        ne = list(reversed(a.shape))
        lines.append("tensor %s %s %s %d %s %d" % (file, name, gtype, len(ne), " ".join(map(str, ne)), off))
        blob.write(a.astype("<f4").tobytes())
        off += a.size * 4

    def hx(s):
        return s.encode("utf-8").hex() or "-"

    def kv(file, typ, key, val):
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
        lines.append("kv %s %s %s %s" % (file, typ, key, v))

    hd = cfg.d_model // cfg.n_heads
    L = "llm"
    kv(L, "str", "general.architecture", "llama")
    kv(L, "str", "general.name", "seer demo VLM")
    kv(L, "u32", "general.file_type", 1)
    kv(L, "u32", "llama.block_count", cfg.n_layers)
    kv(L, "u32", "llama.context_length", cfg.n_ctx)
    kv(L, "u32", "llama.embedding_length", cfg.d_model)
    kv(L, "u32", "llama.feed_forward_length", cfg.d_ff)
    kv(L, "u32", "llama.attention.head_count", cfg.n_heads)
    kv(L, "u32", "llama.attention.head_count_kv", cfg.n_kv_heads)
    kv(L, "f32", "llama.rope.freq_base", cfg.rope_base)
    kv(L, "f32", "llama.attention.layer_norm_rms_epsilon", cfg.rms_eps)
    kv(L, "u32", "llama.vocab_size", tok.n_vocab)
    kv(L, "u32", "llama.rope.dimension_count", hd)
    kv(L, "str", "tokenizer.ggml.model", "gpt2")
    kv(L, "str", "tokenizer.ggml.pre", "gpt-2")
    kv(L, "arr_str", "tokenizer.ggml.tokens", tok.tokens)
    kv(L, "arr_i32", "tokenizer.ggml.token_type",
       [3 if t in tok.special_ids else 1 for t in tok.tokens])
    kv(L, "arr_str", "tokenizer.ggml.merges", ["%s %s" % m for m in tok.merges])
    kv(L, "u32", "tokenizer.ggml.bos_token_id", tok.special_ids["<|endoftext|>"])
    kv(L, "u32", "tokenizer.ggml.eos_token_id", tok.special_ids["<|im_end|>"])
    kv(L, "u32", "tokenizer.ggml.padding_token_id", tok.special_ids["<|endoftext|>"])
    kv(L, "bool", "tokenizer.ggml.add_bos_token", False)
    kv(L, "str", "tokenizer.chat_template", __import__("chatfmt").CHAT_TEMPLATE)

    tensor(L, "token_embd.weight", net.embed.weight, "f16")
    for i, l in enumerate(net.layers):
        p = "blk.%d." % i
        tensor(L, p + "attn_norm.weight", l.attn_norm.weight, "f32")
        tensor(L, p + "attn_q.weight", l.wq.weight, "f16")
        tensor(L, p + "attn_k.weight", l.wk.weight, "f16")
        tensor(L, p + "attn_v.weight", l.wv.weight, "f16")
        tensor(L, p + "attn_output.weight", l.wo.weight, "f16")
        tensor(L, p + "ffn_norm.weight", l.ffn_norm.weight, "f32")
        tensor(L, p + "ffn_gate.weight", l.gate.weight, "f16")
        tensor(L, p + "ffn_up.weight", l.up.weight, "f16")
        tensor(L, p + "ffn_down.weight", l.down.weight, "f16")
    tensor(L, "output_norm.weight", net.norm.weight, "f32")
    tensor(L, "output.weight", net.output.weight, "f16")

    V = "mmproj"
    v = net.vision
    kv(V, "str", "general.architecture", "clip")
    kv(V, "str", "general.name", "seer demo VLM vision tower")
    kv(V, "str", "general.description", "image encoder for the seer demo VLM (LLaVA-1.5 layout)")
    kv(V, "u32", "general.file_type", 1)
    kv(V, "bool", "clip.has_text_encoder", False)
    kv(V, "bool", "clip.has_vision_encoder", True)
    kv(V, "bool", "clip.has_llava_projector", True)
    kv(V, "str", "clip.projector_type", "mlp")
    kv(V, "u32", "clip.vision.image_size", cfg.image_size)
    kv(V, "u32", "clip.vision.patch_size", cfg.patch_size)
    kv(V, "u32", "clip.vision.embedding_length", cfg.v_width)
    kv(V, "u32", "clip.vision.feed_forward_length", cfg.v_ff)
    kv(V, "u32", "clip.vision.projection_dim", cfg.d_model)
    kv(V, "u32", "clip.vision.attention.head_count", cfg.v_heads)
    kv(V, "f32", "clip.vision.attention.layer_norm_epsilon", cfg.v_eps)
    kv(V, "u32", "clip.vision.block_count", cfg.v_blocks)
    kv(V, "arr_f32", "clip.vision.image_mean", list(M.CLIP_MEAN))
    kv(V, "arr_f32", "clip.vision.image_std", list(M.CLIP_STD))
    kv(V, "bool", "clip.use_gelu", False)
    tensor(V, "mm.0.weight", v.mm0.weight, "f16")
    tensor(V, "mm.0.bias", v.mm0.bias, "f32")
    tensor(V, "mm.2.weight", v.mm2.weight, "f16")
    tensor(V, "mm.2.bias", v.mm2.bias, "f32")
    tensor(V, "v.class_embd", v.cls, "f32")
    tensor(V, "v.patch_embd.weight", v.patch.weight, "f16")
    tensor(V, "v.position_embd.weight", v.pos, "f16")
    tensor(V, "v.pre_ln.weight", v.pre_ln.weight, "f32")
    tensor(V, "v.pre_ln.bias", v.pre_ln.bias, "f32")
    for i, b in enumerate(v.blocks):
        p = "v.blk.%d." % i
        for gname, lin in (("attn_q", b.q), ("attn_k", b.k), ("attn_v", b.v), ("attn_out", b.o),
                           ("ffn_down", b.fc1), ("ffn_up", b.fc2)):
            tensor(V, p + gname + ".weight", lin.weight, "f16")
            tensor(V, p + gname + ".bias", lin.bias, "f32")
        for gname, ln in (("ln1", b.ln1), ("ln2", b.ln2)):
            tensor(V, p + gname + ".weight", ln.weight, "f32")
            tensor(V, p + gname + ".bias", ln.bias, "f32")
    blob.close()
    with open(os.path.join(path_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="build/demo-model")
    ap.add_argument("--steps", type=int, default=9000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--eval-every", type=int, default=1000)
    ap.add_argument("--aux-weight", type=float, default=0.5)
    ap.add_argument("--word-weight", type=float, default=0.5)
    ap.add_argument("--word-layer", type=int, default=1, help="decoder layer the word probe reads")
    ap.add_argument("--layers", type=int, default=0, help="pilots: decoder layers (0 = model.Config)")
    ap.add_argument("--heads", type=int, default=0, help="pilots: query heads, KV heads = half")
    ap.add_argument("--patch", type=int, default=0, help="pilots: vision patch size (0 = model.Config)")
    ap.add_argument("--width", type=int, default=0, help="pilots: vision and LLM width (0 = model.Config)")
    ap.add_argument("--init", default="", help="start from this checkpoint (model.pt)")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--probe-warmup", type=int, default=0,
                    help="steps that train only the (fresh) probe heads before training starts")
    ap.add_argument("--minutes", type=float, default=0,
                    help="a time budget instead of a step count: the cosine follows the elapsed "
                         "fraction of it and training stops when it is used up; the learning rate "
                         "of every step goes to OUT/lr.txt")
    ap.add_argument("--lr-file", default="",
                    help="replay the learning rates of a --minutes run (its lr.txt, one per step): "
                         "the same steps with the same data give the same weights")
    # Six turns per conversation: six answers per image and little padding.
    ap.add_argument("--min-turns", type=int, default=6)
    ap.add_argument("--max-turns", type=int, default=6)
    ap.add_argument("--bench", type=int, default=0, help="time this many steps and exit")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    tok = data.build_tokenizer()
    over = {}
    if args.layers:
        over["n_layers"] = args.layers
    if args.heads:
        over.update(n_heads=args.heads, n_kv_heads=args.heads // 2)
    if args.patch:
        over["patch_size"] = args.patch
    if args.width:
        over.update(v_width=args.width, d_model=args.width, v_ff=3 * args.width, d_ff=3 * args.width)
    cfg = M.Config(n_vocab=tok.n_vocab, **over)
    net = M.DemoVLM(cfg)
    probe = PatchProbe(cfg)
    word_probe = WordProbe(cfg)
    if args.init:
        # tensors whose shape still fits (a pilot may change the patch grid)
        own = net.state_dict()
        got = {k: v for k, v in regrid(torch.load(args.init), cfg).items()
               if k in own and own[k].shape == v.shape}
        net.load_state_dict(got, strict=False)
        if len(got) != len(own):
            print("warm start: %d of %d tensors (new: %s)" % (len(got), len(own),
                  " ".join(k for k in own if k not in got)), flush=True)
    n_params = sum(p.numel() for p in net.parameters())
    print("vocab %d, params %.2fM" % (tok.n_vocab, n_params / 1e6), flush=True)

    params = list(net.named_parameters()) + list(probe.named_parameters()) + \
        list(word_probe.named_parameters())
    decay = [p for n, p in params if p.dim() >= 2]
    no_decay = [p for n, p in params if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05},
                             {"params": no_decay, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.98))
    warm = args.warmup
    total = args.bench or args.steps

    t0 = time.time()

    def progress(step):
        if args.minutes:
            return (time.time() - t0) / (60 * args.minutes)
        return (step - warm) / max(1, total - warm)

    replay = [float(x) for x in open(args.lr_file).read().split()] if args.lr_file else None
    if replay:
        total = len(replay)

    def lr_at(step):
        if replay:
            return replay[step]
        if step < warm:
            return args.lr * (step + 1) / warm
        p = min(1.0, progress(step))
        return args.lr * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * p)))

    if args.probe_warmup:
        # Fresh probe heads on trained weights: their first gradients are
        # noise that would shake the network, so they learn alone first.
        popt = torch.optim.AdamW(list(probe.parameters()) + list(word_probe.parameters()), lr=1e-3)
        for step in range(args.probe_warmup):
            rng = np.random.default_rng([args.seed, 10 ** 6 + step])
            pix, ids, img, labels, quad, words = data.make_batch(tok, rng, args.batch, cfg.n_patches,
                                                                 turns=(args.min_turns, args.max_turns))
            with torch.no_grad():
                px = M.normalise(pix)
                img_embd = net.vision(px)
                at = torch.from_numpy(labels) != -100
                _, hidden = net(torch.from_numpy(ids), torch.from_numpy(img), px, img_embd=img_embd,
                                at=at, keep=args.word_layer)
            aux_loss, aux_acc = probe(img_embd, torch.from_numpy(quad))
            word_loss, word_acc = word_probe(hidden, torch.from_numpy(words))
            popt.zero_grad()
            (aux_loss + word_loss).backward()
            popt.step()
            if step % 50 == 0 or step == args.probe_warmup - 1:
                print("probe warm-up %d aux %.4f probe acc %.3f word acc %.3f"
                      % (step, aux_loss.item(), aux_acc, word_acc), flush=True)
        t0 = time.time()

    avg = None
    step = 0
    lrs = []
    # every step's learning rate as it goes: a checkpoint saved at step N
    # is replayed by the first N + 1 lines
    os.makedirs(args.out, exist_ok=True)
    lr_log = open(os.path.join(args.out, "lr.txt"), "w")
    for step in range(total if not args.minutes else 10 ** 9):
        if args.minutes and progress(step) >= 1:
            break
        rng = np.random.default_rng([args.seed, step])
        pix, ids, img, labels, quad, words = data.make_batch(tok, rng, args.batch, cfg.n_patches,
                                                      turns=(args.min_turns, args.max_turns))
        lrs.append(lr_at(step))
        lr_log.write("%r\n" % lrs[-1])
        lr_log.flush()
        for g in opt.param_groups:
            g["lr"] = lrs[-1]
        px = M.normalise(pix)
        img_embd = net.vision(px)
        labels = torch.from_numpy(labels)
        at = labels != -100
        logits, hidden = net(torch.from_numpy(ids), torch.from_numpy(img), px, img_embd=img_embd,
                             at=at, keep=args.word_layer)
        lm_loss = F.cross_entropy(logits, labels[at])
        aux_loss, aux_acc = probe(img_embd, torch.from_numpy(quad))
        word_loss, word_acc = word_probe(hidden, torch.from_numpy(words))
        loss = lm_loss + args.aux_weight * aux_loss + args.word_weight * word_loss
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        cur = (lm_loss.item(), aux_loss.item(), aux_acc, word_acc)
        avg = cur if avg is None else tuple(0.95 * a + 0.05 * c for a, c in zip(avg, cur))
        if step % 50 == 0:
            print("step %d lm %.4f aux %.4f probe acc %.3f word acc %.3f lr %.2e  %.1fs"
                  % ((step,) + avg + (lr_at(step), time.time() - t0)), flush=True)
        if args.eval_every and step > 0 and step % args.eval_every == 0 and not args.bench:
            acc, per = evaluate(net, tok, cfg)
            print("  eval acc %.3f %s" % (acc, per), flush=True)
            os.makedirs(args.out, exist_ok=True)
            torch.save(net.state_dict(), os.path.join(args.out, "model.pt"))
            torch.save(net.state_dict(), os.path.join(args.out, "model-%d.pt" % step))
    elapsed = time.time() - t0
    if args.bench:
        print("%.3f s/step" % (elapsed / total))
        return
    acc, per = evaluate(net, tok, cfg, n=512)
    print("final teacher-forced acc %.3f %s" % (acc, per), flush=True)
    print("training time %.1f min, %d steps" % (elapsed / 60, len(lrs)), flush=True)
    os.makedirs(args.out, exist_ok=True)
    torch.save(net.state_dict(), os.path.join(args.out, "model.pt"))
    lr_log.close()
    write_export(args.out, net, tok, cfg)
    print("wrote %s" % args.out)


if __name__ == "__main__":
    main()
