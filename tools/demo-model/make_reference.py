"""PyTorch reference outputs of the trained demo model for seer's unit test
(tests/unit/test_demo_model.c): the image embeddings of tests/demo/scene000.png
and the logits after the first held-out question about it. Weights are rounded
to F16 exactly where the GGUF stores them as F16, so seer and PyTorch compute
the same function.
    make_reference.py MODEL.pt SET_DIR OUT_DIR
"""
import os
import sys

import numpy as np
import torch
from PIL import Image

import chatfmt
import data
import model as M
import scenes


def main():
    ckpt, set_dir, out = sys.argv[1:4]
    torch.set_num_threads(1)
    tok = data.build_tokenizer()
    cfg = M.Config(n_vocab=tok.n_vocab)
    net = M.DemoVLM(cfg)
    net.load_state_dict(torch.load(ckpt))
    # F16 rounding where the exporter writes F16: every matrix and the
    # position / patch / token embeddings (ndim >= 2).
    with torch.no_grad():
        for name, p in net.named_parameters():
            if p.dim() >= 2:
                p.copy_(p.half().float())
    line = open(os.path.join(set_dir, "questions.tsv")).readline().rstrip("\n").split("\t")
    image, question = line[0], line[2]
    rgb = np.asarray(Image.open(os.path.join(set_dir, image)).convert("RGB"))
    step = rgb.shape[0] // scenes.MODEL_SIDE
    pix = rgb[::step, ::step]                       # what llama.cpp's bicubic gives here
    prompt = chatfmt.render([("user", chatfmt.MARKER + question)])
    ids, at = chatfmt.tokenize_with_image(tok, prompt)
    full = ids[:at] + [0] * cfg.n_patches + ids[at:]
    mask = [False] * at + [True] * cfg.n_patches + [False] * (len(ids) - at)
    net.eval()
    with torch.no_grad():
        px = M.normalise(pix[None])
        embd = net.vision(px)[0]
        logits = net(torch.tensor([full]), torch.tensor([mask]), px)[0, -1]
    os.makedirs(out, exist_ok=True)
    embd.numpy().astype("<f4").tofile(os.path.join(out, "embd.f32"))
    logits.numpy().astype("<f4").tofile(os.path.join(out, "logits.f32"))
    print("%s: %r -> argmax %d (%r)" % (image, question, int(logits.argmax()),
                                        tok.decode([int(logits.argmax())])))


if __name__ == "__main__":
    main()
