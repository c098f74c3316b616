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

/* For the few functions a resolve runs: inlined even where the compiler's
 * size heuristic would not (Swift callers included). */
#if defined(__GNUC__) || defined(__clang__)
#define CRG_ALWAYS_INLINE __attribute__((always_inline))
#else
#define CRG_ALWAYS_INLINE
#endif

/* A function that does not return (Swift imports it as returning Never). */
#if defined(__GNUC__) || defined(__clang__)
#define CRG_NORETURN __attribute__((noreturn))
#else
#define CRG_NORETURN
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CRG_LIKELY(x) __builtin_expect(!!(x), 1)
#define CRG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CRG_LIKELY(x) (x)
#define CRG_UNLIKELY(x) (x)
#endif

/*
 * Atomic accesses use the GCC/Clang __atomic builtins on plain fields, so the
 * headers also parse as C++ (a Swift client with C++ interoperability on
 * imports them that way). Every shared field is only ever accessed through
 * them (or before the object is published).
 */
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

/** One step of a spin-wait: tells the CPU the loop waits on another core. */
static inline void crg_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif /* CRG_BASE_H */
