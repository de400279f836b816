#!/bin/bash
# A read-only follower beside a writer killed (-9) and restarted every 2-5 s (docs/RESULTS.md, session of
# 2026-11-25 15:51): found by a review, the follower's JVM can die of SIGBUS in the CRC32C stub with the segment
# backend (on 91edf84 too). Usage, from the repository root after './mvnw -o -q -DskipTests package -pl iolab-core':
#   scripts/probes/follower-sigbus/run.sh SECONDS READER_BACKEND KILL(1|0)     e.g. 40 SEGMENT 1
# R (the follower) prints CORRUPT/WRONG lines for a damaged or wrong record; a crash leaves hs_err_pid*.log in the
# temporary folder it names (dir=...).
set -e
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} PATH=${JAVA_HOME}/bin:$PATH
CORE=$(ls iolab-core/target/iolab-core-*.jar | head -1)
CLS=$(mktemp -d /tmp/follower-sigbus.XXXX)
javac -d "$CLS" -cp "$CORE" scripts/probes/follower-sigbus/R.java scripts/probes/follower-sigbus/W.java
D=$CLS/j
J="java --enable-native-access=ALL-UNNAMED -Xmx256m -XX:ErrorFile=$CLS/hs_err_pid%p.log -cp $CLS:$CORE"
$J R $D $1 $2 > $D.reader.log 2>&1 &
RP=$!
end=$((SECONDS+$1))
seed=1
while [ $SECONDS -lt $end ]; do
  if [ "$3" = 1 ]; then
    timeout -s KILL $((2 + RANDOM % 4)) $J W $D 60 $seed > $D.w.$seed.log 2>&1 || true
  else
    $J W $D $((end-SECONDS)) $seed > $D.w.$seed.log 2>&1 || true
  fi
  seed=$((seed+1))
done
wait $RP || true
echo "dir=$D"; grep -c "CORRUPT" $D.reader.log || true; grep -m5 "CORRUPT\|WRONG" $D.reader.log || true
tail -1 $D.reader.log
