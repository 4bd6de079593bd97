// SPDX-License-Identifier: GPL-2.0
/* An object's CO-RE relocations, from its .BTF.ext (core_relos.h). */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "core_relos.h"

/* .BTF.ext's header as libbpf writes it (its btf.h keeps it private). */
struct btf_ext_header {
	__u16 magic;
	__u8 version;
	__u8 flags;
	__u32 hdr_len;
	__u32 func_info_off, func_info_len;
	__u32 line_info_off, line_info_len;
	__u32 core_relo_off, core_relo_len;
};

/* The section .BTF.ext of ELF, its size in *size; NULL if it has none. */
static const void *find_btf_ext(Elf *elf, size_t *size)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr shdr;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || !(name = elf_strptr(elf, shstrndx, shdr.sh_name)) ||
		    strcmp(name, ".BTF.ext"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			return NULL;
		*size = data->d_size;
		return data->d_buf;
	}
	return NULL;
}

/* Per section: its name's offset, how many records, the records. */
static int walk_relos(const struct btf_ext_header *h, size_t size,
		      int (*fn)(const struct bpf_core_relo *r, void *ctx), void *ctx)
{
	const char *data, *end;
	__u32 rec_size;
	int err = 0;

	if (size < sizeof(*h) || h->hdr_len < sizeof(*h) ||
	    (size_t)h->hdr_len + h->core_relo_off + h->core_relo_len > size)
		return size < offsetof(struct btf_ext_header, core_relo_off) ? 0 : -EPROTO;
	if (!h->core_relo_len)
		return 0;
	data = (const char *)h + h->hdr_len + h->core_relo_off;
	end = data + h->core_relo_len;
	if (h->core_relo_len < sizeof(__u32) || (rec_size = *(const __u32 *)data) < sizeof(struct bpf_core_relo))
		return -EPROTO;
	data += sizeof(__u32);
	while (!err && data + 2 * sizeof(__u32) <= end) {
		__u32 nr = ((const __u32 *)data)[1], i;

		data += 2 * sizeof(__u32);
		for (i = 0; !err && i < nr && data + rec_size <= end; i++, data += rec_size)
			err = fn((const void *)data, ctx);
	}
	return err;
}

int core_relos_foreach(const void *elf_data, size_t elf_size,
		       int (*fn)(const struct bpf_core_relo *r, void *ctx), void *ctx)
{
	const struct btf_ext_header *h;
	size_t size = 0;
	int err = 0;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)elf_data, elf_size);
	if (!elf)
		return -EPROTO;
	h = find_btf_ext(elf, &size);
	if (h)
		err = walk_relos(h, size, fn, ctx);
	elf_end(elf);
	return err;
}
