# gpu-bpf-tools: eBPF tracers for the Linux GPU stack.
#
#   make                 build every tool into bin/
#   make demo            drmsched on a real kernel's DRM scheduler, in a VM
#   make bench           per-event cost against the bpftrace scripts it replaces
#   make static          self-contained binaries in bin/static/, for GPU hosts without libbpf
#   make test            host unit tests, then the tools on real kernels under qemu
#   make install PREFIX=/usr/local
#
# Adding a tool is adding its name to TOOLS: bpf/NAME.bpf.c + tools/NAME.c,
# and, for what is the tool's own but not its story (vendor name tables,
# library discovery), more sources in tools/NAME/, linked into NAME alone.
# CONTRIBUTING.md lists the rest (man page, tests, bench, README).

TOOLS := drmsched vblanklat cudatrace i915mem amdgpucs nvdrv amdkfd cltrace hiptrace zetrace gpuhang
# Built and tested like a tool, never installed: the one a new tool is
# copied from (CONTRIBUTING.md).
TEMPLATE_TOOLS := template

CC ?= cc
CLANG ?= clang
BPFTOOL ?= bpftool
PREFIX ?= /usr/local
OUTPUT ?= build
BIN ?= bin
COMMON := libbpf-tools-common

ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)

CFLAGS ?= -g -O2
CFLAGS += -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I$(OUTPUT) -I$(COMMON) -Ibpf -Itools
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -Wall -Wno-unused-parameter \
	-I/usr/include/$(MULTIARCH) -I$(COMMON) -Ibpf
LDLIBS := -lbpf -lelf -lz

ifeq ($(STATIC),1)
# Debian's libelf.a needs zstd; link everything in so the binary runs on any glibc x86-64 host.
LDFLAGS += -static
LDLIBS := -lbpf -lelf -lz -lzstd
endif

COMMON_SRCS := $(wildcard $(COMMON)/*.c)
COMMON_OBJS := $(patsubst $(COMMON)/%.c,$(OUTPUT)/common/%.o,$(COMMON_SRCS))
COMMON_HDRS := $(wildcard $(COMMON)/*.h)

# tools/NAME/*.c: a tool's own extra sources, as objects in build/NAME/.
tool_extra_objs = $(patsubst tools/%.c,$(OUTPUT)/%.o,$(wildcard tools/$(1)/*.c))
TOOL_EXTRA_HDRS := $(wildcard tools/*/*.h)

# The compute-API tracers' engine (tools/apitrace/) and their one BPF
# object (bpf/apitrace.bpf.c), linked into each tool written on it: such a
# tool has tools/NAME.c and tools/NAME/, no bpf/NAME.bpf.c.
APITRACE_TOOLS := cudatrace cltrace hiptrace zetrace
APITRACE_OBJS := $(call tool_extra_objs,apitrace)

.PHONY: all static clean install deps test unit-test unit-tests test-progs vm-test demo bench bench-progs \
	print-tools
.DELETE_ON_ERROR:
.SECONDARY:

all: $(addprefix $(BIN)/,$(TOOLS)) $(OUTPUT)/man/gpu-bpf-tools.7

# The suite's page, gpu-bpf-tools(7): every tool of TOOLS, its NAME line.
$(OUTPUT)/man/gpu-bpf-tools.7: man/overview.sh $(addprefix man/man8/,$(addsuffix .8,$(TOOLS))) Makefile
	@mkdir -p $(@D)
	man/overview.sh $(TOOLS) >$@.tmp && mv $@.tmp $@

# The tools, for the scripts that go through each (tests/host/man.sh,
# tests/host/build.sh, tests/bench/run): TOOLS is their one list.
print-tools:
	@echo $(TOOLS)

# Built apart (build/static, bin/static) so both kinds coexist.
static:
	$(MAKE) STATIC=1 OUTPUT=$(OUTPUT)/static BIN=$(BIN)/static all

$(OUTPUT) $(OUTPUT)/common $(BIN):
	@mkdir -p $@

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(COMMON_HDRS) | $(OUTPUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(OUTPUT)/common/%.o: $(COMMON)/%.c $(COMMON_HDRS) | $(OUTPUT)/common
	$(CC) $(CFLAGS) -c $< -o $@

$(OUTPUT)/%.o: tools/%.c $(OUTPUT)/%.skel.h $(wildcard bpf/*.h) $(COMMON_HDRS) $(TOOL_EXTRA_HDRS) | $(OUTPUT)
	$(CC) $(CFLAGS) -c $< -o $@

$(patsubst %,$(OUTPUT)/%.o,$(APITRACE_TOOLS)): $(OUTPUT)/%.o: tools/%.c $(COMMON_HDRS) $(TOOL_EXTRA_HDRS) | $(OUTPUT)
	$(CC) $(CFLAGS) -c $< -o $@
$(OUTPUT)/apitrace/run.o: $(OUTPUT)/apitrace.skel.h

# A tool's extra sources do not see its skeleton: they hold no BPF.
$(foreach t,$(TOOLS) $(TEMPLATE_TOOLS),$(call tool_extra_objs,$(t))) $(APITRACE_OBJS): $(OUTPUT)/%.o: tools/%.c $(wildcard bpf/*.h) $(COMMON_HDRS) $(TOOL_EXTRA_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# An archive, so each tool links only the common objects it uses.
# Made afresh: `ar r` would keep the objects of a source since removed.
$(OUTPUT)/libcommon.a: $(COMMON_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

define tool_link
$(BIN)/$(1): $(OUTPUT)/$(1).o $(call tool_extra_objs,$(1)) \
		$(if $(filter $(1),$(APITRACE_TOOLS)),$(APITRACE_OBJS)) $(OUTPUT)/libcommon.a | $(BIN)
	$$(CC) $$(LDFLAGS) $$^ $$(LDLIBS) -o $$@
endef
$(foreach t,$(TOOLS) $(TEMPLATE_TOOLS),$(eval $(call tool_link,$(t))))

# Host unit tests of the common library (tests/unit): test_NAME.c, with an
# optional NAME_test.bpf.c whose skeleton it includes.
UNIT_TESTS := test_common test_loop test_tp_format test_records test_metrics test_timeline \
	test_nvidia_names test_kfd_names test_btf_targets test_core_btf test_container
UNIT_BINS := $(addprefix $(OUTPUT)/tests/,$(UNIT_TESTS))

$(OUTPUT)/tests:
	@mkdir -p $@

$(OUTPUT)/tests/%.bpf.o: tests/unit/%.bpf.c $(COMMON_HDRS) | $(OUTPUT)/tests
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/tests/%.skel.h: $(OUTPUT)/tests/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(OUTPUT)/tests/test_loop: $(OUTPUT)/tests/loop_test.skel.h
$(OUTPUT)/tests/test_records: $(OUTPUT)/tests/records_test.skel.h
$(OUTPUT)/tests/test_btf_targets: $(OUTPUT)/tests/targets_test.skel.h
$(OUTPUT)/tests/test_core_btf: $(OUTPUT)/tests/core_test.skel.h

# nvdrv's name tables: the test includes nvidia_names.c (its tables are static).
$(OUTPUT)/tests/test_nvidia_names: tests/unit/test_nvidia_names.c tests/unit/check.h \
		tools/nvdrv/nvidia_names.c tools/nvdrv/nvidia_names.h | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< -o $@

# <linux/kfd_ioctl.h> includes <drm/drm.h>, which Debian ships as libdrm's
# /usr/include/libdrm/drm.h: a directory where drm/ is that one.
DRM_INC := $(OUTPUT)/drm-include
$(DRM_INC)/drm:
	@mkdir -p $(dir $@) && ln -sfn /usr/include/libdrm $@

# amdkfd's name tables, generated from the newest kfd_ioctl.h, against the host's.
$(OUTPUT)/tests/test_kfd_names: tests/unit/test_kfd_names.c tests/unit/check.h \
		tools/amdkfd/kfd_names.c tools/amdkfd/kfd_names.h bpf/amdkfd.h | $(OUTPUT)/tests $(DRM_INC)/drm
	$(CC) $(CFLAGS) -I$(DRM_INC) $(filter %.c,$^) -o $@

$(OUTPUT)/tests/test_%: tests/unit/test_%.c tests/unit/check.h $(OUTPUT)/libcommon.a | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -I$(OUTPUT)/tests $(filter %.c %.a,$^) $(LDLIBS) -o $@

unit-tests: $(UNIT_BINS)

# What the compute-API tracers' test programs share: the fakes' call log,
# scripted results and memory (tests/fake); the workloads' command line
# (PHASE...) and checked calls, and the real libraries' clients' dlopen and
# report of a call that dies (tests/client); each waits for its tracer.
FAKE_HDRS := tests/fake/fake_log.h tests/fake/fake_script.h tests/fake/fake_mem.h
WORKLOAD_HDRS := tests/client/phases.h tests/client/check_call.h tests/client/wait.h
REALLIB_HDRS := tests/client/reallib.h tests/client/wait.h

# cudatrace's test programs (tests/cuda): a fake libcuda.so.1 and
# libcudart.so.13 with the real symbol names, the workload driving them (and
# workload_rt, the same linked to the runtime alone), a unit test of the
# CUDA helpers, and where the CUDA toolkit is installed, workloads on its
# real libcudart (shared and static) and stub libcuda.
CUDA_HOME ?= /usr/local/cuda
CUDA_TEST := $(OUTPUT)/tests/cuda
CUDA_TEST_CFLAGS := -g -O2 -Wall -Wextra -Wno-unused-parameter -fno-omit-frame-pointer -Itests
CUDA_TEST_PROGS := $(CUDA_TEST)/libcuda.so.1 $(CUDA_TEST)/libcudart.so.13 $(CUDA_TEST)/workload \
	$(CUDA_TEST)/workload_rt $(OUTPUT)/tests/test_cuda_helpers
ifneq ($(wildcard $(CUDA_HOME)/include/cuda_runtime_api.h),)
CUDA_TEST_PROGS += $(CUDA_TEST)/rt_workload
ifneq ($(wildcard $(CUDA_HOME)/lib64/libcudart_static.a),)
CUDA_TEST_PROGS += $(CUDA_TEST)/rt_workload_static
endif
endif

$(CUDA_TEST):
	@mkdir -p $@

$(CUDA_TEST)/libcuda.so.1: tests/cuda/fake_libcuda.c tests/cuda/fake_cuda.h $(FAKE_HDRS) | $(CUDA_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -Wl,-soname,libcuda.so.1 $< -o $@

# Not linked to libcuda.so.1: like the real runtime it loads the driver at
# its first call (from its own directory, $ORIGIN, where the fake is).
$(CUDA_TEST)/libcudart.so.13: tests/cuda/fake_libcudart.c tests/cuda/fake_cuda.h tests/fake/fake_log.h $(CUDA_TEST)/libcuda.so.1
	$(CC) $(CUDA_TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -Wl,-soname,libcudart.so.13 \
		$< -Wl,-rpath,'$$ORIGIN' -ldl -o $@

$(CUDA_TEST)/workload: tests/cuda/workload.c tests/cuda/fake_cuda.h $(WORKLOAD_HDRS) \
		$(CUDA_TEST)/libcuda.so.1 $(CUDA_TEST)/libcudart.so.13
	$(CC) $(CUDA_TEST_CFLAGS) $< $(CUDA_TEST)/libcuda.so.1 $(CUDA_TEST)/libcudart.so.13 \
		-Wl,-rpath,'$$ORIGIN' -o $@

$(CUDA_TEST)/workload_rt: tests/cuda/workload.c tests/cuda/fake_cuda.h $(WORKLOAD_HDRS) \
		$(CUDA_TEST)/libcudart.so.13
	$(CC) $(CUDA_TEST_CFLAGS) -DRUNTIME_ONLY $< $(CUDA_TEST)/libcudart.so.13 \
		-Wl,-rpath,'$$ORIGIN' -o $@

$(CUDA_TEST)/rt_workload: tests/cuda/rt_workload.c tests/client/wait.h | $(CUDA_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) -I$(CUDA_HOME)/include $< -L$(CUDA_HOME)/lib64 -lcudart -ldl \
		-Wl,-rpath,$(CUDA_HOME)/lib64 -o $@

$(CUDA_TEST)/rt_workload_static: tests/cuda/rt_workload.c tests/client/wait.h | $(CUDA_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) -I$(CUDA_HOME)/include $< $(CUDA_HOME)/lib64/libcudart_static.a \
		-ldl -lpthread -lrt -o $@

$(OUTPUT)/tests/test_cuda_helpers: tests/cuda/test_cuda_helpers.c tests/unit/check.h \
		$(call tool_extra_objs,cudatrace) $(OUTPUT)/libcommon.a | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -Itests/unit $(filter %.c %.o %.a,$^) $(LDLIBS) -o $@

# tests/host/cudatrace.sh runs the tool on them.
unit-tests: $(CUDA_TEST_PROGS) $(BIN)/cudatrace

# hiptrace's test programs (tests/hip): a fake libamdhip64.so.5 with the real
# library's symbol names and versions, the workload driving it (hipwork), and
# a client of the real libamdhip64.so.5 (hipreal: dlopen, no HIP to build).
HIP_TEST := $(OUTPUT)/tests/hip
HIP_TEST_PROGS := $(HIP_TEST)/libamdhip64.so.5 $(HIP_TEST)/hipwork $(HIP_TEST)/hipreal

$(HIP_TEST):
	@mkdir -p $@

$(HIP_TEST)/libamdhip64.so.5: tests/hip/fake_libamdhip64.c tests/hip/fake_hip.h $(FAKE_HDRS) \
		tests/hip/libamdhip64.map | $(HIP_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -Wl,-soname,libamdhip64.so.5 \
		-Wl,--version-script,tests/hip/libamdhip64.map $< -o $@

$(HIP_TEST)/hipwork: tests/hip/hipwork.c tests/hip/fake_hip.h $(WORKLOAD_HDRS) \
		tests/client/kill_soon.h $(HIP_TEST)/libamdhip64.so.5
	$(CC) $(CUDA_TEST_CFLAGS) $< $(HIP_TEST)/libamdhip64.so.5 -Wl,-rpath,'$$ORIGIN' -pthread -o $@

$(HIP_TEST)/hipreal: tests/hip/hipreal.c $(REALLIB_HDRS) | $(HIP_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) $< -ldl -o $@

unit-tests: $(HIP_TEST_PROGS) $(BIN)/hiptrace

# zetrace's test programs (tests/ze): a fake libze_loader.so.1 with the real
# loader's symbol names (unversioned, like the real one's), the workload
# driving it (zework), and a client of the real libze_loader.so.1 (zereal:
# dlopen, no Level Zero to build).
ZE_TEST := $(OUTPUT)/tests/ze
ZE_TEST_PROGS := $(ZE_TEST)/libze_loader.so.1 $(ZE_TEST)/zework $(ZE_TEST)/zereal

$(ZE_TEST):
	@mkdir -p $@

$(ZE_TEST)/libze_loader.so.1: tests/ze/fake_libze_loader.c tests/ze/fake_ze.h $(FAKE_HDRS) | $(ZE_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) -fPIC -shared -fvisibility=hidden -Wl,-soname,libze_loader.so.1 $< -o $@

$(ZE_TEST)/zework: tests/ze/zework.c tests/ze/fake_ze.h $(WORKLOAD_HDRS) tests/client/kill_soon.h \
		$(ZE_TEST)/libze_loader.so.1
	$(CC) $(CUDA_TEST_CFLAGS) $< $(ZE_TEST)/libze_loader.so.1 -Wl,-rpath,'$$ORIGIN' -pthread -o $@

$(ZE_TEST)/zereal: tests/ze/zereal.c $(REALLIB_HDRS) | $(ZE_TEST)
	$(CC) $(CUDA_TEST_CFLAGS) $< -ldl -o $@

unit-tests: $(ZE_TEST_PROGS) $(BIN)/zetrace

# cltrace's workload (tests/opencl), on the system's OpenCL ICD loader
# (ocl-icd-opencl-dev; pocl-opencl-icd runs it on the CPU).
$(OUTPUT)/tests/opencl/clwork: tests/opencl/clwork.c
	@mkdir -p $(dir $@)
	$(CC) $(CUDA_TEST_CFLAGS) $< -lOpenCL -o $@

unit-tests: $(OUTPUT)/tests/opencl/clwork $(BIN)/cltrace

# The template and its workload (tests/host/template.sh).
$(OUTPUT)/tests/ioctls: tests/template/ioctls.c | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< -o $@
unit-tests: $(addprefix $(BIN)/,$(TEMPLATE_TOOLS)) $(OUTPUT)/tests/ioctls

# Workloads the VM tests run in the guest.
TEST_PROGS := $(OUTPUT)/tests/vblwait
$(OUTPUT)/tests/vblwait: tests/vblank/vblwait.c | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -I/usr/include/libdrm $< -o $@
TEST_PROGS += $(OUTPUT)/tests/vblflip
$(OUTPUT)/tests/vblflip: tests/vblank/vblflip.c | $(OUTPUT)/tests
	$(CC) $(CFLAGS) -I/usr/include/libdrm $< -o $@

# What a tool's BPF reads through CO-RE, resolved in a module's BTF (the VM
# tests compare the test modules that play drivers with the real drivers).
TEST_PROGS += $(OUTPUT)/tests/corepaths
$(OUTPUT)/tests/corepaths: tests/btf/corepaths.c $(OUTPUT)/libcommon.a | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# A client of NVIDIA's real driver (tests/nvidia): nvdrv's workload.
TEST_PROGS += $(OUTPUT)/tests/nvctl
$(OUTPUT)/tests/nvctl: tests/nvidia/nvctl.c | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< -o $@

# A client of AMD's real KFD (/dev/kfd), no GPU needed: amdkfd's workload.
TEST_PROGS += $(OUTPUT)/tests/kfdclient
$(OUTPUT)/tests/kfdclient: tests/amdkfd/kfdclient.c | $(OUTPUT)/tests $(DRM_INC)/drm
	$(CC) $(CFLAGS) -I$(DRM_INC) $< -o $@
# What a program with a GPU asks of the KFD, for kfdmock (tests/amdkfd/kfdwork.c).
TEST_PROGS += $(OUTPUT)/tests/kfdwork
$(OUTPUT)/tests/kfdwork: tests/amdkfd/kfdwork.c | $(OUTPUT)/tests $(DRM_INC)/drm
	$(CC) $(CFLAGS) -I$(DRM_INC) $< -o $@

# HIP's runtime asked for its devices (tests/amdkfd/hipclient.c).
TEST_PROGS += $(OUTPUT)/tests/hipclient
$(OUTPUT)/tests/hipclient: tests/amdkfd/hipclient.c | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< -ldl -o $@

# A client of NVIDIA's real libcuda (tests/nvidia/userspace): cudatrace's and
# nvdrv's real client in tests/guest/nvclients.sh.
TEST_PROGS += $(OUTPUT)/tests/cuclient
$(OUTPUT)/tests/cuclient: tests/nvidia/cuclient.c | $(OUTPUT)/tests
	$(CC) $(CFLAGS) $< -ldl -o $@

# The classic-tracepoint path (tp_format.h, tp_record.bpf.h) on gpu_scheduler's
# run event: tests/tpformat, run by tests/guest/tpformat.sh.
TEST_PROGS += $(OUTPUT)/tests/tpformat
$(OUTPUT)/tests/tpformat.bpf.o: tests/tpformat/tpformat.bpf.c tests/tpformat/tpformat.h $(COMMON_HDRS) | $(OUTPUT)/tests
	$(CLANG) $(BPF_CFLAGS) -Itests/tpformat -c $< -o $@
$(OUTPUT)/tests/tpformat: tests/tpformat/tpformat.c tests/tpformat/tpformat.h $(OUTPUT)/tests/tpformat.skel.h $(OUTPUT)/libcommon.a
	$(CC) $(CFLAGS) -I$(OUTPUT)/tests -Itests/tpformat $(filter %.c %.a,$^) $(LDLIBS) -o $@

test-progs: $(TEST_PROGS)

install: all
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/share/man/man8 \
		$(DESTDIR)$(PREFIX)/share/man/man7
	install -m 0755 $(addprefix $(BIN)/,$(TOOLS)) $(DESTDIR)$(PREFIX)/sbin/
	install -m 0644 $(addprefix man/man8/,$(addsuffix .8,$(TOOLS))) $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 0644 $(OUTPUT)/man/gpu-bpf-tools.7 $(DESTDIR)$(PREFIX)/share/man/man7/

# The README's two commands work on a machine that has nothing but git and
# make: each installs the Debian packages the build needs first (quick when
# they are there), then builds, then fetches what the VMs need.
deps:
	tests/install-deps

test: deps
	$(MAKE) all unit-tests test-progs
	tests/run

unit-test: unit-tests
	tests/run --unit

vm-test: all unit-tests test-progs
	tests/run --vm

# make bench: the measuring wrapper (tests/bench/measure.c), the loader of
# empty programs on the tools' hooks (the limit) and those programs.
BENCH := $(OUTPUT)/bench
BENCH_PROGS := $(BENCH)/measure $(BENCH)/empty \
	$(patsubst tests/bench/%.bpf.c,$(BENCH)/%.bpf.o,$(wildcard tests/bench/empty_*.bpf.c))
# cltrace's burst (tests/bench/cltrace.sh), built like clwork.
BENCH_PROGS += $(OUTPUT)/tests/opencl/clbench
$(OUTPUT)/tests/opencl/clbench: tests/opencl/clbench.c tests/client/wait.h
	@mkdir -p $(dir $@)
	$(CC) $(CUDA_TEST_CFLAGS) $< -lOpenCL -o $@

$(BENCH):
	@mkdir -p $@

$(BENCH)/%.bpf.o: tests/bench/%.bpf.c | $(BENCH)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BENCH)/%: tests/bench/%.c | $(BENCH)
	$(CC) $(CFLAGS) $< $(LDLIBS) -o $@

# The limit's programs find their targets as the tools' do (btf_targets.h).
$(BENCH)/empty: tests/bench/empty.c $(OUTPUT)/libcommon.a | $(BENCH)
	$(CC) $(CFLAGS) $(filter %.c %.a,$^) $(LDLIBS) -o $@

bench-progs: $(BENCH_PROGS)

bench: deps
	$(MAKE) all test-progs unit-tests bench-progs
	tests/bench/run

# Debian's newest kernel (sid) by default; DEMO_KERNEL=6.1 for bookworm's.
DEMO_KERNEL ?= sid
# Only what it boots is installed and set up: a fresh machine reaches it in
# minutes (make test sets up the rest).
demo:
	tests/install-deps --build
	$(MAKE) all
	tests/vm/setup --demo --kernel $(DEMO_KERNEL)
	tests/vm/run --kernel $(DEMO_KERNEL) -- bash tests/demo/drmsched.sh

clean:
	rm -rf $(OUTPUT) $(BIN)
