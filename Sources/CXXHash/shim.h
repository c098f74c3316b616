/*
 * CXXHash: the xxHash header from the system's include path (Debian/Ubuntu:
 * libxxhash-dev).
 *
 * CRegistry includes xxhash.h itself with XXH_INLINE_ALL, so the hash is
 * compiled inline and nothing links the shared library libxxhash: apps need
 * the header to build, not the library to run. The target takes no
 * pkg-config entry, whose `--libs` SwiftPM would add to every link.
 */
#ifndef CXXHASH_SHIM_H
#define CXXHASH_SHIM_H
#include <xxhash.h>
#endif
