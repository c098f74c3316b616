/*
 * xxHash, for CRegistry's .c files only: the one place the C core includes
 * xxhash.h. XXH3 is compiled inline (XXH_INLINE_ALL), so nothing links
 * libxxhash. The header is looked for on the compiler's include path (Linux
 * puts it in /usr/include), then, on Apple systems, in Homebrew's two
 * prefixes by absolute path (/opt/homebrew, /usr/local), which neither
 * SwiftPM nor Apple's compilers search; where none has it, the build stops
 * with what to install.
 */
#ifndef CRG_XXHASH_H
#define CRG_XXHASH_H

#define XXH_INLINE_ALL

#if !defined(__has_include)
#include <xxhash.h>
#elif __has_include(<xxhash.h>)
#include <xxhash.h>
#elif defined(__APPLE__) && __has_include("/opt/homebrew/include/xxhash.h")
/* A header included by absolute path is not a system header by itself:
 * this makes it one, as the include path makes it on Linux (its warnings
 * are not the app's). */
#pragma GCC system_header
#include "/opt/homebrew/include/xxhash.h"
#elif defined(__APPLE__) && __has_include("/usr/local/include/xxhash.h")
#pragma GCC system_header
#include "/usr/local/include/xxhash.h"
#else
#error "Resolver needs the xxHash header, xxhash.h, to build (not the library: nothing links libxxhash). Install it: Debian/Ubuntu: apt-get install libxxhash-dev; Fedora: dnf install xxhash-devel; Alpine: apk add xxhash-dev; macOS: brew install xxhash"
/* Stops clang (SwiftPM's C compiler) here, with its own "file not found",
 * before the uses of XXH3 in table.c add errors of their own. */
#include <xxhash.h>
#endif

#endif /* CRG_XXHASH_H */
