#!/bin/sh
# Lets the replica of the compose scale profile stream from this primary:
# run once, by the postgres image, when it initialises an empty volume.
set -eu
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "${PGDATA}/pg_hba.conf"
