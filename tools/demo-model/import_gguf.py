"""Reads the bundled demo GGUF pair back into a PyTorch checkpoint (the inverse
of train.write_export), so retraining can start from the bundled weights, and
writes the frozen vocabulary (merges.txt) the checkpoint's embeddings belong to.
    import_gguf.py LLM.gguf MMPROJ.gguf OUT_DIR   -> OUT_DIR/model.pt, OUT_DIR/merges.txt
"""
import os
import struct
import sys

import numpy as np
import torch

_SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q",
           12: "<d"}
_TENSOR_DTYPE = {0: np.float32, 1: np.float16}


def read_gguf(path):
    """-> (kv dict, {name: float32 numpy array in PyTorch's [rows, cols] order})."""
    buf = open(path, "rb").read()
    pos = 0

    def take(fmt):
        nonlocal pos
        v = struct.unpack_from(fmt, buf, pos)[0]
        pos += struct.calcsize(fmt)
        return v

    def string():
        nonlocal pos
        n = take("<Q")
        s = buf[pos:pos + n].decode("utf-8")
        pos += n
        return s

    def value(typ):
        if typ == 8:
            return string()
        if typ == 9:
            sub, n = take("<I"), take("<Q")
            return [value(sub) for _ in range(n)]
        return take(_SCALAR[typ])

    if buf[:4] != b"GGUF":
        raise SystemExit("%s: not a GGUF file" % path)
    pos = 4
    take("<I")
    n_tensors, n_kv = take("<Q"), take("<Q")
    kv = {}
    for _ in range(n_kv):
        key = string()
        kv[key] = value(take("<I"))
    infos = []
    for _ in range(n_tensors):
        name = string()
        ne = [take("<Q") for _ in range(take("<I"))]
        infos.append((name, ne, take("<I"), take("<Q")))
    align = kv.get("general.alignment", 32)
    base = (pos + align - 1) // align * align
    tensors = {}
    for name, ne, typ, off in infos:
        dt = np.dtype(_TENSOR_DTYPE[typ])
        count = int(np.prod(ne))
        a = np.frombuffer(buf, dt, count, base + off).astype(np.float32)
        tensors[name] = a.reshape(list(reversed(ne)))
    return kv, tensors


def state_dict(llm, mmproj, n_layers, v_blocks):
    """GGUF tensors -> DemoVLM state_dict (names as train.write_export maps them)."""
    sd = {"embed.weight": llm["token_embd.weight"], "norm.weight": llm["output_norm.weight"],
          "output.weight": llm["output.weight"]}
    for i in range(n_layers):
        p = "blk.%d." % i
        for ours, theirs in (("attn_norm.weight", "attn_norm"), ("wq.weight", "attn_q"),
                             ("wk.weight", "attn_k"), ("wv.weight", "attn_v"), ("wo.weight", "attn_output"),
                             ("ffn_norm.weight", "ffn_norm"), ("gate.weight", "ffn_gate"),
                             ("up.weight", "ffn_up"), ("down.weight", "ffn_down")):
            sd["layers.%d.%s" % (i, ours)] = llm[p + theirs + ".weight"]
    for ours, theirs in (("mm0", "mm.0"), ("mm2", "mm.2")):
        sd["vision.%s.weight" % ours] = mmproj[theirs + ".weight"]
        sd["vision.%s.bias" % ours] = mmproj[theirs + ".bias"]
    sd["vision.cls"] = mmproj["v.class_embd"]
    sd["vision.patch.weight"] = mmproj["v.patch_embd.weight"]
    sd["vision.pos"] = mmproj["v.position_embd.weight"]
    sd["vision.pre_ln.weight"] = mmproj["v.pre_ln.weight"]
    sd["vision.pre_ln.bias"] = mmproj["v.pre_ln.bias"]
    for i in range(v_blocks):
        p = "v.blk.%d." % i
        for ours, theirs in (("q", "attn_q"), ("k", "attn_k"), ("v", "attn_v"), ("o", "attn_out"),
                             ("fc1", "ffn_down"), ("fc2", "ffn_up"), ("ln1", "ln1"), ("ln2", "ln2")):
            for part in ("weight", "bias"):
                sd["vision.blocks.%d.%s.%s" % (i, ours, part)] = mmproj[p + theirs + "." + part]
    return {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in sd.items()}


def main():
    llm_path, mmproj_path, out = sys.argv[1:4]
    kv, llm = read_gguf(llm_path)
    vkv, mmproj = read_gguf(mmproj_path)
    sd = state_dict(llm, mmproj, kv["llama.block_count"], vkv["clip.vision.block_count"])
    os.makedirs(out, exist_ok=True)
    torch.save(sd, os.path.join(out, "model.pt"))
    with open(os.path.join(out, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(kv["tokenizer.ggml.merges"]) + "\n")
    print("%s: %d tensors, vocabulary %d" % (out, len(sd), len(kv["tokenizer.ggml.tokens"])))


if __name__ == "__main__":
    main()
