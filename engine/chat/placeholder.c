/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/chat.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
seer_chat_style seer_chat_detect(const char *template_text) { return 0; }
seer_chat_style seer_chat_from_name(const char *name) { return 0; }
const char *seer_chat_style_name(seer_chat_style s) { return NULL; }
const char *seer_chat_default_system(seer_chat_style s) { return NULL; }
char *seer_chat_render(seer_chat_style s, const seer_chat_msg *msgs, int n_msgs, bool add_generation_prompt, seer_error *err) { return NULL; }
