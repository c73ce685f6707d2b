# SPDX-License-Identifier: Zlib
# tests/fuzz/local.mk: libFuzzer harnesses for the lexer and parser
# (fuzz_parse) and for the interpreter (fuzz_eval), included by Makefile.am.
# configure CC=clang --enable-fuzzing builds the core once more with
# coverage instrumentation and the sanitizers; "make fuzz" builds the
# harnesses and runs each for FUZZ_SECONDS (tests/fuzz/run), then AFL++ on
# the whole shell running scripts that fork, each in a jail, for as long
# (tests/fuzz/afl-fork, skipped without afl++ or root; see its header for
# runs of hours).

FUZZ_HARNESSES = tests/fuzz/fuzz_parse tests/fuzz/fuzz_eval
FUZZ_SECONDS = 60
EXTRA_DIST += tests/fuzz/fuzz_parse.c tests/fuzz/fuzz_eval.c tests/fuzz/rc.dict tests/fuzz/afl \
	tests/fuzz/afl-fork tests/fuzz/jail.c tests/fuzz/run tests/fuzz/regress tests/valgrind-suite

# make check replays the saved findings through both harnesses, built
# without libFuzzer and without coverage instrumentation, on every build
# (tests/fuzz/regress.test): a fixed finding that comes back fails there,
# not only in a fuzzing build.
# The eval harness needs glibc and a dynamic link (configure says why);
# elsewhere its findings are reported skipped.
check_PROGRAMS += tests/fuzz/replay_parse
if REPLAY_EVAL
check_PROGRAMS += tests/fuzz/replay_eval
endif
tests_fuzz_replay_parse_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_parse.c $(LINEEDIT_PLAIN_SOURCES)
tests_fuzz_replay_parse_LDADD = src/librc.a
tests_fuzz_replay_eval_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_eval.c $(LINEEDIT_PLAIN_SOURCES)
tests_fuzz_replay_eval_CPPFLAGS = $(AM_CPPFLAGS) -DREPLAY_INITIALIZE
tests_fuzz_replay_eval_LDADD = src/librc.a -ldl
FUZZ_REGRESS_TESTS = tests/fuzz/regress.test
TESTS += $(FUZZ_REGRESS_TESTS)
EXTRA_DIST += tests/fuzz/replay.c $(FUZZ_REGRESS_TESTS)

if ENABLE_FUZZING
# built only by "make fuzz", never by make or make check
EXTRA_PROGRAMS = $(FUZZ_HARNESSES)
EXTRA_LIBRARIES = tests/fuzz/librc-fuzz.a
tests_fuzz_librc_fuzz_a_SOURCES = $(src_librc_a_SOURCES) $(LINEEDIT_PLAIN_SOURCES)
tests_fuzz_librc_fuzz_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_parse_SOURCES = tests/fuzz/fuzz_parse.c
tests_fuzz_fuzz_parse_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_parse_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_parse_LDADD = tests/fuzz/librc-fuzz.a
tests_fuzz_fuzz_eval_SOURCES = tests/fuzz/fuzz_eval.c
tests_fuzz_fuzz_eval_CFLAGS = $(AM_CFLAGS) $(FUZZ_CFLAGS)
tests_fuzz_fuzz_eval_LDFLAGS = $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_eval_LDADD = tests/fuzz/librc-fuzz.a -ldl
CLEANFILES += $(FUZZ_HARNESSES) tests/fuzz/librc-fuzz.a

fuzz: $(FUZZ_HARNESSES)
	FUZZ_SECONDS=$(FUZZ_SECONDS) srcdir=$(srcdir) \
	$(BASH_SHELL) $(srcdir)/tests/fuzz/run $(FUZZ_HARNESSES); s=$$?; \
	$(BASH_SHELL) $(srcdir)/tests/fuzz/afl-fork $(FUZZ_SECONDS); a=$$?; \
	test $$a = 77 && a=0; test $$s = 0 && test $$a = 0
else
fuzz:
	@echo "make fuzz: configure with CC=clang --enable-fuzzing first" >&2; exit 1
endif
.PHONY: fuzz
