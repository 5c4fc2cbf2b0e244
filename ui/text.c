/* UTF-8 display width via the C library's wcwidth (locale set by the UI). */
#include "text.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int ui_char_at(const char *s, size_t len, int *w) {
    mbstate_t st;
    memset(&st, 0, sizeof st);
    wchar_t wc;
    size_t n = mbrtowc(&wc, s, len, &st);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
        *w = 1;
        return 1;
    }
    int cw = wcwidth(wc);
    *w = cw < 0 ? 1 : cw;
    return (int)n;
}

int ui_text_width(const char *s, size_t len) {
    int total = 0;
    for (size_t i = 0; i < len;) {
        int w;
        i += (size_t)ui_char_at(s + i, len - i, &w);
        total += w;
    }
    return total;
}

size_t ui_text_fit(const char *s, size_t len, int width) {
    int used = 0;
    size_t i = 0;
    while (i < len) {
        int w;
        int n = ui_char_at(s + i, len - i, &w);
        if (used + w > width) break;
        used += w;
        i += (size_t)n;
    }
    return i;
}

static int push(ui_span **out, int *n, int *cap, int start, int len) {
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        ui_span *p = realloc(*out, sizeof *p * (size_t)nc);
        if (!p) return -1;
        *out = p;
        *cap = nc;
    }
    (*out)[(*n)++] = (ui_span){start, len};
    return 0;
}

int ui_wrap(const char *s, size_t len, int width, ui_span **out) {
    *out = NULL;
    int n = 0, cap = 0;
    if (width < 1) width = 1;
    size_t line = 0;
    while (line <= len) {
        const char *nl = memchr(s + line, '\n', len - line);
        size_t end = nl ? (size_t)(nl - s) : len;
        /* Wrap the paragraph [line, end). */
        size_t start = line;
        do {
            int used = 0;
            size_t i = start, last_space = (size_t)-1;
            while (i < end) {
                int w;
                int k = ui_char_at(s + i, end - i, &w);
                if (used + w > width) break;
                if (s[i] == ' ') last_space = i;
                used += w;
                i += (size_t)k;
            }
            if (i >= end) {
                push(out, &n, &cap, (int)start, (int)(end - start));
                break;
            }
            size_t brk = last_space != (size_t)-1 && last_space > start ? last_space : i;
            if (brk == start) brk = start + (size_t)ui_char_at(s + start, end - start, &(int){0});
            size_t line_end = brk;
            while (line_end > start && s[line_end - 1] == ' ') line_end--; /* no trailing blanks */
            push(out, &n, &cap, (int)start, (int)(line_end - start));
            start = brk;
            while (start < end && s[start] == ' ') start++;
            if (start >= end) break;
        } while (1);
        if (!nl) break;
        line = end + 1;
    }
    if (n == 0) push(out, &n, &cap, 0, 0);
    return n;
}
