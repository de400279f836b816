# The rig's baseline without iolab, for scripts/eio-rig.sh with PROBE=plain (docs/RESULTS.md, 2026-11-25 03:04):
#   write FILE PREP: PREP fallocate (8 MiB), zero (8 MiB written and synced) or none; then 4 KiB blocks, block n
#     filled with chr(65 + n % 26), each followed by fdatasync, until 2048 blocks or the first error
#   read FILE: how many blocks from the start are intact
import os
import sys

path, mode = sys.argv[1], sys.argv[2]
if mode == "write":
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    if sys.argv[3] == "fallocate":
        os.posix_fallocate(fd, 0, 8 << 20)
    elif sys.argv[3] == "zero":
        for i in range(2048):
            os.pwrite(fd, bytes(4096), i * 4096)
        os.fsync(fd)
    n = 0
    try:
        while n < 2048:
            os.pwrite(fd, bytes([65 + n % 26]) * 4096, n * 4096)
            os.fdatasync(fd)
            n += 1
    except OSError as e:
        print("failed at block", n, e)
    print("acknowledged blocks", n)
else:
    fd = os.open(path, os.O_RDONLY)
    n = 0
    while True:
        b = os.pread(fd, 4096, n * 4096)
        if len(b) < 4096 or b != bytes([65 + n % 26]) * 4096:
            break
        n += 1
    print("intact blocks after remount", n)
