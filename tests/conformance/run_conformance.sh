#!/usr/bin/env bash
# The conformance suite's runner: every program of tests/conformance is run
# plainly (its ThreadSanitizer reports are the reference) and under
# `racelab explore --strategy pct --budget 50`, and explore must agree with
# plain TSan: it may find more, never less, and never hang.
#
#   run_conformance.sh <racelab> <bindir> [name...]
#
# <bindir> holds the programs, built as conformance_<name> from <name>.cc
# (the CMake target racelab_tsan_conformance builds them all). Each source
# states its verdicts in comment lines:
#   // EXPECT-PLAIN: clean | <TSan title, hyphenated: data-race, thread-leak>
#   // EXPECT-EXPLORE: clean | <racelab finding kind: data_race, deadlock>
#   // XFAIL-EXPLORE: <what racelab lacks, one line>
#   // EXPECT-NOTE: <text explore's output must hold, e.g. unmodelled block>
#   // EXPECT-DFS: verified | not verified   (optional: also run
#   //   `explore --strategy dfs --budget 2000`; must it claim verified?)
# Explore agrees when it is clean where EXPECT-EXPLORE says clean, or has a
# finding of the EXPECT-EXPLORE kind which, when plain TSan reports
# EXPECT-PLAIN, is that same TSan report.
# A program fails the run when its plain verdict differs from EXPECT-PLAIN,
# when explore disagrees with EXPECT-EXPLORE and it has no XFAIL-EXPLORE
# line, when explore agrees although it has one (remove the line), or when
# EXPECT-EXPLORE finds less than EXPECT-PLAIN. Explore gets --hang-seconds 60
# (5 for XFAIL programs) and an outer timeout, which is a failure of a
# program without XFAIL. Prints one table row per program and a summary.
# Both runs get the default TSan options (TSAN_OPTIONS is unset).
# Environment: RACELAB_CONFORMANCE_JOBS (programs run at once, default 4: a
# program that hangs waits without using a core).
set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 <racelab> <bindir> [name...]" >&2
  exit 2
fi
racelab=$1 bindir=$2
shift 2
srcdir=$(cd "$(dirname "$0")" && pwd)
jobs=${RACELAB_CONFORMANCE_JOBS:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=each_program.sh
source "$srcdir/each_program.sh"
choose_programs "$srcdir" "$@"

# The value of the comment line "// <key>: value" of a source, or empty.
field() {
  sed -n "s|^// $2: *||p" "$1" | head -n 1
}

# The distinct TSan report titles of a stderr, hyphenated as the runtime
# spells them ("data race" -> data-race), comma-separated.
plain_kinds() {
  sed -n 's/^WARNING: ThreadSanitizer: \(.*\)$/\1/p' "$1" |
    sed -e 's/ (pid=[0-9]*)$//' -e 's/ (.*$//' -e 's/ /-/g' |
    awk '!seen[$0]++' | paste -sd, -
}

# Runs one program both ways; writes its table row and verdict to
# $work/<name>.row ("<verdict>|<row>").
run_one() {
  local name=$1
  local source=$srcdir/$name.cc program=$bindir/conformance_$name
  local row_file=$work/$name.row
  local expect_plain="" expect_explore="" xfail="" expect_note="" budget=50
  [[ -f $source ]] || source=/dev/null
  expect_plain=$(field "$source" EXPECT-PLAIN)
  expect_explore=$(field "$source" EXPECT-EXPLORE)
  xfail=$(field "$source" XFAIL-EXPLORE)
  expect_note=$(field "$source" EXPECT-NOTE)
  budget=$(field "$source" EXPLORE-BUDGET)
  [[ $budget =~ ^[0-9]+$ ]] || budget=50
  if [[ -z $expect_plain || -z $expect_explore ]]; then
    echo "FAIL|$name | no source with EXPECT-PLAIN and EXPECT-EXPLORE lines" >"$row_file"
    return
  fi
  if [[ ! -x $program ]]; then
    echo "FAIL|$name | not built: $program" >"$row_file"
    return
  fi
  local problems=()
  if [[ $expect_plain != clean && $expect_explore == clean ]]; then
    problems+=("EXPECT-EXPLORE finds less than EXPECT-PLAIN")
  fi

  # Plain: the program alone, under its own TSan. A plain run is at the
  # mercy of timing, and TSan can miss a race that is there (futex_barrier_racy
  # plainly: 1 run in 200 beside two busy loops, 12 in 300 beside a build, on
  # a 2-core machine), so a program
  # with an expected report gets up to three plain runs, and the first that
  # shows the report is the reference. A clean program gets one.
  local plain_err=$work/$name.plain.err plain_rc plain plain_ok=no attempt
  for attempt in 1 2 3; do
    env -u TSAN_OPTIONS timeout -k 5 120 "$program" >/dev/null 2>"$plain_err" </dev/null
    plain_rc=$?
    plain=$(plain_kinds "$plain_err")
    if [[ $plain_rc == 124 || $plain_rc == 137 ]]; then
      plain="hang"
    elif [[ -z $plain ]]; then
      [[ $plain_rc == 0 ]] && plain=clean || plain="exit $plain_rc"
    fi
    if [[ $expect_plain == clean ]]; then
      [[ $plain == clean ]] && plain_ok=yes
      break
    elif [[ ",$plain," == *",$expect_plain,"* ]]; then
      plain_ok=yes
      break
    fi
  done
  [[ $plain_ok == yes ]] || problems+=("plain run: $plain, expected $expect_plain")

  # Explore: pct, 50 schedules, a fixed seed.
  local hang=60 outer=400
  [[ -n $xfail ]] && hang=5 outer=120
  local out=$work/$name.explore.out explore_rc explore at=""
  env -u TSAN_OPTIONS timeout -k 5 "$outer" "$racelab" explore --strategy pct --budget "$budget" --seed 1 \
    --hang-seconds "$hang" --save-schedule "$work/$name.schedule" \
    -- "$program" >"$out" 2>&1 </dev/null
  explore_rc=$?
  case $explore_rc in
    0) explore=clean ;;
    1)
      explore=$(sed -n 's/^  \([a-z][a-z_]*\): .*/\1/p' "$out" | awk '!seen[$0]++' | paste -sd, -)
      at=$(sed -n 's/.*: found at schedule \([0-9]*\) of .*/\1/p' "$out" | head -n 1)
      ;;
    124 | 137) explore="hang (${outer} s)" ;;
    *) explore="exit $explore_rc" ;;
  esac
  # A finding agrees when it is of the expected kind and, for a program
  # plain TSan reports, is that same TSan report ("crash: ThreadSanitizer:
  # thread leak" for thread-leak).
  local agree=no
  if [[ $expect_explore == clean ]]; then
    [[ $explore == clean ]] && agree=yes
  elif [[ $explore_rc == 1 && ",$explore," == *",$expect_explore,"* ]]; then
    # Read whole before grep -q (under pipefail an early exit is SIGPIPE).
    local reported
    reported=$(sed -n "s/^  $expect_explore: ThreadSanitizer: //p" "$out" |
      sed -e 's/ (.*$//' -e 's/ /-/g')
    if [[ $expect_plain == clean ]] ||
      grep -qx -- "$expect_plain" <<<"$reported"; then
      agree=yes
    else
      explore+=" (not TSan's $expect_plain)"
    fi
  fi

  if [[ -n $expect_note ]] && ! grep -qF -- "$expect_note" "$out"; then
    problems+=("explore's output has no note '$expect_note'")
  fi

  # EXPECT-DFS: whether a dfs search of the whole tree may claim verified
  # (it must not where a thread ran code no sanitizer sees, say).
  local expect_dfs dfs_out=$work/$name.dfs.out dfs_said
  expect_dfs=$(field "$source" EXPECT-DFS)
  if [[ -n $expect_dfs ]]; then
    env -u TSAN_OPTIONS timeout -k 5 "$outer" "$racelab" explore --strategy dfs --budget 2000 \
      --hang-seconds "$hang" --save-schedule "$work/$name.dfs.schedule" \
      -- "$program" >"$dfs_out" 2>&1 </dev/null
    if grep -q ": verified: " "$dfs_out"; then dfs_said=verified; else dfs_said="not verified"; fi
    if [[ $dfs_said != "$expect_dfs" ]]; then
      problems+=("dfs: $dfs_said, expected $expect_dfs")
      out=$dfs_out
    fi
  fi

  local verdict mark
  if [[ -z $xfail ]]; then
    mark=$agree
    [[ $agree == yes ]] || problems+=("explore: $explore, expected $expect_explore")
  elif [[ $agree == yes ]]; then
    mark="XPASS"
    problems+=("explore agrees now: remove its XFAIL-EXPLORE line")
  else
    mark="no (XFAIL)"
  fi
  if [[ ${#problems[@]} -eq 0 ]]; then
    verdict=ok
  else
    verdict=FAIL
  fi
  local note=$xfail
  if [[ $verdict == FAIL ]]; then
    local problem
    for problem in "${problems[@]}"; do note+="${note:+; }FAIL: $problem"; done
    # The outputs, for the log.
    {
      echo "-- plain stderr (last 20 lines)"
      tail -n 20 "$plain_err"
      echo "-- racelab explore (last 40 lines)"
      tail -n 40 "$out"
    } >"$work/$name.failure"
  fi
  printf '%s|%s | %s / %s | %s / %s | %s | %s | %s\n' "$verdict" "$name" \
    "$expect_plain" "$plain" "$expect_explore" "$explore" "${at:--}" "$mark" \
    "$note" >"$row_file"
}

start=$(date +%s)
run_each "$jobs" run_one

echo "| program | plain (expected / actual) | explore (expected / actual) | schedules to finding | agree? | XFAIL-EXPLORE reason |"
echo "|---|---|---|---|---|---|"
failures=0 xfails=0 agreeing=0
for name in "${names[@]}"; do
  line=$(cat "$work/$name.row")
  verdict=${line%%|*}
  echo "| ${line#*|} |"
  [[ $verdict == FAIL ]] && failures=$((failures + 1))
  [[ $line == *"| no (XFAIL) |"* ]] && xfails=$((xfails + 1))
  [[ $line == *"| yes |"* ]] && agreeing=$((agreeing + 1))
done
for name in "${names[@]}"; do
  if [[ -f $work/$name.failure ]]; then
    echo
    echo "== $name"
    cat "$work/$name.failure"
  fi
done
echo
echo "${#names[@]} programs: $agreeing agree, $xfails disagree as marked (XFAIL-EXPLORE), $failures fail; $(($(date +%s) - start)) s"
exit $((failures > 0))
