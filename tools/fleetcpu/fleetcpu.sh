#!/bin/bash
# fleetcpu: the CPU the whole ohwatch binary uses while its fleet table (in
# tmux, 160x48) watches 100 conversations played live at 100 events/s each
# by a server in another process (the fleetsource benchmark's server),
# all 100 streamed (--max-streams 100).
# usage: tools/fleetcpu/fleetcpu.sh   (from the repository root; needs tmux)
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/fleetsource.test" ./client/fleetsource
go build -o "$dir/ohwatch" .
exec 3< <(sleep 100000) # the server's stdin: it serves until that closes
holder=$!
coproc SRV { OHWATCH_FLEET_BENCH_SERVER=100:3000:100 "$dir/fleetsource.test" -test.run='^$' <&3; }
read -r line <&"${SRV[0]}"
url=${line%% *}
session=fleetcpu-$$
tmux new-session -d -s "$session" -x 160 -y 48 "$dir/ohwatch fleet $url --interval 1s --max-streams 100"
sleep 6 # every conversation listed and streaming
pid=$(pgrep -f "^$dir/ohwatch fleet" | head -1)
t0=$(awk '{print $14+$15}' "/proc/$pid/stat"); s0=$(date +%s.%N)
sleep 10
t1=$(awk '{print $14+$15}' "/proc/$pid/stat"); s1=$(date +%s.%N)
tmux capture-pane -t "$session" -p | head -3
echo "ohwatch fleet: $(echo "($t1-$t0)/$(getconf CLK_TCK)/($s1-$s0)*100" | bc -l | cut -c1-5)% of one core over 10 s"
tmux kill-session -t "$session"
kill $(pgrep -P "$SRV_PID") "$holder" 2>/dev/null || true
