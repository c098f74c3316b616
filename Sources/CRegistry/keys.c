/*
 * The declaration a thread is taking from a key's getter. See include/crg_keys.h.
 */
#include "crg_keys.h"

CRG_THREAD_LOCAL void *crg_internal_key_declaration = NULL;
