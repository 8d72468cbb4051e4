#!/usr/bin/env bash
# Smoke test of `racelab bench --sections fuzz` (no timing assertions): a
# stand-in fuzz target that prints libFuzzer's final stats (100 executions)
# after some work; its row must show those executions, the CPU seconds it
# used and executions per CPU second.
#   fuzz_section_smoke.sh RACELAB
set -uo pipefail
racelab=$1
dir=$(mktemp -d /tmp/racelab-bench-fuzz-smoke.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/fuzz_standin" <<'TARGET'
#!/usr/bin/env bash
i=0
while ((i < 200000)); do ((i++)); done
echo "stat::number_of_executed_units: 100"
echo "stat::average_exec_per_sec:     50"
TARGET
chmod +x "$dir/fuzz_standin"
out=$("$racelab" bench --sections fuzz --fuzz-dir "$dir" --fuzz-seconds 1 2>&1)
rc=$?
if [[ $rc -ne 0 ]]; then
  echo "$out"
  echo "fuzz_section_smoke: racelab bench exited $rc" >&2
  exit 1
fi
row=$(grep '^fuzz_standin ' <<<"$out")
# target, exec/s, executions, cpu s, exec/cpu-s
if ! grep -qE '^fuzz_standin +50(\.0)? +100 +[0-9]+\.[0-9]{2} +[0-9.]+ *$' <<<"$row"; then
  echo "$out"
  echo "fuzz_section_smoke: the stand-in's row is '$row'" >&2
  exit 1
fi
echo "$row"
