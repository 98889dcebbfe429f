#!/bin/sh
# Starts a streaming replica of db-primary: on an empty volume, copies the
# primary with pg_basebackup -R (which writes the standby settings) through
# a replication slot of its own, then serves reads as a hot standby.
set -eu
if [ ! -s "${PGDATA}/PG_VERSION" ]; then
  export PGPASSWORD="${PRIMARY_PASSWORD}"
  pg_basebackup --host db-primary --username "${PRIMARY_USER}" --pgdata "${PGDATA}" \
    --write-recovery-conf --wal-method stream --checkpoint fast \
    --create-slot --slot replica1
  chmod 0700 "${PGDATA}"
fi
exec postgres
