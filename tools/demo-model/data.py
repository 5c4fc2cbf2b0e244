"""Training and evaluation examples: a scene, its 64x64 pixels and a ChatML
conversation about it, tokenised exactly as seer tokenises the prompt."""
import os
import re

import numpy as np

import bpe
import chatfmt
import scenes

PLACEHOLDER_ID = 0   # any id: the embedding at image slots is replaced


MERGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "merges.txt")


def build_tokenizer():
    """The frozen vocabulary (merges.txt, the bundled model's merges as
    import_gguf.py reads them): byte-level BPE encodes any new wording
    ("colour", "There is no"), and a fixed vocabulary lets training start
    from the bundled weights."""
    with open(MERGES, encoding="utf-8") as f:
        return bpe.Tokenizer([tuple(line.rstrip("\n").split(" ")) for line in f if line.rstrip("\n")])


SINGULAR = {p: s for s, p in scenes.PLURAL.items()}


def word_target(scene, question):
    """Where the training-only word probe looks in a question, and what it
    should know there: the character end of the last colour or shape word
    (else of "shapes" / "objects": all objects match),
    the quadrant of the one object that matches every colour/shape word
    (4 = none matches, -100 = several), how many objects match, that one
    object's colour and shape (len(COLOR_NAMES) / len(SHAPES) = none
    matches, -100 = several: "What color is the star?" answers another
    object's colour when the words are not bound to the right object) and
    how many of each shape the picture holds."""
    color = shape = None
    end = -1
    for m in re.finditer(r"[a-z]+", question):
        w = m.group(0)
        if w in scenes.COLORS:
            color, end = w, m.end()
        elif w in scenes.SHAPES or w in SINGULAR:
            shape, end = SINGULAR.get(w, w), m.end()
    if end < 0:
        # "How many shapes are there?": every object matches
        words = list(re.finditer(r"\b(shapes|objects)\b", question))
        if not words:
            return None
        end = words[-1].end()
    match = [o for o in scene["objects"]
             if (color is None or o["color"] == color) and (shape is None or o["shape"] == shape)]

    def one(index, none):
        return index(match[0]) if len(match) == 1 else (none if not match else -100)

    quad = one(lambda o: scenes.QUADRANTS.index(o["quadrant"]), 4)
    col = one(lambda o: scenes.COLOR_NAMES.index(o["color"]), len(scenes.COLOR_NAMES))
    shp = one(lambda o: scenes.SHAPES.index(o["shape"]), len(scenes.SHAPES))
    shapes = [o["shape"] for o in scene["objects"]]
    return (end, quad, len(match), col, shp) + tuple(min(6, shapes.count(s)) for s in scenes.SHAPES)


def conversation(tok, qas, rng, n_patches, image_last=False, system=False, scene=None):
    """ids, image mask, loss mask for one conversation about one image.
    The image sits at the start of the first user turn (or at its end).
    With `scene`, also the word-probe targets: [(position, quadrant, count,
    colour, shape, count of each shape)] at the last colour/shape word of
    each question (positions in the ids
    with the image rows inserted)."""
    msgs = [("system", chatfmt.SYSTEM_PROMPT)] if system else []
    ids, target = [], []
    probes = []
    img_at = -1
    for turn, (_, q, a) in enumerate(qas):
        if turn == 0:
            content = q + chatfmt.MARKER if image_last else chatfmt.MARKER + q
        else:
            content = q
        prompt = chatfmt.render(msgs + [("user", content)], add_generation_prompt=True)
        # only the new part of the rendered conversation (what a session prefills)
        prev = chatfmt.render(msgs, add_generation_prompt=False)
        assert prompt.startswith(prev)
        new_text = prompt[len(prev):]
        wt = word_target(scene, q) if scene is not None else None
        if wt is not None:
            # the question's text up to the end of the word tokenises to a
            # prefix of the turn's tokens (the word ends a pre-token)
            cut = new_text.index(q) + wt[0]
            if turn == 0:
                n_before = len(chatfmt.tokenize_with_image(tok, prompt[:len(prev) + cut])[0])
            else:
                n_before = len(ids) + len(tok.encode(new_text[:cut]))
            probes.append((n_before - 1,) + wt[1:])
        if turn == 0:
            p_ids, at = chatfmt.tokenize_with_image(tok, prompt)
            img_at = at
            ids = p_ids
            target = [False] * len(ids)
        else:
            p = tok.encode(new_text)
            ids += p
            target += [False] * len(p)
        ans = tok.encode(a) + [tok.special_ids["<|im_end|>"]]
        ids += ans
        target += [True] * len(ans)
        msgs.append(("user", content))
        msgs.append(("assistant", a))
        ids += tok.encode("\n")
        target += [False]
    # insert the image rows
    full = ids[:img_at] + [PLACEHOLDER_ID] * n_patches + ids[img_at:]
    img = [False] * img_at + [True] * n_patches + [False] * (len(ids) - img_at)
    tgt = target[:img_at] + [False] * n_patches + target[img_at:]
    if scene is None:
        return full, img, tgt
    probes = [(p[0] + (n_patches if p[0] >= img_at else 0),) + p[1:] for p in probes]
    return full, img, tgt, probes


def make_batch(tok, rng, batch, n_patches, turns=(1, 5)):
    """`turns` = (fewest, most) question/answer turns per conversation. The
    batch is padded to its longest conversation, so a narrow range wastes less
    compute on padding and gives more answers per image."""
    pix, seqs, aux = [], [], []
    for _ in range(batch):
        sc = scenes.make_scene(rng)
        # mostly what seer's default preprocessing makes of the picture
        # (antialiased); sometimes llama.cpp's (one sample per pixel, anywhere
        # in the pixel) or a 2x2 average
        how = rng.random()
        if how < 0.7:
            pix.append(scenes.render_model_resized(sc))
        else:
            pix.append(scenes.render_model(sc, sub=(float(rng.uniform(0, 1)),) if how < 0.85 else (0.25, 0.75)))
        aux.append(scenes.patch_labels(sc, grid=int(round(n_patches ** 0.5))))
        k = int(rng.integers(turns[0], turns[1] + 1))
        qas = scenes.sample_qas(sc, rng, k)
        seqs.append(conversation(tok, qas, rng, n_patches, image_last=rng.random() < 0.15,
                                 system=rng.random() < 0.1, scene=sc))
    t = max(len(s[0]) for s in seqs)
    ids = np.zeros((batch, t), np.int64)
    img = np.zeros((batch, t), bool)
    # labels[b, i] = token at i+1 when it is an answer token, else -100
    labels = np.full((batch, t), -100, np.int64)
    for b, (s, m, g, _) in enumerate(seqs):
        ids[b, :len(s)] = s
        img[b, :len(s)] = m
        for i in range(len(s) - 1):
            if g[i + 1]:
                labels[b, i] = s[i + 1]
    # word probes: rows of (batch index, position, quadrant, count, colour,
    # shape, count of each shape)
    words = np.array([(b,) + p for b, seq in enumerate(seqs) for p in seq[3]],
                     np.int64).reshape(-1, 6 + len(scenes.SHAPES))
    return np.stack(pix), ids, img, labels, np.array(aux, np.int64), words
