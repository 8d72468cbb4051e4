#!/usr/bin/env bash
# The real suites' runner: real projects' own concurrent tests (vendored
# under tests/realsuites/<project>/ at a pinned commit), each test run
# plainly under ThreadSanitizer (the reference) and under
# `racelab explore --tests --test <name> --strategy pct --budget B --seed 1`;
# explore must agree with plain TSan: it may find more, never less, never
# hang, never a false finding.
#
#   run_realsuites.sh <racelab> <bindir> [project...]
#
# <bindir> holds the test binaries, realsuite_<project> (the CMake target
# racelab_tsan_realsuites builds them all). For each project the runner
# (1) lists the binary's tests (`racelab explore --tests --list`), (2) runs
# each chosen test plainly through the binary's own filter (Catch2: the
# escaped name; the listing convention: --racelab-test=<name>) and records
# its exit status and TSan report titles, (3) explores it alone, and
# (4) prints one table row per test: project, commit, test, plain verdict,
# explore verdict, wall times, agreement.
# A test agrees when plain and explore are both clean, or when both fail and
# explore's finding holds every TSan report plain showed (a plain failure
# without a TSan report: any finding). Anything else fails the run: explore
# finding nothing where plain reports, a finding where plain is clean, a
# hang. A plain run can miss a race that is there, so a test whose explore
# finding is a TSan report plain did not show gets up to two more plain
# runs, and the first that shows it is the reference.
# EXPECTED_DISAGREEMENTS lists the tests on which explore disagrees today,
# each with what racelab lacks; such a test fails the run when it starts to
# agree (remove its line then), like XFAIL-EXPLORE in run_conformance.sh.
# Both runs get the default TSan options (TSAN_OPTIONS is unset); each runs
# in a temporary folder (the tests write no files of their own there).
# Environment: RACELAB_REALSUITES_JOBS (tests run at once, default 2).
set -u
if [[ $# -lt 2 ]]; then
  echo "usage: $0 <racelab> <bindir> [project...]" >&2
  exit 2
fi
racelab=$(realpath "$1") bindir=$(realpath "$2")
shift 2
srcdir=$(cd "$(dirname "$0")" && pwd)
jobs=${RACELAB_REALSUITES_JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_STATE_HOME=$work/state

all_projects=(eventpp concurrentqueue thread_pool)

# The tests each project runs, and explore's budget for each: "<project>|
# <test>|<budget>"; "<project>|*|<budget>" is every listed test, and a
# budget "-" leaves a test out. A test listed by the binary and not chosen
# is counted as not chosen. The choice keeps the suite to about three
# minutes on two busy cores (docs/conformance.md, "Real suites").
CHOSEN=(
  "eventpp|EventQueue, multi threading, one thread waits|10"
  "concurrentqueue|multi_producers|10"
  "thread_pool|*|5"
  "thread_pool|loop|-"
  "thread_pool|blocks|-"
  "thread_pool|vectors|-"
  "thread_pool|sequence|-"
)

# "<project>|<test>|<what explore gets wrong>": the tests on which explore
# disagrees with plain TSan today. Remove a line when its test agrees.
EXPECTED_DISAGREEMENTS=(
  "thread_pool|task_destruct|a 20 ms sleep is its only order: within the 50 ms a thread may be late"
)

# "<project>|<test>|<the race>": tests on which explore finds a data race
# plain TSan cannot see, because one of its accesses is made inside
# libstdc++.so, which a controlled run tells TSan of (docs/libcxx.md): more
# than plain TSan, as explore may. Such a test fails the run when explore no
# longer finds it, or when plain TSan reports anything.
MORE_THAN_PLAIN=(
  "eventpp|EventQueue, multi threading, one thread waits|emptyQueue() reads queueList (std::list::empty) without queueListMutex while process() swaps it under that mutex (std::swap of two lists: libstdc++'s _List_node_base::swap writes the heads)"
)

if [[ $# -gt 0 ]]; then
  projects=("$@")
else
  projects=("${all_projects[@]}")
fi

# How a project's binary runs one test: eventpp's tests are Catch2's; the
# others' mains follow racelab's listing convention (build glue).
framework_of() {
  case $1 in
    eventpp) echo catch2 ;;
    *) echo listing ;;
  esac
}

# The commit a project was vendored at: the "commit:" line of its README.
commit_of() {
  sed -n 's/^- commit: *\([0-9a-f]*\).*/\1/p' "$srcdir/$1/README.md" | head -n 1
}

# The budget of a chosen test, or empty when the test is not chosen.
budget_of() {
  local project=$1 test=$2 entry budget=""
  for entry in "${CHOSEN[@]}"; do
    IFS='|' read -r p t b <<<"$entry"
    [[ $p == "$project" ]] || continue
    if [[ $t == "$test" ]]; then
      echo "$b"
      return
    fi
    [[ $t == '*' ]] && budget=$b
  done
  echo "$budget"
}

# The third field of the entry of <project> and <test> in the array named
# by $1 (EXPECTED_DISAGREEMENTS: why explore disagrees; MORE_THAN_PLAIN:
# the race explore finds beyond plain TSan), or empty.
entry_for() {
  local -n entries=$1
  local entry
  for entry in "${entries[@]}"; do
    IFS='|' read -r p t r <<<"$entry"
    if [[ $p == "$2" && $t == "$3" ]]; then
      echo "$r"
      return
    fi
  done
}

# The framework's own way to run one test: Catch2 takes the name as a test
# spec (with \ , [ ] escaped), the listing convention --racelab-test=.
one_test_args() {
  local framework=$1 test=$2
  case $framework in
    catch2)
      local escaped=${test//\\/\\\\}
      escaped=${escaped//,/\\,}
      escaped=${escaped//[/\\[}
      escaped=${escaped//]/\\]}
      printf '%s\n' "$escaped"
      ;;
    listing) printf '%s\n' "--racelab-test=$test" ;;
  esac
}

# The distinct TSan report titles of a stderr, hyphenated as the runtime
# spells them ("data race" -> data-race), comma-separated.
plain_kinds() {
  sed -n 's/^WARNING: ThreadSanitizer: \(.*\)$/\1/p' "$1" |
    sed -e 's/ (pid=[0-9]*)$//' -e 's/ (.*$//' -e 's/ /-/g' |
    awk '!seen[$0]++' | paste -sd, -
}

# The TSan report titles in explore's findings ("  data_race: ThreadSanitizer:
# data race (pid=1)" -> data-race), one per line.
explore_tsan_titles() {
  sed -n 's/^  [a-z_]*: ThreadSanitizer: \(.*\)$/\1/p' "$1" |
    sed -e 's/ (.*$//' -e 's/ /-/g' | awk '!seen[$0]++'
}

seconds_since() {  # wall time since a `date +%s.%N`, one decimal
  awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

# Runs one test plainly; prints "<verdict>|<seconds>" and leaves its stderr
# in the file given.
plain_run() {
  local program=$1 framework=$2 test=$3 err=$4 dir rc verdict start
  local -a args
  mapfile -t args < <(one_test_args "$framework" "$test")
  dir=$(mktemp -d "$work/plain.XXXXXX")
  start=$(date +%s.%N)
  (cd "$dir" && env -u TSAN_OPTIONS timeout -k 5 120 "$program" "${args[@]}" \
    >/dev/null 2>"$err" </dev/null)
  rc=$?
  verdict=$(plain_kinds "$err")
  if [[ $rc == 124 || $rc == 137 ]]; then
    verdict="hang"
  elif [[ -z $verdict ]]; then
    [[ $rc == 0 ]] && verdict=clean || verdict="exit $rc"
  fi
  echo "$verdict|$(seconds_since "$start")"
}

# Runs one test both ways; writes "<ok|FAIL>|<row>" to $work/<n>.row.
run_one() {
  local n=$1 project=$2 framework=$3 test=$4 budget=$5
  local program=$bindir/realsuite_$project row_file=$work/$n.row
  local commit reason
  commit=$(commit_of "$project")
  reason=$(entry_for EXPECTED_DISAGREEMENTS "$project" "$test")
  local more
  more=$(entry_for MORE_THAN_PLAIN "$project" "$test")

  # Explore: the test alone, pct, a fixed seed. --hang-seconds 60 (10 for a
  # test expected to disagree, to keep the suite short) and an outer limit.
  local hang=60 outer=400
  [[ -n $reason ]] && hang=10 outer=150
  local out=$work/$n.explore.out explore_rc explore explore_time start dir
  dir=$(mktemp -d "$work/explore.XXXXXX")
  start=$(date +%s.%N)
  (cd "$dir" && env -u TSAN_OPTIONS timeout -k 5 "$outer" "$racelab" explore --tests \
    --test "$test" --strategy pct --budget "$budget" --seed 1 \
    --hang-seconds "$hang" -- "$program" >"$out" 2>&1 </dev/null)
  explore_rc=$?
  explore_time=$(seconds_since "$start")
  case $explore_rc in
    0)
      if grep -q ": clean, verified in one schedule" "$out"; then
        explore="clean (one schedule)"
      else
        explore=clean
      fi
      ;;
    1)
      explore=$(sed -n 's/^  \([a-z][a-z_]*\): .*/\1/p' "$out" | awk '!seen[$0]++' | paste -sd, -)
      [[ -n $explore ]] || explore="exit 1"
      ;;
    124 | 137) explore="hang (${outer} s)" ;;
    *) explore="exit $explore_rc" ;;
  esac

  # Plain: the reference. A TSan report explore found and plain did not
  # show gets two more plain runs.
  local plain_err=$work/$n.plain.err plain plain_time result attempt
  local -a wanted=()
  [[ $explore_rc == 1 ]] && mapfile -t wanted < <(explore_tsan_titles "$out")
  for attempt in 1 2 3; do
    result=$(plain_run "$program" "$framework" "$test" "$plain_err")
    plain=${result%|*} plain_time=${result#*|}
    local missing=no title
    for title in "${wanted[@]}"; do
      [[ ",$plain," == *",$title,"* ]] || missing=yes
    done
    [[ $missing == no || $plain == hang ]] && break
  done

  # Agreement.
  local agree=no why=""
  if [[ $plain == hang ]]; then
    why="the plain run hangs"
  elif [[ -n $more ]]; then
    if [[ $plain == clean && $explore_rc == 1 ]] &&
      grep -qx "data-race" <<<"$(explore_tsan_titles "$out")"; then
      agree=yes
    else
      why="explore: $explore, plain: $plain; expected a data race plain TSan cannot see ($more)"
    fi
  elif [[ $plain == clean ]]; then
    if [[ $explore_rc == 0 ]]; then
      agree=yes
    else
      why="explore: $explore where plain TSan is clean"
    fi
  elif [[ $explore_rc != 1 ]]; then
    why="explore: $explore where plain TSan reports $plain (explore finds less)"
  elif [[ $plain == exit* ]]; then
    agree=yes
  else
    # Every report plain showed must be among explore's findings.
    local titles title
    titles=$(explore_tsan_titles "$out")
    agree=yes
    IFS=',' read -r -a plain_titles <<<"$plain"
    for title in "${plain_titles[@]}"; do
      if ! grep -qx -- "$title" <<<"$titles"; then
        agree=no
        why="explore's finding holds no TSan $title (explore finds less)"
      fi
    done
  fi

  local verdict=ok mark=$agree note=$reason
  if [[ -n $more && $agree == yes ]]; then
    mark="yes (more)" note="more than plain TSan: $more"
  fi
  if [[ -z $reason ]]; then
    [[ $agree == yes ]] || verdict=FAIL note="FAIL: $why"
  elif [[ $agree == yes ]]; then
    verdict=FAIL mark=XPASS
    note="FAIL: explore agrees now: remove its line from EXPECTED_DISAGREEMENTS"
  else
    mark="no (expected)"
  fi
  if [[ $verdict == FAIL ]]; then
    {
      echo "-- plain stderr (last 20 lines)"
      tail -n 20 "$plain_err"
      echo "-- racelab explore (last 40 lines)"
      tail -n 40 "$out"
    } >"$work/$n.failure"
  fi
  printf '%s|%s | %s | %s | %s | %s | %s | %s / %s | %s | %s\n' "$verdict" \
    "$project" "${commit:0:12}" "$test" "$plain" "$explore" "$budget" \
    "$plain_time" "$explore_time" "$mark" "$note" >"$row_file"
}

start_all=$(date +%s)
running=0 n=0 not_run=0
declare -a labels=()
for project in "${projects[@]}"; do
  program=$bindir/realsuite_$project
  if [[ ! -x $program ]]; then
    n=$((n + 1))
    echo "FAIL|$project | | | not built: $program | | | | | |" >"$work/$n.row"
    labels+=("$project")
    continue
  fi
  framework=$(framework_of "$project")
  mapfile -t tests < <("$racelab" explore --tests --list -- "$program" 2>"$work/list.err")
  if [[ ${#tests[@]} -eq 0 ]]; then
    n=$((n + 1))
    echo "FAIL|$project | | | lists no tests: $(head -n 1 "$work/list.err") | | | | | |" >"$work/$n.row"
    labels+=("$project")
    continue
  fi
  for test in "${tests[@]}"; do
    budget=$(budget_of "$project" "$test")
    if [[ -z $budget || $budget == - ]]; then
      not_run=$((not_run + 1))
      continue
    fi
    n=$((n + 1))
    labels+=("$project: $test")
    run_one "$n" "$project" "$framework" "$test" "$budget" &
    running=$((running + 1))
    if [[ $running -ge $jobs ]]; then
      wait -n
      running=$((running - 1))
    fi
  done
done
wait

echo "| project | commit | test | plain | explore | budget | wall s (plain / explore) | agree? | expected disagreement |"
echo "|---|---|---|---|---|---|---|---|---|"
failures=0 expected=0 agreeing=0 more=0
for ((i = 1; i <= n; i++)); do
  line=$(cat "$work/$i.row")
  verdict=${line%%|*}
  echo "| ${line#*|} |"
  [[ $verdict == FAIL ]] && failures=$((failures + 1))
  [[ $line == *"| no (expected) |"* ]] && expected=$((expected + 1))
  [[ $line == *"| yes |"* ]] && agreeing=$((agreeing + 1))
  [[ $line == *"| yes (more) |"* ]] && more=$((more + 1))
done
for ((i = 1; i <= n; i++)); do
  if [[ -f $work/$i.failure ]]; then
    echo
    echo "== ${labels[i - 1]}"
    cat "$work/$i.failure"
  fi
done
echo
echo "$n tests: $agreeing agree, $more find more than plain TSan, $expected disagree as expected, $failures fail, $not_run not chosen; $(($(date +%s) - start_all)) s"
exit $((failures > 0))
