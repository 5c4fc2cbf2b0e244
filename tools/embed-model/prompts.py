"""Scenes, their descriptions and the two prompt kinds of `seer embed`,
tokenised and positioned as seer does it:
- text: "Query: " + text, no template, positions 0..n-1 on every axis;
- image: <|im_start|>user\\n<|vision_start|> + one <|image_pad|> per merged
  cell + <|vision_end|>Describe the image.<|im_end|>\\n; the image rows take
  M-RoPE (P, P + row, P + col) and the text after them continues at
  P + max(nx, ny) (Qwen2.5-VL's get_rope_index).
The scenes are the demo model's (tools/demo-model/scenes.py), first layout:
1-4 large filled shapes, one per quadrant."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "demo-model"))
import data as demo_data  # noqa: E402  (the demo model's frozen vocabulary)
import scenes  # noqa: E402

VISION_SPECIALS = ["<|vision_start|>", "<|vision_end|>", "<|image_pad|>"]
IMAGE_SCALE = 112 / scenes.CANVAS


class Prompts:
    def __init__(self, cell_grid=4):
        self.tok = demo_data.build_tokenizer()
        base = self.tok.n_vocab
        self.tokens = self.tok.tokens + VISION_SPECIALS
        self.special = dict(self.tok.special_ids, **{s: base + i for i, s in enumerate(VISION_SPECIALS)})
        self.grid = cell_grid
        n = cell_grid * cell_grid
        pre = [self.special["<|im_start|>"]] + self.tok.encode("user\n") + [self.special["<|vision_start|>"]]
        post = ([self.special["<|vision_end|>"]] + self.tok.encode("Describe the image.") +
                [self.special["<|im_end|>"]] + self.tok.encode("\n"))
        self.image_ids = pre + [self.special["<|image_pad|>"]] * n + post
        p = len(pre)
        pos = [(i, i, i) for i in range(p)]
        pos += [(p, p + k // cell_grid, p + k % cell_grid) for k in range(n)]
        after = p + cell_grid
        pos += [(after + i,) * 3 for i in range(len(post))]
        self.image_pos = pos
        self.image_pool = [p - 1 <= i <= p + n for i in range(len(self.image_ids))]

    @property
    def n_vocab(self):
        return len(self.tokens)

    def text_ids(self, text):
        return self.tok.encode("Query: " + text, parse_special=False)

    def text_batch(self, texts):
        import torch  # only training needs it: the scene tools run without
        ids = [self.text_ids(t) for t in texts]
        t = max(len(s) for s in ids)
        I = torch.zeros(len(ids), t, dtype=torch.long)
        valid = torch.zeros(len(ids), t, dtype=torch.bool)
        for i, s in enumerate(ids):
            I[i, :len(s)] = torch.tensor(s)
            valid[i, :len(s)] = True
        pos = torch.arange(t).view(1, t, 1).expand(len(ids), t, 3)
        return dict(ids=I, pos=pos, pool=valid, valid=valid)

    def image_batch(self, pixels):
        """pixels: normalised [B, 3, S, S]."""
        import torch
        b = pixels.shape[0]
        ids = torch.tensor(self.image_ids).expand(b, -1).clone()
        ids[ids == self.special["<|image_pad|>"]] = 0           # the rows are replaced by the image
        img_mask = torch.tensor(self.image_ids).eq(self.special["<|image_pad|>"]).expand(b, -1)
        pos = torch.tensor(self.image_pos).expand(b, -1, -1)
        pool = torch.tensor(self.image_pool).expand(b, -1)
        valid = torch.ones_like(pool)
        return dict(ids=ids, pos=pos, pool=pool, valid=valid, img_mask=img_mask, pixels=pixels)


def make_scene(rng):
    return scenes._classic_scene(rng)


def render(scene):
    """The scene as a 112x112 uint8 image (what the PNG holds and seer reads)."""
    return scenes.render(scene, IMAGE_SCALE)


def describe(scene):
    """The canonical description the held-out queries use: "A red circle and a blue square."."""
    return scenes.describe(scene)


def describe_variant(scene, rng):
    """A training description: the canonical one, or the objects in another
    order, lower case, with or without articles and places."""
    objs = scenes.reading_order(scene)
    if rng.random() < 0.4:
        return describe(scene)
    if rng.random() < 0.5:
        objs = [objs[i] for i in rng.permutation(len(objs))]
    where = rng.random() < 0.3
    parts = []
    for o in objs:
        p = "%s %s" % (o["color"], o["shape"])
        if rng.random() < 0.7:
            p = ("an " if p[0] in "aeiou" else "a ") + p
        if where:
            p += " at the " + o["quadrant"]
        parts.append(p)
    s = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return s if rng.random() < 0.5 else s[0].upper() + s[1:] + "."
