/* SPDX-License-Identifier: Zlib */
/* main.c: rc's entry point. */
#include "rc.h"

int main(int argc, char **argv, char **envp)
{
	return rc_main(argc, argv, envp);
}
