#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""difftest: run random rc programs under the built shell and a reference rc
(1.7.4) and report where they differ.  See tests/difftest/README.md.

Usage: difftest.py --rc PATH [--reference PATH] [--count N | --seconds S]
                   [--jobs J] [--seed S] [--report DIR]
       difftest.py --show SEED            print the program of SEED
       difftest.py --rc PATH --one SEED   run one program, show both results
"""

import argparse
import codecs
import collections
import copy
import concurrent.futures as cf
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rcgen  # noqa: E402

TIMEOUT = 20          # seconds per run: generous, the machine may be loaded
NOBODY = 65534        # run as root, the programs run as this user
FSIZE = 4 << 20       # no program writes more than this to a file


# ---- running one program under one shell ------------------------------------

class Result:
    __slots__ = ('out', 'err', 'status', 'timeout')

    def __init__(self, out, err, status, timeout=False):
        self.out, self.err, self.status, self.timeout = out, err, status, timeout

    def key(self):
        return (self.out, self.err, self.status)

    def crashed(self):
        """Killed by a signal that means the shell itself broke, or broken
        in a way it says: a panic, a failed assertion (in a child, which
        then prints abort, or in the shell), a child's crash (SHELL_BROKE)."""
        return (isinstance(self.status, int) and self.status < 0 and
                -self.status in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS,
                                 signal.SIGFPE, signal.SIGILL)) or \
            SHELL_BROKE.search(self.err) is not None or \
            SHELL_BROKE.search(self.out) is not None    # sent there by >[2=1] or |[2]


def limits():
    """Set in the worker itself and inherited: a preexec_fn would make
    every spawn a full fork of the Python process."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE, FSIZE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def drop_root(base):
    """Under root a program could write anywhere (a mutation turns
    >/nonexistent/x into >/nonexistent, which then exists for every later
    run, of this tester and of everything else on the machine): the
    process that runs the programs (a worker, or the tester with --one)
    becomes an unprivileged user for good.  Done once here rather than by
    Popen(user=...), which forks instead of vforking: 35 ms a run more."""
    if os.geteuid() != 0:
        return
    codecs.lookup('latin-1')    # loaded now: Python may be unreadable after
    os.chown(base, NOBODY, NOBODY)
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


class Runner:
    """Runs programs in a private directory: WORK/d is the program's fresh
    directory, WORK/bin/rc the shell under test (so `rc` in a program runs
    the same shell), WORK/prog.rc the script."""

    def __init__(self, base):
        drop_root(base)
        self.work = os.path.join(base, 'w%d' % os.getpid())
        os.makedirs(os.path.join(self.work, 'bin'), exist_ok=True)
        limits()
        self.dir = os.path.join(self.work, 'd')

    def run(self, shell, prog, text=None, wrap=None):
        """The result of prog under shell; wrap, a command such as strace,
        runs the shell (as WORK/bin/rc, so argv[0] names it by path)."""
        if text is None:
            text = prog.text
        work, d = self.work, self.dir
        try:
            os.rmdir(d)          # usually empty: cheaper than rmtree
        except FileNotFoundError:
            pass
        except OSError:
            for root, dirs, _ in os.walk(d):
                for name in dirs:   # a program may have made one unreadable
                    try:
                        os.chmod(os.path.join(root, name), 0o700)
                    except OSError:
                        pass
            shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
        link = os.path.join(work, 'bin', 'rc')
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(shell, link)
        script = os.path.join(work, 'prog.rc')
        if text.endswith('\\'):
            # 1.7.4 reads the end of input after a backslash as a byte
            # 0xff (a bug): the program gets the newline it lacks
            text += '\n'
        with open(script, 'w', encoding='latin-1') as f:
            f.write(text)
        env = {'PATH': os.path.join(work, 'bin') + ':/usr/bin:/bin', 'HOME': d,
               'TERM': 'dumb', 'LC_ALL': 'C'}
        for k, v in prog.env:
            env[k] = v
        argv = prog.argv('../prog.rc')
        if prog.mode == 'c':
            argv[argv.index('-c') + 1] = text
        stdin_path = script if prog.stdin_text() is not None else '/dev/null'
        outp, errp = os.path.join(work, 'out'), os.path.join(work, 'err')
        with open(stdin_path, 'rb') as fin, open(outp, 'wb') as fout, open(errp, 'wb') as ferr:
            for attempt in range(10):
                try:
                    args, exe = ['rc'] + argv, shell
                    if wrap:
                        args, exe = wrap + [link] + argv, None
                    p = subprocess.Popen(args, executable=exe, cwd=d, env=env,
                                         stdin=fin, stdout=fout, stderr=ferr,
                                         start_new_session=True, close_fds=True)
                    break
                except BlockingIOError:     # out of processes: wait a little
                    time.sleep(1 + attempt)
                except OSError as e:
                    return Result(b'', str(e).encode(), 'spawn-failed')
            else:
                return Result(b'', b'could not fork', 'spawn-failed')
            status = wait_for(p)
            timeout = status == 'timeout'
            # the whole process group goes, stragglers included
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if timeout:
                p.wait()
        with open(outp, 'rb') as f:
            out = f.read()
        with open(errp, 'rb') as f:
            err = f.read()
        if wrap:    # the shell ran as WORK/bin/rc: messages may name it so
            out, err = out.replace(link.encode(), b'rc'), err.replace(link.encode(), b'rc')
        return Result(out, normalise_err(err, shell), status, timeout)


def wait_for(p):
    """The exit status of p, or 'timeout' after TIMEOUT seconds.  A pidfd
    wakes us when it ends: Popen.wait(timeout) polls with sleeps that grow
    to 50 ms, which cost a fifth of the time of a run."""
    try:
        fd = os.pidfd_open(p.pid)
    except (AttributeError, OSError):
        fd = None
    if fd is None:
        try:
            return p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return 'timeout'
    try:
        ready, _, _ = select.select([fd], [], [], TIMEOUT)
    finally:
        os.close(fd)
    return p.wait() if ready else 'timeout'


def normalise_err(err, shell):
    """The program name: both shells run as argv[0] "rc", but a message may
    still name the binary by its path."""
    return err.replace(shell.encode(), b'rc')


# A child of the shell killed by SIGSEGV, SIGBUS, SIGFPE or SIGILL is
# named by its signal's message, as abort is: no program sends signals, and
# none of the commands they run crashes, so the child was the shell (1.7.4
# overflows its stack where ours says "too deeply nested"; seed 346712).
# Under -i the message follows the prompts on its line: `; ', or the
# `P' a program inherits as $prompt (seed 438695).
SHELL_BROKE = re.compile(rb"^(?:; |P)*(rc panic: |rc: [^\n]*Assertion `|abort$|segmentation violation$|"
                         rb"bus error$|floating point error$|illegal instruction$)", re.M)


# ---- the documented normalisations -------------------------------------------
#
# Each one corresponds to an entry of doc/rc.1, DIFFERENCES FROM RC 1.7.4, or
# to something that is no part of behaviour.  Keep this list short and
# honest; README.md lists it too.

DEVFD = re.compile(rb'/dev/fd/[0-9]+')
PID_SHOWN = re.compile(rb'^(a?pid)=[0-9]+$', re.M)
BARE_WHATIS = re.compile(r'\bwhatis([ \t]+-[a-z]*)*[ \t]*($|[;&|}\n)<>])', re.M)   # (<<<: seed 693513)
VERSION_SHOWN = re.compile(rb'^version=.*$', re.M)
LINE_SYNTAX = re.compile(rb'rc: line ([0-9]+): (syntax error|.* near .*)$')


PLAIN = rb"[^ \t\n#;&|^$=`'{}()<>*?\[~!@\\]"
CTRL_QUOTED = re.compile(rb"'(" + PLAIN + rb"*[\x01-\x08\x0b-\x1f\x7f]" + PLAIN + rb"*)'")
# a message starts a line, or follows an interactive shell's prompt
# (whatever $prompt is)
# (also through tr a-z A-Z, and split by a backquote's separators: the
# colons as blanks, seed 654433)
WRITE_ERROR = re.compile(rb'rc[: ] ?[^:\n]+?[: ] ?write error[: ] ', re.I)
DEBIAN_BUILTIN_RUN = re.compile(r'(^|[\n;&{!@`(]|\||\|\[[0-9=]*\])[ \t]*[x+]([ \t;&|}\n<>)]|$)', re.M)
WHATIS_DEBIAN = re.compile(r'\bwhatis\b[^\n;&|}]*[ \t][x+]([ \t;&|}\n)]|$)', re.M)
WAIT_SEVERAL = re.compile(r'(^|[\n;&{|])[ \t]*wait([ \t]+[^ \t\n;&|}<>]+){2,}', re.M)
DEBIAN_BUILTIN = re.compile(rb"rc: cannot find `[x+]'$", re.M)
HEREDOC_DOLLAR_BLANK = re.compile(r'<<.*\n(.*\n)*.*\$[ \t\n]')
# <{cmd} or >{cmd} after ~, in a for list or switch subject, or in an
# assignment at a command's start, on one line
LIMIT_COLON = re.compile(r'\blimit\b[^\n;&|}]*[0-9]:[0-9]')
LIMIT_TRACED = re.compile(rb'^(limit\b[^\n]*?[0-9]+)(?::[0-9]+)+', re.M)
# (a quoted word inside too: N8 quotes the ~ of [~a]*, seed 686812)
ASSIGNED_LIST = re.compile(rb"(=|[<>]|[<>]\[[0-9=]*\])\(((?:[^()'\n]|'(?:[^'\n]|'')*'|\([^()'\n]*\))*)\)")


def uncaretted_lists(b):
    """N14: lists in parentheses joined by a caret without them, the inner
    ones first."""
    while True:
        new = CARET_LIST_AFTER.sub(rb'^\1', CARET_LIST_BEFORE.sub(rb'\1^', b))
        if new == b:
            return b
        b = new


def unparenthesised_values(b):
    """N16: assigned values and redirections' files in parentheses (a
    subscript inside allowed) without them, the inner ones first."""
    while True:
        new = ASSIGNED_LIST.sub(rb'\1\2', b)
        if new == b:
            return b
        b = new
KEYWORD_QUOTED = re.compile(rb"(?<![^ \t\n{(;&|])'(for|in|while|if|not|switch|fn|else|case)'(?=[ \t\n})^=;&|]|$)")
# N8: a quoted word or a bare word with a glob character that holds ~ ! @
TILDE_WORD = re.compile(rb"(?<=cannot find )`[^`'\n]*'|'(?:[^']|'')*'|[^ \t\n#;&|^$=`'{}()<>\\]+")
TILDE_RAW_PIECE = re.compile(rb"[^ \t\n#;&|^$=`'{}()<>*?\[~!@\\]+")
# N9: 1.7.4's message for a here document cut off by the end of input
# (after the prompts of -i)
HEREDOC_INCOMPLETE = re.compile(rb'^[^\n]*?rc: (line -?[0-9]+: )?heredoc incomplete( near .*)?$', re.M)
# N11: a here document's variable whose name starts with a blank, as 1.7.4
# prints it: $^' y', or $^' ' joined to what follows or precedes
HEREDOC_BLANK_VAR = re.compile(rb"\$\^'[ \t]([A-Za-z0-9_*]+)'")
HEREDOC_BLANK_ALONE = re.compile(rb"\$\^'[ \t]'\^|\^\$\^'[ \t]'")
# N10: backquote separators in parentheses
BACKQUOTE_SEPS = re.compile(rb"``\(([^(){}\n]*)\)\{")
# N14: a list in parentheses joined by a caret
# (a list in parentheses inside it allowed: (a ()^b c)^d, seed 497350)
# (a quoted word holding a newline inside too: seed 698853)
CARET_LIST_BEFORE = re.compile(rb"\(((?:[^()'\n]|'(?:[^']|'')*'|\([^()\n]*\))*)\)\^")
CARET_LIST_AFTER = re.compile(rb"\^\(((?:[^()'\n]|'(?:[^']|'')*'|\([^()\n]*\))*)\)")
NMPIPE_LEFT = re.compile(r'(~|\b(for|switch)[ \t]*\(|(^|[;&|{(])[ \t]*[^ \t\n#;&|^$=`\'{}()<>]+[ \t]*=)[^\n]*[<>]\{', re.M)


def sorted_lines(b, prompt=b'; '):
    """The lines, and the pieces after each prompt, sorted."""
    return b'\n'.join(sorted(re.split(rb'\n|(?<=' + re.escape(prompt) + rb')', b)))


def prompt_of(prog):
    """The first prompt the program's shell prints: $prompt from its
    environment (one word), or `; `."""
    return dict(prog.env).get('prompt', '; ').encode('latin-1') or b'; '


def split_tilde_words(b):
    """N8: each word that holds ~ ! or @ and is quoted, or bare with a glob
    character, split as 1.7.4 prints it: [~a]* as [^'~'^a]*, 'a~b' as
    a^'~'^b; every other piece quoted as it was (the pieces of a quoted
    word that need no quotes are bare)."""
    def split(m):
        w = m.group(0)
        if w.startswith(b'`'):      # a message's `name': its ' opens no word
            return w
        quoted = w.startswith(b"'")
        text = w[1:-1].replace(b"''", b"'") if quoted else w
        if not re.search(rb'[~!@]', text) or not (quoted or re.search(rb'[*?\[]', text)):
            return w
        pieces = []
        for piece in re.split(rb'([~!@])', text):
            if piece == b'':
                continue
            if piece in (b'~', b'!', b'@'):
                pieces.append(b"'" + piece + b"'")
            elif not quoted or TILDE_RAW_PIECE.fullmatch(piece):
                pieces.append(piece)
            else:
                pieces.append(b"'" + piece.replace(b"'", b"''") + b"'")
        return b'^'.join(pieces)
    return TILDE_WORD.sub(split, b)


def without_stale_tree(o_err, r_err):
    """N9: r_err without what 1.7.4 printed after its last `heredoc
    incomplete' message, when ours' stderr ends with that message."""
    found = list(HEREDOC_INCOMPLETE.finditer(r_err))
    if not found or not o_err.endswith(b'\n'):
        return r_err
    last = found[-1]
    tail = r_err[last.end():]
    o_last = o_err[:-1].rsplit(b'\n', 1)[-1]
    if tail in (b'', b'\n') or not HEREDOC_INCOMPLETE.fullmatch(o_last):
        return r_err
    return r_err[:last.end() + 1]


def same_but_syntax_lines(o_err, r_err):
    """o_err, or r_err when the two differ only in syntax error lines
    where ours names the line after 1.7.4's (N3)."""
    if o_err == r_err:
        return o_err
    o_lines, r_lines = o_err.split(b'\n'), r_err.split(b'\n')
    if len(o_lines) != len(r_lines):
        return o_err
    for o, r in zip(o_lines, r_lines):
        if o == r:
            continue
        # the message starts the line, or follows what the same line
        # had before it on both sides (echo -n's output: seed 221948)
        mo, mr = LINE_SYNTAX.search(o), LINE_SYNTAX.search(r)
        if not (mo and mr and int(mo.group(1)) == int(mr.group(1)) + 1 and
                o[:mo.start()] == r[:mr.start()] and o[mo.end(1):] == r[mr.end(1):]):
            return o_err
    return r_err


NMPIPE = re.compile(r'[<>]\{')
EXIT_WORD = re.compile(r'(^|[\n;&|{}()!@ \t])exit([ \t;&|}\n]|$)')
FOR_NMPIPE = re.compile(r'\bfor[ \t]*\([^\n]*[<>]\{')
DUP_FROM = re.compile(r'[<>]\[[0-9]=([3-9])\]')
OPENS_FD = re.compile(r'[<>]{1,2}\[([3-9])\][^=]')
DUP_FAILED = re.compile(rb'rc: dup2: Bad file descriptor\n')
XFSZ_MESSAGE = re.compile(rb'exceeded file size limit\n')
BREAK_OUTSIDE = re.compile(rb'^rc: (line [0-9]+: )?break outside of loop$')
CANNOT_FIND = re.compile(rb"rc: cannot find `([^'\n]*)'")
# a path name 1.7.4's which() could not run (no such file, not executable),
# which leaves the record behind as a command not found does; the <{cmd}
# itself run as a command is one (/dev/fd/N: Permission denied; seed 473383)
UNRUNNABLE = re.compile(rb"rc: ((?:/|\./|\.\./)[^:\n]*): [A-Z][a-z ]+$", re.M)
NMPIPE_FD = re.compile(r'/dev/fd/[0-9]+')
NMPIPE_AS_COMMAND = re.compile(r'(?:^|(?<=[\n;&|{!@]))[ \t]*(?=[<>]\{)')


def unquoted_chars(text, i):
    """(index, character) of each character of text from i on that is not
    inside single quotes (nor one of them), nor in a comment (`{exit # {`:
    seed 628996)."""
    quoted = comment = False
    for j in range(i, len(text)):
        c = text[j]
        if comment:
            comment = c != '\n'
        elif quoted:
            quoted = c != "'"
        elif c == "'":
            quoted = True
        elif c == '#' and not (j > 0 and text[j - 1] == '$'):     # not $#x
            comment = True
        else:
            yield j, c


def matching_brace(text, i):
    """The index of the } that closes the { at i, or None."""
    depth = 0
    for j, c in unquoted_chars(text, i):
        if c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                return j
    return None


def next_command(text, i):
    """Where the command after the one that goes on at i starts (after its
    ; && || or newline, in the same braces), whether that command has a
    <{cmd} or >{cmd} from i on: (start or None, seen)."""
    depth, parens, seen = 0, 0, False
    for j, c in unquoted_chars(text, i):
        if c in '<>' and text[j + 1:j + 2] == '{':
            seen = True
        elif c == '{':
            depth += 1
        elif c == '}':
            if depth == 0:
                return None, seen
            depth -= 1
        elif c in '()':     # a list's newlines end nothing (seed 462374)
            parens += 1 if c == '(' else -1
        elif depth == 0 and parens <= 0 and \
                (c in ';\n' or text.startswith('&&', j) or text.startswith('||', j)):
            k = j + (2 if c in '&|' else 1)
            while k < len(text) and text[k] in ' \t\n':
                k += 1
            return (k if k < len(text) and text[k] not in '}#' else None), seen
    return None, seen


def after_unfound_nmpipe(text, names):
    """text with `@ ' before the command that follows each command named
    in names given a <{cmd} or >{cmd}; None when there is none."""
    marks = set()
    if any(NMPIPE_FD.fullmatch(name) for name in names):
        for m in NMPIPE_AS_COMMAND.finditer(text):
            start, seen = next_command(text, m.end())
            if seen and start is not None:
                marks.add(start)
    for name in set(names):
        if not name or not re.fullmatch(r'[^ \t\n#;&|^$=`\'{}()<>]+', name):
            continue
        for m in re.finditer(r'(?<![^ \t\n;&|{}()!@])' + re.escape(name) + r'[ \t]', text):
            start, seen = next_command(text, m.end())
            if seen and start is not None:
                marks.add(start)
    if not marks:
        return None
    for j in sorted(marks, reverse=True):
        text = text[:j] + '@ ' + text[j:]
    return text


CLOSE_1 = re.compile(r'>\[1=\]')


def nmpipe_stdout_closed(text):
    """text with each <{cmd} written <{{cmd}>[1=]}; None when the program
    closes no standard output or has no <{."""
    if not CLOSE_1.search(text) or '<{' not in text:
        return None
    out, i = [], 0
    while i < len(text):
        if text.startswith('<{', i):
            j = matching_brace(text, i + 1)
            if j is None:
                return None
            out.append('<{{' + text[i + 2:j] + '}>[1=]}')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def nmpipe_child_stdout_closed(rn, shell, prog, ref):
    """D12: ours, run again with the command of each <{cmd} given a closed
    standard output, gives 1.7.4's result."""
    text = nmpipe_stdout_closed(prog.text)
    return rerun_same(rn, shell, prog, ref, text)


def unfound_nmpipe_next_in_child(rn, shell, prog, ref):
    """D11: ours, run again with `@' before the command after a command
    not found (or a path name that could not be run, the <{cmd} itself
    run as a command too) that was given a <{cmd}, gives 1.7.4's
    result."""
    if not NMPIPE.search(prog.text):
        return False
    names = [n.decode('latin-1') for n in CANNOT_FIND.findall(ref.err) + UNRUNNABLE.findall(ref.err)]
    text = after_unfound_nmpipe(prog.text, names)
    if text is None:
        return False
    # the record also catches an error of an eval run after it, in a
    # pipeline's stage too, which goes on as if the eval ran in a child
    # (seed 494448); and an eval is the next builtin, wherever it is
    # (if (eval 'fn g {..}') ...: seed 615869); and an exit, the next
    # builtin run, past a && whose right side did not run (seed 748308)
    return rerun_same(rn, shell, prog, ref, text) or \
        rerun_same(rn, shell, prog, ref, EVAL_COMMAND.sub(r'\1\2@ \3', text)) or \
        rerun_same(rn, shell, prog, ref, EVAL_COMMAND.sub(r'\1\2@ \3', prog.text)) or \
        rerun_same(rn, shell, prog, ref, EXIT_COMMAND.sub(r'\1\2@ \3', prog.text))
BACKGROUND = re.compile(r'(?<!&)&(?!&)')
STDERR_TO_STDOUT = re.compile(r'>\[2=1\]|\|\[2(=0)?\]')
WAIT_WORD = re.compile(r'\bwait\b')
OUTSIDE = re.compile(rb'rc: (line [0-9]+: )?(return outside of function|(break|continue) outside of loop)$')
OUTSIDE_OR_ERROR = re.compile(rb'rc: (line [0-9]+: )?(return outside of function|(break|continue) outside of loop)$'
                              rb'|rc: line [0-9]+: [^\n]+$')


def subsequence(short, long):
    """Whether the list short is long with some items left out."""
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def stopped_where_174_went_on(prog, ours, ref, text):
    """D10: ours' stderr has a `return outside of function' or `break
    outside of loop' message; 1.7.4's stderr is the same up to that message,
    and the rest of ours' stderr lines, and ours' stdout lines, are 1.7.4's
    with some left out (in a program with a backquote, ours' stdout words
    1.7.4's with some left out: what 1.7.4's backquote child went on to
    write is words of the command that has the backquote; seed 332199);
    the status is the same, or ours stopped at the message with a nonzero
    status."""
    (o_out, o_err, o_st), (r_out, r_err, r_st) = normalise_pair(prog, ours, ref, text)
    o_lines, r_lines = o_err.split(b'\n'), r_err.split(b'\n')
    prompt = prompt_of(prog)

    # in a program with a backquote, any error the record caught in its
    # child (eval '... $$x ...': null variable name; seed 687611)
    anchor = OUTSIDE if '`' not in text else OUTSIDE_OR_ERROR

    def outside(line):      # the message, after the prompts of -i if any
        m = anchor.search(line)
        return m is not None and line[:m.start()] == prompt * (m.start() // len(prompt))
    at = next((i for i, line in enumerate(o_lines) if outside(line)), None)
    if at is None:
        return False
    out_left_out = subsequence(o_out.split(b'\n'), r_out.split(b'\n')) or \
        '`' in text and subsequence(o_out.split(), r_out.split())
    if 'x' in shell_flags(prog) and '|' in text:
        # the -x traces sorted (N5): ours' lines are 1.7.4's with some
        # left out, taken as sorted lists (seed 661631)
        if not (subsequence(o_lines, r_lines) and out_left_out):
            return False
        return o_st == r_st
    if o_lines[:at + 1] != r_lines[:at + 1]:
        return False
    if not (subsequence(o_lines[at + 1:], r_lines[at + 1:]) and out_left_out):
        return False
    return o_st == r_st or (o_st not in (0, 'timeout') and o_lines[at + 1:] == [b''])


def documented(prog, text, ours, ref, kind):
    """A divergence that comes from a difference listed in DIFFERENCES,
    which no normalisation can undo (it changes what follows too): the
    rule's name, or False."""
    # D1. "A builtin that cannot write its output ... says so and fails"
    # (on stdout too, when the program sent its stderr there)
    if WRITE_ERROR.search(ours.err + ours.out) and \
            not WRITE_ERROR.search(ref.err + ref.out):
        return 'D1'
    # D2. "In a here document ... $ x (a blank after the $) is $x"
    # (and stderr under -x, whose traces show the values: seed 278344)
    if HEREDOC_DOLLAR_BLANK.search(text) and \
            (kind == ('out',) or ('x' in shell_flags(prog) and 'status' not in kind)):
        return 'D2'
    # D4. "Debian's extra builtins + and x are not provided": a mutation
    # made a command of one
    # (on stdout too, when the program sent its stderr there: seed 217628)
    if DEBIAN_BUILTIN.search(ours.err + ours.out) and not DEBIAN_BUILTIN.search(ref.err + ref.out):
        return 'D4'
    # ... or the message went where it cannot be seen (into a pipe): the
    # program has a command named x or +
    if DEBIAN_BUILTIN_RUN.search(text):
        return 'D4'
    # ... or whatis was asked about one (1.7.4: `builtin +'; ours: not found)
    if WHATIS_DEBIAN.search(text):
        return 'D4'
    # D6. "A <{cmd} or >{cmd} anywhere but in a command's arguments": 1.7.4
    # leaves a stale exception record that catches the next error, and the
    # script goes on where ours stopped: ours' output is the start of 1.7.4's
    if NMPIPE_LEFT.search(text) and not ours.timeout and (ours.status != 0 and ours.err or EXIT_WORD.search(text)):
        o_out, r_out = DEVFD.sub(b'N', ours.out), DEVFD.sub(b'N', ref.out)
        o_err, r_err = DEVFD.sub(b'N', ours.err), DEVFD.sub(b'N', ref.err)
        if r_out.startswith(o_out) and r_err.startswith(o_err):
            return 'D6'
    # D6b: 1.7.4 stopped at `break outside of loop' in a for loop whose
    # list had the <{cmd}, or after one in a loop (an assignment's value
    # before the break: seed 683841); its output is the start of ours'
    if (FOR_NMPIPE.search(text) or NMPIPE_LEFT.search(text)) and not ours.timeout and \
            ref.status != 0:
        o_out, r_out = DEVFD.sub(b'N', ours.out), DEVFD.sub(b'N', ref.out)
        o_err, r_err = DEVFD.sub(b'N', ours.err), DEVFD.sub(b'N', ref.err)
        r_lines = r_err.split(b'\n')
        if len(r_lines) >= 2 and r_lines[-1] == b'' and BREAK_OUTSIDE.search(r_lines[-2]) and \
                o_out.startswith(r_out) and o_err.startswith(b'\n'.join(r_lines[:-2] + [b''])) and \
                not BREAK_OUTSIDE.search(o_err):
            return 'D6b'
    # D10. "A <{cmd} or >{cmd} ...": the record 1.7.4 keeps for a named
    # pipe, still on its stack in a backquote's child (echo <{a} `{return;
    # b}) or left behind by a command not found (nosuch <{a}; return), makes
    # a return or break outside a function or loop print its message and go
    # on with the next command, where ours stops that shell.  1.7.4's
    # results are ours' with more after that message.
    if NMPIPE.search(text) and not ours.timeout and stopped_where_174_went_on(prog, ours, ref, text):
        return 'D10'
    # D21. The program dups from a descriptor 3 to 9 that it does not open
    # itself (<[0=4]): what is open there is each shell's own, 1.7.4's
    # script on 3 and a <{cmd} on 4 (left open by its stale record after
    # a command not found), ours' script above 9 (DIFFERENCES: "The
    # script being read is kept on a descriptor above 9").  Ours' stderr
    # is 1.7.4's with `dup2: Bad file descriptor' messages more, the rest
    # the same (seed 774103).
    dups = {m for m in DUP_FROM.findall(text)} - set(OPENS_FD.findall(text))
    if dups and ours.out == ref.out and ours.status == ref.status and \
            DUP_FAILED.sub(b'', ours.err) == ref.err and DUP_FAILED.search(ours.err):
        return 'D21'
    # D13. "The shell catches SIGXFSZ": a program that writes for ever (a
    # mutation made a loop endless) kills 1.7.4 at the tester's file size
    # limit, where ours goes on until the timeout.
    if ref.status == -signal.SIGXFSZ and ours.timeout:
        return 'D13'    # ... or a child of 1.7.4 that made such a write was killed (its
    # message, exceeded file size limit), where ours' write failed: the
    # rest is the same (limit filesize 0 in a redirected brace, then a
    # message written to a file; seed 740297), with the prompt of -i
    # before it
    if XFSZ_MESSAGE.search(ref.err) and not XFSZ_MESSAGE.search(ours.err) and \
            'limit' in text and ours.out == ref.out and \
            re.sub(rb'(?:' + re.escape(prompt_of(prog)) + rb')?' + XFSZ_MESSAGE.pattern, b'', ref.err) == ours.err and \
            (ours.status == ref.status or ref.status != 0):
        return 'D13'

    # D8. "wait takes several process ids" (1.7.4 takes one): a mutation
    # gave a wait two words
    # (or one made by joining eval's words, eval 'wait 1' x: 1.7.4 says so)
    if WAIT_SEVERAL.search(text) or (b'too many arguments to wait' in ref.err + ref.out and
                                     b'too many arguments to wait' not in ours.err + ours.out):
        return 'D8'
    return False


def shell_flags(prog):
    """The flag letters the shell takes from its arguments: options up to
    the first other argument or --, as rc's own getopt reads them (so
    `rc -s -n a` has -n too)."""
    letters = set()
    for a in prog.argv('prog.rc'):
        if a == '--' or not a.startswith('-') or a == '-':
            break
        letters.update(a[1:])
    return letters


def normalise_pair(prog, ours, ref, text=None):
    """Return (ours, ref) keys after the normalisations."""
    if text is None:
        text = prog.text
    o_out, o_err, o_st = ours.key()
    r_out, r_err, r_st = ref.key()
    # N1. /dev/fd/N names: the descriptor number chosen for <{...} depends on
    # which descriptors the shell holds (DIFFERENCES: "The shell keeps the
    # descriptor of the script it reads above 9").
    o_out, r_out = DEVFD.sub(b'/dev/fd/N', o_out), DEVFD.sub(b'/dev/fd/N', r_out)
    o_err, r_err = DEVFD.sub(b'/dev/fd/N', o_err), DEVFD.sub(b'/dev/fd/N', r_err)
    flags = shell_flags(prog)
    # N6. whatis shows $pid and $apid, process ids that differ from run
    # to run (no part of behaviour).
    o_out, r_out = PID_SHOWN.sub(rb'\1=N', o_out), PID_SHOWN.sub(rb'\1=N', r_out)
    # N7. whatis with no names lists the variables and then the functions,
    # sorted; 1.7.4 in the order of its hash table (DIFFERENCES: "whatis
    # with no arguments"); $version is each shell's own (no part of
    # behaviour).  Only in programs that have such a whatis: their
    # stdout's lines are compared sorted.
    if BARE_WHATIS.search(text):
        # what both wrote first stays put: the listing may follow, on
        # its line, what an echo -n wrote (seed 434239)
        o_out, r_out = (VERSION_SHOWN.sub(b'version=V', x) for x in (o_out, r_out))
        same = len(os.path.commonprefix([o_out, r_out]))
        o_out, r_out = (x[:same] + sorted_lines(x[same:]) for x in (o_out, r_out))
    # N12. An interactive shell prints the process id of a command run
    # with `&` on a line of its own (after the prompts before it): compared
    # whatever the number, in programs that have such a `&` (no part of
    # behaviour, as N6).
    if 'i' in flags and BACKGROUND.search(text):
        pid_line = re.compile(rb'^((?:' + re.escape(prompt_of(prog)) + rb')*)[0-9]+$', re.M)
        o_err, r_err = pid_line.sub(rb'\1N', o_err), pid_line.sub(rb'\1N', r_err)
        if STDERR_TO_STDOUT.search(text):   # sent there (seed 256505)
            o_out, r_out = pid_line.sub(rb'\1N', o_out), pid_line.sub(rb'\1N', r_out)
    # N13. `wait' names a child that a signal killed by its process id,
    # `PID: ' and the signal's message (none for sigpipe and sigint):
    # compared whatever the number, in programs that have a `wait' and a
    # `&', `<{' or `>{' (no part of behaviour, as N6).
    if WAIT_WORD.search(text) and (BACKGROUND.search(text) or NMPIPE.search(text)):
        killed = re.compile(rb'^((?:' + re.escape(prompt_of(prog)) + rb')*)[0-9]+: ', re.M)
        o_err, r_err = killed.sub(rb'\1N: ', o_err), killed.sub(rb'\1N: ', r_err)
    # N3. A syntax error is reported on the line where it is; 1.7.4 names
    # the line before when the word it stopped at ended the line (DIFFERENCES:
    # "A syntax error is reported on the line where it is").  Line by line,
    # only the line number of a syntax error message, and only when ours is
    # exactly one more; every other line must be the same.
    # N9. Under -n -x, a here document cut off by the end of input: after
    # its message, 1.7.4 prints the tree of the command before from memory
    # it has freed, overwritten by the new command (a word of it, an empty
    # line; or it crashes) (DIFFERENCES: "Under -n -x, a here document cut
    # off by the end of the input").  What follows 1.7.4's last such
    # message is dropped when ours ends with the message.
    if 'n' in flags and 'x' in flags:
        r_err = without_stale_tree(o_err, r_err)
    o_err = same_but_syntax_lines(o_err, r_err)
    if STDERR_TO_STDOUT.search(text):   # the messages sent there (seed 250988)
        o_out = same_but_syntax_lines(o_out, r_out)
    # N4. A word holding control characters is quoted when printed (-x,
    # whatis); 1.7.4 quotes it only for its other characters (DIFFERENCES:
    # "Words that hold control characters are quoted").  On both sides: the
    # reference may be another build of ours.
    o_out, o_err = CTRL_QUOTED.sub(rb'\1', o_out), CTRL_QUOTED.sub(rb'\1', o_err)
    r_out, r_err = CTRL_QUOTED.sub(rb'\1', r_out), CTRL_QUOTED.sub(rb'\1', r_err)
    # N16. Inside a list in parentheses, an assigned value or a
    # redirection's file of two or more words keeps its parentheses ((a
    # `{v=(b c)}), (`{sort <(f1 f2)})), where 1.7.4 drops them (v=b c,
    # sort <f1 f2), another command (DIFFERENCES: "Inside a list in
    # parentheses").  On both sides, a value or file in parentheses with
    # none inside is compared without them (seeds 492680, 533309).
    if '(' in text and ('x' in flags or BARE_WHATIS.search(text) or 'whatis' in text):
        o_out, o_err, r_out, r_err = (unparenthesised_values(x) for x in (o_out, o_err, r_out, r_err))
    # N17. rc 1.7.4's limit cuts a time written m:s in the command's own
    # words, at the colon, so that a loop's next run traces (and sets)
    # `limit cputime 1' for `limit cputime 1:30' (DIFFERENCES: "limit
    # with a time written with colons").  Under -x, in a program with such
    # a limit, the traced times are compared up to their first colon, on
    # both sides (seed 501509).
    if 'x' in flags and LIMIT_COLON.search(text):
        o_err, r_err = LIMIT_TRACED.sub(rb'\1', o_err), LIMIT_TRACED.sub(rb'\1', r_err)
    # N15. A keyword that is a command's first word is printed quoted
    # ('for' x); 1.7.4 prints it bare, where it reads back as the keyword
    # (DIFFERENCES: "A keyword written quoted as a command's name ... is
    # printed quoted").  On both sides, every quoted keyword standing as a
    # word of its own is compared bare (seed 450981).
    o_out, o_err = KEYWORD_QUOTED.sub(rb'\1', o_out), KEYWORD_QUOTED.sub(rb'\1', o_err)
    r_out, r_err = KEYWORD_QUOTED.sub(rb'\1', r_out), KEYWORD_QUOTED.sub(rb'\1', r_err)
    # N8. A word holding ~ ! or @ after other characters is printed as one
    # word ([~a]*, 'a~b', *@); 1.7.4 reads it as pieces joined by carets
    # and prints them so ([^'~'^a]*, a^'~'^b, *^'@') (DIFFERENCES: "A word
    # that holds ~, ! or @ after other characters").  On both sides, every
    # quoted word and every bare word with a glob character that holds
    # one is split as 1.7.4 prints it.
    o_out, o_err = split_tilde_words(o_out), split_tilde_words(o_err)
    r_out, r_err = split_tilde_words(r_out), split_tilde_words(r_err)
    # N11. In a here document, $ y (a blank after the $) is $y, 1.7.4's
    # variable ' y' (DIFFERENCES: "In a here document, as in a command,
    # $ x"): as D2 for what it prints, and for how it is printed (-x,
    # whatis) on both sides, $^' y' is $^y and a variable ' ' is left out.
    if HEREDOC_DOLLAR_BLANK.search(text):
        o_out, o_err, r_out, r_err = (
            HEREDOC_BLANK_ALONE.sub(b'', HEREDOC_BLANK_VAR.sub(rb'$^\1', x))
            for x in (o_out, o_err, r_out, r_err))
    # N10. Inside a list in parentheses 1.7.4 prints backquote separators
    # of two or more words without their parentheses, ``a b{cmd}, which
    # reads back as another command; ours keeps them (DIFFERENCES: "Inside
    # a list in parentheses").  On both sides, ``(...){ is ``...{.
    o_out, o_err = BACKQUOTE_SEPS.sub(rb'``\1{', o_out), BACKQUOTE_SEPS.sub(rb'``\1{', o_err)
    r_out, r_err = BACKQUOTE_SEPS.sub(rb'``\1{', r_out), BACKQUOTE_SEPS.sub(rb'``\1{', r_err)
    # N14. The same for a concatenated list there: 1.7.4 prints (a (b
    # c)^d) as (a b c^d), which reads back as another command; ours keeps
    # the parentheses (same entry).  On both sides, a list in parentheses
    # joined by a caret is compared without them (seed 222453).
    o_out, o_err, r_out, r_err = (uncaretted_lists(x) for x in (o_out, o_err, r_out, r_err))
    # N5. Under -x, the stages of a pipeline trace concurrently: their
    # lines come in any order (no part of behaviour), and between the
    # prompts of -i.
    if 'x' in flags and '|' in text:
        prompt = prompt_of(prog)
        o_err, r_err = sorted_lines(o_err, prompt), sorted_lines(r_err, prompt)
        o_err = same_but_syntax_lines(o_err, r_err)     # N3 again, sorted
        # and stdout's, when the program sends the traces there (>[2=1],
        # |[2=0]: seed 232583)
        if STDERR_TO_STDOUT.search(text):
            o_out, r_out = sorted_lines(o_out, prompt), sorted_lines(r_out, prompt)
    # N2. -n exits with status 1 on a syntax error, 1.7.4 with 0
    # (DIFFERENCES: "-n exits with status 1 on a syntax error"): under -n
    # nothing runs, so every message is the parser's.  Last, so that the
    # messages are compared as the other rules leave them ([~a]* under N8).
    if 'n' in flags and o_st == 1 and r_st == 0 and o_err == r_err and o_err:
        o_st = 0
    return (o_out, o_err, o_st), (r_out, r_err, r_st)


def compare(prog, ours, ref, text=None):
    """'same', 'ref-broken', 'both-timeout', 'documented' or a divergence:
    the tuple of differing parts."""
    if text is None:
        text = prog.text
    if ref.crashed() and not ours.crashed():
        return 'ref-broken'
    if ours.timeout and ref.timeout:
        return 'both-timeout'
    o, r = normalise_pair(prog, ours, ref, text)
    if o == r:
        return 'same'
    kind = tuple(name for name, a, b in zip(('out', 'err', 'status'), o, r) if a != b)
    compare.rule = documented(prog, text, ours, ref, kind)
    if compare.rule:
        return 'documented'
    return kind


# ---- minimising a divergence -------------------------------------------------

class Minimiser:
    def __init__(self, runner, shell, reference, prog, kind, budget=300, seconds=120):
        self.runner, self.shell, self.reference = runner, shell, reference
        self.prog, self.kind = prog, kind
        self.budget, self.deadline = budget, time.time() + seconds
        self.tried = {}

    def diverges(self, text):
        if text in self.tried:
            return self.tried[text]
        if self.budget <= 0 or time.time() > self.deadline:
            return False
        self.budget -= 1
        # twice: a candidate must not be kept for a race that went its way
        # once (a program's stderr may interleave with a pipeline stage's)
        ok = all(self.differs_once(text) for _ in range(2))
        self.tried[text] = ok
        return ok

    def differs_once(self, text):
        ours = self.runner.run(self.shell, self.prog, text)
        ref = self.runner.run(self.reference, self.prog, text)
        return compare(self.prog, ours, ref, text) == self.kind

    def ddmin(self, parts):
        """Remove chunks of parts while the divergence stays."""
        n = 2
        while len(parts) >= 1:
            chunk = max(1, len(parts) // n)
            removed = False
            i = 0
            while i < len(parts):
                cand = parts[:i] + parts[i + chunk:]
                if self.diverges(''.join(cand)):
                    parts = cand
                    removed = True
                else:
                    i += chunk
            if removed:
                continue
            if chunk == 1:
                break
            n = min(n * 2, len(parts))
        return parts

    def run(self):
        text = self.prog.text
        lines = text.splitlines(keepends=True)
        lines = self.ddmin(lines)
        text = ''.join(lines)
        toks = self.ddmin(rcgen.tokens(text))
        text = ''.join(toks)
        # simpler spelling: squeeze runs of blanks
        squeezed = re.sub(r'[ \t]+', ' ', text)
        if squeezed != text and self.diverges(squeezed):
            text = squeezed
        # the environment, arguments and flags that do not matter
        for attr in ('env', 'args', 'flags'):
            items = list(getattr(self.prog, attr))
            for item in list(items):
                trial = [x for x in items if x is not item]
                setattr(self.prog, attr, trial)
                self.tried.clear()
                if self.diverges(text):
                    items = trial
                else:
                    setattr(self.prog, attr, items)
        if self.prog.mode in ('i-file', 's-stdin', 'i-stdin'):
            pass
        return text


# ---- worker tasks ------------------------------------------------------------

_runner = None


def runner(base):
    global _runner
    if _runner is None:
        _runner = Runner(base)
    return _runner


STRACE = shutil.which('strace')


def reference_broke_unseen(rn, reference, prog):
    """Whether 1.7.4, run again under strace, wrote a panic or a failed
    assertion anywhere: a message that went down a pipe (`{...} |[2] wc`)
    or into a file is not in its results, but its output is then that of a
    broken shell.  Without strace this check is not made."""
    if STRACE is None:
        return False
    log = os.path.join(rn.work, 'strace')
    rn.run(reference, prog, wrap=[STRACE, '-f', '-qq', '-e', 'trace=write,writev',
                                  '-e', 'signal=none', '-s', '256', '-o', log])
    try:
        with open(log, 'rb') as f:
            written = f.read()
    except OSError:
        return False
    return b'rc panic: ' in written or b'Assertion `' in written


def classify(rn, shell, reference, prog):
    """Run prog under both shells: (verdict, ours, ref, rule), the verdict
    'same', 'ref-broken', 'both-timeout', 'documented', 'flaky' or the
    tuple of the parts that differ; rule names what decided a divergence
    that is not counted (a D rule, or the reruns of confirmed)."""
    ours = rn.run(shell, prog)
    ref = rn.run(reference, prog)
    kind = compare(prog, ours, ref)
    if isinstance(kind, str):
        return kind, ours, ref, compare.rule if kind == 'documented' else None
    if reference_broke_unseen(rn, reference, prog):
        return 'ref-broken', ours, ref, None
    # again, to rule out flakiness
    if not confirmed(rn, shell, reference, prog, ours, ref, kind):
        if confirmed.why.startswith('D'):
            return 'documented', ours, ref, confirmed.why
        return 'flaky', ours, ref, confirmed.why
    for rule, check in (('D5', lambda: redirected_braces_in_child(rn, shell, prog, ref)),
                        ('D7', lambda: stdin_read_a_line_at_a_time(rn, shell, reference, prog)),
                        ('D16', lambda: control_chars_unseen(rn, shell, reference, prog)),
                        ('D9', lambda: empty_list_matched_stars(rn, shell, prog, ref)),
                        ('D1', lambda: write_error_unseen(rn, shell, reference, prog, ref)),
                        ('D5', lambda: redirected_exit_in_child(rn, shell, prog, ref)),
                        ('D14', lambda: exec_forked(rn, shell, prog, ref)),
                        ('D11', lambda: unfound_nmpipe_next_in_child(rn, shell, prog, ref)),
                        ('D12', lambda: nmpipe_child_stdout_closed(rn, shell, prog, ref)),
                        ('D17', lambda: unfound_redirections_in_sigexit(rn, shell, reference, prog, ref)),
                        ('D18', lambda: stale_record_exit_in_backquote(rn, shell, prog, ref)),
                        ('D19', lambda: tilde_marker_pieces(rn, shell, prog, ref)),
                        ('D20', lambda: e_lost_after_jump(rn, shell, prog, ref))):
        if check():
            return 'documented', ours, ref, rule
    return kind, ours, ref, None


def run_batch(base, shell, reference, seeds, mutate_share):
    """Run programs; return counts and the confirmed divergences."""
    rn = runner(base)
    counts = collections.Counter()
    found = []
    for seed in seeds:
        prog = rcgen.Program(seed, mutate_share)
        kind, ours, ref, rule = classify(rn, shell, reference, prog)
        if rule:
            counts['rule ' + rule] += 1
        if isinstance(kind, str):
            counts[kind] += 1
            if kind == 'ref-broken':
                found.append(('ref-broken', seed, None, None, None))
            elif kind == 'flaky':
                found.append(('flaky', seed, compare(prog, ours, ref) + (rule,), None, None))
            elif kind == 'documented' and rule:
                found.append(('documented', seed, (rule,), None, None))
            continue
        counts['divergent'] += 1
        found.append(('divergent', seed, kind, result_text(ours), result_text(ref)))
    return counts, found


# D5. A braced command given a redirection runs in the shell itself; 1.7.4
# runs it in a child (DIFFERENCES: "A builtin or function given a
# redirection runs in the shell itself").  The generator keeps such bodies
# free of state changes, but a mutation can join an assignment to one.  The
# divergence is this difference when ours, with each such braced command
# run in a child by `@`, gives 1.7.4's result.

COMMAND_START = re.compile(r'(^|[\n;&|{!@]|\)|\belse|\bnot)[ \t]*$')
SWITCH_HEAD = re.compile(r'\bswitch[ \t]*\([^()]*\)[ \t]*$')


# redirections written before a braced command (<<<b >[1=2] {y=1})
REDIRECTION = r"[<>]{1,3}(\[[0-9]+(=[0-9]*)?\])?[ \t]*('[^'\n]*'|[^ \t\n;&|{}'<>()]+)?"
REDIRECTED_BEFORE = re.compile(r'(^|[\n;&|{!@]|\)|\belse|\bnot)[ \t]*((' + REDIRECTION
                               + r')[ \t]*)+$')


def at_redirected_braces(text):
    """text with `@` before each command-starting `{` whose `}` is
    followed by a redirection, or that redirections come before; None when
    there is none."""
    opens, marks, quoted, comment = [], [], False, False
    for i, c in enumerate(text):
        if comment:     # an unquoted # starts a comment, even mid-word
            comment = c != '\n'
        elif c == "'":
            quoted = not quoted
        elif quoted:
            continue
        elif c == '#' and text[i - 1:i] != '$':     # not $#x
            comment = True
        elif c == '{':
            opens.append(i)
        elif c == '}' and opens:
            p = opens.pop()
            after = text[i + 1:].lstrip(' \t')
            head = text[:p]
            if after[:1] in ('>', '<') and COMMAND_START.search(head) and \
                    not SWITCH_HEAD.search(head) or \
                    head[-1:] not in ('<', '>') and REDIRECTED_BEFORE.search(head):
                marks.append(p)
    if not marks:
        return None
    for p in sorted(marks, reverse=True):
        text = text[:p] + '@' + text[p:]
    return text


# D7. An interactive shell reads its commands from standard input a line
# at a time, leaving the rest to the commands it runs; 1.7.4 reads 256
# bytes at a time (DIFFERENCES: "input ... in an interactive shell is
# read a line at a time").  A divergence of a program read by `rc -i` from
# standard input is this difference when both shells agree on the same
# program read by `rc -i prog.rc` (standard input /dev/null, so nothing is
# left to share).

def stdin_read_a_line_at_a_time(rn, shell, reference, prog):
    if prog.mode != 'i-stdin':
        return False
    p = copy.copy(prog)
    p.mode, p.args = 'i-file', []
    return both_agree(rn, shell, reference, p)


def both_agree(rn, shell, reference, prog, text=None):
    """Whether both shells give the same result on prog (run with text
    instead of its own when given): for a rule that shows a difference by
    a change to the program that makes it go away.  A concurrent program
    is tried three times, each also compared with its lines sorted, as
    under D15 (the stages' -x traces in any order; seed 648602)."""
    text = prog.text if text is None else text
    for _ in range(3 if CONCURRENT.search(text) else 1):
        o, r = rn.run(shell, prog, text), rn.run(reference, prog, text)
        # (or differ by another documented difference: seed 760869)
        if compare(prog, o, r, text) in ('same', 'documented') or \
                CONCURRENT.search(text) and same_sorted(prog, *normalise_pair(prog, o, r, text), both=True):
            return True
    return False


# D16. Words that hold control characters are quoted when printed (N4),
# but a printed word may go where N4 cannot see it (whatis ... | wc -c;
# seed 314556).  A divergence of a program whose environment holds
# control characters is this difference when both shells agree on it
# with those characters written as `x'.

CONTROL = re.compile(r'[\x01-\x08\x0b-\x1f\x7f]')


def control_chars_unseen(rn, shell, reference, prog):
    if not any(CONTROL.search(v) for _, v in prog.env):
        return False
    p = copy.copy(prog)
    p.env = [(k, CONTROL.sub('x', v)) for k, v in prog.env]
    return both_agree(rn, shell, reference, p)


# D17. Under -e, rc 1.7.4 leaves the redirections of a command it did not
# find queued, and fn sigexit's first redirected command, run by -e's
# exit, makes them as its own (fn sigexit {echo bye >[1=2]}; f0 >f1
# creates f1; DIFFERENCES: "Under -e, the redirections of a command not
# found").  A divergence of a program under -e with a fn sigexit is this
# difference when both shells agree on it with each command 1.7.4 did not
# find, at a command's start, written false, which makes its
# redirections and fails as it did (seed 506510).

SIGEXIT_DEFINED = re.compile(r'\bfn[ \t]+sigexit\b')


def unfound_redirections_in_sigexit(rn, shell, reference, prog, ref):
    if 'e' not in shell_flags(prog) or not SIGEXIT_DEFINED.search(prog.text):
        return False
    names = {n.decode('latin-1') for n in CANNOT_FIND.findall(ref.err)}
    text = prog.text
    for name in names:
        if name:
            text = re.sub(r'(^|[\n;&|{!@]|\)|\belse|\bnot)([ \t]*)' + re.escape(name)
                          + r'(?=[ \t<>;&|}\n]|$)', r'\1\2false', text, flags=re.M)
    if text == prog.text:
        return False
    return both_agree(rn, shell, reference, prog, text)


# D18. In the child that runs a backquote after a <{cmd} of the same
# command, 1.7.4's stale record catches an exit made before any command
# forks, and the child goes on (echo <{true} `{exit 3; echo more} prints
# more; DIFFERENCES: "A <{cmd} or >{cmd} anywhere but in a command's
# arguments").  A divergence of a program with a <{cmd} or >{cmd} and an
# exit in a backquote is this difference when ours, run again with each
# such exit written `@ exit', gives 1.7.4's result (seed 628996).

BACKQUOTE_BRACE = re.compile(r'`(`\([^()]*\))?\{|``[^{}\n]*\{')


def backquote_exits_ignored(text):
    """text with each exit inside a backquote's braces written @ exit (its
    message, bad status, stays); None when there is none."""
    spans = []
    for m in BACKQUOTE_BRACE.finditer(text):
        end = matching_brace(text, m.end() - 1)
        if end is not None:
            spans.append((m.end(), end))
    out, at = [], 0
    for start, end in sorted(spans):
        if start < at:
            continue        # inside one already rewritten
        out.append(text[at:start])
        out.append(EXIT_WORD.sub(lambda e: e.group(1) + '@ exit' + e.group(2), text[start:end]))
        at = start + len(text[start:end])
    out.append(text[at:])
    new = ''.join(out)
    return None if new == text else new


def stale_record_exit_in_backquote(rn, shell, prog, ref):
    if not NMPIPE.search(prog.text):
        return False
    return rerun_same(rn, shell, prog, ref, backquote_exits_ignored(prog.text))


# D19. A bare word that holds ~ ! or @ after other characters is one word
# (N8); 1.7.4 reads pieces joined by carets, which as a here document's
# marker are not a single literal word (<< a~b is a syntax error there;
# DIFFERENCES: "A word that holds ~, ! or @ after other characters").  A
# divergence of a program with such a marker is this difference when
# ours, run again with each such marker written as 1.7.4 reads it
# (a^'~'^b), gives 1.7.4's result (seed 623544).

HEREDOC_TILDE_MARKER = re.compile(r"(?<!<)(<<[ \t]*)([^ \t\n;&|'{}()<>$`^#=~!@]+[~!@][^ \t\n;&|'{}()<>$`^#=]*)")


def tilde_markers_split(text):
    def split(m):
        pieces = [p for p in re.split(r'([~!@])', m.group(2)) if p]
        return m.group(1) + '^'.join("'" + p + "'" if p in '~!@' else p for p in pieces)
    new = HEREDOC_TILDE_MARKER.sub(split, text)
    return None if new == text else new


def tilde_marker_pieces(rn, shell, prog, ref):
    return rerun_same(rn, shell, prog, ref, tilde_markers_split(prog.text))


# D20. rc 1.7.4 turns -e off while it runs a condition (an if's or while's
# test, the left of && or ||) and on again after it; a break,
# continue or return out of a condition jumps past the second, so -e stays
# off for the rest of the script (while (true) {break || true}; false;
# echo after prints after; DIFFERENCES: "-e stays in force after a break
# or return out of a condition").  A divergence of a program under -e with
# such a jump and a condition is this difference when ours, run again
# without -e, gives 1.7.4's result (seed 629746).

JUMP_WORD = re.compile(r'\b(break|continue|return)\b')
CONDITION = re.compile(r'\|\||&&|\bif\b|\bwhile\b')


def e_lost_after_jump(rn, shell, prog, ref):
    if '-e' not in prog.flags or not JUMP_WORD.search(prog.text) or \
            not CONDITION.search(prog.text):
        return False
    p = copy.copy(prog)
    p.flags = [f for f in prog.flags if f != '-e']
    return compare(prog, rn.run(shell, p), ref) == 'same'


# D9. An empty list always matches `*` (`~ $empty *`); 1.7.4 reads memory
# it should not there and fails the match in some runs, in some memory
# layouts always (DIFFERENCES: "An empty list always matches the pattern
# *").  A divergence is this difference when ours, run again with each
# pattern of stars of a `~` written `?* ''` (the same for every word,
# the empty one too, but no match for an empty list), all of them or one
# at a time, gives 1.7.4's result.  Under -x the rewritten pattern is
# traced as written: `?*` keeps the number of stars (`**` is `?** ''`), so
# that ours' trace `'?**' ''` is turned back into `'**'` (seed 351171).

STARS = re.compile(r'\*+')
BLANKS = re.compile(r'[ \t]+')
TILDE_END = {';', '&', '&&', '||', '\n'}


def star_pattern_sites(toks):
    """Indexes of the tokens of toks that are a `~` command's or a
    `case`'s pattern made of stars alone: a bare word of stars after the
    subject (a case has none), between blanks or parentheses."""
    sites = []
    i, n = 0, len(toks)
    while i < n:
        if toks[i] not in ('~', 'case'):
            i += 1
            continue
        subject = toks[i] == '~'
        i += 1
        after = i       # then on from here: a ~ in its subject's `{} too (seed 478816)
        while i < n and BLANKS.fullmatch(toks[i]):
            i += 1
        opened = []     # the brackets open
        while i < n:
            t = toks[i]
            if not opened and (t in TILDE_END or t.startswith('|') or t in (')', '}')):
                break
            if t in ('(', '{') or t.endswith('{'):
                opened.append(t)
            elif t in (')', '}'):
                opened.pop()
            elif not opened and BLANKS.fullmatch(t):
                subject = False
            elif not subject and set(opened) <= {'('} and STARS.fullmatch(t) and \
                    (BLANKS.fullmatch(toks[i - 1]) or toks[i - 1] == '(') and \
                    (i + 1 == n or BLANKS.fullmatch(toks[i + 1]) or
                     toks[i + 1] in TILDE_END or toks[i + 1] in (')', '}') or
                     toks[i + 1].startswith('|')):
                sites.append(i)
            i += 1
        i = after
    return sites


def star_pattern_rewritten(stars):
    """A pattern of stars written so that it fails on an empty list only."""
    return "?" + stars + " ''"


REWRITTEN_STARS_TRACED = re.compile(rb"'\?(\*+)' ''")


def untrace_rewritten_stars(result):
    """result with each -x trace of a rewritten pattern (`'?**' ''`)
    given back as the original's (`'**'`): it cannot make ours equal to a
    result of 1.7.4 other than by that pattern's trace."""
    return Result(*(REWRITTEN_STARS_TRACED.sub(rb"'\1'", x) for x in (result.out, result.err)),
                  result.status, result.timeout)


def heredoc_tokens(text):
    """rcgen.tokens(text), with the body of each here document, up to and
    including its marker's line, one token: a quote there opens no word
    (eval './nosuch <<EOF ... it''s ... EOF ~ $e_x *', seed 496125)."""
    toks = rcgen.tokens(text)
    markers, at = [], 0
    for k, t in enumerate(toks):
        at += len(t)
        if t == '<<' and text[at:at + 1] not in ('<', ''):
            word = next((w for w in toks[k + 1:] if w.strip(' \t')), '')
            markers.append(word[1:-1].replace("''", "'") if word[:1] == "'" else word)
        elif t == '\n' and markers:
            end = at
            for m in markers:
                line_end = end
                while line_end < len(text):
                    nl = text.find('\n', end)
                    line_end = len(text) if nl < 0 else nl + 1
                    line, end = text[end:line_end], line_end
                    if line.rstrip('\n') == m:
                        break
            return toks[:k + 1] + [text[at:end]] + heredoc_tokens(text[end:])
    return toks


def star_patterns_fail_on_empty(text):
    """Versions of text with the star patterns of `~` written `?* ''`: all
    of them, then (when there are several) each alone."""
    toks = heredoc_tokens(text)
    sites = star_pattern_sites(toks)
    choices = [sites] + ([[s] for s in sites[:4]] if len(sites) > 1 else [])
    texts = []
    for chosen in choices if sites else []:
        t = list(toks)
        for s in chosen:
            t[s] = star_pattern_rewritten(t[s])
        texts.append(''.join(t))
    deep = every_star_pattern_fails_on_empty(text)
    if deep != text and deep not in texts:
        texts.append(deep)
    return texts


def every_star_pattern_fails_on_empty(text):
    """text with every star pattern of a `~` written `?* ''`, also those
    in quoted words, such as the commands given to eval (seed 222933)."""
    toks = heredoc_tokens(text)
    for s in star_pattern_sites(toks):
        toks[s] = star_pattern_rewritten(toks[s])
    for i, t in enumerate(toks):
        if len(t) > 2 and t[0] == t[-1] == "'":
            inner = t[1:-1].replace("''", "'")
            new = every_star_pattern_fails_on_empty(inner)
            if new != inner:
                toks[i] = "'" + new.replace("'", "''") + "'"
    return ''.join(toks)


# A command that starts after a separator: the text before it, its blanks
COMMAND_HEAD = r'(^|[;&|{\n])([ \t]*)'
REDIRECTED_EXIT = re.compile(COMMAND_HEAD + r'((?:[<>][^ \t\n;&|]*[ \t]*)*(?:exit|wait)\b[^\n;&|}]*)', re.M)
EXEC_COMMAND = re.compile(COMMAND_HEAD + r'(exec\b)', re.M)
EXIT_COMMAND = re.compile(r'(^|[;&|{(\n!])([ \t]*)(exit\b)', re.M)
EVAL_COMMAND = re.compile(r'(^|[;&|{(\n!])([ \t]*)(eval\b)', re.M)


def rerun_same(rn, shell, prog, ref, text):
    """Whether ours, running text instead of the program, gives 1.7.4's
    result (a rule that rewrites the program to show a documented
    difference); False when there is nothing to rewrite (text None or the
    program itself)."""
    if text is None or text == prog.text:
        return False
    o = rn.run(shell, prog, text)
    kind = compare(prog, o, ref, text)
    # the same, or what is left is another documented difference (a whatis
    # listing, D4, beside a redirected wait, D5: seed 693513)
    if kind == 'same' or kind not in ('ref-broken', 'both-timeout') and \
            isinstance(kind, tuple) and documented(prog, text, o, ref, kind):
        return True
    # a concurrent program: also the same once the lines are sorted, as
    # D15 (the rewritten <{cmd}'s message among the shell's, in some runs
    # only: seed 634117), and under another schedule (seed 407945)
    if CONCURRENT.search(text):
        for run in range(5):
            if run > 0:
                o = rn.run(shell, prog, text) if run < 3 else slowed(rn, shell, prog, text)
            if o is None:
                continue
            if compare(prog, o, ref, text) == 'same' or \
                    same_sorted(prog, *normalise_pair(prog, o, ref, text), both=True):
                return True
    return False


def redirected_exit_in_child(rn, shell, prog, ref):
    """D5 for an exit given a redirection (a mutation made one): ours,
    run again with `@ ' before each, gives 1.7.4's result (seed 267931).
    The same for a wait given one: 1.7.4's child has no children to wait
    for, and exits with the status it inherited (seed 354995).  Then the
    same for the calls given a redirection of the functions the program
    defines (or inherits), whose bodies may escape a child (fn f1 {return
    0 | cat}; f1 >>f1: the stage's return ends f1 in the stage, which goes
    on with the script in both shells, but in 1.7.4 the shell it goes on
    in is the child run for the redirection, which then exits; seed
    315839), and for every eval (seed 738434)."""
    def at(m):
        cmd = m.group(3)
        return m.group(1) + m.group(2) + ('@ ' + cmd if re.search(r'[<>]', cmd) else cmd)
    text = REDIRECTED_EXIT.sub(at, prog.text)
    if rerun_same(rn, shell, prog, ref, text):
        return True
    def at_unpiped(m):     # a pipeline's stage is a child already
        after = m.string[m.end():]
        return m.group(0) if after[:1] == '|' and after[:2] != '||' else at(m)
    calls = redirected_calls(defined_functions(prog))
    if calls is not None and rerun_same(rn, shell, prog, ref, calls.sub(at_unpiped, text)):
        return True
    # an eval, whose redirections may follow a quoted newline: every eval
    # run again in a child (its syntax error, in the shell, leaves the
    # end's `heredoc incomplete' unsaid, in both shells; seed 738434)
    return 'eval' in text and rerun_same(rn, shell, prog, ref, EVAL_COMMAND.sub(r'\1\2@ \3', text))


def defined_functions(prog):
    """The names of the functions the program defines or inherits."""
    names = set(re.findall(r'\bfn[ \t]+([A-Za-z0-9_]+)', prog.text))
    return names | {k[3:] for k, _ in prog.env if k.startswith('fn_')}


def redirected_calls(names):
    """A pattern as REDIRECTED_EXIT's for the calls of names (each a whole
    word, after the redirections written before it and a blank)."""
    if not names:
        return None
    alt = '|'.join(re.escape(n) for n in sorted(names))
    return re.compile(COMMAND_HEAD + r'((?:[<>][^ \t\n;&|]*[ \t]+)*(?:' + alt +
                      r')(?![^ \t\n;&|<>{}()])[^\n;&|}]*)', re.M)


def exec_forked(rn, shell, prog, ref):
    """D14: with its stale record for a <{cmd} on top, 1.7.4's exec forks
    and the shell goes on (DIFFERENCES, the <{cmd} entry): ours, run again
    with each exec written `@ exec', gives 1.7.4's result (seeds 270331,
    273027)."""
    if not NMPIPE.search(prog.text):
        return False
    return rerun_same(rn, shell, prog, ref, EXEC_COMMAND.sub(r'\1\2@ \3', prog.text))


def write_error_unseen(rn, shell, reference, prog, ref):
    """D1 where ours' write error went where the results do not show it
    (into a pipe: {echo >[1=]} |[2] wc): ours, run again with each closed
    standard output (>[1=]) opened on /dev/null instead, where nothing
    fails to write, gives 1.7.4's result (seed 233558)."""
    if '>[1=]' not in prog.text:
        return False
    text = prog.text.replace('>[1=]', '>/dev/null')
    # or both shells agree on that program: what differed was written to
    # the closed output, where a program's own write error (tr: write
    # error) is the same in both, so the builtins' was (seed 758179)
    return rerun_same(rn, shell, prog, ref, text) or both_agree(rn, shell, reference, prog, text)


def empty_list_matched_stars(rn, shell, prog, ref):
    for text in star_patterns_fail_on_empty(prog.text):
        ours = untrace_rewritten_stars(rn.run(shell, prog, text))
        if compare(prog, ours, ref, text) == 'same':
            return True
    return False


def redirected_braces_in_child(rn, shell, prog, ref):
    text = at_redirected_braces(prog.text)
    if rerun_same(rn, shell, prog, ref, text):
        return True
    # also those in quoted words, such as the commands given to eval (a
    # redirected brace there writing into a pipe nobody reads: SIGPIPE
    # ends the stage in ours, 1.7.4's child alone; seed 783121)
    return rerun_same(rn, shell, prog, ref, at_redirected_braces_quoted(text or prog.text))


def at_redirected_braces_quoted(text):
    """text with at_redirected_braces applied inside its quoted words too;
    None when that changes nothing."""
    toks = rcgen.tokens(text)
    for i, t in enumerate(toks):
        if len(t) > 2 and t[0] == t[-1] == "'":
            inner = t[1:-1].replace("''", "'")
            new = at_redirected_braces(inner)
            if new is not None:
                toks[i] = "'" + new.replace("'", "''") + "'"
    new = ''.join(toks)
    return None if new == text else new


# Programs whose results may depend on scheduling: a pipeline, `&`, or a
# `<{cmd}`/`>{cmd}` (its command runs beside the shell).  The generator
# keeps them deterministic, but mutations bring back stages that write to
# stderr or to the same stdout, and `&`.
CONCURRENT = re.compile(r'(?<![|])\|(?![|])|(?<!&)&(?!&)|[<>]\{')


def slowed(rn, shell, prog, text=None):
    """Ours' result under another schedule: run under strace, which holds
    the shell 20 ms at each close it makes, so that what runs beside it
    (a <{cmd}, a pipeline's other stages) gets ahead.  The reader of a
    <{cmd} (a builtin, which 1.7.4 forks and ours does not) then ends
    after the <{cmd} has written, as in 1.7.4, and the <{cmd} is not
    killed by SIGPIPE (seed 405113).  None without strace."""
    if STRACE is None:
        return None
    return rn.run(shell, prog, text, wrap=[STRACE, '-o', '/dev/null', '-e', 'trace=close',
                                            '-e', 'inject=close:delay_enter=20000'])


def one_cpu():
    """The CPUs to pin the runs of a concurrent program to, for reruns
    under another scheduling: the stages of a pipeline then take turns
    instead of running side by side.  None when there is one CPU only."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    return {cpus[-1]} if len(cpus) > 1 else None


def confirmed(rn, shell, reference, prog, ours, ref, kind):
    """A divergence is confirmed when a second run of both shells gives the
    same results; when results vary from run to run (concurrent pipeline
    stages tracing under -x, say), when no result of ours, over four runs,
    matches one of the reference's, with stderr's lines in any order if the
    reference's results vary.  A concurrent program is run more: eight
    times each, then six more pinned to one CPU.  confirmed.why says what
    ruled a divergence out."""
    confirmed.why = 'rerun'
    concurrent = CONCURRENT.search(prog.text) is not None
    ours2, ref2 = rn.run(shell, prog), rn.run(reference, prog)
    if not concurrent and compare(prog, ours2, ref2) == kind and \
            normalise_pair(prog, ours, ref) == normalise_pair(prog, ours2, ref2):
        return True
    os_, rs = [ours, ours2], [ref, ref2]
    for _ in range(2):
        os_.append(rn.run(shell, prog))
        rs.append(rn.run(reference, prog))
    # When the reference itself gives different results from run to run,
    # the order of stderr's lines is a race in both shells (the stages of
    # a pipeline write their errors concurrently): compare them sorted.
    # 1.7.4 also reads freed memory in places (an empty list against *
    # after a braced command): when its results vary, four more runs each.
    racy = len(set(r.key() for r in rs)) > 1
    if racy or concurrent:
        for _ in range(4):
            os_.append(rn.run(shell, prog))
            rs.append(rn.run(reference, prog))
        racy = len(set(r.key() for r in rs)) > 1
    if overlap(prog, os_, rs, racy):
        return False
    # A race can go one way most of the time on a loaded machine, and the
    # other way when the stages take turns: both shells again, pinned to
    # one CPU.  Each of ours must still differ from each of 1.7.4's.
    cpus = one_cpu() if concurrent else None
    if cpus:
        saved = os.sched_getaffinity(0)
        os.sched_setaffinity(0, cpus)       # inherited by the shells
        try:
            for _ in range(6):
                os_.append(rn.run(shell, prog))
                rs.append(rn.run(reference, prog))
        finally:
            os.sched_setaffinity(0, saved)
        racy = len(set(r.key() for r in rs)) > 1
        if overlap(prog, os_, rs, racy):
            confirmed.why = 'one-cpu'
            return False
    # and with the shell slowed at each close (see slowed)
    if concurrent:
        more = [o for o in (slowed(rn, shell, prog) for _ in range(3)) if o is not None]
        if overlap(prog, more, rs, racy):
            confirmed.why = 'slowed'
            return False
        os_ += more
    # D15. The processes of a concurrent program write to the same stdout
    # and stderr in the order the scheduler runs them; 1.7.4 forks where
    # ours does not (a redirected builtin or braced command, each stage's
    # -x trace), which shifts that order the same way run after run.  When
    # the only difference is the order of the lines, in both streams, the
    # divergence is that (DIFFERENCES: "the order in which concurrent
    # commands write").
    if concurrent and any(same_sorted(prog, *normalise_pair(prog, o, r), both=True)
                          for o in os_ for r in rs):
        confirmed.why = 'D15'
        return False
    return True


def overlap(prog, os_, rs, racy):
    """Whether a result of ours is one of 1.7.4's (normalised), or, when
    1.7.4's results vary (racy), one with stderr's lines in another order."""
    for o in os_:
        for r in rs:
            if not isinstance(compare(prog, o, r), tuple):
                return True
            if racy and same_sorted(prog, *normalise_pair(prog, o, r)):
                return True
    return False


def same_sorted(prog, o, r, both=False):
    """Keys equal once stderr's lines (both: stdout's too, or either
    stream with one piece moved) are sorted."""
    p = prompt_of(prog)
    if not both:
        return o[0] == r[0] and o[2] == r[2] and sorted_lines(o[1], p) == sorted_lines(r[1], p)
    return o[2] == r[2] and all(sorted_lines(a, p) == sorted_lines(b, p) or one_piece_moved(a, b)
                                for a, b in ((o[0], r[0]), (o[1], r[1])))


def one_piece_moved(a, b):
    """Whether b is a with one piece of it written elsewhere: what is left
    between their common start and end is the same two pieces, swapped
    (a process that wrote "0\n" in the middle of another's line)."""
    if len(a) != len(b):
        return False
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    end = len(a)
    while end > start and a[end - 1] == b[end - 1]:
        end -= 1
    mid_a, mid_b = a[start:end], b[start:end]
    return any(mid_b == mid_a[j:] + mid_a[:j] for j in range(1, len(mid_a)))


def result_text(r):
    return (r.out.decode('latin-1'), r.err.decode('latin-1'), str(r.status))


def minimise(base, shell, reference, seed, kind, mutate_share):
    rn = runner(base)
    prog = rcgen.Program(seed, mutate_share)
    m = Minimiser(rn, shell, reference, prog, tuple(kind))
    text = m.run()
    ours = rn.run(shell, prog, text)
    ref = rn.run(reference, prog, text)
    desc = {'seed': seed, 'mode': prog.mode, 'flags': prog.flags, 'args': prog.args,
            'env': prog.env, 'text': text, 'kind': kind,
            'ours': result_text(ours), 'ref': result_text(ref),
            'still': compare(prog, ours, ref, text) == tuple(kind)}
    return desc


# ---- grouping ----------------------------------------------------------------

def presignature(kind, ours, ref):
    """A cheap guess at the cause, before minimising: which parts differ and
    the first differing line of each, with digits and words blurred."""
    sig = [','.join(kind)]
    for i, name in enumerate(('out', 'err', 'status')):
        if name not in kind:
            continue
        a, b = ours[i].split('\n'), ref[i].split('\n')
        for x, y in zip(a + [''] * len(b), b + [''] * len(a)):
            if x != y:
                sig.append(blur(x) + ' | ' + blur(y))
                break
    return '\n'.join(sig)


def blur(line):
    line = re.sub(r'[0-9]+', '#', line)
    line = re.sub(r"`[^']*'", '`W\'', line)
    line = re.sub(r' near .*', ' near', line)
    line = re.sub(r"'[^']*'", "'Q'", line)
    return line[:60]


def signature(desc):
    """The cause: the minimal program, its way of running, what differs."""
    text = re.sub(r'\s+', ' ', desc['text']).strip()
    return '%s %s [%s] %s' % (desc['mode'], ' '.join(desc['flags']), ','.join(desc['kind']), text)


# ---- the driver --------------------------------------------------------------

def show_desc(desc, out):
    p = rcgen.Program(desc['seed'])
    p.env, p.args, p.flags, p.text = desc['env'], desc['args'], desc['flags'], desc['text']
    out.write('  run as: %s\n' % p.describe())
    out.write('  program:\n')
    for line in desc['text'].split('\n'):
        out.write('    | %s\n' % line)
    for who in ('ref', 'ours'):
        o, e, s = desc[who]
        out.write('  %s: status %s\n' % ('1.7.4' if who == 'ref' else 'ours ', s))
        if o:
            out.write('    stdout: %r\n' % o[:400])
        if e:
            out.write('    stderr: %r\n' % e[:400])


def main():
    ap = argparse.ArgumentParser(description='differential tester for rc')
    ap.add_argument('--rc', help='the shell under test')
    ap.add_argument('--reference', default=os.environ.get('REFERENCE_RC', '/usr/bin/rc'))
    ap.add_argument('--count', type=int, default=int(os.environ.get('DIFFTEST_COUNT', '0') or 0))
    ap.add_argument('--seconds', type=float,
                    default=float(os.environ.get('DIFFTEST_SECONDS', '0') or 0))
    ap.add_argument('--jobs', type=int, default=int(os.environ.get('DIFFTEST_JOBS', '0') or 0)
                    or os.cpu_count() or 2)
    ap.add_argument('--seed', type=int, default=int(os.environ.get('DIFFTEST_SEED', '1')))
    ap.add_argument('--mutate', type=float, default=0.15, help='share of mutated programs')
    ap.add_argument('--report', default=os.environ.get('DIFFTEST_REPORT', 'difftest-report'))
    ap.add_argument('--minimise-per-guess', type=int, default=1)
    ap.add_argument('--show', type=int, metavar='SEED')
    ap.add_argument('--one', type=int, metavar='SEED')
    ap.add_argument('--minimise', type=int, metavar='SEED',
                    help='reduce the divergence of one seed to a minimal program')
    a = ap.parse_args()

    if a.show is not None:
        p = rcgen.Program(a.show, a.mutate)
        sys.stdout.write('# %s\n# mutation: %s\n' % (p.describe(), p.mutation))
        sys.stdout.write(p.text)
        return 0
    if not a.rc:
        ap.error('--rc is required')
    shell = os.path.abspath(a.rc)
    if not os.access(shell, os.X_OK):
        print('difftest: %s: not an executable shell' % shell, file=sys.stderr)
        return 2
    reference = a.reference
    if not os.access(reference, os.X_OK):
        print('difftest: the reference rc %s is missing: install rc 1.7.4 (Debian: apt-get '
              'install rc) or give its path with --reference or REFERENCE_RC; '
              'nothing was run' % reference, file=sys.stderr)
        return 2
    reference = os.path.abspath(reference)

    base = tempfile.mkdtemp(prefix='difftest.')
    try:
        if a.one is not None:
            return run_one(base, shell, reference, a.one, a.mutate)
        if a.minimise is not None:
            return run_minimise(base, shell, reference, a.minimise, a.mutate)
        return run_many(a, base, shell, reference)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_one(base, shell, reference, seed, mutate):
    rn = Runner(base)
    prog = rcgen.Program(seed, mutate)
    kind, ours, ref, rule = classify(rn, shell, reference, prog)
    print('# %s' % prog.describe())
    sys.stdout.write(prog.text)
    print('# verdict: %s%s' % (kind, ' (%s)' % rule if rule else ''))
    show_desc({'seed': seed, 'env': prog.env, 'args': prog.args, 'flags': prog.flags,
               'text': prog.text, 'ours': result_text(ours), 'ref': result_text(ref)},
              sys.stdout)
    return 0


def run_minimise(base, shell, reference, seed, mutate):
    rn = Runner(base)
    prog = rcgen.Program(seed, mutate)
    kind = compare(prog, rn.run(shell, prog), rn.run(reference, prog))
    if not isinstance(kind, tuple):
        print('# seed %d: %s' % (seed, kind))
        return 0
    desc = minimise(base, shell, reference, seed, kind, mutate)
    print('# seed %d differs in %s' % (seed, ', '.join(kind)))
    show_desc(desc, sys.stdout)
    return 1


def run_many(a, base, shell, reference):
    if not a.count and not a.seconds:
        a.seconds = 600
    start = time.time()
    deadline = start + a.seconds if a.seconds else None
    batch = 25
    counts = collections.Counter()
    guesses = collections.defaultdict(list)     # presignature -> [signature]
    guess_pending = collections.Counter()
    causes = {}                                 # signature -> desc
    cause_count = collections.Counter()
    unassigned = collections.Counter()          # presignature -> divergences not minimised
    broken = []
    next_seed = a.seed
    end_seed = a.seed + a.count if a.count else None
    os.makedirs(a.report, exist_ok=True)
    log = open(os.path.join(a.report, 'divergences.log'), 'w')

    def more():
        if end_seed is not None and next_seed >= end_seed:
            return False
        if deadline is not None and time.time() >= deadline:
            return False
        return True

    waiting = collections.OrderedDict()         # presignature -> (seed, kind) to minimise
    # after the programs, time to minimise the kinds still waiting
    extra = max(60, 0.25 * (a.seconds or 240))
    minimise_until = None

    def submit_minimise(ex, pending, pre, seed, kind):
        guess_pending[pre] += 1
        g = ex.submit(minimise, base, shell, reference, seed, kind, a.mutate)
        g.kind, g.pre = 'minimise', pre
        pending.add(g)

    with cf.ProcessPoolExecutor(max_workers=a.jobs) as ex:
        pending = set()
        last_report = time.time()
        while True:
            while more() and len(pending) < 3 * a.jobs:
                n = batch if end_seed is None else min(batch, end_seed - next_seed)
                f = ex.submit(run_batch, base, shell, reference,
                              range(next_seed, next_seed + n), a.mutate)
                f.kind = 'batch'
                pending.add(f)
                next_seed += n
            if not more() and not any(f.kind == 'batch' for f in pending):
                if minimise_until is None:
                    minimise_until = time.time() + extra
                while waiting and sum(guess_pending.values()) < a.jobs and \
                        time.time() < minimise_until:
                    pre, (seed, kind) = waiting.popitem(last=False)
                    if not guesses[pre] and not guess_pending[pre]:
                        submit_minimise(ex, pending, pre, seed, kind)
            if not pending:
                break
            done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for f in done:
                if f.kind == 'batch':
                    c, found = f.result()
                    counts.update(c)
                    counts['programs'] += sum(v for k, v in c.items() if not k.startswith('rule '))
                    for what, seed, kind, ours, ref in found:
                        if what == 'ref-broken':
                            broken.append(seed)
                            continue
                        if what in ('flaky', 'documented'):
                            log.write('%s seed %d [%s]\n' % (what, seed, ','.join(kind)))
                            continue
                        pre = presignature(kind, ours, ref)
                        log.write('seed %d [%s]\n' % (seed, ','.join(kind)))
                        # minimise the first of each guess, one at a time per job
                        if len(guesses[pre]) + guess_pending[pre] < a.minimise_per_guess and \
                                sum(guess_pending.values()) < a.jobs:
                            submit_minimise(ex, pending, pre, seed, kind)
                        else:
                            unassigned[pre] += 1
                            if not guesses[pre] and not guess_pending[pre] and pre not in waiting:
                                waiting[pre] = (seed, kind)
                else:
                    desc = f.result()
                    guess_pending[f.pre] -= 1
                    sig = signature(desc)
                    guesses[f.pre].append(sig)
                    if sig not in causes or len(desc['text']) < len(causes[sig]['text']):
                        causes[sig] = desc
                    cause_count[sig] += 1
                    log.write('minimised seed %d -> %r\n' % (desc['seed'], desc['text']))
                log.flush()
            if time.time() - last_report > 60:
                last_report = time.time()
                print('difftest: %d programs, %d divergent, %d causes so far (%ds)' % (
                    counts['programs'], counts['divergent'], len(causes),
                    time.time() - start), file=sys.stderr, flush=True)

    # divergences not minimised count for the cause their guess led to most
    not_minimised = 0
    for pre, n in unassigned.items():
        if guesses[pre]:
            sig = collections.Counter(guesses[pre]).most_common(1)[0][0]
            cause_count[sig] += n
        else:
            not_minimised += n
    elapsed = time.time() - start
    write_report(a.report, causes, cause_count, broken)
    out = sys.stdout
    out.write('difftest: %s against %s, seeds %d..%d, %.0f s, %d jobs\n' % (
        shell, reference, a.seed, next_seed - 1, elapsed, a.jobs))
    out.write('reference broken (1.7.4 crashed, not counted as divergent): %d\n' % len(broken))
    out.write('flaky (differed once, not on the re-run): %d\n' % counts['flaky'])
    out.write('both timed out: %d\n' % counts['both-timeout'])
    out.write('documented differences (the D rules of README.md): %d\n' % counts['documented'])
    rules = sorted(k for k in counts if k.startswith('rule '))
    if rules:
        out.write('decided by (flaky: rerun, one-cpu; documented: the rule): %s\n'
                  % ', '.join('%s %d' % (k[5:], counts[k]) for k in rules))
    if not_minimised:
        out.write('divergences left unminimised for lack of time (seeds in divergences.log): %d\n'
                  % not_minimised)
    out.write('report: %s\n' % os.path.abspath(a.report))
    n = counts['programs']
    out.write('%d programs, %d identical, %d divergent in %d causes\n' % (
        n, counts['same'], counts['divergent'], len(causes)))
    for sig, desc in sorted(causes.items(), key=lambda kv: -cause_count[kv[0]]):
        out.write('\ncause (%d divergences, seed %d, differs in %s):\n' % (
            cause_count[sig], desc['seed'], ', '.join(desc['kind'])))
        show_desc(desc, out)
    return 0 if not causes else 1


def write_report(dirname, causes, cause_count, broken):
    with open(os.path.join(dirname, 'causes.txt'), 'w') as f:
        for sig, desc in sorted(causes.items(), key=lambda kv: -cause_count[kv[0]]):
            f.write('cause (%d divergences, seed %d, differs in %s):\n' % (
                cause_count[sig], desc['seed'], ', '.join(desc['kind'])))
            show_desc(desc, f)
            f.write('\n')
    with open(os.path.join(dirname, 'reference-broken.txt'), 'w') as f:
        for seed in broken:
            f.write('%d\n' % seed)


if __name__ == '__main__':
    sys.exit(main())
