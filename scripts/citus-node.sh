#!/usr/bin/env bash
# One more Citus node on this machine, for the distributed tests that change a cluster's nodes (the
# rebalance test adds a worker, the worker-down test stops one): a Debian PostgreSQL 15 cluster with
# citus preloaded and trust auth on 127.0.0.1, as ../shared/citus/cluster.sh makes its workers, so
# those tests never stop or grow the nodes that other test files share.
#   citus-node.sh start PORT   makes it if missing and starts it (idempotent); prints its name
#   citus-node.sh stop PORT    stops it (fast shutdown), keeping its data
#   citus-node.sh drop PORT    stops and removes it
#   citus-node.sh check        exits 0 when a node can be started here
# Needs what cluster.sh installed (PostgreSQL 15 and citus.so); exits 3 when they are absent.
set -euo pipefail
action=${1:-}; port=${2:-}
case "$action" in start|stop|drop|check) ;; *) echo "usage: citus-node.sh start|stop|drop PORT | check" >&2; exit 2 ;; esac
command -v pg_createcluster >/dev/null && [ -f "$(pg_config --pkglibdir 2>/dev/null)/citus.so" ] || { echo "citus-node.sh: PostgreSQL 15 with citus is not installed here (run ../shared/citus/cluster.sh first)" >&2; exit 3; }
[ "$action" = check ] && exit 0
[[ "$port" =~ ^[0-9]+$ ]] || { echo "citus-node.sh: PORT must be a number" >&2; exit 2; }
name=paykit_citus_$port
conf=/etc/postgresql/15/$name
export PGUSER=postgres PGHOST=127.0.0.1
online() { pg_lsclusters -h | awk -v n="$name" '$2==n && $4=="online"' | grep -q .; }
case "$action" in
  stop) [ -d "$conf" ] && online && pg_ctlcluster 15 "$name" stop -m fast; exit 0 ;;
  drop) [ -d "$conf" ] && pg_dropcluster 15 "$name" --stop; exit 0 ;;
esac
[ -d "$conf" ] || pg_createcluster 15 "$name" -p "$port" >/dev/null
cat >"$conf/conf.d/citus.conf" <<CONF
shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
max_prepared_transactions = 100
log_min_error_statement = error
CONF
grep -q '^host all all 127.0.0.1/32 trust' "$conf/pg_hba.conf" || sed -i '1i host all all 127.0.0.1/32 trust' "$conf/pg_hba.conf"
online || pg_ctlcluster 15 "$name" start
until psql -p "$port" -d postgres -Atqc 'select 1' >/dev/null 2>&1; do sleep 0.2; done
echo "$name"
