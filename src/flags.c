/* SPDX-License-Identifier: Zlib */
/* flag.c: the shell's options, set by start-up (rc -e ...) and by the
 * flag builtin, read where they change what the shell does. */
#include "rc.h"

Flags flag;
