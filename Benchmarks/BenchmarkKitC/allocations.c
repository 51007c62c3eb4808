// Counts the allocator's hand-outs (malloc, calloc, realloc, the aligned forms) of the whole process, for the
// allocations-per-message figures. The executable's definitions take the place of glibc's (symbol
// interposition) and forward to glibc's own entry points; every side of a benchmark runs with the same counter,
// one relaxed atomic increment per call.
#include "BenchmarkKitC.h"
#include <errno.h>
#include <stdatomic.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BENCHMARK_SANITIZED 1
#endif
#endif

#ifdef BENCHMARK_SANITIZED
// A sanitizer brings its own allocator: nothing is interposed and nothing is counted (benchmarks are not run
// under sanitizers; scripts/sanitize only builds them).
unsigned long long benchmark_allocations(void) { return 0; }
#else

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic unsigned long long allocations;

static void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

unsigned long long benchmark_allocations(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}
#endif
