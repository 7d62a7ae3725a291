#!/usr/bin/env bash
# Oracle MySQL 9.x LTS beside MariaDB, for the SQL suites: Debian 12 does not package it, Debian's
# unstable suite does, so it runs from a debootstrap root of that suite on 127.0.0.1:3307.
# Reuses a running server, then an existing root; builds the root only when neither is there.
# Prints the server's URL on stdout when it answers; exits non-zero with one line on stderr otherwise.
set -uo pipefail

ROOT="${MYSQL9_ROOT:-/var/lib/netinv-mysql9}"
PORT="${MYSQL9_PORT:-3307}"
URL="mysql://root@127.0.0.1:${PORT}/test"
say() { echo "mysql9: $*" >&2; }
fail() { say "$*"; exit 1; }

answers() { mysqladmin -h 127.0.0.1 -P "$PORT" -u root --connect-timeout=2 ping >/dev/null 2>&1; }
is_mysql() { mysql -h 127.0.0.1 -P "$PORT" -u root -N -e 'SELECT VERSION()' 2>/dev/null | grep -vqi mariadb; }

if answers; then
  is_mysql || fail "127.0.0.1:${PORT} answers but is not Oracle MySQL"
  mysql -h 127.0.0.1 -P "$PORT" -u root -e 'CREATE DATABASE IF NOT EXISTS test' || fail "cannot create database test"
  echo "$URL"; exit 0
fi

# The mirror this machine already uses (uncommented URIs/deb lines only: a comment may name a snapshot).
mirror() {
  { grep -hv '^\s*#' /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:\s*//p' | tr ' ' '\n'
    grep -hv '^\s*#' /etc/apt/sources.list 2>/dev/null | awk '$1=="deb"{for(i=2;i<=NF;i++) if ($i ~ /^https?:/) {print $i; break}}'
  } | grep -E '/debian/?$' | head -n1
}

if [ ! -x "$ROOT/usr/sbin/mysqld" ]; then
  command -v debootstrap >/dev/null 2>&1 || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1; } ||
      fail "debootstrap could not be installed"; }
  m=$(mirror); [ -n "$m" ] || fail "no Debian mirror found in this machine's apt sources"
  say "building a Debian unstable root in $ROOT (about a minute)"
  rm -rf "$ROOT.tmp"; mkdir -p "$(dirname "$ROOT")"
  debootstrap --variant=minbase sid "$ROOT.tmp" "$m" >"$ROOT.log" 2>&1 || fail "debootstrap failed (log: $ROOT.log)"
  chroot "$ROOT.tmp" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mysql-server-core mysql-client >>"$ROOT.log" 2>&1 ||
    fail "mysql-server-core could not be installed in the root (log: $ROOT.log)"
  chroot "$ROOT.tmp" bash -c 'id mysql >/dev/null 2>&1 || useradd -r -M -s /bin/false mysql' || fail "cannot add the mysql user"
  rm -rf "$ROOT"; mv "$ROOT.tmp" "$ROOT"
fi

mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc" || fail "cannot mount /proc in $ROOT"
chroot "$ROOT" bash -c 'mkdir -p /var/lib/mysql9 /run/mysqld && chown mysql:mysql /var/lib/mysql9 /run/mysqld' || fail "cannot prepare the data directory"
if [ ! -d "$ROOT/var/lib/mysql9/mysql" ]; then
  chroot "$ROOT" mysqld --initialize-insecure --user=mysql --datadir=/var/lib/mysql9 >>"$ROOT.log" 2>&1 || fail "mysqld --initialize failed (log: $ROOT.log)"
fi
# setsid: the server outlives this script and the CI step that started it.
setsid chroot "$ROOT" /usr/sbin/mysqld --user=mysql --datadir=/var/lib/mysql9 --port="$PORT" --bind-address=127.0.0.1 \
  --socket=/run/mysqld/mysqld9.sock --mysqlx=OFF --secure-file-priv= --console >"$ROOT.server.log" 2>&1 < /dev/null &
for _ in $(seq 1 60); do answers && break; sleep 1; done
answers || fail "MySQL did not answer on 127.0.0.1:${PORT} (log: $ROOT.server.log)"
mysql -h 127.0.0.1 -P "$PORT" -u root -e 'CREATE DATABASE IF NOT EXISTS test' || fail "cannot create database test"
echo "$URL"
