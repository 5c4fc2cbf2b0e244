# seer — build, tests, conformance, benchmarks.
# `make` builds ./seer; `make test` runs every test tier; `make run` opens the
# TUI on the bundled demo model. SANITIZE=1 builds everything with ASan+UBSan.

CC       ?= cc
SANITIZE ?= 0
# CROSS=aarch64 builds for that CPU with Debian's cross compiler and the
# target's -dev packages (tests/cross/arm64.sh installs them) into
# build-aarch64/; its unit and conformance targets run the tests through
# TEST_RUNNER (qemu-user). Library paths follow the target's triplet.
CROSS    ?=
ifneq ($(CROSS),)
  CC     := $(CROSS)-linux-gnu-gcc
  TEST_RUNNER ?= qemu-$(CROSS)-static
  ARCH   := $(CROSS)
  PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(ARCH)-linux-gnu/pkgconfig:/usr/share/pkgconfig pkg-config
else
  ARCH   := $(shell uname -m)
  PKG_CONFIG := pkg-config
endif
TEST_RUNNER ?=
PKG      := $(shell command -v pkg-config 2>/dev/null)

ifeq ($(SANITIZE)$(FUZZ),1)
  # One sanitized build (clang, ASan+UBSan) serves both the SANITIZE tier and
  # the libFuzzer targets (`make fuzz` links its libseer.a): a second
  # sanitized build of the whole engine cost CI minutes. libFuzzer's coverage
  # counters stay out of the number crunching (tests/fuzz/coverage_ignore.txt:
  # they made its loops 4x slower); UBSan's pointer-overflow check stays out
  # of the SIMD kernels (tests/sanitize_ignore.txt: it took their compile from
  # under a minute to up to nine a file). FUZZ=1 is the old name of the same build.
  CC       := clang
  BUILD    := build-san
  SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fsanitize-coverage-ignorelist=tests/fuzz/coverage_ignore.txt -fsanitize-ignorelist=tests/sanitize_ignore.txt -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
  BUILD    := build
  SANFLAGS :=
endif
ifneq ($(CROSS),)
  BUILD    := $(BUILD)-$(CROSS)
endif

# Library flags: pkg-config when present, Debian paths otherwise.
ifneq ($(PKG),)
  BLAS_CFLAGS := $(shell $(PKG_CONFIG) --cflags openblas 2>/dev/null)
  BLAS_LIBS   := $(shell $(PKG_CONFIG) --libs openblas 2>/dev/null || echo -lopenblas)
  UI_CFLAGS   := $(shell $(PKG_CONFIG) --cflags ncursesw libsixel readline 2>/dev/null)
  UI_LIBS     := $(shell $(PKG_CONFIG) --libs ncursesw libsixel readline 2>/dev/null)
  STB_CFLAGS  := $(shell $(PKG_CONFIG) --cflags stb 2>/dev/null || echo -I/usr/include/stb)
  CURL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libcurl 2>/dev/null)
  CURL_LIBS   := $(shell $(PKG_CONFIG) --libs libcurl 2>/dev/null || echo -lcurl)
  JSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
  JSON_LIBS   := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
  HTTPD_CFLAGS:= $(shell $(PKG_CONFIG) --cflags libmicrohttpd 2>/dev/null)
  HTTPD_LIBS  := $(shell $(PKG_CONFIG) --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)
else
  BLAS_CFLAGS := -I/usr/include/$(ARCH)-linux-gnu/openblas-pthread
  BLAS_LIBS   := -lopenblas
  UI_CFLAGS   := -I/usr/include/sixel
  UI_LIBS     := -lsixel -lncursesw -ltinfo -lreadline
  STB_CFLAGS  := -I/usr/include/stb
  CURL_CFLAGS :=
  CURL_LIBS   := -lcurl
  JSON_CFLAGS :=
  JSON_LIBS   := -ljansson
  HTTPD_CFLAGS:=
  HTTPD_LIBS  := -lmicrohttpd
endif
STB_LIBS := -lstb

WARN     := -Wall -Wextra -Werror -Wno-unused-parameter
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -Iengine $(BLAS_CFLAGS) $(STB_CFLAGS) $(CURL_CFLAGS) $(JSON_CFLAGS) $(SANFLAGS) -MMD -MP
LDFLAGS  += $(SANFLAGS)
LIBS     := $(BLAS_LIBS) $(STB_LIBS) $(CURL_LIBS) $(JSON_LIBS) -lpthread -lm

# SIMD kernels: each file is built for its instruction set and chosen at run time.
ifeq ($(ARCH),x86_64)
  AVX2_FLAGS   := -mavx2 -mfma -mf16c -mbmi2
  AVXVNNI_FLAGS:= $(AVX2_FLAGS) -mavxvnni
  AVX512_FLAGS := $(AVX2_FLAGS) -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx512vnni
  AMX_FLAGS    := $(AVX512_FLAGS) -mamx-tile -mamx-int8 -mamx-bf16
else
  AVX2_FLAGS   :=
  AVXVNNI_FLAGS:=
  AVX512_FLAGS :=
  AMX_FLAGS    :=
endif
# The sanitized build instruments a SIMD level's kernels only where this CPU
# runs that level: util/cpu.c never calls the others here, and instrumenting
# them (AVX-512, AVX-VNNI, AMX on a CPU without them) was most of the
# sanitized build's time, compiled for nothing. Unreadable CPU flags (no
# /proc/cpuinfo) instrument every level.
ifneq ($(SANFLAGS),)
  ifeq ($(ARCH)$(CROSS),x86_64)
    CPU_FLAGS := $(shell grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
    # cpu_has FLAGS: non-empty when the CPU lists every one of FLAGS
    cpu_has = $(if $(strip $(foreach f,$(1),$(if $(filter $(f),$(CPU_FLAGS)),,no))),,yes)
    AVX512_CPU := avx512f avx512bw avx512vl avx512dq avx512_vnni # seer's AVX-512 level (util/cpu.c)
    ifneq ($(CPU_FLAGS),)
      SAN_UNRUN := $(if $(call cpu_has,avx_vnni),,avxvnni) \
                   $(if $(call cpu_has,$(AVX512_CPU)),,avx512) \
                   $(if $(call cpu_has,$(AVX512_CPU) amx_tile amx_int8),,amx)
    endif
  endif
endif
# level_cflags LEVEL: CFLAGS, without the sanitizers where LEVEL does not run here
level_cflags = $(if $(filter $(1),$(SAN_UNRUN)),$(filter-out $(SANFLAGS),$(CFLAGS)),$(CFLAGS))

# aarch64: NEON with the dot-product instructions (the rest of aarch64 code
# stays baseline ARMv8-A); the files compile to nothing elsewhere.
NEON_FLAGS := $(if $(filter aarch64,$(ARCH)),-march=armv8.2-a+dotprod)

ENGINE_SRC := $(sort $(wildcard engine/*/*.c))
UI_SRC     := $(sort $(wildcard ui/*.c))
APP_SRC    := $(sort $(wildcard app/*.c app/*/*.c))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
CONF_SRC   := $(sort $(wildcard tests/conformance/*.c))
TESTLIB_SRC:= $(sort $(wildcard tests/lib/*.c))
TOOL_SRC   := $(sort $(wildcard tests/tools/*.c))

ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
UI_OBJ     := $(UI_SRC:%.c=$(BUILD)/%.o)
APP_OBJ    := $(APP_SRC:%.c=$(BUILD)/%.o)
TESTLIB_OBJ:= $(TESTLIB_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
CONF_BIN   := $(BUILD)/tests/conformance
TOOL_BIN   := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tests/tools/%)
LIBSEER    := $(BUILD)/libseer.a
SEER       := $(if $(filter 1,$(SANITIZE))$(CROSS),$(BUILD)/seer,seer)

.PHONY: all deps test tests-build cross-arm64 unit conformance e2e run install uninstall bench bench-models compare fuzz fuzz-build FORCE demo-model demo-eval embed-model search-demo clean
all: $(SEER)

$(BUILD)/%_avx2.o: %_avx2.c
	@mkdir -p $(dir $@)
	$(CC) $(call level_cflags,avx2) $(AVX2_FLAGS) -c $< -o $@
$(BUILD)/%_avxvnni.o: %_avxvnni.c
	@mkdir -p $(dir $@)
	$(CC) $(call level_cflags,avxvnni) $(AVXVNNI_FLAGS) -c $< -o $@
$(BUILD)/%_avx512.o: %_avx512.c
	@mkdir -p $(dir $@)
	$(CC) $(call level_cflags,avx512) $(AVX512_FLAGS) -c $< -o $@
$(BUILD)/%_amx.o: %_amx.c
	@mkdir -p $(dir $@)
	$(CC) $(call level_cflags,amx) $(AMX_FLAGS) -c $< -o $@
$(BUILD)/%_neon.o: %_neon.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(NEON_FLAGS) -c $< -o $@
$(BUILD)/ui/%.o: ui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(UI_CFLAGS) -c $< -o $@
$(BUILD)/app/%.o: app/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(UI_CFLAGS) $(HTTPD_CFLAGS) -c $< -o $@
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIBSEER): $(ENGINE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SEER): $(APP_OBJ) $(UI_OBJ) $(LIBSEER)
	$(CC) $(LDFLAGS) -o $@ $(APP_OBJ) $(UI_OBJ) $(LIBSEER) $(LIBS) $(UI_LIBS) $(HTTPD_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_OBJ) $(LIBSEER)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/lib $< -o $@ $(TESTLIB_OBJ) $(LDFLAGS) $(LIBSEER) $(LIBS)

# Test tools (e.g. writers of tiny models) used by the e2e scripts.
$(BUILD)/tests/tools/%: tests/tools/%.c $(TESTLIB_OBJ) $(LIBSEER)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/lib $< -o $@ $(TESTLIB_OBJ) $(LDFLAGS) $(LIBSEER) $(LIBS)

$(CONF_BIN): $(CONF_SRC) $(TESTLIB_OBJ) $(LIBSEER)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/lib $(CONF_SRC) -o $@ $(TESTLIB_OBJ) $(LDFLAGS) $(LIBSEER) $(LIBS)

CONFORMANCE_DIR ?= ../shared/conformance
export CONFORMANCE_DIR
# The project's own cases (made by tools/conformance-ref) run beside the shared ones;
# the unit tests read the rest of CONFORMANCE_DIR (vocab/, preprocess/, ...).
CONFORMANCE_CASES ?= $(CONFORMANCE_DIR)/cases
CONFORMANCE_DIRS := tests/conformance/cases $(CONFORMANCE_CASES)

unit: $(UNIT_BIN) $(TOOL_BIN) $(SEER)
	@TEST_RUNNER="$(TEST_RUNNER)" tests/run_unit.sh $(BUILD)/tests $(UNIT_BIN)

conformance: $(CONF_BIN)
	$(TEST_RUNNER) $(CONF_BIN) $(CONFORMANCE_DIRS)
	$(TEST_RUNNER) $(CONF_BIN) --vision-precision bf16 $(CONFORMANCE_DIRS)

# Everything the test tiers run, built and not run; cross-arm64 builds it for
# aarch64 (`make CROSS=aarch64 unit conformance` then runs it under qemu).
tests-build: $(UNIT_BIN) $(TOOL_BIN) $(CONF_BIN) $(SEER)
cross-arm64:
	$(MAKE) CROSS=aarch64 tests-build

e2e: $(SEER) $(TOOL_BIN)
	@SEER=$(abspath $(SEER)) TOOLS=$(abspath $(BUILD)/tests/tools) tests/run_e2e.sh

# Everything is built first (in parallel with -j), then the tiers run one after
# another so timing-sensitive terminal tests are not starved; all tiers run even
# when one fails, and the exit status says whether any did.
test: $(UNIT_BIN) $(TOOL_BIN) $(CONF_BIN) $(SEER)
	@status=0; t=$$(date +%s); \
	echo "== unit tests"; tests/run_unit.sh $(BUILD)/tests $(UNIT_BIN) || status=1; \
	echo "== conformance ($$(( $$(date +%s) - t )) s so far)"; $(CONF_BIN) $(CONFORMANCE_DIRS) || status=1; \
	echo "== conformance, the encoders at --vision-precision bf16 ($$(( $$(date +%s) - t )) s so far)"; $(CONF_BIN) --vision-precision bf16 $(CONFORMANCE_DIRS) || status=1; \
	echo "== conformance at the other SIMD levels and OpenBLAS kernel sets ($$(( $$(date +%s) - t )) s so far)"; $(if $(filter 1,$(SANITIZE)),LEVELS_SANITIZE=1) tests/conformance/levels.sh $(CONF_BIN) $(CONFORMANCE_DIRS) || status=1; \
	echo "== end-to-end ($$(( $$(date +%s) - t )) s so far)"; SEER=$(abspath $(SEER)) TOOLS=$(abspath $(BUILD)/tests/tools) tests/run_e2e.sh || status=1; \
	echo "== tiers took $$(( $$(date +%s) - t )) s"; exit $$status

# The Debian packages seer needs (./setup: sudo only when not root). A fresh
# Debian has no make yet, so the README's first command runs ./setup itself.
deps:
	./setup

run: $(SEER)
	./$(SEER) --demo

# `make install` puts the binary, the man page, the themes and the demo model
# and picture where an installed seer finds them (PREFIX/share/seer, beside
# PREFIX/bin: app/data_files.c, ui/tui.c); DESTDIR for staged installs.
PREFIX  ?= /usr/local
DESTDIR ?=
SHARE   := $(DESTDIR)$(PREFIX)/share/seer
INSTALLED_DATA := models/demo-llm.gguf models/demo-mmproj.gguf images/demo.png
# INSTALL_BIN: another build of seer to install (the tests pass build-san/seer)
INSTALL_BIN ?= $(SEER)
install: $(INSTALL_BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(SHARE)/themes $(SHARE)/models $(SHARE)/images
	install -m 755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/seer
	install -m 644 docs/seer.1 $(DESTDIR)$(PREFIX)/share/man/man1/seer.1
	install -m 644 themes/* $(SHARE)/themes/
	for f in $(INSTALLED_DATA); do install -m 644 assets/$$f $(SHARE)/$$f || exit 1; done
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/seer $(DESTDIR)$(PREFIX)/share/man/man1/seer.1
	rm -f $(addprefix $(SHARE)/themes/,$(notdir $(wildcard themes/*))) $(addprefix $(SHARE)/,$(INSTALLED_DATA))
	-rmdir $(SHARE)/themes $(SHARE)/models $(SHARE)/images $(SHARE) 2>/dev/null

# The bundled demo model (tools/demo-model): scene generator -> PyTorch training
# -> GGUF through seer's own writer. Needs Debian's python3-torch.
DEMO_PYTHON ?= /usr/bin/python3
DEMO_EXPORT := $(BUILD)/demo-model
DEMO_TOOL   := $(BUILD)/tools/demo-model/export_gguf
$(DEMO_TOOL): tools/demo-model/export_gguf.c $(LIBSEER)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS) $(LIBSEER) $(LIBS)
# The recipe: the first generator's model (the GGUF pair of commit
# $(DEMO_INIT_REV)) continued in four stages, each replaying the learning rate
# of every step of the time-budgeted run it comes from (the same steps on the
# same data give the same weights): 1 and 2 (lr_schedule.txt, seed 1, then
# lr_schedule_2.txt, seed 2) with the code of commit $(DEMO_STAGE12_REV) (the
# 8x8 patch grid, the second generator as it was), 3 (lr_schedule_3.txt, seed
# 3) with the code of commit $(DEMO_STAGE3_REV), 4 with the current code
# (lr_schedule_4.txt, seed 4: the word probe also names the matched object's
# colour and shape). DEMO_TRAIN_ARGS replaces stage 4's options (e.g.
# --minutes 60 for a new time budget instead of the replay).
DEMO_INIT_REV := 49ddb3b
DEMO_STAGE12_REV := 49cff61
DEMO_STAGE3_REV := c48b548
DEMO_TRAIN_ARGS ?= --lr-file tools/demo-model/lr_schedule_4.txt
demo-model: $(DEMO_TOOL)
	@mkdir -p $(DEMO_EXPORT)/init $(DEMO_EXPORT)/stage12-code $(DEMO_EXPORT)/stage3-code
	git show $(DEMO_INIT_REV):assets/models/demo-llm.gguf > $(DEMO_EXPORT)/init/llm.gguf
	git show $(DEMO_INIT_REV):assets/models/demo-mmproj.gguf > $(DEMO_EXPORT)/init/mmproj.gguf
	git archive $(DEMO_STAGE12_REV) tools/demo-model | tar -x -C $(DEMO_EXPORT)/stage12-code
	git archive $(DEMO_STAGE3_REV) tools/demo-model | tar -x -C $(DEMO_EXPORT)/stage3-code
	$(DEMO_PYTHON) tools/demo-model/import_gguf.py $(DEMO_EXPORT)/init/llm.gguf $(DEMO_EXPORT)/init/mmproj.gguf $(DEMO_EXPORT)/init
	$(DEMO_PYTHON) $(DEMO_EXPORT)/stage12-code/tools/demo-model/train.py --out $(DEMO_EXPORT)/stage1 --seed 1 \
	  --init $(DEMO_EXPORT)/init/model.pt --eval-every 1000 --lr-file tools/demo-model/lr_schedule.txt
	$(DEMO_PYTHON) $(DEMO_EXPORT)/stage12-code/tools/demo-model/train.py --out $(DEMO_EXPORT)/stage2 --seed 2 \
	  --init $(DEMO_EXPORT)/stage1/model.pt --eval-every 1000 --lr-file tools/demo-model/lr_schedule_2.txt
	$(DEMO_PYTHON) $(DEMO_EXPORT)/stage3-code/tools/demo-model/train.py --out $(DEMO_EXPORT)/stage3 --seed 3 \
	  --init $(DEMO_EXPORT)/stage2/model.pt --probe-warmup 100 --eval-every 500 --lr-file tools/demo-model/lr_schedule_3.txt
	$(DEMO_PYTHON) tools/demo-model/train.py --out $(DEMO_EXPORT) --seed 4 --init $(DEMO_EXPORT)/stage3/model.pt \
	  --probe-warmup 150 --eval-every 500 $(DEMO_TRAIN_ARGS)
	$(DEMO_TOOL) $(DEMO_EXPORT) assets/models/demo-llm.gguf assets/models/demo-mmproj.gguf
	$(DEMO_PYTHON) tools/demo-model/make_reference.py $(DEMO_EXPORT)/model.pt tests/demo tests/demo/reference
# Accuracy through seer on 500 fresh questions from the training generator,
# then on the independent set (another renderer: make_independent.py), which
# must reach 90%.
demo-eval: $(SEER)
	$(DEMO_PYTHON) tools/demo-model/make_heldout.py --out $(BUILD)/demo-heldout --images 250 --per-image 2 --seed 77
	tests/demo/eval.sh ./$(SEER) assets/models/demo-llm.gguf assets/models/demo-mmproj.gguf $(BUILD)/demo-heldout
	$(DEMO_PYTHON) tools/demo-model/make_independent.py --out $(BUILD)/demo-independent --images 120 --seed 5
	tests/demo/eval.sh ./$(SEER) assets/models/demo-llm.gguf assets/models/demo-mmproj.gguf $(BUILD)/demo-independent 90

# The bundled search model (tools/embed-model): a Qwen2.5-VL-layout embedder
# trained contrastively on the demo's scenes (PyTorch, one thread, a time
# budget), written as LLM + mmproj + multi-vector projector by export_gguf.
# Two stages: 35 minutes on both losses, then 18 minutes from there with
# the MaxSim loss weighted 3 (the multi-vectors learn slower).
EMBED_EXPORT := $(BUILD)/embed-model
embed-model: $(DEMO_TOOL)
	$(DEMO_PYTHON) tools/embed-model/train.py --out $(EMBED_EXPORT) --seed 1 --minutes 35
	$(DEMO_PYTHON) tools/embed-model/train.py --out $(EMBED_EXPORT)/stage2 --init $(EMBED_EXPORT)/model.pt \
	  --mv-weight 3 --lr 1e-3 --warmup 50 --minutes 18 --seed 2
	$(DEMO_TOOL) $(EMBED_EXPORT)/stage2/export assets/models/search-llm.gguf assets/models/search-mmproj.gguf
	$(DEMO_TOOL) $(EMBED_EXPORT)/stage2/export-mv assets/models/search-mvproj.gguf $(EMBED_EXPORT)/unused.gguf
# Local image search on the bundled model: 40 scenes it never saw (another
# seed), indexed, then two text queries (one a scene's own description).
SEARCH_DEMO := $(BUILD)/search-demo
search-demo: $(SEER)
	$(DEMO_PYTHON) tools/embed-model/make_scenes.py --out $(SEARCH_DEMO) --n 40 --seed 2026
	./$(SEER) index $(SEARCH_DEMO) -o $(SEARCH_DEMO).idx -m assets/models/search-llm.gguf \
	  --mmproj assets/models/search-mmproj.gguf --mv-proj assets/models/search-mvproj.gguf
	@q=$$(sed -n 3p $(SEARCH_DEMO)/queries.tsv | cut -f2); echo "seer search \"$$q\" (the description of scene-002.png):"; \
	  ./$(SEER) search $(SEARCH_DEMO).idx "$$q" -k 3
	@echo 'seer search "a yellow star":'; ./$(SEER) search $(SEARCH_DEMO).idx "a yellow star" -k 3

# Benchmarks: random-weight models with real layouts, written once to a cache
# folder (never committed), then one table from `seer bench` on each.
BENCH_DIR    ?= $(HOME)/.cache/seer/bench-models
BENCH_MODELS ?= smolvlm-256m qwen25vl-3b llava15-7b
bench-models: $(SEER)
	@mkdir -p $(BENCH_DIR)
	@for m in $(BENCH_MODELS); do [ -f $(BENCH_DIR)/$$m-mmproj.gguf ] || ./$(SEER) bench --synth $$m --out $(BENCH_DIR) || exit 1; done
bench: bench-models
	@tools/bench/run.sh ./$(SEER) $(BENCH_DIR) $(BENCH_MODELS)
# Side by side with upstream llama.cpp (node-llama-cpp 3.22.1's bundle) built
# for this machine into ~/.cache/seer/compare (never committed): the native
# lane, then the emulated ones (COMPARE_LANES="native noamx avx2 avxvnni").
compare: $(SEER)
	@BENCH_DIR=$(BENCH_DIR) COMPARE_MODELS="$(BENCH_MODELS)" tools/compare/compare.sh ./$(SEER) $(COMPARE_LANES)

# Fuzzing: every tests/fuzz/fuzz_<name>.c runs FUZZ_TIME seconds on its corpus
# tests/fuzz/corpus/<name> (findings go to tests/fuzz/out/).
FUZZ_TIME ?= 60
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
# FUZZ_STB=1: stb_image compiled into fuzz_image with the sanitizers (delete
# build-fuzz/fuzz_image when switching). Two UBSan checks stay off for that copy: stb adds
# 0 to a null pointer and memcpy's 0 bytes from one on empty PNG chunks
# (defined behaviour since C2y, harmless).
ifeq ($(FUZZ_STB),1)
build-fuzz/fuzz_image: FUZZ_TARGET_FLAGS := -DFUZZ_STB_INSTRUMENTED -fno-sanitize=pointer-overflow,nonnull-attribute
endif
# fuzz_serve links the server's request parsing from app/serve (no HTTP library).
FUZZ_SERVE_SRC := app/serve/request.c app/serve/data_url.c
build-fuzz/fuzz_serve: FUZZ_TARGET_SRC := $(FUZZ_SERVE_SRC)
build-fuzz/fuzz_serve: $(FUZZ_SERVE_SRC)
# The targets link the sanitized build's engine, which its own make (SANITIZE=1)
# keeps up to date; FORCE runs that make every time, and a target relinks only
# when the library (or its own sources) changed: CI builds them in the
# background, and a phony prerequisite here relinked all ten again in the
# fuzz tier (about 20 s).
FUZZ_LIB := build-san/libseer.a
ifneq ($(LIBSEER),$(FUZZ_LIB))
$(FUZZ_LIB): FORCE
	$(MAKE) SANITIZE=1 $@
endif
FORCE:
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(TESTLIB_SRC) $(wildcard tests/fuzz/*.h tests/fuzz/*.inc tests/lib/*.h) $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	clang $(CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(FUZZ_TARGET_FLAGS) -Itests/lib -Iapp $< $(FUZZ_TARGET_SRC) $(TESTLIB_SRC) -o $@ $(FUZZ_LIB) $(LIBS)
fuzz-build: $(FUZZ_BIN)
fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_BIN)

clean:
	rm -rf build build-san build-fuzz build-aarch64 seer

-include $(ENGINE_OBJ:.o=.d) $(UI_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TESTLIB_OBJ:.o=.d)
