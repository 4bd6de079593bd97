// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, on i915mem's object lifecycle hooks: what tracing them costs at the least. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tp_btf/i915_gem_object_create") int create(void *ctx) { return 0; }
SEC("tp_btf/i915_vma_bind") int bind(void *ctx) { return 0; }
SEC("tp_btf/i915_vma_unbind") int unbind(void *ctx) { return 0; }
SEC("tp_btf/i915_gem_object_destroy") int destroy(void *ctx) { return 0; }

/*
 * All of i915mem's hooks, named as its programs are: start-up's limit
 * (tests/bench/i915mem-guest.sh loads those i915mem loaded).
 */
#define EMPTY(sec, name) SEC(sec) int name(void *ctx) { return 0; }
EMPTY("tp_btf/i915_gem_object_create", i915_create)
EMPTY("tp_btf/i915_gem_object_destroy", i915_destroy)
EMPTY("tp_btf/i915_vma_bind", i915_bind)
EMPTY("tp_btf/i915_vma_unbind", i915_unbind)
EMPTY("tp_btf/i915_gem_object_fault", i915_fault)
EMPTY("tp_btf/i915_gem_object_pread", i915_pread)
EMPTY("tp_btf/i915_gem_object_pwrite", i915_pwrite)
EMPTY("tp_btf/i915_gem_shrink", i915_shrink)
EMPTY("tp_btf/i915_gem_evict", i915_evict)
EMPTY("tp_btf/i915_gem_evict_node", i915_evict_node)
EMPTY("tp_btf/i915_gem_evict_vm", i915_evict_vm)
EMPTY("tp_btf/i915_ppgtt_create", i915_vm_create)
EMPTY("tp_btf/i915_ppgtt_release", i915_vm_free)
EMPTY("tp_btf/xe_bo_create", xe_create)
EMPTY("fentry/xe_ttm_bo_destroy", xe_destroy)
EMPTY("tp_btf/xe_vma_bind", xe_vma_bind)
EMPTY("tp_btf/xe_vma_rebind_worker", xe_vma_rebind_worker)
EMPTY("tp_btf/xe_vma_rebind_exec", xe_vma_rebind_exec)
EMPTY("tp_btf/xe_vma_unbind", xe_vma_unbind)
EMPTY("tp_btf/xe_vma_evict", xe_vma_evict)
EMPTY("tp_btf/xe_vma_pagefault", xe_vma_pagefault)
EMPTY("tp_btf/xe_bo_cpu_fault", xe_cpu_fault)
EMPTY("tp_btf/xe_bo_move", xe_move)
EMPTY("tp_btf/xe_vm_create", xe_vm_create)
EMPTY("tp_btf/xe_vm_free", xe_vm_free)

char LICENSE[] SEC("license") = "GPL";
