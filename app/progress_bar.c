#include "progress_bar.h"

#include <stdio.h>
#include <unistd.h>

#include "seer/common.h"

void progress_bar(int done, int total, double t0, const char *units) {
    if (total < 1 || !isatty(STDERR_FILENO)) return;
    const int width = 30, filled = (int)((double)width * done / total);
    const double s = (seer_time_ms() - t0) / 1000.0;
    fprintf(stderr, "\r[%.*s%*s] %d/%d  %.1f %s/s ", filled, "##############################", width - filled, "",
            done, total, s > 0 ? done / s : 0.0, units);
    if (done == total) fputc('\n', stderr);
}
