/* Growable token id buffer shared by the tokenizers. */
#include <stdlib.h>

#include "tokenizer/vocab_internal.h"

int token_buf_push(token_buf *b, int32_t id) {
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        int32_t *ids = realloc(b->ids, cap * sizeof *ids);
        if (!ids) return -1;
        b->ids = ids;
        b->cap = cap;
    }
    b->ids[b->n++] = id;
    return 0;
}
