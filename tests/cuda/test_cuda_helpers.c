// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of cudatrace's common helpers: the CUDA result tables
 * (cuda_errors.h) and the ELF / process-map / library lookups
 * (uprobe_helpers.h), against this test's own executable and mappings.
 *
 *   test_cuda_helpers                 run the tests
 *   test_cuda_helpers --dump-errors   print the tables, "driver|runtime VALUE NAME"
 *                                     (tests/host/cudatrace.sh checks them
 *                                     against the toolkit's headers)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cudatrace/cuda_errors.h"
#include "uprobe_helpers.h"

/* A function to find: noinline and used, so it has a symbol of its own. */
__attribute__((noinline, used)) int lookup_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

/* A name or "(null)": CHECK_STR must not get NULL. */
static const char *str(const char *s)
{
	return s ? s : "(null)";
}

static void test_names(void)
{
	char buf[32];

	CHECK_STR("CUresult 0", str(cuda_result_name(0)), "CUDA_SUCCESS");
	CHECK_STR("CUresult 2", str(cuda_result_name(2)), "CUDA_ERROR_OUT_OF_MEMORY");
	CHECK_STR("CUresult 34", str(cuda_result_name(34)), "CUDA_ERROR_STUB_LIBRARY");
	CHECK_STR("CUresult 719", str(cuda_result_name(719)), "CUDA_ERROR_LAUNCH_FAILED");
	CHECK_STR("CUresult 999", str(cuda_result_name(999)), "CUDA_ERROR_UNKNOWN");
	CHECK_STR("cudaError 0", str(cuda_rt_error_name(0)), "cudaSuccess");
	CHECK_STR("cudaError 2 is not the driver's name", str(cuda_rt_error_name(2)),
		  "cudaErrorMemoryAllocation");
	CHECK_STR("cudaError 34", str(cuda_rt_error_name(34)), "cudaErrorStubLibrary");
	CHECK_STR("cudaError 35", str(cuda_rt_error_name(35)), "cudaErrorInsufficientDriver");
	CHECK("unknown CUresult has no name", cuda_result_name(123456) == NULL, "has one");
	CHECK_STR("unknown CUresult printed as a number",
		  cuda_result_str(123456, 0, buf, sizeof(buf)), "CUresult(123456)");
	CHECK_STR("unknown cudaError printed as a number",
		  cuda_result_str(-7, 1, buf, sizeof(buf)), "cudaError(-7)");
	CHECK_STR("cuda_result_str picks the runtime table", cuda_result_str(1, 1, buf, sizeof(buf)),
		  "cudaErrorInvalidValue");
}

static int unique(const struct cuda_error_name *t, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (t[i].value == t[j].value || !strcmp(t[i].name, t[j].name))
				return 0;
	return 1;
}

static void test_tables(void)
{
	CHECK("CUresult table is large", cuda_result_count >= 90, "%u entries", cuda_result_count);
	CHECK("cudaError table is large", cuda_rt_error_count >= 120, "%u entries",
	      cuda_rt_error_count);
	CHECK("CUresult values and names are unique", unique(cuda_result_names, cuda_result_count),
	      "duplicates");
	CHECK("cudaError values and names are unique",
	      unique(cuda_rt_error_names, cuda_rt_error_count), "duplicates");
}

/* The mapping of this executable that holds address a. */
static int self_map(unsigned long a, struct proc_map *out, char **path)
{
	struct proc_map *maps;
	size_t n, i;
	int found = 0;

	if (proc_maps_read(getpid(), &maps, &n))
		return 0;
	for (i = 0; i < n; i++) {
		if (a >= maps[i].start && a < maps[i].end) {
			*out = maps[i];
			*path = strdup(maps[i].path);
			out->path = *path;	/* maps[i].path is freed below */
			found = maps[i].exec;
			break;
		}
	}
	proc_maps_free(maps, n);
	return found;
}

static void test_elf(void)
{
	unsigned long addr = (unsigned long)(uintptr_t)lookup_target, delta = 99;
	struct elf_syms *s = NULL;
	struct proc_map m;
	char *path = NULL, open_path[PATH_MAX + 64];
	const char *name;
	long off;
	int err;

	CHECK("proc maps name the executable mapping of a function", self_map(addr, &m, &path),
	      "no executable mapping holds %#lx", addr);
	if (!path)
		return;
	proc_map_open_path(getpid(), &m, open_path, sizeof(open_path));
	CHECK_STR("a file mapped here opens under its own path", open_path, path);

	err = elf_syms_load(path, &s);
	CHECK("elf_syms_load reads this test", err == 0, "%s", elf_syms_strerror(err));
	if (err) {
		free(path);
		return;
	}
	off = elf_syms_offset(s, "lookup_target");
	/* What a uprobe needs: the file offset, = address - mapping start + its offset. */
	CHECK_U64("file offset of a function", off, addr - m.start + m.pgoff);
	CHECK("absent function", elf_syms_offset(s, "no_such_function_here") == -1, "found");
	name = elf_syms_at(s, off, &delta);
	CHECK("function at its offset", name && !strcmp(name, "lookup_target") && delta == 0,
	      "%s+%lu", name ? name : "NULL", delta);
	name = elf_syms_at(s, off + 2, &delta);
	CHECK("function inside it", name && !strcmp(name, "lookup_target") && delta == 2,
	      "%s+%lu", name ? name : "NULL", delta);
	elf_syms_free(s);
	free(path);

	err = elf_syms_load("/etc/passwd", &s);
	CHECK("a text file is not ELF", err == -ENOEXEC, "err %d", err);
	CHECK_STR("not-ELF reason", elf_syms_strerror(-ENOEXEC), "not an ELF file");
	err = elf_syms_load("/nonexistent/libcuda.so.1", &s);
	CHECK("a missing file", err == -ENOENT, "err %d", err);
}

static void test_syms_cache(void)
{
	unsigned long addr = (unsigned long)(uintptr_t)lookup_target + 2, delta = 0;
	struct syms_cache *c = syms_cache_new();
	const char *name, *file = NULL;

	name = syms_cache_resolve(c, getpid(), addr, &delta, &file);
	CHECK("symbolizer names an address of this process",
	      name && !strcmp(name, "lookup_target") && delta == 2, "%s+%lu",
	      name ? name : "NULL", delta);
	CHECK("symbolizer names the file", file && file[0] == '/', "%s", file ? file : "NULL");
	name = syms_cache_resolve(c, getpid(), 16, &delta, NULL);
	CHECK("an unmapped address has no name", name == NULL, "%s", name);
	syms_cache_free(c);
}

static void test_find_libraries(void)
{
	char dir[] = "/tmp/cudatrace-test.XXXXXX", path[PATH_MAX], link[PATH_MAX];
	const char *dirs[] = { dir, NULL };
	char found[4][PATH_MAX];
	int n, fd;

	if (!mkdtemp(dir)) {
		CHECK("temporary directory", 0, "%s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/libfakecuda.so.1", dir);
	fd = creat(path, 0644);
	if (fd >= 0)
		close(fd);
	snprintf(link, sizeof(link), "%s/libfakecuda.so", dir);
	if (symlink("libfakecuda.so.1", link))
		CHECK("symlink", 0, "%s", strerror(errno));
	snprintf(path, sizeof(path), "%s/libother.so", dir);
	fd = creat(path, 0644);
	if (fd >= 0)
		close(fd);

	n = find_libraries("libfakecuda.so", dirs, found, 4);
	CHECK_U64("a library and its symlink are found once", n, 1);
	CHECK("same_file sees through the symlink", same_file(link, found[0]), "%s", found[0]);
	n = find_libraries("libnothing.so", dirs, found, 4);
	CHECK_U64("no match", n, 0);

	unlink(link);
	snprintf(path, sizeof(path), "%s/libfakecuda.so.1", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/libother.so", dir);
	unlink(path);
	rmdir(dir);
}

static void dump_errors(void)
{
	unsigned int i;

	for (i = 0; i < cuda_result_count; i++)
		printf("driver %d %s\n", cuda_result_names[i].value, cuda_result_names[i].name);
	for (i = 0; i < cuda_rt_error_count; i++)
		printf("runtime %d %s\n", cuda_rt_error_names[i].value, cuda_rt_error_names[i].name);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--dump-errors")) {
		dump_errors();
		return 0;
	}
	test_names();
	test_tables();
	test_elf();
	test_syms_cache();
	test_find_libraries();
	return check_failures ? 1 : 0;
}
