/* SPDX-License-Identifier: Zlib */
/* input.c: where commands come from (a string, a file, or the terminal
 * through lineedit); loop.c reads and runs them.  What an interactive
 * shell reads goes to $history (history.c). */
#include "rc.h"
#include "sys.h"
#include "../lineedit/le.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>



typedef struct Input Input;
struct Input {
	Input *prev;
	const char *str;	/* string input */
	char *buf;		/* fd or terminal input, buffered */
	size_t pos, len, cap;
	int fd;			/* -1 for a string */
	bool tty;		/* read through lineedit, with prompts */
	bool prompt;		/* rc -i file, . -i: a file read as a terminal would be,
				 * with a prompt before each line */
	bool line_start;	/* prompt: the next byte starts a line */
	/* prompt: a newline left unread at an error is read again as a line
	 * of its own, with a prompt before it: the user sees where input
	 * resumes */
	bool prompt_ungot;
	int last;		/* the last byte taken */
	bool recover;		/* an interactive shell's own input: an error ends
				 * the command, not the input */
	bool eof;
	bool closed;		/* an escaped child's script (input_child_escaped) */
	bool failed;		/* a read failed: read_failed */
	bool shared;		/* a child read on from this script: read it
				 * in blocks from now on (input_child_escaped) */
	off_t end_off;		/* the file offset after our last read */
	bool reads_on;		/* an escaped backquote's child reading on */
	off_t shell_end_off;	/* reads_on: the shell's end_off */
	bool nl_pending;	/* the line count goes up when the next byte is read */
	bool shared_lines;	/* eval: lines count on from the caller's and go
				 * back to it: the count takes in the string's
				 * lines twice (once as the caller reads the
				 * quoted text), as rc scripts' messages always
				 * have (doc/rc.1, ERRORS) */
	int saved_lineno;
	int ungot[4];
	int nungot;
};

static Input *in;
static bool want_prompt1 = true;

/* The shell's own input, the bottom of the stack, is static, so that
 * start-up calls no malloc (and rc -c '' none at all); a nested one (eval,
 * ., a function) is allocated. */
static Input first;

static Input *push(void)
{
	Input *i = in != NULL ? ealloc(sizeof *i) : &first;
	memset(i, 0, sizeof *i);
	i->prev = in;
	i->fd = -1;
	i->saved_lineno = lineno;
	i->last = '\n';
	in = i;
	lineno = 1;
	return i;
}

void input_string(const char *s, bool shared_lines)
{
	int line = lineno;
	Input *i = push();
	i->str = s;
	i->len = strlen(s);
	if (shared_lines) {
		/* an interactive caller does not count its lines */
		i->shared_lines = true;
		lineno = as_script() ? line : 1;
	}
}

void input_fd(int fd)
{
	Input *i = push();
	i->fd = fd;
}

void input_interactive(void)
{
	Input *i = push();
	i->fd = 0;
	i->tty = true;
	i->recover = true;
}

/* The input just pushed is an interactive shell's own (rc -i -c, rc -i
 * file): errors do not end it, and a file is read with prompts. */
void input_recover(void)
{
	in->recover = true;
	if (in->fd >= 0 && !in->tty)
		in->prompt = in->line_start = true;
}

void input_pop(void)
{
	Input *i = in;
	lineno = i->shared_lines ? lineno + 1 : i->saved_lineno;
	in = i->prev;
	free(i->buf);
	if (i != &first)
		free(i);
}

/* What reading runs of the rest of the shell (rc.h, InputHooks). */
static InputHooks hooks;

void input_set_hooks(const InputHooks *h)
{
	hooks = *h;
}

static const char *prompt_text(void)
{
	List *p = var_get("prompt");
	if (want_prompt1) {
		want_prompt1 = false;
		if (input_is_tty())
			jobs_prompt();
		if (hooks.before_prompt != NULL)
			hooks.before_prompt();
		p = var_get("prompt");
		return p != NULL ? p->w : "";
	}
	return p != NULL && p->n != NULL ? p->n->w : "";
}


/* One line from the terminal (editor or plain), with its newline.
 * ^C drops what has been typed of the command, continuation lines too;
 * so does ^D at a continuation prompt: one rule for the user, where an
 * end of input would give a syntax error after an open brace or quote,
 * but run or exit after `|', `if (...)', `for (...)' and a `\'
 * continuation. */
static bool fill_tty(Input *i)
{
	if (hooks.before_read != NULL)
		hooks.before_read();
	for (;;) {
		bool intr = false;
		bool continuation = !want_prompt1;
		/* a bound key runs shell code, which may read commands of
		 * its own (eval, the editor's command line): not while the
		 * lines of one are being read */
		le_keys_allow(!continuation);
		char *line = le_readline(prompt_text(), &intr);
		/* what fn prompt or a bound key ran may have read commands of
		 * its own (eval, the editor's command line), each of which
		 * began with a first prompt: the next line here continues */
		want_prompt1 = false;
		if (line == NULL && continuation && isatty(0))
			rc_raise(eInterrupt);
		if (line == NULL && !jobs_may_exit()) {
			want_prompt1 = true;	/* stopped jobs: warned, a prompt again */
			continue;
		}
		if (line == NULL) {
			if (le_active())
				fprint(le_term_fd(), "exit\n");
			return false;
		}
		if (intr) {
			le_free(line);
			if (hooks.interrupted != NULL)
				hooks.interrupted();
			rc_raise(eInterrupt);
		}
		/* A ^C caught after the last command's end was looked at and
		 * before the reader took over (which starts afresh: it forgets
		 * the ^Cs a command had) is spent here, as one typed at the
		 * prompt with nothing on the line: left caught, it abandoned
		 * the command typed next as it began to run (a loop ending
		 * just as ^C was typed, on a busy machine) */
		if (!continuation && sig_is_caught(SIGINT) && hooks.interrupted != NULL)
			hooks.interrupted();
		size_t n = strlen(line);
		if (i->cap < n + 2) {
			i->cap = n + 64;
			i->buf = eresize(i->buf, i->cap);
		}
		memcpy(i->buf, line, n);
		/* a last line without its newline ends input from a file or
		 * pipe: its command runs and the shell ends, with no prompt
		 * after it; at a terminal ^D^D typed after some text
		 * only ends the line */
		bool ended = le_unterminated() && !isatty(0);
		i->buf[n] = '\n';
		i->len = n + !ended;
		i->pos = 0;
		i->eof = ended;
		le_free(line);
		history_typed(i->buf, i->len);
		if (flag.v)	/* as a file's are: each line as it is read */
			writeall(2, i->buf, i->len);
		return true;
	}
}

/* A forked child that escaped (walk.c, walk_child) is a copy of the shell
 * and reads on where the shell was.  Which commands it then runs twice,
 * and which the shell skips, is what a script written for rc sees, and
 * what rc's reading gives: a script read in blocks of SCRIPT_BLOCK bytes,
 * closed in the child of a pipeline, @, & or <{}, and in any child before
 * its last command runs in place: such a child (closed) has what is left
 * of the last block read, then meets the end; a backquote's child whose
 * break, continue or return was not its last command reads on from the
 * script, whose offset it shares with the shell, which then finds that
 * offset moved (input_after_child).  The buffer here starts at a multiple
 * of INPUT_CHUNK in the file, so at a multiple of SCRIPT_BLOCK.  A
 * standard input (read STDIN_CHUNK bytes at a time) stays open to the
 * child.  Only an escaped child is concerned: the shell reads as it likes
 * until then. */
enum { SCRIPT_BLOCK = 256 };

/* Keep only a block reader's buffer: up to the end of the block that
 * holds the next byte; what follows is read from the file's offset, a
 * block at a time. */
static void as_block_buffered(Input *i)
{
	size_t end = (i->pos + SCRIPT_BLOCK - 1) / SCRIPT_BLOCK * SCRIPT_BLOCK;
	if (end < i->len) {
		i->end_off -= i->len - end;
		i->len = end;
		i->eof = false;
	}
	i->shared = true;
}

void input_child_escaped(bool closed)
{
	for (Input *i = in; i != NULL; i = i->prev)
		if (i->fd > 2 && !i->tty) {
			off_t shell_end = i->end_off;
			as_block_buffered(i);
			if (closed)
				i->closed = true;
			else {	/* where a block reader would have left it */
				i->reads_on = true;
				i->shell_end_off = shell_end;
				lseek(i->fd, i->end_off, SEEK_SET);
			}
		}
}

/* An escaped child reading on met the end of the script exactly where the
 * shell's own reading had ended (the end of a short script, mostly): the
 * shell would not see that the child read on.  An offset past the end
 * says so, and still reads as the end. */
static void reading_on_ended(Input *i)
{
	if (i->reads_on && i->end_off == i->shell_end_off)
		lseek(i->fd, i->end_off + 1, SEEK_SET);
}

/* After a backquote's child: had it escaped and read on from a script,
 * the offset the two share has moved, and the shell reads on from
 * there, once through what it had buffered. */
void input_after_child(void)
{
	for (Input *i = in; i != NULL; i = i->prev)
		if (i->fd > 2 && !i->tty && !i->closed) {
			off_t at = lseek(i->fd, 0, SEEK_CUR);
			if (at < 0 || at == i->end_off)
				continue;
			as_block_buffered(i);
			i->end_off = at;
		}
}

/* A read that fails (. of a directory: EISDIR) ends the input with an
 * error that leaves $status (no command ran): a script ends with status 1.
 * The input stays at its end: an interactive shell reading a directory
 * (rc -i dir) would otherwise say so for ever. */
static NORETURN void read_failed(Input *i)
{
	int e = errno;
	i->failed = true;
	print_error("rc: read: %s", strerror(e));
	rc_raise(eError);
}

static bool fill_fd(Input *i)
{
	if (i->closed) {
		print_error("rc: read: %s", strerror(EBADF));
		if (hooks.leave != NULL)
			hooks.leave(1);
		_exit(1);
	}
	if (i->failed)
		return false;
	if (i->cap == 0) {
		i->cap = i->fd == 0 ? STDIN_CHUNK : INPUT_CHUNK;
		i->buf = ealloc(i->cap);
	}
	if (hooks.before_read != NULL)
		hooks.before_read();	/* the commands may come from the same input as read's */
	for (;;) {
		ssize_t n = read(i->fd, i->buf, i->shared ? SCRIPT_BLOCK : i->cap);
		if (n < 0 && errno == EINTR)
			continue;	/* handlers wait for the command: see await_command */
		if (n < 0)
			read_failed(i);
		if (n == 0) {
			reading_on_ended(i);
			return false;
		}
		i->len = n;
		i->pos = 0;
		i->end_off += n;
		if (flag.v)
			writeall(2, i->buf, n);
		if (interactive && i->fd == 0)
			history_read(i->buf, n);
		return true;
	}
}

static int next_byte(Input *i)
{
	if (i->nungot > 0) {
		if (i->prompt_ungot) {
			const char *p = prompt_text();
			writeall(i->tty ? le_term_fd() : 2, p, strlen(p));
			i->prompt_ungot = false;
		}
		return i->ungot[--i->nungot];
	}
	if (i->eof && i->pos >= i->len)
		return EOF;
	if (i->line_start) {
		/* the prompt comes as each line is begun, not as it is read: what
		 * a command reads meanwhile is not prompted for */
		const char *p = prompt_text();
		writeall(2, p, strlen(p));
		i->line_start = false;
	}
	if (i->pos < i->len)
		return (unsigned char) (i->str ? i->str : i->buf)[i->pos++];
	if (i->fd >= 0 && (i->tty ? fill_tty(i) : fill_fd(i)))
		return (unsigned char) i->buf[i->pos++];
	i->eof = true;
	return EOF;
}

int input_getc(void)
{
	Input *i = in;
	if (i->nl_pending) {
		if (as_script())
			lineno++;	/* an interactive shell's lines all say 1 */
		i->nl_pending = false;
	}
	int c;
	/* NUL bytes are dropped wherever they are (comments, here documents
	 * too), with a warning: C strings cannot hold them */
	while ((c = next_byte(i)) == '\0')
		rc_warn("warning: null character ignored");
	if (c == '\n') {
		i->nl_pending = true;
		i->line_start = i->prompt;
	}
	i->last = c;
	return c;
}

/* The rest of the line onto s, without its newline: returns '\n', or EOF
 * if the input ended first.  The same as input_getc byte by byte, but a
 * run of plain bytes in the buffer is taken at once (here documents). */
int input_line(Str *s)
{
	Input *i = in;
	for (;;) {
		if (i->nungot == 0 && !i->nl_pending && !i->line_start && i->pos < i->len) {
			const char *b = (i->str ? i->str : i->buf) + i->pos;
			size_t n = i->len - i->pos;
			const char *e = memchr(b, '\n', n);
			if (e != NULL)
				n = e - b;
			if ((e = memchr(b, '\0', n)) != NULL)
				n = e - b;	/* input_getc drops it, with a warning */
			if (n > 0) {
				str_add(s, b, n);
				i->pos += n;
				i->last = (unsigned char) b[n - 1];
				continue;
			}
		}
		int c = input_getc();
		if (c == '\n' || c == EOF)
			return c;
		str_addc(s, c);
	}
}

void input_ungetc(int c)
{
	in->ungot[in->nungot++] = c;
	if (c == '\n')
		in->nl_pending = false;
}

/* The error being raised leaves the rest of its line to be read: see
 * input_keep_line. */
static bool keep_line;

/* For an error raised in the middle of a line that is no syntax error (a
 * misplaced if not): reading goes on where it was, prompting. */
void input_keep_line(void)
{
	keep_line = true;
}

/* The error being raised leaves the newline that ended the word at it
 * to be read again as a line of its own: see lex_fail_flush. */
static bool newline_left;

void input_newline_left(void)
{
	newline_left = true;
}

/* A new command is about to be read: it begins with the first prompt,
 * and no error has left anything of its line. */
void input_command_start(void)
{
	want_prompt1 = true;
	keep_line = newline_left = false;
}

/* The descriptor the next command will be read from, if nothing of it is
 * buffered and reading it may wait (not a terminal's: the editor waits
 * itself); else -1. */
int input_idle_fd(void)
{
	Input *i = in;
	if (i->fd < 0 || i->tty || i->eof || i->nungot > 0 || i->pos < i->len)
		return -1;
	return i->fd;
}

/* The terminal's lines are all read: the command is whole. */
bool input_tty_line_done(void)
{
	return in->tty && in->pos >= in->len && in->nungot == 0;
}

bool input_is_tty(void)
{
	return in->tty;
}

bool input_ended(void)
{
	return in->last == EOF;
}

bool input_recovers(void)
{
	return in->recover;
}

/* A file read with a prompt before each line (. -i). */
void input_prompt_lines(void)
{
	in->prompt = in->line_start = true;
}

/* After an error in an interactive shell the rest of the line is thrown
 * away (a terminal's buffer holds just the line), and input goes on: also
 * after an end of input inside a command (a ^D). */
void input_skip_line(void)
{
	bool kept = keep_line, left = newline_left;
	keep_line = newline_left = false;
	if (kept)
		;
	else if (left && in->nungot > 0 && in->ungot[in->nungot - 1] == '\n') {
		/* the newline of the line, left unread (lex_fail_flush) */
		if (in->tty)
			in->pos = in->len;
		in->prompt_ungot = in->prompt || in->tty;
	} else if (in->tty) {
		in->nungot = 0;
		in->pos = in->len;
		in->nl_pending = false;
	} else if (in->last != '\n') {
		int c;
		while ((c = input_getc()) != '\n' && c != EOF)
			;
	}
	if (in->fd >= 0)
		in->eof = false;
	in->line_start = in->prompt || kept;	/* a prompt where it reads on */
	heredoc_discard();	/* those of the command thrown away */
}
