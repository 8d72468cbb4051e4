#!/usr/bin/env bash
# Kills `racelab gate --mode controlled` with SIGKILL at a random moment and
# counts the processes it started that are still alive afterwards. Each gate
# runs in a session of its own (setsid), so everything it started, children
# and their symbolizers, is in that session unless it left it on purpose.
#   kill_gate.sh BINARY TRIALS measure   prints the survivors 1 s after each
#                                        kill, and their total
#   kill_gate.sh BINARY TRIALS check     fails when anything is still alive
#                                        5 s after a kill
# The random moment is drawn between 0.3 and 3 seconds after the start.
set -uo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 BINARY TRIALS measure|check" >&2
  exit 2
fi
binary=$1
trials=$2
how=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/racelab-kill-gate.XXXXXX")
sessions=()
cleanup() {
  # Whatever survived a trial is ended here, so that no run outlives the
  # script; it has already been counted.
  for sid in "${sessions[@]}"; do
    for pid in $(ps -o pid= -s "$sid" 2>/dev/null); do
      kill -9 "$pid" 2>/dev/null
    done
  done
  rm -rf "$work"
}
trap cleanup EXIT

# The processes still alive in session $1. A zombie has ended: it only waits
# for whoever adopted it to reap it, which is not the gate's doing.
in_session() {
  ps -o stat= -s "$1" 2>/dev/null | grep -vc '^Z'
}

total=0
failed=0
for ((trial = 1; trial <= trials; ++trial)); do
  out="$work/out-$trial"
  setsid "$binary" gate --mode controlled --subject checkpoint \
    --out "$out" >"$work/log-$trial" 2>&1 &
  gate=$!
  sessions+=("$gate")
  # 300 to 3000 ms.
  delay_ms=$((300 + RANDOM % 2701))
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 "$gate" 2>/dev/null
  wait "$gate" 2>/dev/null
  if [[ $how == measure ]]; then
    sleep 1
    left=$(in_session "$gate")
  else
    # No verdict on how busy the machine is: a survivor is whatever is still
    # there after a generous wait, not after a tight one.
    for ((poll = 0; poll < 50; ++poll)); do
      left=$(in_session "$gate")
      [[ $left -eq 0 ]] && break
      sleep 0.1
    done
  fi
  if [[ $left -ne 0 ]]; then
    failed=$((failed + 1))
    echo "trial $trial: killed after ${delay_ms} ms, $left still alive:"
    ps -o pid=,stat=,wchan:32=,args= -s "$gate" | grep -v '^ *[0-9]* Z' |
      cut -c1-160
  else
    echo "trial $trial: killed after ${delay_ms} ms, nothing alive"
  fi
  total=$((total + left))
done
echo "survivors: $total processes in $failed of $trials trials"
if [[ $how == check && $failed -ne 0 ]]; then
  echo "FAIL: processes of a killed gate outlived it" >&2
  exit 1
fi
exit 0
