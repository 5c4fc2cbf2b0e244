/* Pieces of the synthetic model writer (not part of the API). */
#ifndef SEER_BENCH_SYNTH_INTERNAL_H
#define SEER_BENCH_SYNTH_INTERNAL_H

#include "seer/bench.h"

/* ---- vocabularies ---- */

/* Byte-level BPE ("gpt2") vocabulary of exactly n_vocab tokens: `lead`
 * special tokens first, then the 256 byte symbols, then merged pairs (with
 * their merges), then `tail` special tokens at the end. Sets the
 * tokenizer.ggml.* keys. Returns false when n_vocab is too small. */
bool synth_vocab_bpe(gguf_writer *w, int n_vocab, const char *pre, const char *const *lead, int n_lead,
                     const char *const *tail, int n_tail);
/* SentencePiece ("llama") vocabulary: <unk> <s> </s>, the 256 byte tokens,
 * then pieces with decreasing scores, then `tail` control tokens, n_vocab
 * in all. */
bool synth_vocab_spm(gguf_writer *w, int n_vocab, const char *const *tail, int n_tail);
/* Id of special token `name` as synth_vocab_bpe places it, -1 if absent. */
int synth_vocab_bpe_id(int n_vocab, const char *const *lead, int n_lead, const char *const *tail, int n_tail,
                       const char *name);

/* ---- weights ---- */

typedef enum synth_init { SYNTH_WEIGHT, SYNTH_NORM, SYNTH_BIAS } synth_init;

/* Shared state of one synthesis: pools of random quantized blocks per type,
 * filled lazily; tensors copy blocks from them in a random order. */
typedef struct synth_weights synth_weights;
synth_weights *synth_weights_new(uint64_t seed);
void synth_weights_free(synth_weights *sw);

/* Adds a tensor whose data is generated at write time. The fill context lives
 * in sw (sw must outlive gguf_writer_write). */
void synth_add_tensor(synth_weights *sw, gguf_writer *w, const char *name, int type, int n_dims,
                      const int64_t *ne, synth_init init);

#endif
