#!/usr/bin/env bash
# Renders the README's pictures from the real program: builds ohwatch and
# freeze (pinned in tools/pictures/go.mod), runs each screen in a private
# tmux server at a fixed size over generated conversations, captures the
# pane with its colours (tmux capture-pane -e) and has freeze draw it as
# SVG into docs/pictures/. Run from the repository's root:
#
#   tools/pictures/pictures.sh
#
# PICTURES_KEEP=1 keeps the captures (printed) to look at. PICTURES_ONLY=demo
# renders only the animated demo (docs/pictures/demo.svg).
# Needs tmux. Nothing is left running: the tmux server is private to the
# run and killed at its end.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/docs/pictures"
work=$(mktemp -d)
sock="ohwatch-pictures-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	[ -n "${PICTURES_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
[ -z "${PICTURES_KEEP:-}" ] || echo "pictures: captures in $work"

command -v tmux >/dev/null || { echo "pictures: tmux is needed" >&2; exit 2; }
mkdir -p "$out"
go build -C "$root" -o "$work/ohwatch" .
go build -C "$root/tools/pictures" -o "$work/freeze" github.com/charmbracelet/freeze
ohwatch="$work/ohwatch"

# The conversations: one for the monitor and the inspector, and a root of
# several (with forks) for the fleet. Fixed seeds give the same ones each
# run.
conv="$work/root/5f3c2a1e9b7d4c6e8a0b1c2d3e4f5a6b"
"$ohwatch" gen "$conv" --events 80 --seed 3 >/dev/null
"$ohwatch" gen "$work/fleet" --events 60 --seed 7 --forks 2 >/dev/null
for seed in 11 12 13; do
	"$ohwatch" gen "$work/fleet/c0ffee00000000000000000000000$seed" --events $((40 + seed)) --seed "$seed" >/dev/null
done

# The screens name paths relative to the work directory, where they run:
# the pictures show no temporary path.
conv=root/5f3c2a1e9b7d4c6e8a0b1c2d3e4f5a6b

# shot NAME WIDTH HEIGHT WAIT_FOR KEYS -- COMMAND...: runs COMMAND in a
# WIDTH×HEIGHT pane, waits (at most 15 s) until the screen shows WAIT_FOR,
# sends KEYS (space separated tmux key names, "-" for none), waits for the
# screen to settle and renders it to NAME.svg.
shot() {
	local name=$1 w=$2 h=$3 want=$4 keys=$5
	shift 6
	tmux -L "$sock" -f /dev/null new-session -d -s "$name" -x "$w" -y "$h" -c "$work" \
		-e TERM=xterm-256color -e COLORTERM=truecolor -e OHWATCH_THEME=dark "$@"
	waitfor "$name" "$want"
	if [ "$keys" != "-" ]; then
		for k in $keys; do tmux -L "$sock" send-keys -t "$name" "$k"; done
	fi
	settle "$name"
	tmux -L "$sock" capture-pane -t "$name" -e -p >"$work/$name.ansi"
	tmux -L "$sock" kill-session -t "$name"
	"$work/freeze" "$work/$name.ansi" -o "$out/$name.svg" --window=false --padding 12 --margin 0 \
		--border.radius 0 --font.size 13 --font.family monospace >/dev/null
	echo "pictures: $out/$name.svg ($(wc -c <"$out/$name.svg") bytes)"
}

waitfor() {
	for _ in $(seq 150); do
		tmux -L "$sock" capture-pane -t "$1" -p | grep -qF -- "$2" && return 0
		sleep 0.1
	done
	echo "pictures: $1 never showed \"$2\"" >&2
	tmux -L "$sock" capture-pane -t "$1" -p >&2
	exit 1
}

# settle waits until two captures a little apart are the same.
settle() {
	local a b
	a=$(tmux -L "$sock" capture-pane -t "$1" -e -p)
	for _ in $(seq 50); do
		sleep 0.3
		b=$(tmux -L "$sock" capture-pane -t "$1" -e -p)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}

if [ "${PICTURES_ONLY:-}" != demo ]; then
shot monitor 120 36 "Events" "G" -- "$ohwatch" replay "$conv"
shot inspector 120 36 "Events" ": 1 1 Enter Enter" -- "$ohwatch" replay "$conv"
shot fleet 120 24 "TITLE" "-" -- "$ohwatch" fleet fleet
# compare: the conversation and the first fork of it, side by side, from
# the start (the divergence is marked ⑂ further down).
parent=$(cd "$work" && dirname "$(grep -L forked_from fleet/*/meta.json | head -1)")
fork=$(cd "$work" && dirname "$(grep -l forked_from fleet/*/meta.json | head -1)")
shot compare 120 30 "compare A" "-" -- "$ohwatch" compare "$parent" "$fork"
fi

# The animated demo: `ohwatch demo` at 4x, captured as frames (live events
# arriving, the confirmation banner, the rejection, then scrubbing back to
# the error and inspecting it), each drawn by freeze, and played in turn by
# one SVG (SMIL, which browsers run in an <img>, so GitHub shows it). vhs
# would record a GIF, but needs ttyd, ffmpeg and a headless Chromium; this
# needs only tmux.
frames=()
frame() {
	local n=${#frames[@]}
	# A live screen never settles: take it as it is.
	[ "${2:-}" = live ] || settle demo
	tmux -L "$sock" capture-pane -t demo -e -p >"$work/frame$n.ansi"
	"$work/freeze" "$work/frame$n.ansi" -o "$work/frame$n.svg" --window=false --padding 12 --margin 0 \
		--border.radius 0 --font.size 13 --font.family monospace >/dev/null
	frames+=("$work/frame$n.svg:$1")
}
keys() { for k in "$@"; do tmux -L "$sock" send-keys -t demo "$k"; sleep 0.3; done; }
tmux -L "$sock" -f /dev/null new-session -d -s demo -x 120 -y 32 -c "$work" \
	-e TERM=xterm-256color -e COLORTERM=truecolor -e OHWATCH_THEME=dark "$ohwatch" demo --speed 4 --no-notify
waitfor demo "LIVE"
for _ in 1 2 3 4; do sleep 2.5; frame 1.2 live; done
waitfor demo "waiting for your confirmation"
frame 3
keys x
frame 1.5
keys y
sleep 2
frame 2
keys k k k k k k
frame 1.2
keys "["
frame 2
keys Enter
sleep 1
frame 3
tmux -L "$sock" kill-session -t demo

# One SVG playing the frames in turn, each for its seconds, forever.
total=0
for f in "${frames[@]}"; do total=$(awk -v a="$total" -v b="${f##*:}" 'BEGIN{print a+b}'); done
first=${frames[0]%%:*}
size=$(grep -o -m1 '<svg width="[^"]*" height="[^"]*"' "$first" | sed 's/<svg //')
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo "<svg $size xmlns=\"http://www.w3.org/2000/svg\">"
	at=0
	for f in "${frames[@]}"; do
		file=${f%%:*} secs=${f##*:}
		from=$(awk -v a="$at" -v t="$total" 'BEGIN{printf "%.4f", a/t}')
		at=$(awk -v a="$at" -v b="$secs" 'BEGIN{print a+b}')
		to=$(awk -v a="$at" -v t="$total" 'BEGIN{printf "%.4f", a/t}')
		if [ "$from" = "0.0000" ]; then values="1;0" times="0;$to"
		elif [ "$to" = "1.0000" ]; then values="0;1" times="0;$from"
		else values="0;1;0" times="0;$from;$to"; fi
		echo "<g opacity=\"$([ "$from" = "0.0000" ] && echo 1 || echo 0)\"><animate attributeName=\"opacity\" calcMode=\"discrete\" dur=\"${total}s\" repeatCount=\"indefinite\" values=\"$values\" keyTimes=\"$times\"/>"
		sed -e '/^<?xml/d' -e '/^<!DOCTYPE/d' "$file"
		echo "</g>"
	done
	echo "</svg>"
} >"$out/demo.svg"
echo "pictures: $out/demo.svg (${#frames[@]} frames, ${total}s, $(wc -c <"$out/demo.svg") bytes)"
