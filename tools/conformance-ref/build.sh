#!/bin/sh
# Builds conformance-dump against a llama.cpp checkout and its build folder
# (which must hold libllama, libmtmd, libggml*: build with BUILD_SHARED_LIBS=ON).
# Usage: tools/conformance-ref/build.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [OUT_DIR]
#   LLAMA_BUILD_DIR defaults to LLAMA_CPP_DIR/build-avx2,
#   OUT_DIR to tools/conformance-ref/build (git-ignored).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: build.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [OUT_DIR]}
llama=$(cd "$llama" && pwd)
build=${2:-$llama/build-avx2}
build=$(cd "$build" && pwd)
out=${3:-$here/build}
mkdir -p "$out"
libdir=$(dirname "$(find "$build" -name 'libmtmd.so' | head -n 1)")
[ -f "$libdir/libmtmd.so" ] || { echo "build.sh: no libmtmd.so under $build" >&2; exit 1; }
commit=$(git -C "$llama" rev-parse HEAD 2>/dev/null || echo unknown)
${CXX:-g++} -std=c++17 -O2 -Wall -Wextra -Wno-deprecated-declarations \
    -DLLAMA_CPP_COMMIT="\"$commit\"" \
    -I"$llama/include" -I"$llama/ggml/include" -I"$llama/tools/mtmd" -I"$llama/vendor" \
    "$here/dump.cpp" -o "$out/conformance-dump" \
    -L"$libdir" -Wl,-rpath,"$libdir" -lmtmd -lllama -lggml -lggml-base
echo "built $out/conformance-dump (llama.cpp $commit, libraries in $libdir)"
