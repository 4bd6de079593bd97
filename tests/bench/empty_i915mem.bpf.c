// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, on i915mem's object lifecycle hooks: what tracing them costs at the least. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tp_btf/i915_gem_object_create") int create(void *ctx) { return 0; }
SEC("tp_btf/i915_vma_bind") int bind(void *ctx) { return 0; }
SEC("tp_btf/i915_vma_unbind") int unbind(void *ctx) { return 0; }
SEC("tp_btf/i915_gem_object_destroy") int destroy(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
