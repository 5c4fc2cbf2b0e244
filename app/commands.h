/* The subcommands of the seer binary; each lives in app/cmd_<name>.c. */
#ifndef SEER_APP_COMMANDS_H
#define SEER_APP_COMMANDS_H

int cmd_chat(int argc, char **argv);      /* default: TUI on a terminal, else headless */
int cmd_info(int argc, char **argv);      /* seer info FILE.gguf */
int cmd_tokenize(int argc, char **argv);  /* seer tokenize -m M [-p|-f] [--no-special] */
int cmd_encode(int argc, char **argv);    /* seer encode --mmproj P --image I -o out.f32 */
int cmd_bench(int argc, char **argv);     /* seer bench … */
int cmd_embed(int argc, char **argv);     /* seer embed -m M [--mmproj P] [--mv-proj V] inputs… */
int cmd_quantize(int argc, char **argv);  /* seer quantize [--force] IN OUT TYPE */
int cmd_index(int argc, char **argv);     /* seer index DIR -o INDEX [-m M --mmproj P [--mv-proj V]] */
int cmd_search(int argc, char **argv);    /* seer search INDEX "text" [-k N] */
int cmd_ocr(int argc, char **argv);       /* seer ocr -m M --mmproj P IMAGE|DIR... */
int cmd_serve(int argc, char **argv);     /* seer serve -m M [--mmproj P] [--port N]: OpenAI-compatible HTTP */

#endif
