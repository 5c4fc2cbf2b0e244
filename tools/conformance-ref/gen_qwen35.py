#!/usr/bin/python3
"""Random-weight Qwen3.5 / Qwen3.6 GGUF files (archs qwen35, qwen35moe) in the layout
llama.cpp's converter writes (conversion/qwen.py: Qwen3_5TextModel, Qwen3_5MoeTextModel,
via Qwen3NextModel and _LinearAttentionVReorderBase), and their qwen3vl_merger mmproj
without DeepStack (conversion/qwen3vl.py).

The tensors are made directly under their GGUF names and shapes, as the converter leaves
them: attn_qkv = the Gated DeltaNet in_proj rows [q (n_k heads) | k (n_k) | v (n_v, V
heads already in the "tiled" order: V head j pairs with K head j mod n_k)], attn_gate (z),
ssm_conv1d [conv channels][d_conv], ssm_dt.bias, ssm_a (= -exp(A_log), negative), ssm_beta,
ssm_alpha, ssm_norm (the gated output norm, not shifted), ssm_out; gated full attention
(attn_q is [q | gate] per head, twice the query width), attn_q_norm / attn_k_norm; the
pre-FFN norm is post_attention_norm; MoE: router, 3-D experts and the sigmoid-gated
shared expert (ffn_gate_inp_shexp is [n_embd, 1]); the MTP block(s) appended as
blk.{n_layer..} (block_count counts them, nextn_predict_layers says how many), with the
nextn.* tensors. Only the sizes are small; weights are random, scaled so the recurrent
state's decay and the gates matter.

Vocabulary: gen_qwen3vl.py's byte-level BPE (Qwen's 26 added tokens), pre-tokenizer qwen35.

Usage: gen_qwen35.py --llama-cpp DIR --config NAME --llm OUT.gguf [--mmproj OUT.gguf]
       gen_qwen35.py --list
"""

import numpy as np

import gen_qwen3vl as q3

CONFIGS = {
    # dense, tied head; 4 trunk layers: 0-2 Gated DeltaNet, 3 full attention (interval 4),
    # written both as attention.recurrent_layers and full_attention_interval as the
    # converter does; 2 K heads / 4 V heads of 32 (V/K ratio 2: the head order matters);
    # attention: 4 query / 2 KV heads of 64, rotary 16 dims (0.25) with sections [3,3,2,0];
    # 1 MTP block; vision tower of 3 blocks, no DeepStack
    "qwen35-f32": dict(
        arch="qwen35", seed=3501, name="Qwen3.5 tiny random",
        n_embd=128, n_layer=4, n_nextn=1, interval=4, write_recurrent=True,
        n_head=4, n_head_kv=2, head_dim=64, n_rot=16, sections=[3, 3, 2, 0], n_ff=256,
        n_k=2, n_v=4, d_state=32, d_conv=4, tied=True,
        vision=dict(hidden=64, heads=4, ffn=128, depth=3, deepstack=[], grid=8, dtype="f32"),
    ),
    # text only: 6 trunk layers with only full_attention_interval 3 in the file (layers 2
    # and 5 attend), V heads = K heads (3 of 32), 2 MTP blocks, untied head
    "qwen35-text-f32": dict(
        arch="qwen35", seed=3511, name="Qwen3.5 tiny random text",
        n_embd=96, n_layer=6, n_nextn=2, interval=3, write_recurrent=False,
        n_head=2, n_head_kv=1, head_dim=64, n_rot=16, sections=[3, 3, 2, 0], n_ff=192,
        n_k=3, n_v=3, d_state=32, d_conv=4, tied=False,
    ),
    # MoE, widths multiples of 256 for real K-quant blocks (quantized to Q4_K_M by
    # llama-quantize): 4 trunk layers (0-2 GDN, 3 attention), 2 K / 4 V heads of 64,
    # 8 experts (2 used) of 64, shared expert of 128 behind its sigmoid gate; F32 mmproj (an F16 one moves
    # the image rows enough to flip expert choices under other BLAS kernels)
    "qwen35moe-q4src": dict(
        arch="qwen35moe", seed=3521, name="Qwen3.5-MoE tiny random (Q4_K_M source)",
        n_embd=256, n_layer=4, n_nextn=1, interval=4, write_recurrent=True,
        n_head=4, n_head_kv=2, head_dim=64, n_rot=16, sections=[3, 3, 2, 0], n_ff=256,
        n_k=2, n_v=4, d_state=64, d_conv=4, tied=False,
        n_expert=8, n_expert_used=2, n_ff_exp=64, n_ff_shexp=128,
        vision=dict(hidden=64, heads=4, ffn=128, depth=2, deepstack=[], grid=8, dtype="f32"),
    ),
}

RMS_EPS = 1e-6
ROPE_THETA = 10000000.0
CONTEXT_LENGTH = 262144


def gdn_tensors(W, b, c):
    """A Gated DeltaNet layer's mixer (b = "blk.N.")."""
    e, nk, nv, d = c["n_embd"], c["n_k"], c["n_v"], c["d_state"]
    conv_ch = 2 * nk * d + nv * d
    return [
        (b + "attn_qkv.weight", W.linear(conv_ch, e)),
        (b + "attn_gate.weight", W.linear(nv * d, e)),
        # short taps, the newest (last) the strongest, as trained kernels tend to be
        (b + "ssm_conv1d.weight", W.normal((conv_ch, c["d_conv"]), 0.4) + np.linspace(0, 0.6, c["d_conv"], dtype=np.float32)),
        # softplus(alpha + dt_bias) * ssm_a: a per-head log-decay around -0.05 .. -0.3,
        # so the state remembers tens of tokens, across a 64-token chunk boundary
        (b + "ssm_dt.bias", W.normal((nv,), 0.5) - 2.0),
        (b + "ssm_a", -np.exp(W.normal((nv,), 0.5) - 0.5)),
        (b + "ssm_beta.weight", W.linear(nv, e, 1.5)),
        (b + "ssm_alpha.weight", W.linear(nv, e, 1.0)),
        (b + "ssm_norm.weight", W.normal((d,), 0.1) + 1.0),
        (b + "ssm_out.weight", W.linear(e, nv * d)),
    ]


def attn_tensors(W, b, c):
    """A gated full-attention layer's mixer: attn_q holds [q | gate] per head."""
    e, hd = c["n_embd"], c["head_dim"]
    return [
        (b + "attn_q.weight", W.linear(2 * c["n_head"] * hd, e)),
        (b + "attn_k.weight", W.linear(c["n_head_kv"] * hd, e)),
        (b + "attn_v.weight", W.linear(c["n_head_kv"] * hd, e)),
        (b + "attn_output.weight", W.linear(e, c["n_head"] * hd)),
        # q/k norms above 1 sharpen attention, so positions (M-RoPE) change the result visibly
        (b + "attn_q_norm.weight", W.normal((hd,), 0.2) + 1.6),
        (b + "attn_k_norm.weight", W.normal((hd,), 0.2) + 1.6),
    ]


def ffn_tensors(W, b, c):
    e = c["n_embd"]
    if "n_expert" not in c:
        f = c["n_ff"]
        return [(b + "ffn_gate.weight", W.linear(f, e, 2.0)), (b + "ffn_up.weight", W.linear(f, e, 2.0)),
                (b + "ffn_down.weight", W.linear(e, f))]
    nx, f, fs = c["n_expert"], c["n_ff_exp"], c["n_ff_shexp"]
    return [
        # a router with large logits, so the top-k choice and its weights matter
        (b + "ffn_gate_inp.weight", W.linear(nx, e, 3.0)),
        (b + "ffn_gate_exps.weight", W.normal((nx, f, e), 2.0 / np.sqrt(e))),
        (b + "ffn_up_exps.weight", W.normal((nx, f, e), 2.0 / np.sqrt(e))),
        (b + "ffn_down_exps.weight", W.normal((nx, e, f), 1.0 / np.sqrt(f))),
        # the shared expert's gate: one logit per token, spread so sigmoid is far from 1/2
        (b + "ffn_gate_inp_shexp.weight", W.linear(1, e, 2.0)),
        (b + "ffn_gate_shexp.weight", W.linear(fs, e, 2.0)),
        (b + "ffn_up_shexp.weight", W.linear(fs, e, 2.0)),
        (b + "ffn_down_shexp.weight", W.linear(e, fs)),
    ]


def is_recurrent(c, il):
    return il < c["n_layer"] and (il + 1) % c["interval"] != 0


def text_tensors(c, W, n_vocab):
    e = c["n_embd"]
    emb = W.normal((n_vocab, e), 0.3 if c["tied"] else 1.0)
    t = [("token_embd.weight", emb)]
    for il in range(c["n_layer"] + c["n_nextn"]):
        b = f"blk.{il}."
        t.append((b + "attn_norm.weight", W.normal((e,), 0.1) + 1.0))
        t += gdn_tensors(W, b, c) if is_recurrent(c, il) else attn_tensors(W, b, c)
        t.append((b + "post_attention_norm.weight", W.normal((e,), 0.1) + 1.0))
        t += ffn_tensors(W, b, c)
        if il >= c["n_layer"]:   # the MTP block's own parts (speculative decoding only)
            t += [(b + "nextn.eh_proj.weight", W.linear(e, 2 * e)),
                  (b + "nextn.enorm.weight", W.normal((e,), 0.1) + 1.0),
                  (b + "nextn.hnorm.weight", W.normal((e,), 0.1) + 1.0),
                  (b + "nextn.shared_head_norm.weight", W.normal((e,), 0.1) + 1.0)]
    t.append(("output_norm.weight", W.normal((e,), 0.1) + 1.0))
    if not c["tied"]:
        t.append(("output.weight", W.linear(n_vocab, e, 3.0)))
    return t


def write_llm(gguf, c, path, vocab):
    W = q3.Init(c["seed"])
    n_all = c["n_layer"] + c["n_nextn"]
    w = gguf.GGUFWriter(str(path), c["arch"])
    w.add_type(gguf.GGUFType.MODEL)
    w.add_name(c["name"])
    w.add_block_count(n_all)
    w.add_context_length(CONTEXT_LENGTH)
    w.add_embedding_length(c["n_embd"])
    w.add_feed_forward_length(c["n_ff"])
    w.add_head_count(c["n_head"])
    w.add_head_count_kv(c["n_head_kv"])
    w.add_rope_freq_base(ROPE_THETA)
    w.add_layer_norm_rms_eps(RMS_EPS)
    moe = "n_expert" in c
    if moe:
        w.add_expert_count(c["n_expert"])
        w.add_expert_used_count(c["n_expert_used"])
    w.add_key_length(c["head_dim"])
    w.add_value_length(c["head_dim"])
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    if moe:
        w.add_expert_feed_forward_length(c["n_ff_exp"])
        w.add_expert_shared_feed_forward_length(c["n_ff_shexp"])
    w.add_ssm_conv_kernel(c["d_conv"])
    w.add_ssm_state_size(c["d_state"])
    w.add_ssm_group_count(c["n_k"])
    w.add_ssm_time_step_rank(c["n_v"])
    w.add_ssm_inner_size(c["d_state"] * c["n_v"])
    if c["write_recurrent"]:
        w.add_recurrent_layers([is_recurrent(c, il) for il in range(n_all)])
    w.add_full_attention_interval(c["interval"])
    w.add_rope_dimension_count(c["n_rot"])
    w.add_rope_dimension_sections(c["sections"])
    w.add_nextn_predict_layers(c["n_nextn"])
    q3.add_vocab(gguf, w, vocab, "qwen35")
    for name, data in text_tensors(c, W, len(vocab["tokens"])):
        w.add_tensor(name, np.ascontiguousarray(data, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    # the mmproj: qwen3vl_merger without v.deepstack.* tensors
    q3.cli(__doc__, CONFIGS, write_llm, q3.write_mmproj, "gen_qwen35")
