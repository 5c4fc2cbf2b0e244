"""Training and evaluation examples: a scene, its 64x64 pixels and a ChatML
conversation about it, tokenised exactly as seer tokenises the prompt."""
import numpy as np

import bpe
import chatfmt
import scenes

PLACEHOLDER_ID = 0   # any id: the embedding at image slots is replaced


def build_tokenizer(max_merges=1500):
    texts = scenes.corpus_text()
    chat = chatfmt.render([("system", chatfmt.SYSTEM_PROMPT), ("user", "x"), ("assistant", "y")])
    texts += [chat] * 50
    return bpe.Tokenizer(bpe.train(texts, max_merges))


def conversation(tok, qas, rng, n_patches, image_last=False, system=False):
    """ids, image mask, loss mask for one conversation about one image.
    The image sits at the start of the first user turn (or at its end)."""
    msgs = [("system", chatfmt.SYSTEM_PROMPT)] if system else []
    ids, target = [], []
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
    return full, img, tgt


def quadrant_labels(sc):
    """Per quadrant: colour index (len(COLOR_NAMES) = empty) and shape index
    (len(SHAPES) = empty), for the training-only auxiliary loss."""
    col = [len(scenes.COLOR_NAMES)] * 4
    shp = [len(scenes.SHAPES)] * 4
    for o in sc["objects"]:
        q = scenes.QUADRANTS.index(o["quadrant"])
        col[q] = scenes.COLOR_NAMES.index(o["color"])
        shp[q] = scenes.SHAPES.index(o["shape"])
    return col, shp


def make_batch(tok, rng, batch, n_patches, turns=(1, 5)):
    """`turns` = (fewest, most) question/answer turns per conversation. The
    batch is padded to its longest conversation, so a narrow range wastes less
    compute on padding and gives more answers per image."""
    pix, seqs, aux = [], [], []
    for _ in range(batch):
        sc = scenes.make_scene(rng)
        pix.append(scenes.render(sc, scenes.MODEL_SIDE))
        aux.append(quadrant_labels(sc))
        k = int(rng.integers(turns[0], turns[1] + 1))
        qas = scenes.sample_qas(sc, rng, k)
        seqs.append(conversation(tok, qas, rng, n_patches, image_last=rng.random() < 0.15,
                                 system=rng.random() < 0.1))
    t = max(len(s[0]) for s in seqs)
    ids = np.zeros((batch, t), np.int64)
    img = np.zeros((batch, t), bool)
    # labels[b, i] = token at i+1 when it is an answer token, else -100
    labels = np.full((batch, t), -100, np.int64)
    for b, (s, m, g) in enumerate(seqs):
        ids[b, :len(s)] = s
        img[b, :len(s)] = m
        for i in range(len(s) - 1):
            if g[i + 1]:
                labels[b, i] = s[i + 1]
    return np.stack(pix), ids, img, labels, np.array(aux, np.int64)
