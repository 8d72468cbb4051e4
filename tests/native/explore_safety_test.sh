#!/usr/bin/env bash
# `racelab explore` and `racelab replay` as a hostile or careless user meets
# them: schedule files and programs are untrusted, nothing outlives a
# schedule or a killed racelab, findings come from the sanitizer and not from
# what the program prints, output is kept bounded, arguments and options
# replay exactly, and every exit status holds. Each check names what it
# covers; the script exits 1 if any fails.
#   explore_safety_test.sh <racelab> <process_tree_program> <native_program>
set -u
racelab=$(realpath "$1") tree=$(realpath "$2") native=$(realpath "$3")
dir=$(mktemp -d)
token="racelab-safety-$$-$RANDOM"
cleanup() {
  pkill -KILL -f "$token" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
export XDG_STATE_HOME=$dir/state
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
# Processes whose command line holds the token, after giving them up to
# `1` seconds to go (a loaded machine may be slow to kill and reap a
# sanitizer's large process; nothing is judged on speed, so the checks give
# a minute, which only a process really left behind uses up).
# Waits (at most $1 seconds) until a process of this test's program runs:
# only then has racelab set up its signal handling. A fixed sleep is not
# enough on a loaded machine, and a background job of a script starts with
# SIGINT ignored, so an early SIGINT would be lost.
wait_started() {
  local deadline=$((SECONDS + $1))
  until pgrep -f -- "$token" >/dev/null || ((SECONDS >= deadline)); do
    sleep 0.1
  done
}

alive_after() {
  local deadline=$((SECONDS + $1)) n
  while :; do
    n=$(pgrep -f -c -- "$token" || true)
    ((n == 0 || SECONDS >= deadline)) && break
    sleep 0.1
  done
  echo "$n"
}

# --- schedule files are untrusted: nothing runs before every check ---------
cat >"$dir/legacy.schedule" <<EOF
racelab-schedule 2
subject /bin/sh
scenario explore
mode program
strategy pct
seed 1
arg.0 /bin/sh
arg.1 -c
arg.2 touch $dir/pwned-legacy
setup
program 1
main
finale
decisions 1
0
end
EOF
out=$("$racelab" replay "$dir/legacy.schedule" 2>&1); rc=$?
[[ $rc == 2 && ! -e $dir/pwned-legacy ]] &&
  ok "replay: an old-style file naming /bin/sh runs nothing (exit 2)" ||
  fail "replay legacy /bin/sh: exit $rc, pwned=$([[ -e $dir/pwned-legacy ]] && echo yes || echo no): $out"

sed -e "s|^arg.0 .*|argc 3\narg.0 \"/bin/sh\"|" -e 's|^arg.1 .*|arg.1 "-c"|' \
    -e "s|^arg.2 .*|arg.2 \"touch $dir/pwned\"|" "$dir/legacy.schedule" >"$dir/sh.schedule"
out=$("$racelab" replay "$dir/sh.schedule" 2>&1); rc=$?
[[ $rc == 2 && ! -e $dir/pwned && $out == *racelab::runtime* ]] &&
  ok "replay: a file naming a program without racelab::runtime runs nothing (exit 2)" ||
  fail "replay /bin/sh: exit $rc: $out"

# --- a program without the runtime is an input error before any schedule ---
out=$("$racelab" explore --budget 3 -- /bin/sh -c "touch $dir/ran" 2>&1); rc=$?
[[ $rc == 2 && ! -e $dir/ran ]] &&
  ok "explore: /bin/sh is refused before it runs (exit 2)" ||
  fail "explore /bin/sh: exit $rc, ran=$([[ -e $dir/ran ]] && echo yes || echo no): $out"
out=$("$racelab" explore --budget 3 -- /bin/sleep 8 2>&1); rc=$?
[[ $rc == 2 ]] && ok "explore: /bin/sleep is refused (exit 2)" ||
  fail "explore /bin/sleep: exit $rc: $out"

# --- output paths are checked before the search ----------------------------
out=$("$racelab" explore --strategy random --budget 50 \
      --save-schedule "$dir/missing/x.schedule" -- "$native" lost_update buggy 2>&1); rc=$?
[[ $rc == 2 && $out != *found* ]] &&
  ok "explore: --save-schedule into a missing folder is refused before the search (exit 2)" ||
  fail "save into missing folder: exit $rc: $out"
out=$("$racelab" explore --save-schedule "" -- "$native" lost_update buggy 2>&1); rc=$?
[[ $rc == 2 ]] && ok "explore: --save-schedule '' is a usage error" ||
  fail "empty --save-schedule: exit $rc: $out"

# --- no fixed names in shared folders --------------------------------------
mkdir -p "$dir/tmp"
echo "the victim's own text" >"$dir/victim"
name=$(basename "$native")
ln -s "$dir/victim" "$dir/tmp/racelab-$name.schedule"
out=$(TMPDIR=$dir/tmp "$racelab" explore --strategy random --budget 50 -- \
      "$native" lost_update buggy 2>&1); rc=$?
saved=$(sed -n 's/^schedule saved: \([^ ]*\) .*/\1/p' <<<"$out")
mode=$(stat -c %a "$XDG_STATE_HOME/racelab/schedules" 2>/dev/null)
[[ $rc == 1 && $(cat "$dir/victim") == "the victim's own text" &&
   $saved == "$XDG_STATE_HOME/racelab/schedules/"* && $mode == 700 ]] &&
  ok "explore: the schedule goes to the 0700 per-user folder; a planted link in TMPDIR is untouched" ||
  fail "default schedule place: exit $rc, saved '$saved', mode $mode, victim '$(cat "$dir/victim")': $out"

# --- arguments and the program path replay exactly --------------------------
args=("" "a b" $'line\nbreak' $'\t' $'\xff\xfe' "-")
out=$("$racelab" explore --budget 2 --save-schedule "$dir/args.schedule" -- \
      "$tree" args "${args[@]}" 2>&1); rc=$?
want=$(grep '^arg ' <<<"$out")
out2=$(cd / && "$racelab" replay "$dir/args.schedule" 2>&1); rc2=$?
got=$(grep '^arg ' <<<"$out2")
[[ $rc == 1 && $rc2 == 1 && -n $want && $want == "$got" &&
   $(grep -c '^arg ' <<<"$got") == 8 ]] &&
  ok "replay: empty, spaced, newline, tab and non-UTF-8 arguments come back byte for byte" ||
  fail "arguments: explore $rc, replay $rc2: want [$want] got [$got]: $out $out2"
mkdir -p "$dir/here" "$dir/elsewhere"
cp "$tree" "$dir/here/prog"
printf '#!/bin/sh\ntouch %s/wrong-prog\n' "$dir" >"$dir/elsewhere/prog"
chmod +x "$dir/elsewhere/prog"
out=$(cd "$dir/here" && "$racelab" explore --budget 2 --save-schedule "$dir/rel.schedule" -- ./prog args 2>&1); rc=$?
out2=$(cd "$dir/elsewhere" && "$racelab" replay "$dir/rel.schedule" 2>&1); rc2=$?
[[ $rc == 1 && $rc2 == 1 && ! -e $dir/wrong-prog ]] &&
  grep -q "^arg.0 \"$dir/here/prog\"$" "$dir/rel.schedule" &&
  ok "replay: ./prog is saved absolute and replayed from anywhere" ||
  fail "relative program: explore $rc, replay $rc2: $(grep '^arg.0' "$dir/rel.schedule"): $out2"

# --- options that change a run are recorded and honoured -------------------
out=$("$racelab" explore --budget 2 --max-steps 5 --save-schedule "$dir/steps.schedule" -- \
      "$tree" many-steps 2>&1); rc=$?
out2=$("$racelab" replay "$dir/steps.schedule" 2>&1); rc2=$?
[[ $rc == 1 && $rc2 == 1 && $out2 == *"no progress in 5 scheduling decisions"* ]] &&
  ok "replay: --max-steps is recorded and honoured" ||
  fail "max-steps: explore $rc, replay $rc2: $out2"

# --- a schedule cut short is inconclusive, never clean ---------------------
# (a deadlock that only the whole schedule reaches: lock_order's inversion is
# reported by TSan's lock-order detector from its first lock on)
"$racelab" explore --strategy random --budget 200 --save-schedule "$dir/dl.schedule" -- \
  "$native" lost_wakeup buggy >/dev/null 2>&1
awk '/^decisions /{print "decisions 1"; getline; print $1; skip=1; next}
     skip && $0 != "end" {next} {print}' "$dir/dl.schedule" >"$dir/cut.schedule"
out=$("$racelab" replay "$dir/cut.schedule" 2>&1); rc=$?
[[ $rc == 2 && $out == *inconclusive* ]] &&
  ok "replay: a schedule cut short is inconclusive (exit 2), not clean" ||
  fail "cut schedule: exit $rc: $out"

# --- a case schedule is checked against its program ------------------------
"$racelab" run --mode controlled --strategy pct --seed 1 --subject checkpoint/split_lock \
  --scenario same_session_first_commit --save-schedule "$dir/case.schedule" >/dev/null 2>&1
sed 's/^scenario .*/scenario index_reader_vs_committer/' "$dir/case.schedule" >"$dir/other.schedule"
out=$("$racelab" replay "$dir/other.schedule" 2>&1); rc=$?
[[ $rc == 2 && $out == *program.digest* ]] &&
  ok "replay: a case schedule pointed at another scenario is refused (exit 2)" ||
  fail "case digest: exit $rc: $out"

# A case schedule whose digest line was cut could name any case: refused.
grep -v '^program.digest ' "$dir/case.schedule" >"$dir/no-digest.schedule"
out=$("$racelab" replay "$dir/no-digest.schedule" 2>&1); rc=$?
[[ $rc == 2 && $out == *"no program.digest line"* ]] &&
  ok "replay: a case schedule without its digest line is refused (exit 2)" ||
  fail "no digest: exit $rc: $out"

# --- racelab's own variables in the caller's environment -------------------
out=$(RACELAB_REPLAY_FD=5 "$racelab" explore --budget 3 --no-shrink -- \
  "$native" lost_update buggy 2>&1); rc=$?
[[ $rc == 1 && $out == *"found at schedule"* ]] &&
  ok "explore: a stray RACELAB_REPLAY_FD in the caller's environment changes nothing" ||
  fail "stray RACELAB_REPLAY_FD: exit $rc: $out"

# --- findings come from the sanitizer, not from what the program prints ----
out=$("$racelab" explore --budget 3 -- "$tree" fake-report 2>&1); rc=$?
[[ $rc == 0 ]] && ok "explore: a program printing a fake report is clean" ||
  fail "fake report: exit $rc: $out"

# --- output is bounded ------------------------------------------------------
if [[ -x /usr/bin/time ]]; then
  out=$(/usr/bin/time -f "maxrss %M" "$racelab" explore --budget 1 -- "$tree" flood 2>&1 >/dev/null); rc=$?
  rss=$(sed -n 's/^maxrss //p' <<<"$out" | tail -1)
  [[ $rc == 0 && -n $rss && $rss -lt 400000 ]] &&
    ok "explore: 1 GiB on stdout, racelab's peak RSS ${rss} KiB" ||
    fail "flood: exit $rc, rss '$rss' KiB: $out"
  out=$(/usr/bin/time -f "maxrss %M" "$racelab" explore --budget 1 -- "$tree" flood-stderr 2>&1 >/dev/null); rc=$?
  rss=$(sed -n 's/^maxrss //p' <<<"$out" | tail -1)
  [[ $rc == 0 && -n $rss && $rss -lt 400000 ]] &&
    ok "explore: 1 GiB on stderr, racelab's peak RSS ${rss} KiB" ||
    fail "flood-stderr: exit $rc, rss '$rss' KiB: $out"
fi

# --- no process outlives a schedule ----------------------------------------
"$racelab" explore --budget 3 -- "$tree" child "$token" >/dev/null 2>&1
n=$(alive_after 60)
[[ $n == 0 ]] && ok "explore: a forked child does not outlive its schedule" ||
  fail "forked child: $n processes left"
"$racelab" explore --budget 3 -- "$tree" daemon "$token" >/dev/null 2>&1
n=$(alive_after 60)
[[ $n == 0 ]] && ok "explore: a daemon (setsid) does not outlive its schedule" ||
  fail "daemon: $n processes left"

# --- SIGINT, SIGTERM and SIGKILL of explore --------------------------------
for sig in INT TERM; do
  "$racelab" explore --budget 5 -- "$tree" spin "$token" >"$dir/sig.out" 2>&1 &
  pid=$!
  wait_started 60
  sleep 0.5
  kill -$sig $pid
  wait $pid; rc=$?
  want=$((128 + $(kill -l $sig)))
  n=$(alive_after 60)
  [[ $rc == "$want" && $n == 0 ]] &&
    ok "explore: SIG$sig stops the program and exits $want" ||
    fail "SIG$sig: exit $rc (want $want), $n processes left: $(cat "$dir/sig.out")"
done
for mode in spin read child-read daemon-read; do
  left=0 survivors=
  for trial in 1 2 3; do
    "$racelab" explore --budget 5 -- "$tree" $mode "$token" >/dev/null 2>&1 &
    pid=$!
    wait_started 60
    sleep 0.5
    kill -KILL $pid
    wait $pid 2>/dev/null
    n=$(alive_after 60)
    left=$((left + n))
    ((n == 0)) || survivors+=$(ps -o pid=,ppid=,stat=,etimes=,args= -p \
      "$(pgrep -d, -f -- "$token")" 2>/dev/null)$'\n'
    pkill -KILL -f -- "$token" 2>/dev/null
  done
  [[ $left == 0 ]] && ok "explore: SIGKILL leaves no program behind ($mode, 3 trials)" ||
    fail "SIGKILL ($mode): $left processes left over 3 trials: $survivors"
done

# --- a real hang names what every thread was doing -------------------------
out=$("$racelab" explore --budget 1 --hang-seconds 2 -- "$tree" read "$token" 2>&1); rc=$?
stacks=yes
if command -v gdb >/dev/null; then
  [[ $out == *"block_in_read"*"process_tree_program.cc:"* ]] || stacks=no
fi
[[ $rc == 1 && $out == *"hang: no scheduling decision for 2 s"* &&
  $out == *"in system call 0 (read), waits in"* && $stacks == yes ]] &&
  ok "explore: a hang in read shows each thread's system call and stack" ||
  fail "hang in read: exit $rc, stacks $stacks: $(head -c 3000 <<<"$out")"

# --- exit statuses hold -----------------------------------------------------
"$racelab" explore --strategy random --budget 50 -- "$native" lost_update buggy | head -c 0
rc=${PIPESTATUS[0]}
[[ $rc == 1 ]] && ok "explore | head -c 0 keeps exit 1" || fail "explore under a closed pipe: exit $rc"
"$racelab" replay "$dir/dl.schedule" | head -c 0
rc=${PIPESTATUS[0]}
[[ $rc == 1 ]] && ok "replay | head -c 0 keeps exit 1" || fail "replay under a closed pipe: exit $rc"
for bad in "--seed -1" "--seed 0x10" "--seed ' 5'" "--strategy random --depth 3"; do
  out=$(eval "\"\$racelab\" explore $bad -- \"\$native\" lost_update fixed" 2>&1); rc=$?
  [[ $rc == 2 && $(wc -l <<<"$out") == 1 ]] && ok "explore $bad: one-line usage error" ||
    fail "explore $bad: exit $rc: $out"
done
out=$("$racelab" explore --no-such-option -- "$native" lost_update fixed 2>&1); rc=$?
[[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"--no-such-option"* ]] &&
  ok "explore --no-such-option: the error names the option" ||
  fail "an unknown option: exit $rc: $out"

# --- a full disk costs the saved schedule, never the finding ----------------
# A tmpfs of 64 KiB, filled, in a mount namespace of this test's own (a user
# namespace where this test is not root).
if unshare --user --map-root-user --mount true 2>/dev/null; then
  mkdir -p "$dir/full"
  out=$(unshare --user --map-root-user --mount bash -c '
    mount -t tmpfs -o size=64k tmpfs "$1" || exit 97
    mkdir -p -m 0700 "$1/state" "$1/state/racelab" "$1/state/racelab/schedules"
    dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
    XDG_STATE_HOME=$1/state "$2" explore --strategy dfs --budget 50 -- "$3" lost_update buggy
    echo "exit $?"; ls "$1/state/racelab/schedules" | wc -l' _ "$dir/full" "$racelab" "$native" 2>&1)
  [[ $out == *"found at schedule"* && $out == *"the schedule was not saved: "*"No space left on device"* &&
     $out == *"exit 1"* && $(tail -1 <<<"$out") == 0 ]] &&
    ok "explore on a full disk prints the finding, exit 1, and says the schedule was not saved" ||
    fail "full disk: $(tail -c 2000 <<<"$out")"
else
  echo "skip: full disk (no user and mount namespaces here)"
fi

# --- racelab's signal dispositions are its own --------------------------------
# A SIGCHLD its caller ignored would have the kernel reap racelab's children
# unasked: every schedule's end unknown, a lost update "verified".
for fork_server in on off; do
  out=$(timeout 600 env --ignore-signal=CHLD "$racelab" explore --strategy dfs \
        --budget 50 --fork-server "$fork_server" -- "$native" lost_update buggy 2>&1); rc=$?
  [[ $rc == 1 && $out == *"found at schedule"* ]] &&
    ok "explore under an ignored SIGCHLD (fork server $fork_server) still finds the lost update" ||
    fail "ignored SIGCHLD, fork server $fork_server: exit $rc: $(head -c 2000 <<<"$out")"
done

echo "$failures failures"
exit $((failures > 0))
