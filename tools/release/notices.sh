#!/usr/bin/env bash
# Writes the third-party notices a release archive carries (MIT, BSD and
# ISC ask for their copyright and licence text in copies; Apache-2.0 for
# its licence and any NOTICE file): for every module linked into ohwatch
# on any release target, its licence text and NOTICE, if it has one.
# Fails when a module has no licence file, or one that is not MIT, BSD,
# ISC or Apache-2.0, all of which fit ohwatch's MIT licence. Run from
# the repository's root:
#
#   tools/release/notices.sh .release/THIRD_PARTY_NOTICES.md
set -euo pipefail
out=${1:?usage: notices.sh OUTPUT}
mkdir -p "$(dirname "$out")"

mods=$(for os in linux darwin windows; do
	GOOS=$os CGO_ENABLED=0 go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}} {{.Dir}}{{end}}{{end}}' .
done | sort -u)

classify() {
	local text
	text=$(tr -s ' \n\t' ' ' <"$1")
	case "$text" in
	*"Apache License"*"Version 2.0"*) echo Apache-2.0 ;;
	*"Permission is hereby granted, free of charge"*) echo MIT ;;
	*"Permission to use, copy, modify, and"*"distribute this software for any"*) echo ISC ;;
	*"Redistribution and use in source and binary forms"*) echo BSD ;;
	*) echo unknown ;;
	esac
}

{
	echo "# Third-party notices"
	echo
	echo "ohwatch is MIT-licensed (LICENSE). It is built with the Go standard library"
	echo "(BSD-3-Clause, https://go.dev/LICENSE) and the modules below, each under its own"
	echo "licence, reproduced here as their licences ask."
	while read -r mod dir; do
		[ -n "$mod" ] || continue
		lics=$(find "$dir" -maxdepth 1 -type f \( -iname 'licen[cs]e*' -o -iname 'copying*' \) | sort)
		if [ -z "$lics" ]; then
			echo "notices: $mod has no licence file" >&2
			exit 1
		fi
		kinds=""
		for lic in $lics; do
			kind=$(classify "$lic")
			if [ "$kind" = unknown ]; then
				echo "notices: $mod: $(basename "$lic") is not MIT, BSD, ISC or Apache-2.0" >&2
				exit 1
			fi
			kinds="${kinds:+$kinds, }$kind"
		done
		echo
		echo "## $mod ($kinds)"
		echo
		echo '```'
		for lic in $lics; do
			cat "$lic"
		done
		for notice in "$dir"/NOTICE "$dir"/NOTICE.txt "$dir"/NOTICE.md; do
			if [ -f "$notice" ]; then
				echo
				cat "$notice"
			fi
		done
		echo '```'
	done <<<"$mods"
} >"$out"
echo "notices: $(grep -c '^## ' "$out") modules in $out"
