#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the tests of the example app's DATABASE_URL
# path, installing PostgreSQL from Debian's packages when it is missing. Prints "<url> <data-dir> <bin-dir>" on
# success; exits non-zero with the reason on stderr when no server can be had (the embedded PGlite
# path is tested regardless).
set -euo pipefail

find_bin() {
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

if ! bin=$(find_bin); then
  echo "start-test-postgres: installing PostgreSQL from Debian's packages" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  bin=$(find_bin)
fi

# initdb refuses to run as root; the package creates the postgres user.
data=$(mktemp -d /tmp/typed-permissions-pg.XXXXXX)
chown postgres:postgres "$data"
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
runuser -u postgres -- "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$data -c fsync=off" start >/dev/null
runuser -u postgres -- "$bin/createdb" -h 127.0.0.1 -p "$port" typed_permissions_test
echo "postgres://postgres@127.0.0.1:$port/typed_permissions_test $data $bin"
