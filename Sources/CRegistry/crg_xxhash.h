/*
 * The one place the C core includes xxhash.h, compiled inline (nothing links
 * libxxhash): from the include path, or on Apple systems from Homebrew's two
 * prefixes, which no compiler searches; else the build says what to install.
 */
#ifndef CRG_XXHASH_H
#define CRG_XXHASH_H

#define XXH_INLINE_ALL

#if !defined(__has_include)
#include <xxhash.h>
#elif __has_include(<xxhash.h>)
#include <xxhash.h>
#elif defined(__APPLE__) && __has_include("/opt/homebrew/include/xxhash.h")
/* A system header, as the include path makes it on Linux (its warnings are
 * not the app's). */
#pragma GCC system_header
#include "/opt/homebrew/include/xxhash.h"
#elif defined(__APPLE__) && __has_include("/usr/local/include/xxhash.h")
#pragma GCC system_header
#include "/usr/local/include/xxhash.h"
#else
#error "Resolver needs the xxHash header, xxhash.h, to build (not the library: nothing links libxxhash). Install it: Debian/Ubuntu: apt-get install libxxhash-dev; Fedora: dnf install xxhash-devel; Alpine: apk add xxhash-dev; macOS: brew install xxhash"
/* Stops clang here, before table.c's uses of XXH3 add errors of their own. */
#include <xxhash.h>
#endif

#endif /* CRG_XXHASH_H */
