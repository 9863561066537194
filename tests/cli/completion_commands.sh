#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completions offer the commands the descriptors name (`APPLET --list-commands`,
# `socbox --list-commands`) and --format ktap where a descriptor says the command runs
# checks: each applet is completed through a wrapper whose descriptors name one command
# more, "frob", which no list of the completion's own could know.
# bash-completion's helpers are replaced by minimal stand-ins so the test needs bash only.
. "$SOCBOX_TESTLIB"
COMPDIR=$(dirname "$SOCBOX_TESTLIB")/../completions/bash
t_need bash bash || t_done
mkdir -p "$T_TMP/bin"
TAB=$(printf '\t')
for a in socbox $("$SOCBOX" --list); do
	# the binary, with a command "frob" added to each --list-commands it prints
	cat >"$T_TMP/bin/$a" <<EOF
#!/bin/sh
case " \$* " in
*" --list-commands "*)
	"$SOCBOX" $([ "$a" = socbox ] || echo "$a") "\$@" || exit
	case \$1 in --list-commands) p="$([ "$a" = socbox ] || echo "$a ")" ;; *) p="$([ "$a" = socbox ] || echo "$a ")\$1 " ;; esac
	printf '%sfrob${TAB}view,checks${TAB}-\n' "\$p" ;;
*) exec "$SOCBOX" $([ "$a" = socbox ] || echo "$a") "\$@" ;;
esac
EOF
	chmod +x "$T_TMP/bin/$a"
done

complete_words() { # PROGRAM WORDS...: the candidates for the last word
	PATH="$T_TMP/bin:$PATH" bash -c '
		_init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${words[cword]}; prev=${words[cword-1]}; }
		_filedir() { :; }
		_completion_loader() { return 1; }
		__ltrim_colon_completions() { :; }
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		"_${0##*/}"
		printf "%s\n" "${COMPREPLY[@]}"' "$COMPDIR/$1" "$@" 2>/dev/null
}

for a in $("$SOCBOX" --list); do
	"$SOCBOX" "$a" --list-commands | cut -f1 | cut -d' ' -f2 | uniq | sort >"$T_TMP/want"
	echo frob >>"$T_TMP/want"
	complete_words "$a" '' | grep -v '^-' | grep -vx 'udmabuf' | sort >"$T_TMP/got"
	t_eq "$a: the commands offered are its descriptors'" \
		"$(tr '\n' ' ' <"$T_TMP/got")" "$(sort "$T_TMP/want" | tr '\n' ' ')"
done
# --format offers ktap exactly where a command's descriptor says it runs checks: each
# completion asks the command (--complete-words), which knows from its descriptor
for a in $("$SOCBOX" --list); do
	"$SOCBOX" "$a" --list-commands >"$T_TMP/cmds"
	while IFS="$TAB" read -r cmdwords flags _; do
		want=0
		case ",$flags," in *,checks,*) want=1 ;; esac
		# shellcheck disable=SC2086 # the command's words, applet first
		t_eq "$cmdwords --format: ktap offered $want times" \
			"$(complete_words $cmdwords --format '' | grep -cx ktap)" "$want"
	done <"$T_TMP/cmds"
done
# the groups of rpmsgctl: their commands, from the descriptors too
for g in ept dev flow rproc; do
	t_eq "rpmsgctl $g: its commands are its descriptors'" \
		"$(complete_words rpmsgctl "$g" '' | tr '\n' ' ')" \
		"$("$SOCBOX" rpmsgctl --list-commands | cut -f1 | awk -v g="$g" '$2 == g { printf "%s ", $3 }')"
done
t_eq "a view without checks: no ktap" "$(complete_words smmustat irq --format '' | grep -cx ktap)" 0
# socbox's own commands
"$SOCBOX" --list-commands | cut -f1 | grep -v ' ' >"$T_TMP/own"
echo frob >>"$T_TMP/own"
complete_words socbox '' >"$T_TMP/got"
t_eq "socbox: its own commands offered are the descriptors'" \
	"$(grep -vxF -f "$T_TMP/got" "$T_TMP/own" | tr '\n' ' ')" ""
t_done
