#ifndef BENCHMARKKITC_H
#define BENCHMARKKITC_H
#include <stddef.h>

/// Bytes glibc's allocator has handed out and not taken back: small blocks in use plus large mapped
/// ones (mallinfo2's uordblks + hblkhd). Swift's Glibc module does not export malloc.h.
size_t benchmark_heap_in_use(void);

/// Allocator calls (malloc, calloc, realloc, aligned forms) the whole process made so far (allocations.c).
unsigned long long benchmark_allocations(void);

#endif
