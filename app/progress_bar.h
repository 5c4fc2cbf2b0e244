/* The one progress bar of the command-line tools (seer index, seer embed):
 * a line on stderr redrawn in place, only when stderr is a terminal. */
#ifndef SEER_APP_PROGRESS_BAR_H
#define SEER_APP_PROGRESS_BAR_H

/* "[######      ] done/total  R units/s" since t0 (seer_time_ms); ends the
 * line when done == total. */
void progress_bar(int done, int total, double t0, const char *units);

#endif
