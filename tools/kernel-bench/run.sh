#!/bin/sh
# Builds the kernel benchmark against build/libseer.a and runs it.
# Usage (from the repo root): tools/kernel-bench/run.sh [-q] [-n N_IN] [-m N_OUT] [-r ROWS] [-t TYPE]
set -e
cd "$(dirname "$0")/../.."
make -s build/libseer.a
BLAS_CFLAGS=$(pkg-config --cflags openblas 2>/dev/null || echo -I/usr/include/$(uname -m)-linux-gnu/openblas-pthread)
BLAS_LIBS=$(pkg-config --libs openblas 2>/dev/null || echo -lopenblas)
mkdir -p build/tools
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -Iengine $BLAS_CFLAGS \
   tools/kernel-bench/kernel_bench.c -o build/tools/kernel-bench build/libseer.a $BLAS_LIBS -lpthread -lm
exec build/tools/kernel-bench "$@"
