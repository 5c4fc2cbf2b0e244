/* Fuzz target: chat-template detection and rendering with hostile messages. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_input.c.inc"
#include "seer/chat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* Split the input at NUL bytes: template text, then message contents. */
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *parts[5] = {buf, "", "", "", ""};
    int np = 1;
    for (size_t i = 0; i < size && np < 5; i++)
        if (buf[i] == '\0') parts[np++] = buf + i + 1;
    static const char *roles[] = {"system", "user", "assistant", "user"};
    seer_chat_msg msgs[4];
    for (int i = 0; i < 4; i++) { msgs[i].role = roles[i]; msgs[i].content = parts[1 + i]; }
    seer_chat_style detected = seer_chat_detect(parts[0]);
    for (int s = SEER_CHAT_UNKNOWN; s <= SEER_CHAT_QWEN2VL; s++) {
        seer_chat_style style = s == SEER_CHAT_UNKNOWN ? detected : (seer_chat_style)s;
        seer_error err;
        for (int n = 1; n <= 4; n++) {
            char *out = seer_chat_render(style, msgs, n, (n & 1) != 0, &err);
            free(out);
        }
    }
    (void)seer_chat_from_name(parts[1]);
    free(buf);
    return 0;
}
