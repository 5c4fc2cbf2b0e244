/* Time the hypervisor gave a VM's vCPUs to other guests (the "steal"
 * column of /proc/stat's cpu line): on a shared host it caps what the
 * threads can reach and waits at every barrier, so seer bench says how
 * much of the threads' time it was (25-31% of two threads' time while a
 * 2-vCPU VM touched fresh memory, 6-20% while it generated). */
#include "seer/bench.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool seer_bench_parse_steal(const char *cpu_line, double *ticks) {
    if (!cpu_line || strncmp(cpu_line, "cpu ", 4) != 0) return false;
    unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
    if (sscanf(cpu_line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle, &iowait, &irq,
               &softirq, &steal) != 8)
        return false;
    *ticks = (double)steal;
    return true;
}

double seer_bench_steal_seconds(void) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    char line[512];
    double ticks = 0;
    const bool ok = fgets(line, sizeof line, f) && seer_bench_parse_steal(line, &ticks);
    fclose(f);
    const long hz = sysconf(_SC_CLK_TCK);
    return ok && hz > 0 ? ticks / (double)hz : -1;
}
