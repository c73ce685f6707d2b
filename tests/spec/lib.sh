# SPDX-License-Identifier: Zlib
# tests/spec/lib.sh: reading and writing spec files (sourced by tests/spec/run
# and tests/spec/import-script).  The format is described in tests/spec/README.md.
#
# spec_parse FILE fills these globals (case I from 0 to SPEC_N-1):
#   SPEC_HEADER        the lines before the first case (each with its newline,
#                      without trailing blank lines)
#   C_NAME[I]          the case's name (also the script's file name, NAME.rc)
#   C_CODE[I]          the script: its lines, each with its newline
#   C_CODEESC[I]       1 if the code is written through printf %b (## code-escaped)
#   C_OURS[I]          1 if the expectations are ours (## ours), else 0
#   C_WHY[I]           the text after "## ours:" (may be empty)
#   C_NEEDS[I]         the paths of "## needs:" (space-separated; may be empty)
#   C_ARGS[I]          the words of "## args:" (bash syntax); C_HASARGS[I] 1 if given
#   C_ENV[I]           the "## env:" entries (NAME=VALUE or -NAME), each with a newline
#   C_IN_MODE[I] C_IN[I]     standard input     mode: none | text | esc
#   C_OUT_MODE[I] C_OUT[I]   expected stdout    (text: the bytes themselves,
#   C_ERR_MODE[I] C_ERR[I]   expected stderr     esc: printf %b escapes)
#   C_STATUS[I]        expected exit status (default 0)
#   C_LINE[I]          the line of FILE where the case starts
# On a malformed file it prints FILE:LINE: message and returns 1.

SPEC_NAME_RE='^[A-Za-z0-9][A-Za-z0-9_.+-]*$'
# the arrays that hold each stream: C_IN_MODE and C_IN, and so on
declare -A SPEC_STREAM=([stdin]=IN [stdout]=OUT [stderr]=ERR)
# byte-wise patterns and no surprises from the caller's locale
LC_ALL=C
export LC_ALL

spec_error() {
	echo "$SPEC_FILE:$SPEC_LINENO: $*" >&2
	SPEC_BAD=1
}

# spec_new_case NAME: open case number SPEC_N.
spec_new_case() {
	local i=$SPEC_N
	[[ $1 =~ $SPEC_NAME_RE ]] || spec_error "bad case name '$1' (letters, digits, _ . + -)"
	if [ -n "${SPEC_SEEN[$1]-}" ]; then
		spec_error "case '$1' already defined at line ${SPEC_SEEN[$1]}"
	fi
	SPEC_SEEN[$1]=$SPEC_LINENO
	C_NAME[i]=$1 C_CODE[i]= C_CODEESC[i]=0 C_OURS[i]=0 C_WHY[i]= C_NEEDS[i]=
	C_ARGS[i]= C_HASARGS[i]=0 C_ENV[i]= C_STATUS[i]=0 C_LINE[i]=$SPEC_LINENO
	C_IN_MODE[i]=none C_IN[i]= C_OUT_MODE[i]=none C_OUT[i]= C_ERR_MODE[i]=none C_ERR[i]=
	SPEC_N=$((SPEC_N + 1))
}

# spec_set_stream WHICH MODE VALUE: set stdin, stdout or stderr of the open case.
spec_set_stream() {
	local i=$((SPEC_N - 1))
	local -n mode=C_${SPEC_STREAM[$1]}_MODE value=C_${SPEC_STREAM[$1]}
	[ "${mode[i]}" = none ] || spec_error "$1 given twice"
	mode[i]=$2
	value[i]=$3
}

# spec_meta LINE: one "## ..." line after a case's code.  Sets SPEC_BLOCK when
# it opens a block (## STDOUT: and the like).
spec_meta() {
	local line=$1 i=$((SPEC_N - 1)) key value
	key=${line#\#\# }
	value=
	case $key in
	*': '*) value=${key#*: }; key=${key%%: *} ;;
	*:) key=${key%:} ;;
	esac
	case $key in
	STDIN | STDOUT | STDERR)
		[ -z "$value" ] || spec_error "## $key: takes no value (the block follows)"
		SPEC_BLOCK=${key,,}
		SPEC_BLOCK_TEXT= ;;
	stdin | stdout | stderr)
		[ -n "$value" ] || spec_error "## $key: needs a value (use ## ${key^^}: for a block)"
		spec_set_stream "$key" text "$value"$'\n' ;;
	stdin-escaped | stdout-escaped | stderr-escaped)
		if [[ $value != \"*\" ]]; then
			spec_error "## $key: the value must be in double quotes"
		else
			value=${value#\"}
			spec_set_stream "${key%-escaped}" esc "${value%\"}"
		fi ;;
	status)
		[[ $value =~ ^[0-9]+$ ]] || spec_error "## status: needs a number"
		C_STATUS[i]=$value ;;
	args)
		C_HASARGS[i]=1
		C_ARGS[i]=$value ;;
	env)
		[[ $value == -?* || $value == ?*=* ]] || spec_error "## env: needs NAME=VALUE or -NAME"
		C_ENV[i]+=$value$'\n' ;;
	ours)
		C_OURS[i]=1
		C_WHY[i]=$value ;;
	needs)
		[[ $value == /* ]] || spec_error "## needs: takes absolute paths"
		C_NEEDS[i]=$value ;;
	code-escaped)
		C_CODEESC[i]=1 ;;
	*)
		spec_error "unknown line: $line" ;;
	esac
}

# spec_end_code: the code of the open case is complete; drop its trailing blank lines.
spec_end_code() {
	local i=$((SPEC_N - 1))
	while [[ ${C_CODE[i]} == *$'\n\n' || ${C_CODE[i]} == $'\n' ]]; do
		C_CODE[i]=${C_CODE[i]%$'\n'}
	done
}

spec_parse() {
	local line state=header mode
	SPEC_FILE=$1 SPEC_LINENO=0 SPEC_BAD=0 SPEC_N=0 SPEC_HEADER= SPEC_BLOCK=
	unset SPEC_SEEN C_NAME C_CODE C_CODEESC C_OURS C_WHY C_NEEDS C_ARGS C_HASARGS C_ENV \
		C_IN_MODE C_IN C_OUT_MODE C_OUT C_ERR_MODE C_ERR C_STATUS C_LINE
	declare -gA SPEC_SEEN=()
	declare -ga C_NAME=() C_CODE=() C_CODEESC=() C_OURS=() C_WHY=() C_NEEDS=() C_ARGS=() C_ENV=() \
		C_HASARGS=() C_IN_MODE=() C_IN=() C_OUT_MODE=() C_OUT=() C_ERR_MODE=() \
		C_ERR=() C_STATUS=() C_LINE=()
	[ -r "$1" ] || { echo "$1: cannot read" >&2; return 1; }
	while IFS= read -r line || [ -n "$line" ]; do
		SPEC_LINENO=$((SPEC_LINENO + 1))
		if [ "$state" = block ]; then
			if [ "$line" = '## END' ]; then
				mode=text
				[ -n "$SPEC_BLOCK_TEXT" ] || mode=none
				spec_set_stream "$SPEC_BLOCK" "$mode" "$SPEC_BLOCK_TEXT"
				SPEC_BLOCK=
				state=meta
			else
				SPEC_BLOCK_TEXT+=$line$'\n'
			fi
			continue
		fi
		case $line in
		'#### '*)
			[ "$state" = code ] && spec_end_code
			spec_new_case "${line#'#### '}"
			state=code ;;
		'## '* | '##')
			case $state in
			header) spec_error "a ## line before the first case (#### NAME)" ;;
			code) spec_end_code ;;
			esac
			state=meta
			spec_meta "$line"
			[ -n "$SPEC_BLOCK" ] && state=block ;;
		*)
			case $state in
			header) SPEC_HEADER+=$line$'\n' ;;
			code) C_CODE[SPEC_N - 1]+=$line$'\n' ;;
			meta) [ -z "$line" ] || spec_error "expected a ## line, a blank line or #### NAME: $line" ;;
			esac ;;
		esac
	done <"$1"
	while [[ $SPEC_HEADER == *$'\n\n' || $SPEC_HEADER == $'\n' ]]; do
		SPEC_HEADER=${SPEC_HEADER%$'\n'}
	done
	case $state in
	code) spec_end_code ;;
	block) spec_error "block ## ${SPEC_BLOCK^^}: not closed by ## END" ;;
	esac
	[ "$SPEC_BAD" = 0 ]
}

# spec_write_stream MODE VALUE FILE: write the bytes a stream stands for.
spec_write_stream() {
	case $1 in
	none) : >"$3" ;;
	text) printf '%s' "$2" >"$3" ;;
	esc) printf '%b' "$2" >"$3" ;;
	esac
}

# spec_write_code I FILE: write case I's script.
spec_write_code() {
	if [ "${C_CODEESC[$1]}" = 1 ]; then
		local line
		: >"$2"
		while IFS= read -r line; do
			printf '%b\n' "$line"
		done <<<"${C_CODE[$1]%$'\n'}" >"$2"
	else
		printf '%s' "${C_CODE[$1]}" >"$2"
	fi
}

# spec_escape FILE [lines]: the bytes of FILE as printf %b escapes (\\ \n \t
# \xHH); with "lines", a newline stays a newline (for ## code-escaped).
spec_escape() {
	local hex out= b nl='\n'
	[ "${2-}" = lines ] && nl=$'\n'
	hex=$(od -An -v -tx1 "$1" | tr -s ' \n' '  ')
	for b in $hex; do
		case $b in
		5c) out+='\\' ;;
		0a) out+=$nl ;;
		09) out+='\t' ;;
		2[0-9a-f] | [3-6][0-9a-f] | 7[0-9a-e]) printf -v b %b "\\x$b"; out+=$b ;;
		*) out+="\\x$b" ;;
		esac
	done
	printf '%s' "$out"
}

# spec_slurp FILE VAR: set VAR to FILE's contents.  Fails if FILE holds a NUL
# byte (a shell variable cannot: VAR then stops before it).
spec_slurp() {
	local -n _spec_v=$2
	_spec_v=
	! IFS= read -r -d '' _spec_v <"$1"
}

# spec_text_ok VALUE: can VALUE be written as lines in a spec file?  It must
# end with a newline, hold no control character but tab and newline, be
# valid UTF-8, and have no line that reads "## END".
spec_text_ok() {
	[[ $1 == *$'\n' ]] || return 1
	[[ $1 != *[$'\001'-$'\010'$'\013'-$'\037'$'\177']* ]] || return 1
	[[ $'\n'$1 != *$'\n## END\n'* ]] || return 1
	[[ $1 != *[$'\200'-$'\377']* ]] ||
		printf '%s' "$1" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
}

# spec_is_text FILE: can FILE be written as lines in a spec file?
spec_is_text() {
	local v
	spec_slurp "$1" v && spec_text_ok "$v"
}

# spec_set_stream_from_file I WHICH FILE: set stream WHICH (stdin, stdout,
# stderr) of case I to FILE's bytes, as text when it can be.
spec_set_stream_from_file() {
	local i=$1 v
	local -n mode=C_${SPEC_STREAM[$2]}_MODE value=C_${SPEC_STREAM[$2]}
	if ! spec_slurp "$3" v; then
		mode[i]=esc
		value[i]=$(spec_escape "$3")
	elif [ -z "$v" ]; then
		mode[i]=none value[i]=
		# an empty standard input is an empty file, not /dev/null
		[ "$2" = stdin ] && [ -f "$3" ] && mode[i]=esc
	elif spec_text_ok "$v"; then
		mode[i]=text value[i]=$v
	else
		mode[i]=esc
		value[i]=$(spec_escape "$3")
	fi
}

# spec_stream_is MODE VALUE FILE: does FILE hold exactly the bytes the stream
# stands for?  (Without a process unless a NUL byte is involved.)
spec_stream_is() {
	local got want
	if ! spec_slurp "$3" got || [[ $1 = esc && $2 == *'\x00'* ]]; then
		spec_write_stream "$1" "$2" "$3.want"
		cmp -s "$3.want" "$3"
		return
	fi
	case $1 in
	none) want= ;;
	text) want=$2 ;;
	esc) printf -v want '%b' "$2" ;;
	esac
	[ "$want" = "$got" ]
}

# spec_emit_stream WHICH MODE VALUE: the ## lines for one stream.
spec_emit_stream() {
	local which=$1 mode=$2 value=$3 body
	case $mode in
	none) ;;
	esc) printf '## %s-escaped: "%s"\n' "$which" "$value" ;;
	text)
		body=${value%$'\n'}
		if [[ $body != *$'\n'* && -n $body && $body != [[:space:]]* && $body != *[[:space:]] ]]; then
			printf '## %s: %s\n' "$which" "$body"
		else
			printf '## %s:\n%s## END\n' "${which^^}" "$value"
		fi ;;
	esac
}

# spec_emit_case I: case I in the canonical form.
spec_emit_case() {
	local i=$1
	printf '#### %s\n%s' "${C_NAME[i]}" "${C_CODE[i]}"
	[ "${C_CODEESC[i]}" = 1 ] && echo '## code-escaped'
	if [ "${C_OURS[i]}" = 1 ]; then
		if [ -n "${C_WHY[i]}" ]; then echo "## ours: ${C_WHY[i]}"; else echo '## ours'; fi
	fi
	[ -z "${C_NEEDS[i]}" ] || echo "## needs: ${C_NEEDS[i]}"
	[ "${C_HASARGS[i]}" = 1 ] && echo "## args: ${C_ARGS[i]}"
	if [ -n "${C_ENV[i]}" ]; then
		local entry
		while IFS= read -r entry; do
			echo "## env: $entry"
		done <<<"${C_ENV[i]%$'\n'}"
	fi
	spec_emit_stream stdin "${C_IN_MODE[i]}" "${C_IN[i]}"
	spec_emit_stream stdout "${C_OUT_MODE[i]}" "${C_OUT[i]}"
	spec_emit_stream stderr "${C_ERR_MODE[i]}" "${C_ERR[i]}"
	[ "${C_STATUS[i]}" = 0 ] || echo "## status: ${C_STATUS[i]}"
}

# spec_emit: the whole parsed file in the canonical form.
spec_emit() {
	local i
	printf '%s' "$SPEC_HEADER"
	for ((i = 0; i < SPEC_N; i++)); do
		[ $i -gt 0 ] || [ -n "$SPEC_HEADER" ] && echo
		spec_emit_case "$i"
	done
}
