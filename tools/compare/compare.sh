#!/usr/bin/env bash
# make compare: seer side by side with upstream llama.cpp built for this
# machine, on the same synthetic files, back to back (llama.cpp first, then
# seer, for each model and thread count). Nothing of llama.cpp is kept in the
# project: its source comes from the node-llama-cpp npm package's git bundle
# and is built into a cache folder.
#   tools/compare/compare.sh SEER [LANE...]
# Lanes (default: native, plus avx2; noamx where the CPU has AMX):
#   native  seer as it runs here   vs llama.cpp built with GGML_NATIVE=ON
#   noamx   SEER_AMX=0             vs llama.cpp built for this CPU without AMX
#   avx2    SEER_SIMD=avx2 SEER_AVX2_VNNI=0 (and OpenBLAS's AVX2 kernels) vs llama.cpp built GGML_NATIVE=OFF,
#           AVX2/FMA/F16C only
#   avxvnni (where the CPU has AVX-VNNI: Intel since Alder Lake, Zen 5) SEER_SIMD=avx2, its VNNI build,
#           vs llama.cpp built as for avx2 plus GGML_AVX_VNNI
#   ik      seer as it runs here   vs ik_llama.cpp (the CPU-focused fork) built with GGML_NATIVE=ON from
#           the checkout IK_LLAMA_CPP_SRC names (nothing is fetched for it; the lane runs by default
#           when that or COMPARE_BIN_IK is set); IK_BENCH_ARGS adds llama-bench options of its own
#           (e.g. "-rtr 1", its run-time repacking)
# Each line gives both engines' speeds, their ratio, and each engine's
# fraction of the limit that bounds the line as seer bench measures it on
# this host in the same run: the prompt against the int8 dot-product peak
# (the peak of the lane's SIMD level), generation against the read bandwidth
# at that thread count, the image encode against the FP32 FMA peak. Both
# engines do the same work on the same file, so llama.cpp's fraction is
# seer's times the ratio of their rates. Generation's cell also gives
# seer's fraction of the same read of its own weights (seer bench's
# decode_weights_bw_efficiency: the memory it streams, where the probe's
# fresh buffer can land in faster or slower pages).
# Environment: COMPARE_DIR (~/.cache/seer/compare), BENCH_DIR (the synthetic
# models, ~/.cache/seer/bench-models), COMPARE_MODELS, COMPARE_THREADS ("2 1"),
# COMPARE_PROMPTS (prompt lengths, one line each: "128"), COMPARE_REPS (3),
# COMPARE_JOBS (make -j for llama.cpp, 2), LLAMA_CPP_SRC (use this checkout
# instead of fetching), COMPARE_IMAGE (the image to encode: llama.cpp's
# tools/mtmd/test-1.jpeg by default; COMPARE_ENCODE=0 leaves the encode out),
# COMPARE_BIN_NATIVE, COMPARE_BIN_NOAMX, COMPARE_BIN_AVX2, COMPARE_BIN_AVXVNNI, COMPARE_BIN_IK
# (a folder with llama-bench and llama-mtmd-cli built that way already: no
# build for that lane).
set -euo pipefail
seer=$(realpath "${1:?usage: compare.sh SEER [native|noamx|avx2|avxvnni|ik]...}")
shift
dir=${COMPARE_DIR:-$HOME/.cache/seer/compare}
models_dir=${BENCH_DIR:-$HOME/.cache/seer/bench-models}
models=${COMPARE_MODELS:-smolvlm-256m qwen25vl-3b llava15-7b}
threads=${COMPARE_THREADS:-2 1}
prompts=${COMPARE_PROMPTS:-128}
encode=${COMPARE_ENCODE:-1}
reps=${COMPARE_REPS:-3}
jobs=${COMPARE_JOBS:-2}
package=node-llama-cpp@3.22.1
has_amx=$(grep -qw amx_int8 /proc/cpuinfo && echo 1 || echo 0)
has_avx_vnni=$(grep -qw avx_vnni /proc/cpuinfo && echo 1 || echo 0)
lanes=("$@")
if [ ${#lanes[@]} -eq 0 ]; then
  lanes=(native)
  [ "$has_amx" = 1 ] && lanes+=(noamx)
  lanes+=(avx2)
  [ "$has_avx_vnni" = 1 ] && lanes+=(avxvnni)
  [ -n "${IK_LLAMA_CPP_SRC:-}${COMPARE_BIN_IK:-}" ] && lanes+=(ik)
fi
mkdir -p "$dir" "$models_dir"
dir=$(realpath "$dir") models_dir=$(realpath "$models_dir") # the engines run from $dir (below)
log=$dir/compare.log
: >"$log"
say() { echo "compare: $*" >&2; }

# ---- llama.cpp: source, then one build per lane ----
src=${LLAMA_CPP_SRC:-$dir/llama.cpp}
if [ ! -f "$src/CMakeLists.txt" ]; then
  say "fetching $package (npm) and cloning its llama.cpp bundle"
  (cd "$dir" && rm -rf package && npm pack "$package" --silent >/dev/null &&
    tar xzf node-llama-cpp-3.22.1.tgz package/llama/gitRelease.bundle &&
    git clone -q package/llama/gitRelease.bundle "$src")
fi

amx_compilers() {
  [ "$has_amx" = 1 ] && command -v clang >/dev/null && command -v clang++ >/dev/null &&
    echo " -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++"
  return 0
}

cmake_flags() {
  local common=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF
    -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DGGML_CCACHE=OFF)
  case $1 in
    # with AMX, llama.cpp de3ff81 built by GCC 12 dies of SIGILL at its first tile
    # instruction (its AMX kernels' tile configuration, as seer's own did until it
    # made the whole struct live: GCC's _tile_loadconfig declares 8 bytes read, so
    # the stores past them can go); clang builds it right
    native) echo "${common[@]} -DGGML_NATIVE=ON$(amx_compilers)" ;;
    noamx) echo "${common[@]} -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON" \
      "-DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON" \
      "-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" ;;
    avx2) echo "${common[@]} -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
      "-DGGML_BMI2=OFF -DGGML_AVX_VNNI=OFF -DGGML_AVX512=OFF" ;;
    avxvnni) echo "${common[@]} -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
      "-DGGML_BMI2=OFF -DGGML_AVX_VNNI=ON -DGGML_AVX512=OFF" ;;
    ik) echo "${common[@]/-DLLAMA_BUILD_EXAMPLES=OFF/-DLLAMA_BUILD_EXAMPLES=ON} -DGGML_NATIVE=ON" ;; # its tools are examples
    *) say "unknown lane '$1' (native, noamx, avx2, avxvnni or ik)"; exit 2 ;;
  esac
}

build_lane() { # prints the bin folder
  local b=$dir/build-$1 given="COMPARE_BIN_${1^^}"
  if [ -n "${!given:-}" ]; then echo "${!given}"; return; fi
  if [ ! -x "$b/bin/llama-bench" ] || [ ! -x "$b/bin/llama-mtmd-cli" ]; then
    local from=$src
    if [ "$1" = ik ]; then
      from=${IK_LLAMA_CPP_SRC:-}
      [ -f "$from/CMakeLists.txt" ] || { say "lane ik: IK_LLAMA_CPP_SRC='$from' is not an ik_llama.cpp checkout"; exit 2; }
    fi
    say "building $(engine_name "$1") ($1 lane) in $b"
    # shellcheck disable=SC2046
    cmake -S "$from" -B "$b" $(cmake_flags "$1") >>"$log" 2>&1
    nice cmake --build "$b" --target llama-bench llama-mtmd-cli -j "$jobs" >>"$log" 2>&1 ||
      { say "llama.cpp build failed, see $log"; exit 1; }
  fi
  echo "$b/bin"
}

engine_name() { if [ "$1" = ik ]; then echo ik_llama.cpp; else echo llama.cpp; fi; }

lane_env() { # seer's setting for the lane (OpenBLAS, seer's sgemm, picks its kernels per CPU at load:
  # Haswell's are its AVX2 ones, so the avx2 lane's encodes are AVX2 too)
  case $1 in
    native) echo "" ;;
    noamx) echo SEER_AMX=0 ;;
    avx2) echo SEER_SIMD=avx2 SEER_AVX2_VNNI=0 OPENBLAS_CORETYPE=Haswell ;;
    avxvnni) echo SEER_SIMD=avx2 OPENBLAS_CORETYPE=Haswell ;;
    ik) echo "" ;;
  esac
}

# ---- the synthetic models ----
for m in $models; do
  [ -f "$models_dir/$m-mmproj.gguf" ] || "$seer" bench --synth "$m" --out "$models_dir" >>"$log" 2>&1 ||
    { say "seer bench --synth $m failed, see $log"; exit 1; }
done
image=${COMPARE_IMAGE:-$src/tools/mtmd/test-1.jpeg}
[ -f "$image" ] || { say "no image at $image"; exit 1; }
image=$(realpath "$image")

# ---- measuring ----
json_field() {
  node -e 'const v=JSON.parse(require("fs").readFileSync(0,"utf8"))[process.argv[1]];
    console.log(typeof v === "object" ? JSON.stringify(v) : v)' "$1"
}

# The other engines run from $dir: ik_llama.cpp's tools write a llama.log
# into the folder they start in (it was left in the checkout make compare
# ran from).
llama_speeds() { # BIN MODEL THREADS PROMPT [EXTRA...] -> "pp tg" (one repetition)
  local bin
  bin=$(realpath "$1")
  (cd "$dir" && "$bin/llama-bench" -m "$2" -p "$4" -n 32 -t "$3" -r 1 "${@:5}" -o json 2>>"$log") |
    node -e 'const a=JSON.parse(require("fs").readFileSync(0,"utf8"));
      const ts=f=>a.filter(f).map(t=>t.avg_ts)[0];
      console.log(ts(t=>t.n_prompt>0&&t.n_gen==0), ts(t=>t.n_gen>0&&t.n_prompt==0))'
}

llama_encode_ms() { # BIN MODEL MMPROJ THREADS -> every image chunk's encode summed (one repetition)
  # the synthetic files have no chat template; the template does not change the encode.
  # -c 4096: llama.cpp would otherwise size the KV cache for the model's whole
  # training context (262k tokens for Qwen3-VL: tens of GB)
  local bin
  bin=$(realpath "$1")
  (cd "$dir" && "$bin/llama-mtmd-cli" -m "$2" --mmproj "$3" --image "$image" -p "Describe this image." -n 1 -t "$4" -c 4096 \
    --chat-template chatml --temp 0 2>&1) | tee -a "$log" | sed -n 's/.*\(slice encoded\|batch encoding done\) in \([0-9]*\) ms.*/\2/p' | awk '{s+=$1} END {print s+0}'
}

# The better of two values: the larger for speeds, the smaller (non-zero) for times.
best_of() { awk -v a="$2" -v b="$3" -v k="$1" 'BEGIN { if (a == "") a = b; if (k == "max") print (b > a ? b : a); else print (b > 0 && b < a ? b : a) }'; }

# Whether value b beats the best so far a (max or min; a empty: yes).
better() { awk -v k="$1" -v a="$2" -v b="$3" 'BEGIN { exit !(a == "" || (k == "max" ? b > a : b > 0 && b < a)) }'; }

# /proc/stat's cpu line, every CPU summed, in clock ticks: "STEAL WANTED",
# WANTED being the time the vCPUs ran or were ready to (all but idle and
# iowait; steal included; guest time is inside user).
cpu_ticks() { awk '/^cpu / { w = 0; for (i = 2; i <= 9; i++) if (i != 5 && i != 6) w += $i; print $9, w; exit }' /proc/stat; }

# The hypervisor's steal between two cpu_ticks readings, as a share of the
# time the vCPUs wanted to run (idle vCPUs and the thread count aside).
steal_share() { # BEFORE AFTER
  awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ");
    w = y[2] - x[2]; if (w > 0) printf "%.0f%%", 100 * (y[1] - x[1]) / w; else printf "?" }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else printf "n/a" }'; }

# The fraction of a limit at `rate`, given seer's fraction `frac` at `seer_rate`
# (the same work per token or image): frac · rate / seer_rate.
scaled() { awk -v f="$1" -v r="$2" -v s="$3" 'BEGIN { printf "%.2f", (s > 0 ? f * r / s : 0) }'; }

echo "host: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) CPUs, AMX: $([ "$has_amx" = 1 ] && echo yes || echo no)"
echo "llama.cpp: $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?') from $package; seer: $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "prompt $prompts tokens, 32 generated (llama-bench -p N -n 32 vs seer bench)$([ "$encode" = 1 ] && echo ", image encode of $(basename "$image")")"
[ "$encode" = 1 ] && echo "(llama-mtmd-cli's encode times of the image's chunks summed vs seer bench --image)"
echo "the best of $reps alternating repetitions each; each engine's fraction of the limit that bounds the line, as"
echo "seer bench measures it in the same run: int8 dot-product peak (prompt), read bandwidth (generation), FP32 peak (encode),"
echo "the AMX tiles' int8 and BF16 peaks where seer's kernels for the line run on tiles;"
echo "load: the 1-minute load average's range over the line's runs (other jobs on the host slow both engines unevenly);"
echo "steal: the hypervisor's steal over the line's runs (both engines, loads included), as a share of the time the vCPUs wanted"
for lane in "${lanes[@]}"; do
  if [ "$lane" = noamx ] && [ "$has_amx" = 0 ]; then
    echo; echo "lane noamx: this CPU has no AMX, the native lane is that comparison"; continue
  fi
  if [ "$lane" = avxvnni ] && [ "$has_avx_vnni" = 0 ]; then
    echo; echo "lane avxvnni: this CPU has no AVX-VNNI (llama.cpp's build of it would not run)"; continue
  fi
  bin=$(build_lane "$lane")
  env_set=$(lane_env "$lane")
  given="COMPARE_BIN_${lane^^}"
  echo
  other=$(engine_name "$lane")
  [ "$lane" = ik ] && [ -n "${IK_LLAMA_CPP_SRC:-}" ] && other="$other $(git -C "$IK_LLAMA_CPP_SRC" rev-parse --short HEAD 2>/dev/null)"
  echo "lane $lane (seer ${env_set:-as is} vs $other $([ -n "${!given:-}" ] && echo "from $bin, as built there" ||
    cmake_flags "$lane" | grep -o 'GGML_NATIVE=[A-Z]*'))"
  echo
  echo "| model | threads | prompt | prompt tok/s seer / $(engine_name "$lane") | of int8 peak | generation tok/s | of read bandwidth | image encode ms | of FP32 (BF16) peak | load | steal |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  declare -A read_gb_s=()
  for t in $threads; do
    for m in $models; do
      for p in $prompts; do
        llm=$models_dir/$m-llm.gguf mm=$models_dir/$m-mmproj.gguf
        # the two alternate, one repetition each, and each keeps its best: a
        # shared host's slow spells then hit both sides alike. seer's fraction
        # of a limit comes from the run that gave its best rate
        l_pp="" l_tg="" l_enc="" s_pp="" s_tg="" s_enc="" f_pp=0 f_tg=0 f_tgw=0 f_enc=0 loads=""
        ticks_before=$(cpu_ticks)
        for _ in $(seq "$reps"); do
          loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
          extra=()
          # shellcheck disable=SC2206
          [ "$lane" = ik ] && extra=(${IK_BENCH_ARGS:-})
          read -r pp tg < <(llama_speeds "$bin" "$llm" "$t" "$p" "${extra[@]}")
          l_pp=$(best_of max "$l_pp" "$pp") l_tg=$(best_of max "$l_tg" "$tg")
          image_args=()
          if [ "$encode" = 1 ]; then
            l_enc=$(best_of min "$l_enc" "$(llama_encode_ms "$bin" "$llm" "$mm" "$t")")
            # --image-preproc llamacpp: the same tiles as llama.cpp (InternVL's own processor, seer's default, cuts more)
            image_args=(--mmproj "$mm" --image "$image" --image-preproc llamacpp)
          fi
          # shellcheck disable=SC2086
          s=$(env $env_set "$seer" bench -m "$llm" "${image_args[@]}" -p "$p" -n 32 -t "$t" -r 1 --json 2>>"$log")
          pp=$(json_field pp_tok_s <<<"$s") tg=$(json_field tg_tok_s <<<"$s") enc=$(json_field encode_ms <<<"$s")
          if better max "$s_pp" "$pp"; then s_pp=$pp f_pp=$(json_field prefill_peak_efficiency <<<"$s"); fi
          if better max "$s_tg" "$tg"; then
            s_tg=$tg f_tg=$(json_field decode_bw_efficiency <<<"$s") f_tgw=$(json_field decode_weights_bw_efficiency <<<"$s")
          fi
          if [ "$encode" = 1 ] && better min "$s_enc" "$enc"; then s_enc=$enc f_enc=$(json_field encode_peak_efficiency <<<"$s"); fi
        done
        enc_cells="- | -"
        [ "$encode" = 1 ] && enc_cells=$(printf '%.0f / %.0f = %s | %.2f / %s' "$s_enc" "$l_enc" "$(ratio "$l_enc" "$s_enc")" \
          "$f_enc" "$(scaled "$f_enc" "$s_enc" "$l_enc")")
        loads="$loads $(cut -d' ' -f1 /proc/loadavg)"
        # the weights' own read where the run measured one (none: no bracket, not "0.00")
        weights_cell=""
        awk -v f="${f_tgw:-0}" 'BEGIN { exit !(f + 0 > 0) }' && weights_cell=$(printf ' (seer %.2f of its weights)' "$f_tgw")
        printf '| %s | %s | %s | %.1f / %.1f = %s | %.2f / %s | %.2f / %.2f = %s | %.2f / %s%s | %s | %s | %s |\n' \
          "$m" "$t" "$p" "$s_pp" "$l_pp" "$(ratio "$s_pp" "$l_pp")" "$f_pp" "$(scaled "$f_pp" "$l_pp" "$s_pp")" \
          "$s_tg" "$l_tg" "$(ratio "$s_tg" "$l_tg")" "$f_tg" "$(scaled "$f_tg" "$l_tg" "$s_tg")" "$weights_cell" "$enc_cells" \
          "$(tr ' ' '\n' <<<"$loads" | awk 'NF { if (lo == "" || $1 < lo) lo = $1; if ($1 > hi) hi = $1 } END { print lo "-" hi }')" \
          "$(steal_share "$ticks_before" "$(cpu_ticks)")"
        echo "  seer kernels: $(json_field kernels <<<"$s")" >>"$log"
        read_gb_s[$t]=$(json_field machine_gb_s <<<"$s")
        peaks=$(json_field peaks <<<"$s")
      done
    done
  done
  echo
  echo -n "limits as seer bench measured them (its last run): read"
  for t in $threads; do echo -n " ${read_gb_s[$t]} GB/s at $t thread(s),"; done
  echo " peaks $peaks"
done
echo
echo "(ratios: seer / the other engine for tok/s, the other / seer for ms: above 1 means seer is faster; fractions: seer / the other;"
echo " log: $log)"
