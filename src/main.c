/* SPDX-License-Identifier: Zlib */
/* main.c: rc's entry point. */
#include "rc.h"

#ifdef RC_ASAN
/* LeakSanitizer's options before the environment's: the shell registers
 * the objects' globals as roots of its own (leak_check, sigfn.c), and
 * LeakSanitizer is not to scan them all.  Here, not in sigfn.c: only the
 * shell does that; another program linked with the shell's library (the
 * unit tests) leaves the scan to LeakSanitizer. */
__attribute__((visibility("default"))) const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "use_globals=0";
}
#endif

int main(int argc, char **argv, char **envp)
{
	return rc_main(argc, argv, envp);
}
