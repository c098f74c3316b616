/*
 * CRegistry: what every header shares. See cregistry.h for the overview.
 */
#ifndef CRG_BASE_H
#define CRG_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__clang__)
#define CRG_NULLABLE _Nullable
#define CRG_NONNULL _Nonnull
#else
#define CRG_NULLABLE
#define CRG_NONNULL
#endif

/* CRG_ALWAYS_INLINE: for the few functions every lookup runs, inlined even
 * where the compiler's size heuristic would not (Swift callers included).
 * CRG_NORETURN: a function that does not return (Swift imports it as
 * returning Never). CRG_LIKELY/CRG_UNLIKELY: branch hints. */
#if defined(__GNUC__) || defined(__clang__)
#define CRG_ALWAYS_INLINE __attribute__((always_inline))
#define CRG_NORETURN __attribute__((noreturn))
#define CRG_LIKELY(x) __builtin_expect(!!(x), 1)
#define CRG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CRG_ALWAYS_INLINE
#define CRG_NORETURN
#define CRG_LIKELY(x) (x)
#define CRG_UNLIKELY(x) (x)
#endif

/* Shared fields are plain fields accessed only through the __atomic builtins
 * (or before the object is published), so the headers also parse as C++, as
 * a Swift client with C++ interoperability imports them. */
#ifdef __cplusplus
#define CRG_THREAD_LOCAL thread_local
#define CRG_EXTERN_C_BEGIN extern "C" {
#define CRG_EXTERN_C_END }
#else
#define CRG_THREAD_LOCAL _Thread_local
#define CRG_EXTERN_C_BEGIN
#define CRG_EXTERN_C_END
#endif

/**
 * How an object handed to the library is given back when the library is done
 * with it: `release(object, context)`. For values stored in tables and for
 * objects passed to crg_retire(). Called with no lock of the library held.
 */
typedef void (*crg_release_fn)(void *CRG_NONNULL object, void *CRG_NULLABLE context);

/**
 * Where a table or container gets all its memory (crg_options): `allocate(size,
 * context)` returns `size` bytes aligned as malloc's, or NULL (the operation
 * is undone and fails with ENOMEM); `deallocate(pointer, context)` gives it
 * back. It must stay usable until every table and container using it is
 * destroyed and collected, from any thread (whichever collects frees).
 */
typedef struct crg_allocator {
    void *CRG_NULLABLE (*CRG_NONNULL allocate)(size_t size, void *CRG_NULLABLE context);
    void (*CRG_NONNULL deallocate)(void *CRG_NULLABLE pointer, void *CRG_NULLABLE context);
    void *CRG_NULLABLE context;
} crg_allocator;

/** One step of a spin-wait: tells the CPU the loop waits on another core. */
static inline void crg_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif /* CRG_BASE_H */
