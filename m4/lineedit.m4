# SPDX-License-Identifier: Zlib
# lineedit.m4: RC_LINEEDIT, the line-editing build switches (lineedit/local.mk uses them).
#
# --with-readline=lazy|dynamic|static|no   how the editor gets in (default lazy; yes = lazy)
# --with-editline-lib=readline|libedit     which library: the one linked, or the first
#                                          one tried when lazy (default readline)
# LE_SONAMES                               the dlopen list for lazy mode, first choice first
#
# Substitutes EDIT_LIBS (for src/rc only, never LIBS), LE_MODE (lazy, dynamic,
# static or no) and LE_LIB (the sonames tried, or the library linked), and
# writes lineedit/le_config.h (from lineedit/le_config.h.in) for
# lineedit/le_rl.c: LE_LAZY, LE_STATIC and LE_USE_LIBEDIT (0 or 1),
# LE_SONAMES and LE_LIB.  Not in config.h: the line-editing modes' config.h
# are then the same, and so is every other file they compile (ccache finds
# each in its cache without preprocessing it, tests/ci-all).
# AM_CONDITIONAL LE_NONE is true for --with-readline=no.

# RC_LE_NEEDED(LIB, VAR): link a program with -lLIB; set VAR to its NEEDED
# soname for that library, or leave VAR empty.
AC_DEFUN([RC_LE_NEEDED],
[$2=
rc_le_save_LIBS=$LIBS
LIBS="-l$1 $LIBS"
AC_LINK_IFELSE([AC_LANG_CALL([], [readline])],
  [AS_IF([test "x$OBJDUMP" != xno],
    [$2=`$OBJDUMP -p conftest$EXEEXT 2>/dev/null |
      sed -n 's/^ *NEEDED  *//p' | grep "^lib$1\." | sed 1q`])])
LIBS=$rc_le_save_LIBS])

AC_DEFUN([RC_LINEEDIT],
[AC_REQUIRE([AC_PROG_CC])
AC_REQUIRE([AC_USE_SYSTEM_EXTENSIONS])
AC_REQUIRE([PKG_PROG_PKG_CONFIG])

AC_ARG_WITH([readline],
  [AS_HELP_STRING([--with-readline=MODE],
    [line editing: lazy (load GNU readline or libedit when interactive; default),
     dynamic, static (link the editor in) or no])],
  [], [with_readline=lazy])
AC_ARG_WITH([editline-lib],
  [AS_HELP_STRING([--with-editline-lib=LIB],
    [readline (default) or libedit: the library to link, or to try first when lazy])],
  [], [with_editline_lib=readline])
AC_ARG_VAR([LE_SONAMES],
  [libraries a lazy build loads, first choice first (default: found by linking, else libreadline.so.8 libedit.so.2)])

AS_CASE([$with_readline],
  [yes], [with_readline=lazy],
  [lazy|dynamic|static|no], [],
  [AC_MSG_ERROR([--with-readline=$with_readline: use lazy, dynamic, static or no])])
AS_CASE([$with_editline_lib],
  [readline|libedit], [],
  [AC_MSG_ERROR([--with-editline-lib=$with_editline_lib: use readline or libedit])])
AS_IF([test "x$with_editline_lib" = xlibedit],
  [rc_le_lib=edit rc_le_pc=libedit rc_le_header=editline/readline.h],
  [rc_le_lib=readline rc_le_pc=readline rc_le_header=readline/readline.h])

rc_le_static=no
AS_CASE([" $LDFLAGS "], [*" -static "*|*" -static-pie "*], [rc_le_static=yes])

EDIT_LIBS=
LE_LIB=
LE_LAZY=0 LE_STATIC=0 LE_USE_LIBEDIT=0 LE_SONAMES_C=
AS_CASE([$with_readline],
[lazy], [
  AS_IF([test $rc_le_static = yes],
    [AC_MSG_ERROR([--with-readline=lazy does not work in a static binary (LDFLAGS has -static): an editor loaded with dlopen would bring a second C library with its own heap. Use --with-readline=static or --with-readline=no])])
  rc_le_save_LIBS=$LIBS
  AC_SEARCH_LIBS([dlopen], [dl], [],
    [AC_MSG_ERROR([dlopen not found: use --with-readline=dynamic, static or no])])
  LIBS=$rc_le_save_LIBS
  AS_CASE([$ac_cv_search_dlopen], ["none required"], [],
    [EDIT_LIBS=$ac_cv_search_dlopen])
  AC_CHECK_TOOL([OBJDUMP], [objdump], [no])
  AC_CACHE_CHECK([for the sonames of GNU readline and libedit], [rc_cv_le_sonames],
    [RC_LE_NEEDED([readline], [rc_le_rl])
     RC_LE_NEEDED([edit], [rc_le_edit])
     rc_cv_le_sonames="${rc_le_rl:-libreadline.so.8} ${rc_le_edit:-libedit.so.2}"])
  AS_IF([test -n "$LE_SONAMES"], [LE_LIB=$LE_SONAMES],
    [LE_LIB=$rc_cv_le_sonames
     AS_IF([test $rc_le_lib = edit],
       [LE_LIB=`echo "$LE_LIB" | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "") }'`])])
  rc_le_cnames=`echo "$LE_LIB" | sed 's/^ *//; s/ *$//; s/  */", "/g; s/^/"/; s/$/"/'`
  LE_LAZY=1 LE_SONAMES_C=$rc_le_cnames
  AS_IF([test -n "$LE_SONAMES"],
    [rc_le_summary="lazy (LE_SONAMES) sonames: $LE_LIB"],
    [rc_le_summary="lazy ($with_editline_lib first) sonames: $LE_LIB"])
],
[dynamic|static], [
  AC_CHECK_HEADER([$rc_le_header], [],
    [AC_MSG_ERROR([--with-readline=$with_readline needs $rc_le_header (install the $rc_le_pc development files, or use --with-readline=lazy)])],
    [#include <stdio.h>])
  rc_le_pcflags=--libs
  AS_IF([test $with_readline = static], [rc_le_pcflags="--static --libs"])
  AS_IF([test -n "$PKG_CONFIG" && $PKG_CONFIG --exists $rc_le_pc],
    [rc_le_libs=`$PKG_CONFIG $rc_le_pcflags $rc_le_pc`],
    [AS_CASE([$with_readline/$rc_le_lib],
      [static/readline], [rc_le_libs="-lreadline -ltinfo"],
      [static/edit], [rc_le_libs="-ledit -ltinfo -lbsd"],
      [rc_le_libs=-l$rc_le_lib])])
  rc_le_libs=`echo $rc_le_libs`
  # Static editor, dynamic libc: -Bdynamic must come last so that gcc's own
  # -lc stays dynamic.  With LDFLAGS=-static everything is static anyway.
  AS_IF([test $with_readline = static && test $rc_le_static = no],
    [EDIT_LIBS="-Wl,-Bstatic $rc_le_libs -Wl,-Bdynamic"],
    [EDIT_LIBS=$rc_le_libs])
  AC_MSG_CHECKING([whether a program links with $EDIT_LIBS])
  rc_le_save_LIBS=$LIBS
  LIBS="$EDIT_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <stdio.h>
#include <$rc_le_header>]],
      [[rl_catch_signals = 0; return readline("") != 0;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([cannot link with $EDIT_LIBS (see config.log)])])
  LIBS=$rc_le_save_LIBS
  AS_IF([test $with_readline = static],
    [LE_LIB=lib$rc_le_lib.a LE_STATIC=1],
    [AC_CHECK_TOOL([OBJDUMP], [objdump], [no])
     RC_LE_NEEDED([$rc_le_lib], [LE_LIB])
     AS_IF([test -z "$LE_LIB"], [LE_LIB=lib$rc_le_lib.so])])
  AS_IF([test $rc_le_lib = edit], [LE_USE_LIBEDIT=1])
  rc_le_summary="$with_readline ($with_editline_lib) libs: $EDIT_LIBS"
],
[no], [
  LE_LIB=none
  rc_le_summary=no
])

LE_MODE=$with_readline
AC_SUBST([EDIT_LIBS])
AC_SUBST([LE_MODE])
AC_SUBST([LE_LIB])
AC_SUBST([LE_LAZY])
AC_SUBST([LE_STATIC])
AC_SUBST([LE_USE_LIBEDIT])
AC_SUBST([LE_SONAMES_C])
AC_CONFIG_FILES([lineedit/le_config.h])
AM_CONDITIONAL([LE_NONE], [test "x$with_readline" = xno])
AC_CONFIG_COMMANDS_PRE([AC_MSG_NOTICE([line editing: $rc_le_summary])])
])
