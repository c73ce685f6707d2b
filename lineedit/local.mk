# SPDX-License-Identifier: Zlib
# lineedit/local.mk: line editing sources, the pty test helpers and the pty tests (included by Makefile.am).

# le_* without any editor library: for test programs that link the core.
LINEEDIT_PLAIN_SOURCES = lineedit/le.h lineedit/le_impl.h \
	lineedit/le_plain.c lineedit/le_none.c

# The backend src/rc links (with $(EDIT_LIBS)), per --with-readline.
if LE_NONE
LINEEDIT_SOURCES = $(LINEEDIT_PLAIN_SOURCES)
else
LINEEDIT_SOURCES = lineedit/le.h lineedit/le_impl.h lineedit/le_plain.c \
	lineedit/le_rl.h lineedit/le_rl.c lineedit/le_rl_keys.c lineedit/le_screen.c \
	lineedit/le_complete.c lineedit/le_keys.c
endif

# ptydrive runs a program on a pty from a script; le-demo stands in for the
# shell (same backend and libraries as src/rc) so the editor can be tested alone.
PTY_TOOLS = tests/ptydrive tests/le-demo
check_PROGRAMS += $(PTY_TOOLS)
tests_ptydrive_SOURCES = tests/ptydrive.c
tests_ptydrive_CFLAGS = $(BENCH_CFLAGS)
tests_ptydrive_LDFLAGS =
tests_ptydrive_LDADD = $(PTY_LIBS)
# le_complete.c quotes with the core's rule, in src/quote.c (librc.a for src/rc).
tests_le_demo_SOURCES = tests/le-demo.c $(LINEEDIT_SOURCES) src/quote.c
tests_le_demo_LDADD = $(EDIT_LIBS)

# TAP scripts, run by tap-driver.sh (configure.ac has AC_REQUIRE_AUX_FILE for it).
# Those that mostly wait come first (strace holding a system call, ^C to
# loops, job control): make -j check runs the others beside them, instead
# of ending with one of them alone (make -j2 check-terminal: 40-46 s, then
# 34-39 s).
PTY_TESTS = \
	tests/pty/strace-signals.test \
	tests/pty/rc-jobs.test \
	tests/pty/rc-interrupt.test \
	tests/pty/rc-interrupt-flush.test \
	tests/pty/plain.test \
	tests/pty/edit.test \
	tests/pty/rc-plain.test \
	tests/pty/rc-edit.test \
	tests/pty/rc-interactive.test \
	tests/pty/rc-interrupt-frees.test \
	tests/pty/rc-complete.test \
	tests/pty/rc-completers.test \
	tests/pty/rc-history.test \
	tests/pty/rc-whatis-editor.test \
	tests/pty/rc-editor-states.test \
	tests/pty/rc-screen.test \
	tests/pty/rc-line-input.test \
	tests/pty/rc-terminal.test \
	tests/pty/rc-soak.test \
	tests/pty/rc-rcrc.test \
	tests/pty/rc-login.test \
	tests/pty/rc-keys.test \
	tests/pty/rc-keys-screen.test \
	tests/pty/rc-editlib.test \
	tests/pty/strace-jobs.test \
	tests/pty/strace-noedit.test
EXTRA_DIST += $(PTY_TESTS) tests/pty/lib.sh tests/pty/screen.sh
TEST_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
# The .test scripts are POSIX sh (#!/bin/sh), run by it, not by $(SHELL)
# (bash here): the terminal tests start a process or more per step, and a
# fork of bash costs more than one of dash (make -j2 check of tests/pty/,
# two runs each: 28 and 37 s of CPU under bash, 23 and 24 s under dash).
TEST_LOG_COMPILER = /bin/sh
AM_TESTS_ENVIRONMENT += LE_LIB='$(LE_LIB)'; export LE_LIB;
