# SPDX-License-Identifier: Zlib
"""rcgen: random, deterministic rc programs for the differential tester.

Program(seed) always yields the same program for the same seed: every choice
comes from one random.Random(seed).  A program is the text of an rc script
plus how to run it (a script file, -c with arguments, rc -i reading a file,
commands on standard input, flags -e -x -n) and the environment it inherits.

The programs use only deterministic commands (builtins, echo, printf, cat,
true, false, test, expr, seq, wc, sort, tr, head and the shell itself as
`rc`), never name a file outside their own directory except /dev/null and
names under /nonexistent, and cannot loop for ever (while loops count down a
private list, a function only calls functions defined before it).

One deliberate difference shapes the generator (doc/rc.1, DIFFERENCES FROM
RC 1.7.4, first entry: "A builtin or function given a redirection runs in the
shell itself"): 1.7.4 runs a redirected builtin, function or braced command
in a child, so whatever such a command changes in the shell is lost there and
kept by ours.  The generator therefore redirects only commands that change no
shell state (see Gen.pure): functions f0..f2 always have such bodies and may
be redirected; g0..g2 may have any body and are never called with a
redirection.  Everything else is generated everywhere.
"""

import random

# Words that are ordinary in argument position (keywords among them).
LITERALS = ['a', 'b', 'c', 'foo', 'bar', 'x1', 'A', '1', '2', '3', '0', '10',
            '-n', '--', '-', '.', '%', 'a.c', 'x/y', ':', ',', 'if', 'for',
            'in', 'not', 'else', 'case', 'fn', 'switch', 'while', '~', '!',
            '@', 'a=b', '=', '+']
QUOTED = ["'a b'", "''", "'it''s'", "'$x'", "'*'", "'#'", "'^'", "'{'",
          "'a\tb'", "'a\nb'", "'-n'", "'='", "';'", "'\\n'", "'['"]
GLOBS = ['*', '?', 'f*', '[ab]*', '[~a]*', '*.c', '?1', '[a-f]?', '*[']
VARS = ['a', 'b', 'x', 'y', 'v', 'E1', 'E2', 'e_x']
SPECIAL_READ = ['*', '1', '2', '0', '01', 'status', 'ifs', 'nl', 'tab',
                'home', 'HOME', 'path', 'PATH', 'cdpath', 'CDPATH', 'prompt']
FILES = ['f1', 'f2', 'out', 'a.c']
PURE_FNS = ['f0', 'f1', 'f2']
ANY_FNS = ['g0', 'g1', 'g2']
PATTERNS = ['*', '?', 'a*', '*b', '[ab]', '[~a]*', "'*'", 'a', 'b', 'foo',
            '?*', '[a-c]*', '', "''", '()', '[', '*[']


class Ctx:
    """Where the generator is: what may appear here."""

    def __init__(self, **kw):
        self.depth = 0
        self.in_fn = False          # inside a function body: return allowed
        self.in_loop = False        # break/continue allowed
        self.pure = False           # no shell state may change here
        self.max_call = None        # highest function index callable (None: any)
        self.stdin_program = False  # stdin holds the program: never read it
        self.__dict__.update(kw)

    def but(self, **kw):
        c = Ctx()
        c.__dict__.update(self.__dict__)
        c.__dict__.update(kw)
        return c


class Program:
    """A generated program: text, how to run it, its environment."""

    def __init__(self, seed, mutate_share=0.15):
        self.seed = seed
        r = random.Random(seed)
        self.r = r
        g = Gen(r)
        self.mode = r.choices(['script', 'c', 'i-file', 'i-stdin', 's-stdin'],
                              [60, 22, 6, 6, 6])[0]
        flags = []
        for f, p in (('-e', 0.12), ('-x', 0.10), ('-n', 0.05)):
            if r.random() < p:
                flags.append(f)
        self.flags = flags
        self.args = [g.literal() for _ in range(r.choice([0, 0, 1, 2, 3]))]
        self.env = g.environment()
        stdin_program = self.mode in ('i-stdin', 's-stdin')
        self.text = g.program(Ctx(stdin_program=stdin_program))
        self.mutation = None
        if r.random() < mutate_share:
            self.text, self.mutation = mutate(r, self.text)

    def argv(self, script_name):
        """The shell's arguments (after argv[0])."""
        a = list(self.flags)
        if self.mode == 'script':
            return a + [script_name] + self.args
        if self.mode == 'c':
            return a + ['-c', self.text] + self.args
        if self.mode == 'i-file':
            return a + ['-i', script_name] + self.args
        if self.mode == 'i-stdin':
            return a + ['-i']
        return a + ['-s'] + self.args

    def stdin_text(self):
        return self.text if self.mode in ('i-stdin', 's-stdin') else None

    def describe(self):
        """A shell command line that reproduces this program (for reports)."""
        env = ' '.join('%s=%s' % (k, shquote(v)) for k, v in self.env)
        if self.mode == 'c':
            cmd = 'rc ' + ' '.join(shquote(a) for a in self.argv('prog.rc'))
        else:
            cmd = 'rc ' + ' '.join(shquote(a) for a in self.argv('prog.rc'))
            if self.stdin_text() is not None:
                cmd += ' <prog.rc'
        return ('env -i PATH=... HOME=... ' + env + ' ' + cmd).replace('  ', ' ')


def shquote(s):
    if s and all(ch.isalnum() or ch in '-_./=:,' for ch in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def rcquote(s):
    return "'" + s.replace("'", "''") + "'"


class Gen:
    def __init__(self, r):
        self.r = r
        self.pending = []       # here-document bodies waiting for a newline
        self.fn_count = 0
        self.loopvar = 0

    # ---- helpers -------------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    def wpick(self, pairs):
        items = [p[0] for p in pairs]
        weights = [p[1] for p in pairs]
        return self.r.choices(items, weights)[0]

    def nl(self):
        """A newline, followed by the bodies of pending here documents."""
        s = '\n'
        for body in self.pending:
            s += body
        self.pending = []
        return s

    def sub(self, fn, *a):
        """Generate text with its own here-document queue (for -c strings,
        eval arguments and files): the result is complete."""
        saved = self.pending
        self.pending = []
        text = fn(*a)
        if self.pending:
            text += self.nl()
        self.pending = saved
        return text

    # ---- environment -----------------------------------------------------
    def environment(self):
        env = []
        if self.chance(0.6):
            env.append(('E1', self.pick(['hello', 'a b', '', 'x\x01y\x01z', '*', '1'])))
        if self.chance(0.4):
            env.append(('E2', self.pick(['two\x01words', 'it\x02\x01s', '$x', "'q'"])))
        if self.chance(0.2):
            env.append(('e_x', 'ex'))
        if self.chance(0.15):
            env.append(('fn_f0', '{echo env f0 $*}'))
        if self.chance(0.05):
            # never a body that is not one braced list: DIFFERENCES, "A
            # function in the environment whose text is not a single braced body"
            # (f1 is called with redirections: no status list at its end,
            # README.md item 5)
            env.append(('fn_f1', self.pick(['{echo $#*}', '{return 0}', '{echo a|tr a b;true}'])))
        if self.chance(0.05):
            env.append(('fn_g0', self.pick(['{return 3}', '{x=env}'])))
        if self.chance(0.1):
            env.append(('x', self.pick(['1', 'a\x01b'])))
        if self.chance(0.05):
            env.append(('ifs', ':'))
        if self.chance(0.03):
            env.append(('prompt', 'P'))
        return env

    # ---- words -----------------------------------------------------------
    def literal(self):
        return self.pick(LITERALS)

    def varname(self, ctx, write=False):
        if write:
            return self.pick(VARS)
        return self.wpick([(self.pick(VARS), 8), (self.pick(SPECIAL_READ), 3)])

    def subscript(self, ctx):
        c = self.wpick([('1', 4), ('2', 3), ('1 2', 2), ('3 1', 2), ('0', 1),
                        ('-1', 1), ('a', 1), ('', 1), ('2 2', 1), ('01', 1),
                        ('$y', 1), ('`{echo 1 2}', 1), ('$#x', 1), ('2-3', 1)])
        return c

    def varref(self, ctx):
        name = self.varname(ctx)
        if name in ('status',) and ctx.pure:
            name = 'x'
        k = self.wpick([('plain', 8), ('count', 3), ('flat', 2), ('flatq', 1),
                        ('sub', 3), ('indirect', 1), ('countind', 1),
                        ('quoted', 1), ('bq', 1), ('countbq', 1), ('kwname', 1)])
        if k == 'plain':
            return '$' + name
        if k == 'count':
            return '$#' + name
        if k == 'flat':
            return '$^' + name
        if k == 'flatq':
            return '$"' + name
        if k == 'sub':
            return '$%s(%s)' % (name, self.subscript(ctx))
        if k == 'indirect':
            return '$$' + self.pick(['y', 'x', 'E1'])
        if k == 'countind':
            return '$#$' + self.pick(['y', 'x'])
        if k == 'quoted':
            return '$' + self.pick(["'x'", "'a b'", "''"])
        if k == 'bq':
            return '$`{echo %s}' % self.pick(['x', 'y', 'E1', 'x y'])
        if k == 'countbq':
            return '$#`{echo %s}' % self.pick(['x', 'y'])
        return '$' + self.pick(['if', 'for', 'fn', 'in'])

    def forked(self, ctx, extra=1):
        """A context run in a child by both shells: state changes are lost
        in both, so it need not be pure; no loop or function to leave."""
        return ctx.but(depth=ctx.depth + extra, in_loop=False, in_fn=False, pure=False)

    def backquote(self, ctx):
        inner = self.forked(ctx, 2)
        k = self.wpick([('brace', 6), ('word', 2), ('sep', 3), ('sepword', 1),
                        ('sepparen', 2)])
        if k == 'word':
            return '`' + self.pick(self.callable_fns(ctx) + ['f0', 'seq', 'nosuch'])
        body = self.cmdlist(inner, self.r.randint(1, 2), braced=True)
        if k == 'brace':
            return '`{' + body + '}'
        sep = self.pick(["''", ':', '$nl', "(: ' ')", '()', 'x', "' '"])
        if k == 'sepparen':
            return '``(%s){%s}' % (self.pick([':', "' '", '$nl', '']), body)
        if k == 'sepword':
            return '`` %s %s' % (sep, self.pick(self.callable_fns(ctx) + ['f0']))
        return '`` %s {%s}' % (sep, body)

    def atom(self, ctx, arg=True):
        k = self.wpick([('lit', 10), ('quoted', 4), ('var', 8), ('glob', 2),
                        ('list', 2), ('bq', 2 if ctx.depth < 4 else 0),
                        ('nmpipe', 1 if ctx.depth < 4 else 0)])
        if k == 'lit':
            w = self.literal()
            if not arg and w in ('if', 'for', 'in', 'not', 'else', 'case', 'fn',
                                 'switch', 'while', '~', '!', '@', '=', 'a=b', '+'):
                w = 'a'
            return w
        if k == 'quoted':
            return self.pick(QUOTED)
        if k == 'var':
            return self.varref(ctx)
        if k == 'glob':
            return self.pick(GLOBS)
        if k == 'list':
            n = self.r.randint(0, 3)
            sep = self.pick([' ', ' ', '\n'])
            items = [self.word(ctx.but(depth=ctx.depth + 1)) for _ in range(n)]
            return '(' + sep.join(items) + ')'
        if k == 'bq':
            return self.backquote(ctx)
        # its errors go down the pipe: a child running beside the shell must
        # not write to the shell's stderr (the order would depend on timing)
        inner = self.forked(ctx, 2)
        return '<{{' + self.cmdlist(inner, 1, braced=True) + '} >[2=1]}'

    def word(self, ctx, arg=True):
        w = self.atom(ctx, arg)
        while self.chance(0.12):
            nxt = self.atom(ctx.but(depth=ctx.depth + 1))
            if self.chance(0.6):
                w += '^' + nxt
            else:
                w += nxt if nxt[0] in "$`'" or w[-1] not in ')' else '^' + nxt
        return w

    def words(self, ctx, lo=0, hi=3):
        return [self.word(ctx) for _ in range(self.r.randint(lo, hi))]

    # ---- redirections ------------------------------------------------------
    def filename(self):
        return self.wpick([(self.pick(FILES), 10), ("'a b'", 1), ('(f1 f2)', 1),
                           ('()', 1), ('/nonexistent/x', 1), ('/dev/null', 2),
                           ('$x', 1), ('f^1', 1)])

    def heredoc(self, ctx, fd=None):
        quoted = self.chance(0.3)
        marker = self.pick(['EOF', 'x', 'END'])
        lines = []
        for _ in range(self.r.randint(0, 3)):
            parts = []
            for _ in range(self.r.randint(1, 4)):
                parts.append(self.wpick([
                    (self.pick(['text', 'a b', '  spaced', "it's", '{}', '#c']), 4),
                    ('$' + self.pick(VARS + ['*', '1', 'status']), 4),
                    ('$x^y', 1), ('$$', 1), ('$#x', 1), ('$x(1)', 1),
                    ('$', 1), ('$ y', 1), ('^', 1), ("'q'", 1), ('`{echo no}', 1)]))
            lines.append(' '.join(parts))
        body = ''.join(l + '\n' for l in lines) + marker + '\n'
        self.pending.append(body)
        m = rcquote(marker) if quoted else marker
        if fd is not None:
            return '<<[%d] %s' % (fd, m)
        return '<<' + m

    def redirection(self, ctx, reads=False, writes=True):
        kinds = [('out', 4 if writes else 0), ('append', 2 if writes else 0),
                 ('in', 3), ('errout', 2), ('dup21', 3), ('dup12', 2),
                 ('close', 1), ('heredoc', 3), ('herestr', 2), ('fdin', 1),
                 ('fd3', 1)]
        k = self.wpick(kinds)
        if k == 'out':
            return '>' + self.filename()
        if k == 'append':
            return '>>' + self.filename()
        if k == 'in':
            return '<' + self.filename()
        if k == 'errout':
            return '>[2]' + self.filename()
        if k == 'dup21':
            return '>[2=1]'
        if k == 'dup12':
            return '>[1=2]'
        if k == 'close':
            return self.pick(['>[2=]', '>[1=]', '<[0=]'])
        if k == 'heredoc':
            return self.heredoc(ctx)
        if k == 'herestr':
            return '<<<' + self.word(ctx)
        if k == 'fdin':
            return '<[0]' + self.pick(FILES)
        return '>[3]f2'

    # ---- purity --------------------------------------------------------------
    def callable_fns(self, ctx):
        fns = PURE_FNS if ctx.pure else PURE_FNS + ANY_FNS
        if ctx.max_call is None:
            return list(fns)
        return [f for f in fns if fn_rank(f) < ctx.max_call]

    # ---- simple commands -------------------------------------------------
    def filter_input(self, ctx, piped):
        """How a command that reads standard input gets it."""
        if piped:
            return ''
        k = self.wpick([('file', 3), ('redir', 2), ('heredoc', 2),
                        ('herestr', 2), ('stdin', 1), ('heredocfd', 0.5)])
        if k == 'heredocfd':
            return ' ' + self.heredoc(ctx, fd=self.pick([3, 4])) + \
                self.pick([' <[0=3]', ' <[0=4]'])
        if k == 'file':
            return ' ' + self.pick(FILES + ['nofile'])
        if k == 'redir':
            return ' <' + self.pick(FILES + ['/dev/null'])
        if k == 'heredoc':
            return ' ' + self.heredoc(ctx)
        if k == 'herestr':
            return ' <<<' + self.word(ctx)
        return ' </dev/null' if ctx.stdin_program else ''

    def external(self, ctx, piped):
        # echo is a builtin; each other command costs an exec: fewer of them
        k = self.wpick([('echo', 20), ('printf', 2), ('cat', 3), ('true', 2),
                        ('false', 2), ('test', 1), ('expr', 1), ('seq', 1),
                        ('wc', 1), ('sort', 1), ('tr', 1), ('head', 1),
                        ('nosuch', 1), ('childrc', 0.5)])
        if k == 'echo':
            pre = self.pick(['', '', '', '-n ', '-- '])
            # words apart by blanks, a tab or a backslash-newline
            sep = self.wpick([(' ', 20), ('\t', 1), (' \\\n', 1), ('\\\n', 1)])
            return 'echo ' + pre + sep.join(self.words(ctx, 0, 4))
        if k == 'printf':
            fmt = self.pick(["'%s\\n'", "'%s-%s\\n'", "'[%s]'", "'%d\\n'", "'x\\n'"])
            return 'printf ' + fmt + ' ' + ' '.join(self.words(ctx, 0, 3))
        if k == 'cat':
            return 'cat' + self.filter_input(ctx, piped)
        if k == 'true' or k == 'false':
            return k
        if k == 'test':
            return 'test ' + self.pick(['-f ' + self.word(ctx), '-n ' + self.word(ctx),
                                        '-z ' + self.word(ctx), self.word(ctx) + ' = ' + self.word(ctx),
                                        '-e f1', "'' = ''"])
        if k == 'expr':
            return 'expr ' + self.pick(['1 + 2', '$#x + 1', self.word(ctx) + ' : ' + "'a*'",
                                        '3 ''*'' 4'.replace("''", "'"), self.word(ctx)])
        if k == 'seq':
            return 'seq ' + self.pick(['3', '2 4', '1 2 9', '0', '$#x', '-1'])
        if k == 'wc':
            return 'wc ' + self.pick(['-l', '-w', '-c']) + self.filter_input(ctx, piped)
        if k == 'sort':
            return 'sort' + self.pick(['', ' -r', ' -u', ' -n']) + self.filter_input(ctx, piped)
        if k == 'tr':
            return 'tr ' + self.pick(['a-z A-Z', '-d a', "' ' :", 'ab ba']) + self.filter_input(ctx, piped)
        if k == 'head':
            return 'head -n ' + self.pick(['1', '2']) + self.filter_input(ctx, piped)
        if k == 'nosuch':
            return self.pick(['nosuch', './nosuch', "''", 'no$x'])
        # the shell itself as a child: shows what is exported
        prog = self.sub(self.child_program, ctx)
        return 'rc -c ' + rcquote(prog) + ' ' + ' '.join(self.words(ctx, 0, 2))

    def child_program(self, ctx):
        return self.pick(['echo $#E1 $E1', 'echo $E2 $#E2', 'echo $x $#x',
                          'whatis -v y', 'whatis f0', 'f0 z', 'g0', 'echo $*',
                          'whatis E1 e_x', 'echo $a $b $v $y', 'whatis -v y'])

    def builtin(self, ctx):
        choices = [('cd', 1), ('eval', 2), ('whatis', 3), ('umask', 1),
                   ('exit', 1 if not ctx.pure else 0), ('shift', 1 if not ctx.pure else 0),
                   ('return', (2 if ctx.in_fn else 1) if not ctx.pure else 0),
                   ('break', (2 if ctx.in_loop else 0) if not ctx.pure else 0),
                   ('continue', (1 if ctx.in_loop else 0) if not ctx.pure else 0),
                   ('builtin', 2), ('flag', 1), ('wait', 1), ('dot', 0 if ctx.pure else 1),
                   ('limit', 1), ('exec', 1 if not ctx.pure else 0),
                   ('outside', 1 if not ctx.pure else 0)]
        k = self.wpick(choices)
        if k == 'cd':
            if ctx.pure:
                return 'cd ' + self.pick(['nosuchdir', '/nonexistent', "'a b'"])
            return 'cd ' + self.pick(['.', 'nosuchdir', '/nonexistent', '(a b)', '', '.'])
        if k == 'eval':
            inner = ctx.but(depth=ctx.depth + 2)
            text = self.sub(self.cmdlist, inner, self.r.randint(1, 2), False)
            return 'eval ' + self.pick([rcquote(text), rcquote(text) + ' ' + self.word(ctx), ''])
        if k == 'whatis':
            # never x or +: Debian's 1.7.4 has builtins of those names
            # (DIFFERENCES: "Debian's extra builtins + and x are not provided")
            names = [self.pick(['a', 'b', 'y', 'v', 'E1', 'E2', 'e_x'] + PURE_FNS + ANY_FNS +
                               ['echo', 'cd', 'cat', 'nosuch', 'ifs', 'nl', '*', 'status'])
                     for _ in range(self.r.randint(1, 3))]
            opt = self.pick(['-v ', '-f ', '-b ', '-p ', '-s ', '-q ', '-- ']) if self.chance(0.3) else ''
            return 'whatis ' + opt + ' '.join(names)
        if k == 'umask':
            if ctx.pure:
                return 'umask'
            return 'umask' + self.pick(['', ' 022', ' 077', ' 999', ' a b', ' 0'])
        if k == 'exit':
            return 'exit' + self.pick(['', ' 0', ' 1', ' 3', ' 300', ' foo', ' 1 0', ' sigint', ' -1'])
        if k == 'shift':
            return 'shift' + self.pick(['', ' 1', ' 2', ' 9', ' x', ' 1 2'])
        if k == 'return':
            # a redirected function fails in 1.7.4's child, where -e ends the
            # child and then the shell; ours returns a status (a failing
            # function's return does not trigger -e): so only return 0 there
            if ctx.pure:
                return 'return 0'
            return 'return' + self.pick(['', ' 0', ' 1', ' 2', ' (1 0)', ' sigpipe', ' foo', ' $status'])
        if k == 'break':
            return 'break' + self.pick(['', '', ' 1'])
        if k == 'continue':
            return 'continue'
        if k == 'builtin':
            return 'builtin ' + self.pick(['echo ' + ' '.join(self.words(ctx, 0, 2)),
                                           'cat /dev/null', 'nosuch', 'whatis echo',
                                           'f0', ''])
        if k == 'flag':
            if ctx.pure:
                return 'flag ' + self.pick(['e', 'x', 'i', 'n', 'c', 'q', '', 'e x y'])
            return 'flag ' + self.pick(['e', 'x', 'i', 'n', 'x +', 'x -', 'e -', 'c +', 'q', '', 'e x y', 'v'])
        if k == 'wait':
            # one pid at most: ours takes several (DIFFERENCES), 1.7.4 one
            return 'wait' + self.pick(['', '', ' foo', ' 1'])
        if k == 'dot':
            return '. ' + self.pick(['f1', 'f2', 'nofile', '-i f1', 'f1 a b'])
        if k == 'limit':
            sets = [] if ctx.pure else ['cputime 1:30000', 'coredumpsize 0', 'stacksize x']
            return 'limit ' + self.pick(['-h cputime', 'nosuch', 'coredumpsize', 'filesize',
                                         'descriptors', ''] + sets)
        if k == 'exec':
            return 'exec ' + self.pick(['echo replaced', 'true', 'false', 'nosuch', '>[2=1]',
                                        '>/dev/null', 'cat </dev/null'])
        return self.pick(['return', 'break', 'continue'])

    def simple(self, ctx, piped=False, redirectable=False):
        k = self.wpick([('external', 12), ('builtin', 4), ('call', 4),
                        ('words', 1)])
        if k == 'external':
            c = self.external(ctx, piped)
        elif k == 'builtin':
            c = self.builtin(ctx)
        elif k == 'call':
            fns = self.callable_fns(ctx)
            if not fns:
                c = 'echo nofn'
            else:
                c = self.pick(fns) + ' ' + ' '.join(self.words(ctx, 0, 3))
        else:
            c = self.word(ctx, arg=False) + ' ' + ' '.join(self.words(ctx, 0, 2))
        return c.rstrip()

    # ---- compound commands -------------------------------------------------
    def brace(self, ctx, n=None):
        if n is None:
            n = self.r.randint(1, 3)
        return '{' + self.cmdlist(ctx.but(depth=ctx.depth + 1), n, braced=True) + '}'

    def cond(self, ctx):
        """The list in if/while parentheses."""
        k = self.wpick([('match', 5), ('test', 3), ('simple', 2), ('not', 2),
                        ('andor', 2), ('list', 1)])
        inner = ctx.but(depth=ctx.depth + 1)
        if k == 'match':
            return self.match(inner)
        if k == 'test':
            return self.pick(['true', 'false', '~ $#x 0', 'test -f f1', '~ $x a', '~ $status 0'])
        if k == 'simple':
            return self.simple(inner)
        if k == 'not':
            return '! ' + self.cond(inner)
        if k == 'andor':
            return self.cond(inner) + self.pick([' && ', ' || ']) + self.cond(inner)
        return self.cond(inner) + '; ' + self.cond(inner)

    def match(self, ctx):
        subj = self.word(ctx)
        pats = [self.pick(PATTERNS) if self.chance(0.7) else self.word(ctx)
                for _ in range(self.r.randint(0, 3))]
        return '~ ' + subj + (' ' + ' '.join(pats) if pats else '')

    def assignment(self, ctx, local=False):
        name = self.wpick([(self.varname(ctx, write=True), 10), ('*', 1),
                           ('status', 0 if ctx.pure else 1), ("'a b'", 1),
                           ('()', 1), ('ifs', 1), ('path', 1 if not local else 0),
                           ('1', 1), ('E1', 2)])
        eq = self.pick(['=', '=', '=', ' = ', '= ', ' ='])
        k = self.wpick([('word', 5), ('list', 4), ('empty', 2), ('bq', 2)])
        if k == 'word':
            val = self.word(ctx)
        elif k == 'list':
            val = '(' + ' '.join(self.words(ctx, 0, 4)) + ')'
        elif k == 'empty':
            val = self.pick(['()', "''"])
        else:
            val = self.backquote(ctx)
            if not local and self.chance(0.3):
                return name + eq + val + '; echo $bqstatus'
        return name + eq + val

    def fndef(self, ctx):
        if ctx.pure:
            return self.pick(['echo nofn', 'true'])
        k = self.wpick([('pure', 4), ('any', 4), ('delete', 1), ('multi', 1),
                        ('sig', 1)])
        if k == 'delete':
            return 'fn ' + self.pick(PURE_FNS + ANY_FNS + ['nosuch', 'sigexit'])
        if k == 'sig':
            body = self.cmdlist(ctx.but(depth=ctx.depth + 1, pure=True, in_fn=True,
                                        in_loop=False, max_call=len(PURE_FNS)), 1, braced=True)
            return 'fn sigexit {' + body + '}'
        if k == 'pure' or k == 'multi':
            pool = PURE_FNS
        else:
            pool = ANY_FNS
        names = [self.pick(pool)]
        if k == 'multi':
            names.append(self.pick(pool))
        # a body calls only functions ranked below every name it is given
        low = min(fn_rank(n) for n in names)
        if ctx.max_call is not None:
            low = min(low, ctx.max_call)
        pure = pool is PURE_FNS
        inner = ctx.but(depth=ctx.depth + 1, in_fn=True, in_loop=False,
                        pure=pure, max_call=low)
        names = ' '.join(names)
        body = self.cmdlist(inner, self.r.randint(1, 3), braced=True)
        sep = self.pick([' ', ' ', ''])
        return 'fn ' + names + sep + '{' + body + '}'

    def private_loopvar(self):
        self.loopvar += 1
        return '_l%d' % self.loopvar

    def compound(self, ctx):
        inner = ctx.but(depth=ctx.depth + 1)
        k = self.wpick([('if', 6), ('ifelse', 3), ('ifnot', 3), ('for', 4),
                        ('forstar', 1), ('while', 2), ('switch', 3), ('brace', 3),
                        ('subshell', 2), ('bang', 2), ('match', 4), ('fn', 4),
                        ('assign', 6 if not ctx.pure else 0), ('local', 3)])
        optnl = lambda: self.pick(['', '', '', self.nl()])
        if k == 'if':
            return 'if (' + self.cond(inner) + ') ' + optnl() + self.body(inner)
        if k == 'ifelse':
            c = 'if (' + self.cond(inner) + ') ' + optnl() + self.brace(inner)
            return c + ' else ' + optnl() + self.body(inner)
        if k == 'ifnot':
            c = 'if (' + self.cond(inner) + ') ' + self.body(inner)
            c += self.pick(['; ', self.nl()])
            return c + 'if not ' + optnl() + self.body(inner)
        if k in ('for', 'forstar'):
            if ctx.pure:
                var = self.private_loopvar()
            else:
                var = self.pick(['i', 'i', 'x', self.private_loopvar()])
            lc = inner.but(in_loop=True)
            if k == 'forstar':
                return 'for (' + var + ') ' + optnl() + self.body(lc)
            items = ' '.join(self.words(inner, 0, 4))
            return 'for (' + var + ' in ' + items + ') ' + optnl() + self.body(lc)
        if k == 'while':
            var = self.private_loopvar()
            n = self.r.randint(0, 3)
            init = var + '=(' + ' '.join(['1'] * n) + ')'
            lc = inner.but(in_loop=True)
            body = self.cmdlist(lc.but(depth=lc.depth + 1), self.r.randint(1, 2), braced=True)
            return (init + '; while (! ~ $#' + var + ' 0) {' + var + '=$' + var +
                    '(2 3); ' + body + '}')
        if k == 'switch':
            subject = self.word(inner)
            cases = []
            for _ in range(self.r.randint(0, 3)):
                pats = ' '.join(self.pick(PATTERNS) for _ in range(self.r.randint(1, 2)))
                cases.append('case ' + pats + self.pick([self.nl(), '; ']) +
                             self.cmdlist(inner.but(depth=inner.depth + 1), self.r.randint(0, 2),
                                          braced=True))
            sep = self.pick([self.nl(), '; '])
            return 'switch (' + subject + ') ' + optnl() + '{' + sep + sep.join(cases) + '}'
        if k == 'brace':
            c = self.brace(inner)
            return c
        if k == 'subshell':
            return '@' + self.pick(['', ' ']) + self.body(self.forked(inner))
        if k == 'bang':
            return '! ' + self.command(inner)
        if k == 'match':
            return self.match(inner)
        if k == 'fn':
            return self.fndef(ctx)
        if k == 'assign':
            return self.assignment(inner)
        # local assignments
        n = self.r.randint(1, 2)
        pre = ' '.join(self.assignment(inner, local=True) for _ in range(n))
        return pre + ' ' + self.command(inner)

    def body(self, ctx):
        if self.chance(0.5):
            return self.brace(ctx)
        return self.command(ctx)

    def command(self, ctx, piped=False):
        """One command, maybe with redirections."""
        if ctx.depth > 5:
            return self.simple(ctx, piped)
        k = self.wpick([('simple', 10), ('compound', 6), ('redirected', 3),
                        ('pipe', 3), ('andor', 3), ('status', 2), ('empty', 1)])
        if k == 'simple':
            if self.chance(0.25):
                # redirected: a builtin or function must change no state
                return self.simple(ctx.but(pure=True), piped) + ' ' + self.redirection(ctx)
            return self.simple(ctx, piped)
        if k == 'compound':
            return self.compound(ctx)
        if k == 'redirected':
            return self.redirected(ctx, piped)
        if k == 'pipe':
            return self.pipeline(ctx)
        if k == 'andor':
            inner = ctx.but(depth=ctx.depth + 1)
            a = self.command(inner)
            op = self.pick([' && ', ' || '])
            b = op + self.pick(['', '', self.nl()]) + self.command(inner)
            return a + b
        if k == 'status':
            return 'echo ' + self.pick(['$status', '$#status', '$status(2)'])
        return self.pick(['', '{}', "''", '$nothing', '()'])

    def redirected(self, ctx, piped):
        """A redirected builtin, function call or braced group: only pure ones."""
        pure = ctx.but(pure=True, depth=ctx.depth + 1, in_loop=False)
        k = self.wpick([('brace', 3), ('call', 2), ('builtin', 2), ('prefix', 1)])
        redirs = ' '.join(self.redirection(ctx) for _ in range(self.r.randint(1, 2)))
        if k == 'brace':
            return self.brace(pure) + ' ' + redirs
        if k == 'call':
            fns = [f for f in self.callable_fns(pure) if f in PURE_FNS]
            return (self.pick(fns) if fns else 'echo') + ' ' + ' '.join(self.words(ctx, 0, 2)) + ' ' + redirs
        if k == 'builtin':
            return self.builtin(pure) + ' ' + redirs
        return redirs + ' ' + self.pick([self.brace(pure), self.simple(pure, piped)])

    def pipeline(self, ctx):
        """A pipeline whose result does not depend on timing: every stage after
        the first reads all its input (no SIGPIPE), writes nothing to stderr,
        and after |[2] it writes only once its input has ended (wc, sort), so
        that its output cannot interleave with the first stage's stdout."""
        inner = self.forked(ctx)
        n = self.r.randint(2, 3)
        stages = [self.stage(inner)]
        for i in range(n - 1):
            # not |[2=1]: the right side would read the shell's stdin and
            # write to a pipe's read end
            op = self.pick(['|', '|', '|', '|[2]', '|[2=0]', '|[1=0]'])
            last = i == n - 2
            if op == '|[2]' or not last:
                f = self.pick(['wc -l', 'wc -c', 'sort', 'sort -r', '{sort}'])
            else:
                f = self.pick(['cat', 'wc -l', 'sort', 'tr a-z A-Z', 'sort -r',
                               '{cat; echo end}', 'tr -d a', '@{cat}'])
            stages.append(op + ' ' + self.pick(['', '', self.nl()]) + f)
        c = ' '.join(stages)
        # a redirected group keeps a status list in ours, 1.7.4's child exits with one number
        if ctx.pure or self.chance(0.5):
            c += '; echo $status'
        return c

    def stage(self, ctx):
        if self.chance(0.7):
            return self.simple(ctx)
        return self.brace(ctx)

    def cmdlist(self, ctx, n, braced=False):
        parts = []
        for i in range(n):
            c = self.command(ctx)
            if self.chance(0.05):
                c += ' # ' + self.pick(['comment', "it's", '{'])
                parts.append(c)
                parts.append(self.nl())
                continue
            parts.append(c)
            if i < n - 1:
                parts.append(self.pick(['; ', self.nl(), self.nl(), ';' + self.nl()]))
        if braced and self.pending:
            parts.append(self.nl())
        return ''.join(parts)

    # ---- whole programs -------------------------------------------------------
    def program(self, ctx):
        parts = []
        # files the program can read and source
        if self.chance(0.5):
            parts.append(self.pick(['echo foo bar >f1', 'seq 3 >f1', "printf 'b\\na\\n' >f1",
                                    "echo 'echo sourced $*; x=src' >f1"]) + self.nl())
        if self.chance(0.2):
            parts.append('fn f0 {echo f0 $#* $*}' + self.nl())
        for _ in range(self.r.randint(1, 6)):
            parts.append(self.command(ctx))
            parts.append(self.pick([self.nl(), self.nl(), '; ', self.nl()]))
            if self.chance(0.3):
                parts.append('echo ' + self.pick(['$status', '$x', '$#x $x', '$y', '$*',
                                                  '$E1 $#E1', '$i', '$a $b']) + self.nl())
        text = ''.join(parts)
        if self.pending:
            text += self.nl()
        if not text.endswith('\n') and self.chance(0.9):
            text += '\n'
        return text


def fn_rank(name):
    """f0 f1 f2 g0 g1 g2 in order: a function calls only lower ranks."""
    return (PURE_FNS + ANY_FNS).index(name)


# ---- mutation: syntax errors -------------------------------------------------
PUNCT = ['{', '}', '(', ')', ';', '&', '|', '^', '=', '<', '>', '`', '$', "'",
         '\n', '>[2=1]', '<<', '<<<', '&&', '||', '!', '@', '~', 'if', 'else',
         'not', 'for', 'in', 'while', 'switch', 'case', 'fn', '>[', '[2]',
         '$#', '$^', '``', '<{', '>[2=', '#', '\\\n']


def tokens(text):
    """A rough split of rc text into tokens, keeping every character:
    joining the result gives the text back."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in ' \t':
            j = i
            while j < n and text[j] in ' \t':
                j += 1
        elif c == "'":
            j = i + 1
            while j < n:
                if text[j] == "'":
                    if j + 1 < n and text[j + 1] == "'":
                        j += 2
                        continue
                    j += 1
                    break
                j += 1
        elif c == '#':
            j = i
            while j < n and text[j] != '\n':
                j += 1
        elif c in '{}();&|^=<>`$\n~!@':
            j = i + 1
            two = text[i:i + 2]
            if two in ('&&', '||', '<<', '>>', '$#', '$^', '``', '<{', '>{'):
                j = i + 2
            if c in '<>|' and j < n and text[j] == '[':
                k = text.find(']', j)
                if k != -1 and k - j < 6:
                    j = k + 1
        else:
            j = i
            while j < n and text[j] not in " \t'#{}();&|^=<>`$\n":
                j += 1
        out.append(text[i:j])
        i = j
    return out


def mutate(r, text):
    toks = tokens(text)
    solid = [i for i, t in enumerate(toks) if t.strip(' \t')]
    if not solid:
        return text, None
    i = r.choice(solid)
    k = r.choice(['delete', 'insert', 'truncate', 'duplicate'])
    if k == 'delete':
        toks[i] = ''
    elif k == 'insert':
        toks[i] = r.choice(PUNCT) + r.choice(['', ' ']) + toks[i]
    elif k == 'duplicate':
        toks[i] = toks[i] + toks[i]
    else:
        t = toks[i]
        toks[i] = t[:r.randint(0, max(0, len(t) - 1))]
    return ''.join(toks), k
