#!/bin/sh
# Builds prefetch_sweep.c against build/libseer.a and runs it.
# Usage (from the repo root): tools/kernel-bench/prefetch-sweep.sh MODEL.gguf THREADS TOKENS L1,L2 [L1,L2 ...]
set -e
cd "$(dirname "$0")/../.."
make -s build/libseer.a
BLAS_LIBS=$(pkg-config --libs openblas 2>/dev/null || echo -lopenblas)
mkdir -p build/tools
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -Iengine \
   tools/kernel-bench/prefetch_sweep.c -o build/tools/prefetch-sweep build/libseer.a $BLAS_LIBS -lpthread -lm
exec build/tools/prefetch-sweep "$@"
