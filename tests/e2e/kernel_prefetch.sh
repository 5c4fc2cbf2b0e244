#!/usr/bin/env bash
# The x86 decode kernels ask for their weights' lines ahead (prefetch
# instructions), and the compiler keeps them: GCC 12 once deleted the row
# kernels' prefetch loop as code that does nothing (the distances are read
# from memory), which nothing else noticed and which halved their read
# rate. Reads the machine code of the built binary: every row kernel
# (dot_*, dot4_*) and interleaved-group kernel (dot16_*, and each row
# count's own function dot16_rows_*_N where a level has them, whose
# dispatcher then only jumps) at every x86 level holds at least one
# prefetch.
set -u
SEER=${SEER:?SEER must point at the seer binary}
command -v objdump >/dev/null || { echo "FAIL: objdump (binutils) is missing"; exit 1; }
# the binary's own architecture (a cross-built one may run under qemu)
objdump -f "$SEER" | grep -q 'architecture: i386:x86-64' || { echo "not an x86-64 binary: nothing to check"; exit 0; }
objdump -d --no-show-raw-insn "$SEER" | awk '
  /^[0-9a-f]+ <[^>]*>:$/ {
    name = substr($2, 2, length($2) - 3)
    # (the K-quants by their capital K; Q8_K is an activation type, never a weight)
    kernel = name ~ /^dot(4|16|16_rows)?_[A-Za-z0-9_]+_(avx2|avxvnni|avx512|512)(_[1-6])?$/ && name !~ /_q8_K_/
    if (kernel) { seen[name] = 0; n++ }
    next
  }
  kernel && /prefetch/ { seen[name]++ }
  END {
    if (n < 40) { printf "FAIL: only %d x86 decode kernels found in the binary\n", n; exit 1 }
    bad = 0
    for (k in seen) if (seen[k] == 0 && !((k "_1") in seen)) { printf "FAIL: %s has no prefetch instruction\n", k; bad = 1 }
    if (!bad) printf "%d decode kernels, each with its prefetches\n", n
    exit bad
  }'
