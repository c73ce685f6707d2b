/* SPDX-License-Identifier: Zlib */
/* state.c: the shell's modes, and its process model (rc.h says what the
 * model is). */
#include "rc.h"

bool interactive;
static bool script_format;
int lineno;
int skipping;

Process proc;

/* Lines are counted and messages name them, as a script's: in a shell
 * that is not interactive, and while script_format is set (fncall.c). */
bool as_script(void)
{
	return !interactive || script_format;
}

/* Set or clear script_format; returns what it was. */
bool script_format_set(bool on)
{
	bool was = script_format;
	script_format = on;
	return was;
}

/* While a login shell runs its start-up file, the shell's messages name
 * that file and the line (message_origin): the user must learn where the
 * file went wrong, as a script's line alone would not say which file. */
static const char *start_up_file;

const char *start_up_file_set(const char *name)
{
	const char *was = start_up_file;
	start_up_file = name;
	return was;
}

const char *start_up_file_name(void)
{
	return start_up_file;
}

/* The shell reads what a user types (interactive, not rc -c or a
 * script), also while its start-up file runs with interactive off: what
 * would log the user out, exec that cannot run its program, leaves the
 * shell itself running (not a child of it). */
static bool typed;

void typed_shell_set(void)
{
	typed = true;
}

bool typed_shell(void)
{
	return typed && !in_child();
}

/* That shell or a child of it (a pipeline's stage, a backquote): where
 * the history tools are builtins. */
bool typed_session(void)
{
	return typed;
}

/* frames[0] is the process itself; one more for each guarded body being
 * run.  Leaving the shell itself runs fn sigexit, so its frame starts so. */
static Frame first[8] = { { .sigexit = true } };
static Frame *frames = first;
static int nframes = 1;
static size_t maxframes = sizeof first / sizeof first[0];

Frame *frame_top(void)
{
	return &frames[nframes - 1];
}

int frame_depth(void)
{
	return nframes;
}

/* A guarded body starts: a process of its own, as far as the exit and
 * fn sigexit go, which has not defined fn sigexit.  wait_floor: where its
 * own saved redirections start (Frame), or WAIT_FLOOR_INHERITED. */
int frame_push(int wait_floor)
{
	frames = egrow_static(frames, first, &maxframes, nframes + 1, sizeof *frames);
	if (wait_floor == WAIT_FLOOR_INHERITED)
		wait_floor = frames[nframes - 1].wait_floor;
	frames[nframes] = (Frame) { .sigexit = false, .wait_floor = wait_floor };
	return nframes++;
}

/* Back to depth frames (frame_push's result): also after an error. */
void frame_pop(int depth)
{
	if (depth >= 1 && depth < nframes)
		nframes = depth;
}

/* This process now runs as a child: from a fork (kind PROC_CHILD or
 * PROC_BACKQUOTE), or the shell after exec of a builtin or function
 * (PROC_EXECED).  A child leaves without the fn sigexit it inherited,
 * whichever frame it leaves from; what a child already had is its own. */
void proc_become(ProcKind kind)
{
	if (proc.kind == PROC_SHELL)
		for (int i = 0; i < nframes; i++)
			frames[i].sigexit = false;
	if (kind != PROC_EXECED || proc.kind == PROC_SHELL)
		proc.kind = kind;
	proc.skip_in_place = kind != PROC_EXECED ? false : proc.skip_in_place;
	frame_top()->sigexit = false;
}

bool in_child(void)
{
	return proc.kind != PROC_SHELL;
}

/* The child has started a command of its own: leaving the frame now is
 * that command's exit, not the child's, and runs no fn sigexit.  The
 * shell's own frames are left as they are: its exit always runs it. */
void frame_started(void)
{
	if (in_child())
		frame_top()->sigexit = false;
}

/* fn sigexit was defined in this frame of a child: leaving it runs it. */
void frame_keep_sigexit(void)
{
	if (in_child())
		frame_top()->sigexit = true;
}

/* An error leaves the guarded bodies entered since its catcher. */
const CatchStep frame_catch_step = { frame_depth, frame_pop };
