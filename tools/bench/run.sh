#!/usr/bin/env bash
# make bench: runs `seer bench --json` on each synthetic model (LLM + mmproj)
# and prints one table. Usage: run.sh SEER DIR MODEL... ; extra arguments for
# seer bench come from $BENCH_ARGS (default: -p 256 -n 32 -r 3).
set -u
seer=$1; dir=$2; shift 2
args=${BENCH_ARGS:--p 256 -n 32 -r 3}
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$2"; }
printf '%-14s %-5s %3s %8s %8s %8s %9s %9s %8s %7s %7s %6s %6s %6s %6s\n' model type thr load_ms encode_ms pp_tok_s \
  tg_tok_s ttft_ms rss_mb GB/s GFLOP/s bw_eff pp_eff enc_eff mem_ov
fail=0
for m in "$@"; do
  # shellcheck disable=SC2086
  if ! out=$("$seer" bench -m "$dir/$m-llm.gguf" --mmproj "$dir/$m-mmproj.gguf" $args --json); then
    echo "$m: seer bench failed"; fail=1; continue
  fi
  printf '%-14s %-5s %3s %8.0f %8.0f %8.1f %9.2f %9.0f %8.0f %7.1f %7.1f %6.2f %6.2f %6.2f %6.2f\n' "$m" \
    "$(field weight_type "$out")" "$(field threads "$out")" "$(field load_ms "$out")" "$(field encode_ms "$out")" \
    "$(field pp_tok_s "$out")" "$(field tg_tok_s "$out")" "$(field ttft_ms "$out")" "$(field peak_rss_mb "$out")" \
    "$(field machine_gb_s "$out")" "$(field machine_gflop_s "$out")" "$(field decode_bw_efficiency "$out")" \
    "$(field prefill_flop_efficiency "$out")" "$(field encode_flop_efficiency "$out")" \
    "$(field memory_overhead "$out")"
done
exit $fail
