#!/bin/bash
# Makes journals with the binary $1 (the release before the journal's format version).
BIN=$1; OUT=$2; mkdir -p $OUT
run() { # name config script-lines seconds-before-kill
  local d=$OUT/$1; rm -rf $d; mkdir -p $d
  cp $2 $d/config.toml
  $BIN simulate --headless --config $2 --data-dir $d/data > $d/trace.txt 2> $d/stderr.txt < <(printf "$3"; sleep 40) &
  local pid=$!
  sleep $4
  kill -KILL $pid
  wait $pid 2>/dev/null
}
run mid-rest rest.toml "0.5 click start\n16 click start\n" 19 &
run mid-program program.toml "0.5 click start\n6 click start\n8 click start\n" 10 &
# records waiting: the database locked while an interval workout ends, then another started
d=$OUT/pending; rm -rf $d; mkdir -p $d/data; cp pending.toml $d/config.toml
printf "0.1 end\n" | $BIN simulate --headless --config pending.toml --data-dir $d/data > /dev/null 2>&1
python3 -c "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); time.sleep(30)" $d/data/history.sqlite &
sleep 1
$BIN simulate --headless --config pending.toml --data-dir $d/data > $d/trace.txt 2> $d/stderr.txt < <(printf "0.5 click start\n12 click start\n13 click start\n"; sleep 40) &
pid=$!
sleep 16
kill -KILL $pid
wait
