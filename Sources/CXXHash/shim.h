/*
 * CXXHash: the system xxHash library (Debian/Ubuntu: libxxhash-dev,
 * Homebrew: xxhash), found through pkg-config as `libxxhash`.
 *
 * CRegistry includes xxhash.h itself with XXH_INLINE_ALL, so the hot path is
 * inlined and never calls into the shared library; this target exists so that
 * SwiftPM finds the headers through pkg-config and tells a user who lacks them
 * which package to install.
 */
#ifndef CXXHASH_SHIM_H
#define CXXHASH_SHIM_H
#include <xxhash.h>
#endif
