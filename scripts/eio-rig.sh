#!/bin/bash
# A device that starts failing writes, under a real kernel: an ext4 file system on a loop device whose backing file
# lives on a small tmpfs. Once the tmpfs is full, the loop device fails every write to a block it has not written
# before (as a thin-provisioned volume that runs out of space does), ext4 reports the failed write-back to fsync, and
# freeing the tmpfs makes the device work again. The run:
#   1. a journal appends 4 KiB records until a sync fails;
#   2. the tmpfs is freed and the journal is opened again in the same boot (its recovery), 50 records are appended
#      and synced;
#   3. the file system is unmounted and mounted again (the page cache goes: what the device holds is read) and the
#      journal is opened and read once more.
# Every record reported durable in 1 and 2 must be there in 3. Needs root, loop devices and a built iolab-core
# (./mvnw -q -DskipTests package). docs/RESULTS.md (session of 2026-11-25 03:04) has the results.
#
# usage: sudo [PROBE=journal|store|plain] [STRACE_WRITE=LOG] scripts/eio-rig.sh [BACKEND] [DURABILITY] [ROOM_KIB]
#            [PREALLOCATION] [CLASSPATH]
#   STRACE_WRITE  the writing step runs under strace, its failed sync, write and file calls logged to LOG
#   PROBE         journal (default): scripts/probes/EioProbe.java;
#                 store: scripts/probes/StoreEioProbe.java, puts of 4000-byte values (its 64 MiB redo segments need a
#                 512 MiB device over a 64 MiB tmpfs), the same three steps;
#                 plain: no iolab, scripts/probes/plain_fdatasync.py (4 KiB pwrite + fdatasync; PREALLOCATION is
#                 fallocate, zero or none), then the remount, without the reopen
#   BACKEND       segment (default), mapped, channel-heap, channel-direct, raf
#   DURABILITY    ALWAYS (default), BATCH, NONE
#   ROOM_KIB      tmpfs space left for the journal, in KiB (default 4096: the failure comes mid-segment)
#   PREALLOCATION FALLOCATE (default), ZERO_FILL, NONE
#   CLASSPATH     the iolab classes to run (default iolab-core/target/classes)
set -euo pipefail
cd "$(dirname "$0")/.."
PROBE=${PROBE:-journal}
BACKEND=${1:-segment}; DURABILITY=${2:-ALWAYS}; ROOM=${3:-4096}; PREALLOC=${4:-FALLOCATE}
CP=${5:-iolab-core/target/classes}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
[ "$(id -u)" = 0 ] || { echo "eio-rig: needs root (mount, losetup)" >&2; exit 2; }
[ -d "$CP" ] || [ -f "$CP" ] || { echo "eio-rig: no $CP: run ./mvnw -q -DskipTests package first" >&2; exit 2; }
WORK=$(mktemp -d /tmp/eio-rig.XXXXXX)
LOOP=""
cleanup() {
    umount "$WORK/fs" 2>/dev/null || true
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
    umount "$WORK/backing" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/backing" "$WORK/fs" "$WORK/classes"
case "$PROBE" in
    journal) CLASS=EioProbe; TMPFS=24m; DISK=64M ;;
    store) CLASS=StoreEioProbe; TMPFS=64m; DISK=512M ;;
    plain) CLASS=; TMPFS=24m; DISK=64M ;;
    *) echo "eio-rig: PROBE must be journal, store or plain" >&2; exit 2 ;;
esac
[ -z "$CLASS" ] || "${JAVA%/java}/javac" -d "$WORK/classes" -cp "$CP" "scripts/probes/$CLASS.java"
mount -t tmpfs -o size=$TMPFS tmpfs "$WORK/backing"
truncate -s $DISK "$WORK/backing/disk.img"
LOOP=$(losetup -f --show "$WORK/backing/disk.img")
mkfs.ext4 -q "$LOOP"
mount "$LOOP" "$WORK/fs"
avail=$(df --output=avail -k "$WORK/backing" | tail -1)
dd if=/dev/zero of="$WORK/backing/filler" bs=1k count=$((avail - ROOM)) status=none
probe() {
    "$JAVA" --enable-native-access=ALL-UNNAMED -Dprealloc="$PREALLOC" -Dbackend="$BACKEND" \
        -cp "$CP:$WORK/classes" "$CLASS" "$@"
}
remount() {
    umount "$WORK/fs"
    mount "$LOOP" "$WORK/fs"
    echo "-- after a remount: what the device holds"
}
if [ "$PROBE" = plain ]; then
    echo "-- 4 KiB pwrite + fdatasync ($PREALLOC, $ROOM KiB left on the device)"
    python3 scripts/probes/plain_fdatasync.py "$WORK/fs/f" write "$PREALLOC"
    rm -f "$WORK/backing/filler"
    remount
    python3 scripts/probes/plain_fdatasync.py "$WORK/fs/f" read
    exit 0
fi
echo "-- writing ($PROBE, $BACKEND, $DURABILITY, $PREALLOC, $ROOM KiB left on the device)"
if [ -n "${STRACE_WRITE:-}" ]; then
    # which call the device's failure reached (docs/RESULTS.md, session of 2026-11-25 05:53)
    strace -f -o "$STRACE_WRITE" -e trace=fsync,fdatasync,msync,sync_file_range,ftruncate,fallocate,openat,rename \
        -e status=failed "$JAVA" --enable-native-access=ALL-UNNAMED -Dprealloc="$PREALLOC" -Dbackend="$BACKEND" \
        -cp "$CP:$WORK/classes" "$CLASS" write "$WORK/fs/j" "$DURABILITY" 20000
else
    probe write "$WORK/fs/j" "$DURABILITY" 20000
fi
rm -f "$WORK/backing/filler"
echo "-- reopened in the same boot, the device working again"
probe read "$WORK/fs/j" "$DURABILITY" 50
remount
probe read "$WORK/fs/j" "$DURABILITY"
