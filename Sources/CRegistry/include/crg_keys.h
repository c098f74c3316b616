/*
 * The declaration a thread is taking from a compile-time-checked key's
 * getter (DESIGN.md, "Compile-time-checked keys").
 *
 * A key's getter runs at every resolve, and a resolve needs only the key's
 * name: so the value the getter builds holds only where the key is
 * declared, and its factory and options are handed over only when the
 * key's registration is made. Then the front end sets this thread's
 * declaration, runs the getter again, and the key's initializer and
 * modifiers, finding it set, give it what they were given. Elsewhere each
 * of them costs one thread-local load.
 *
 * The pointer is the front end's object, owned by the frame that set it
 * (which restores the value it found before returning); nothing here
 * retains, releases or reads it.
 */
#ifndef CRG_KEYS_H
#define CRG_KEYS_H

#include "crg_base.h"

CRG_EXTERN_C_BEGIN

/** Private: the calling thread's declaration, or NULL. */
extern CRG_THREAD_LOCAL void *CRG_NULLABLE crg_internal_key_declaration;

/** The declaration the calling thread is taking, or NULL (almost always). */
static inline CRG_ALWAYS_INLINE void *CRG_NULLABLE crg_key_declaration(void) {
    return crg_internal_key_declaration;
}

/** Sets the calling thread's declaration; returns the one it replaces. */
static inline CRG_ALWAYS_INLINE void *CRG_NULLABLE crg_key_declaration_exchange(void *CRG_NULLABLE declaration) {
    void *previous = crg_internal_key_declaration;
    crg_internal_key_declaration = declaration;
    return previous;
}

CRG_EXTERN_C_END

#endif /* CRG_KEYS_H */
