#!/bin/sh
# Builds and runs mix_probe.c: what the int8 prompt kernels' other
# instructions cost VPDPBUSD on this core, then the same for the AVX2
# lane's VPMADDUBSW (no seer library needed).
# Usage (from the repo root): tools/kernel-bench/mix-probe.sh
set -e
cd "$(dirname "$0")/../.."
mkdir -p build/tools
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror tools/kernel-bench/mix_probe.c -o build/tools/mix-probe
exec build/tools/mix-probe
