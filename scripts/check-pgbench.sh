#!/usr/bin/env bash
# Fidelity of the postgres adapter against pgbench, PostgreSQL's own benchmark client: point reads and
# single-row updates, each one statement per transaction on one connection, on one private server both
# sides share, against the same table shape (sqlite-vps's rows(id bigint PRIMARY KEY, a, b, payload
# text) with its two indexes, 200 B payloads). dbx-bench's side is `run --suite sqlite-vps --workloads
# select-pk,update` through postgres.url; pgbench's side is `pgbench -M prepared` with scripts of the same
# statements on a table of the same shape in a schema of its own, and the built-in `pgbench -S` on
# pgbench_accounts as a reference. Rounds alternate the two sides; the ratio of medians
# (dbx-bench ÷ pgbench) must be at least 0.9 for both operations.
#
# Usage: scripts/check-pgbench.sh [--engine postgres|postgres@debian] [--records N] [--seconds S]
#                                 [--rounds R] [--operations N] [--dbx-bench PATH]
#   --engine     whose server programs and pgbench run (default postgres: thirdparty/postgres.sh's build)
#   --records    rows in each table (default 100000)
#   --seconds    pgbench's time per round and operation (default 10)
#   --rounds     alternated rounds (default 3)
#   --operations dbx-bench's operations per phase (default 200000: about as long as pgbench's 10 s here)
# Exit: 0 every ratio >= 0.9; 1 a ratio below, or a step that failed (its message on stderr); 2 bad input
# or a missing program. The server listens on a Unix socket only (mode 0700 directory), runs as the
# unprivileged account dbxbench when this runs as root, and is stopped (and its files removed) when the
# script ends (and sent SIGQUIT if the script is killed).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
engine=postgres records=100000 seconds=10 rounds=3 operations=200000 tool="$here/build/dbx-bench"
bad_input() { echo "check-pgbench: $*" >&2; exit 2; }
while (($#)); do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    --records) records="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --operations) operations="$2"; shift 2 ;;
    --dbx-bench) tool="$2"; shift 2 ;;
    *) bad_input "unknown option '$1' (usage: scripts/check-pgbench.sh [--engine E] [--records N] [--seconds S] [--rounds R] [--dbx-bench PATH])" ;;
  esac
done
for n in "$records" "$seconds" "$rounds" "$operations"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || bad_input "--records, --seconds, --rounds and --operations take whole numbers above 0"
done
[[ -x "$tool" ]] || bad_input "no dbx-bench at $tool (build it: cmake -S . -B build && ninja -C build dbx-bench)"

# The server programs: the release build's cache entry, or Debian's.
case "$engine" in
  postgres)
    prefix="$("$here/thirdparty/build.sh" --print-prefix postgres | sed -n 's/^postgres=//p')"
    root="$prefix"
    bindir="$prefix/$(sed -n 's/^bindir=//p' "$prefix/BUILD-INFO")" ;;
  postgres@debian)
    bindir="$(pg_config --bindir 2>/dev/null || true)"
    [[ -x "$bindir/postgres" ]] || bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)"
    root="" ;;
  *) bad_input "--engine: '$engine' is not postgres or postgres@debian" ;;
esac
for p in initdb postgres pgbench psql pg_isready; do
  [[ -x "$bindir/$p" ]] || bad_input "no $p in $bindir"
done

work="$(mktemp -d /tmp/dbxb-pgbench-XXXXXX)"
chmod 0711 "$work"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill -INT "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# As root the server runs as dbxbench, which cannot enter root's home: it runs a copy of the programs
# that root owns and that account can read (the tool does the same: adapters/postgres/postgres_cluster.h).
# setpriv's --pdeathsig: the postmaster gets SIGQUIT (immediate shutdown) if this script dies first,
# however it dies; its files are then left in /tmp/dbxb-pgbench-*.
command -v setpriv >/dev/null || bad_input "setpriv (util-linux) is not installed"
as_server=(setpriv)
if [[ $(id -u) -eq 0 ]]; then
  id -u dbxbench >/dev/null 2>&1 || bad_input "the server account dbxbench does not exist (scripts/install-deps.sh creates it)"
  as_server=(setpriv --reuid=dbxbench --regid=dbxbench --init-groups)
  if [[ -n "$root" ]]; then
    mkdir -p "$work/programs" && chmod 0755 "$work/programs"
    cp -a "$root/." "$work/programs/"
    bindir="$work/programs/${bindir#"$root"/}"
  fi
fi
mkdir -p "$work/server"
[[ $(id -u) -ne 0 ]] || chown dbxbench: "$work/server"
chmod 0700 "$work/server"
data="$work/server/data"
(cd "$work/server" && "${as_server[@]}" "$bindir/initdb" -D "$data" -U dbxbench -A trust -E UTF8 --locale=C \
  --no-sync --no-instructions >"$work/server/initdb.log" 2>&1) || { tail -n 5 "$work/server/initdb.log" >&2; exit 1; }
# The settings the adapter writes for sqlite-vps at durability normal (adapters/postgres/postgres_adapter.cc,
# ConfigFor: shared_buffers = the suite's 256 MiB cache, fsync on, synchronous_commit off).
cat >>"$data/postgresql.auto.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$work/server'
unix_socket_permissions = 0700
shared_buffers = '262144kB'
fsync = 'on'
synchronous_commit = 'off'
EOF
(cd "$work/server" && exec "${as_server[@]}" --pdeathsig QUIT "$bindir/postgres" -D "$data" >"$work/server/server.log" 2>&1) &
server_pid=$!
for _ in $(seq 300); do
  "$bindir/pg_isready" -q -h "$work/server" -p 5432 && break
  kill -0 "$server_pid" 2>/dev/null || { tail -n 5 "$work/server/server.log" >&2; exit 1; }
  sleep 0.2
done
"$bindir/pg_isready" -q -h "$work/server" -p 5432 || { echo "check-pgbench: the server did not start within 60 s" >&2; exit 1; }
conn=(-h "$work/server" -p 5432 -U dbxbench -d postgres)
psql_() { "$bindir/psql" "${conn[@]}" -X -q -v ON_ERROR_STOP=1 "$@"; }
version="$(psql_ -At -c 'SHOW server_version')"

# pgbench's copy of the table: the adapter's DDL (adapters/postgres/postgres_row_session.cc), loaded
# afresh before each round's pgbench runs as dbx-bench loads its own before its phases (one INSERT, a
# CHECKPOINT as the adapter's settle, no VACUUM: autovacuum does to both what it does), 200 B payloads.
load_pgbench_rows() {
  psql_ <<EOF || { echo "check-pgbench: loading pgb.rows failed" >&2; exit 1; }
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS pgb CASCADE;
CREATE SCHEMA pgb;
CREATE TABLE pgb.rows(id bigint PRIMARY KEY, a bigint NOT NULL, b bigint NOT NULL, payload text);
CREATE INDEX rows_a ON pgb.rows(a, id);
CREATE INDEX rows_b ON pgb.rows(b, id);
INSERT INTO pgb.rows SELECT i, (i * 7919) % $records, (i * 104729) % $records, rpad(i::text, 200, 'x')
  FROM generate_series(1::bigint, $records) AS i;
CHECKPOINT;
EOF
}
scale=$(((records + 99999) / 100000))
"$bindir/pgbench" "${conn[@]}" -i -q -s "$scale" >"$work/pgbench-init.log" 2>&1 || { tail -n 5 "$work/pgbench-init.log" >&2; exit 1; }
payload="$(printf 'u%.0s' $(seq 200))"
cat >"$work/select.sql" <<EOF
\\set id random(1, $records)
SELECT a, b, payload FROM pgb.rows WHERE id = :id;
EOF
cat >"$work/update.sql" <<EOF
\\set id random(1, $records)
\\set b random(1, $records)
UPDATE pgb.rows SET a = a, b = :b, payload = '$payload' WHERE id = :id;
EOF

# One pgbench run: its tps (excluding connection time).
pgbench_tps() {
  "$bindir/pgbench" "${conn[@]}" -n -M prepared -c 1 -j 1 -T "$seconds" "$@" 2>&1 |
    sed -n 's/^tps = \([0-9]*\)[.0-9]* .*/\1/p' | tail -n1
}

# One dbx-bench run of select-pk and update: "select update" ops/s from its results.json.
tool_ops() {
  local out="$work/tool-$1"
  "$tool" run --suite sqlite-vps --engines postgres --workloads select-pk,update --records "$records" \
    --operations "$operations" --engine-option "postgres.url=host=$work/server port=5432 dbname=postgres user=dbxbench" \
    --out "$out" --format json >"$out.log" 2>&1 || { tail -n 5 "$out.log" >&2; return 1; }
  python3 - "$out/results.json" <<'EOF'
import json, sys
ops = {}
def walk(node):
    if isinstance(node, dict):
        name = node.get("name") or node.get("phase")
        if name in ("select-pk", "update") and "throughput_ops_per_sec" in node:
            ops.setdefault(name, node["throughput_ops_per_sec"])
        for v in node.values():
            walk(v)
    elif isinstance(node, list):
        for v in node:
            walk(v)
walk(json.load(open(sys.argv[1])))
print("%.0f %.0f" % (ops.get("select-pk", 0), ops.get("update", 0)))
EOF
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "check-pgbench: PostgreSQL $version ($bindir), $records rows, $rounds rounds of $seconds s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
tool_sel=() tool_upd=() pg_sel=() pg_upd=() pg_s=()
for r in $(seq "$rounds"); do
  read -r s u < <(tool_ops "$r")
  tool_sel+=("$s") tool_upd+=("$u")
  load_pgbench_rows
  pg_sel+=("$(pgbench_tps -f "$work/select.sql")")
  pg_upd+=("$(pgbench_tps -f "$work/update.sql")")
  pg_s+=("$(pgbench_tps -S)")
  echo "round $r: dbx-bench select-pk $s, update $u; pgbench select ${pg_sel[-1]}, update ${pg_upd[-1]}, -S ${pg_s[-1]} (ops/s; load $(cut -d' ' -f1 /proc/loadavg))"
done
ts="$(median "${tool_sel[@]}")" tu="$(median "${tool_upd[@]}")"
ps="$(median "${pg_sel[@]}")" pu="$(median "${pg_upd[@]}")" pS="$(median "${pg_s[@]}")"
rs="$(awk -v a="$ts" -v b="$ps" 'BEGIN {printf "%.3f", a / b}')"
ru="$(awk -v a="$tu" -v b="$pu" 'BEGIN {printf "%.3f", a / b}')"
echo "medians: point read dbx-bench $ts / pgbench $ps = $rs (pgbench -S: $pS); update dbx-bench $tu / pgbench $pu = $ru"
status=0
for x in "$rs" "$ru"; do
  awk -v r="$x" 'BEGIN {exit !(r >= 0.9)}' || status=1
done
((status == 0)) && echo "check-pgbench: every ratio >= 0.9" || echo "check-pgbench: a ratio is below 0.9"
exit "$status"
